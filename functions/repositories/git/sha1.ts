// SHA-1 in plain JavaScript, for the small objects a commit writes by the thousand (trees of a few entries):
// WebCrypto's digest is a promise per call whose fixed cost (~20 us) is ten times the hashing of a small tree, and a
// deep commit hashes each of its trees twice (built, then stored). Written by hand because it is tiny (FIPS 180-4,
// section 6.1) and no hashing library is in the bundle; large bodies still go to WebCrypto (oid.ts).

const W = new Uint32Array(80);

/** The SHA-1 digest of `data`, 20 bytes. */
export function sha1(data: Uint8Array): Uint8Array {
  const bitLength = data.length * 8;
  // The message, a 1 bit, zeros, and its length in bits as 64 bits: a multiple of 64 bytes.
  const padded = new Uint8Array((((data.length + 8) >> 6) + 1) << 6);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 0x100000000));
  view.setUint32(padded.length - 4, bitLength >>> 0);

  let h0 = 0x67452301;
  let h1 = 0xefcdab89;
  let h2 = 0x98badcfe;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0;
  for (let block = 0; block < padded.length; block += 64) {
    for (let t = 0; t < 16; t++) W[t] = view.getUint32(block + t * 4);
    for (let t = 16; t < 80; t++) {
      const x = W[t - 3]! ^ W[t - 8]! ^ W[t - 14]! ^ W[t - 16]!;
      W[t] = (x << 1) | (x >>> 31);
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    for (let t = 0; t < 80; t++) {
      const f = t < 20 ? (b & c) | (~b & d) : t < 40 ? b ^ c ^ d : t < 60 ? (b & c) | (b & d) | (c & d) : b ^ c ^ d;
      const k = t < 20 ? 0x5a827999 : t < 40 ? 0x6ed9eba1 : t < 60 ? 0x8f1bbcdc : 0xca62c1d6;
      const temp = (((a << 5) | (a >>> 27)) + f + e + k + W[t]!) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = temp;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  const out = new Uint8Array(20);
  const outView = new DataView(out.buffer);
  [h0, h1, h2, h3, h4].forEach((h, i) => outView.setUint32(i * 4, h >>> 0));
  return out;
}
