// CRC-32 (IEEE 802.3, the polynomial of zlib's crc32 and Ruby's Zlib.crc32), for Flipper's percentage-of-actors
// bucketing. Hand-written because it is a dozen lines and the Worker bundle uses no Node.js built-ins (node:zlib's
// crc32 is not available there) and no CRC package is among the dependencies.
const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 of the UTF-8 bytes of `text`, as an unsigned 32-bit integer (Ruby's `Zlib.crc32(text)`). */
export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of new TextEncoder().encode(text)) crc = TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
