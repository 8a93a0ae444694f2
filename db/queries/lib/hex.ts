// Bytes as hex text and back, for bytea: neon-http sends and answers bytea as hex text anyway, and PGlite's own
// bytea (de)serialization costs ~0.3 to 0.5 s a MiB, several times the hex round trip through these two.

const HEX = new TextEncoder().encode('0123456789abcdef');
// Hex digits are ASCII, which UTF-8 decodes as is (the one encoding every runtime's TextDecoder has).
const ascii = new TextDecoder();

/** Lower-case hex of `bytes`, written as ASCII bytes and decoded once (a per-byte string build costs seconds a MiB). */
export function toHexText(bytes: Uint8Array): string {
  const out = new Uint8Array(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) {
    out[i * 2] = HEX[bytes[i]! >> 4]!;
    out[i * 2 + 1] = HEX[bytes[i]! & 15]!;
  }
  return ascii.decode(out);
}

/** The value of each hex digit's char code (either case). */
const NIBBLE = new Uint8Array(128);
for (let i = 0; i < 16; i++) {
  NIBBLE['0123456789abcdef'.charCodeAt(i)] = i;
  NIBBLE['0123456789ABCDEF'.charCodeAt(i)] = i;
}

/** The bytes of hex text (`encode(x, 'hex')`), from `offset` (2 skips bytea's `\x`). */
export function fromHexText(text: string, offset = 0): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array((text.length - offset) >> 1);
  for (let i = 0, at = offset; i < out.length; i++, at += 2) out[i] = (NIBBLE[text.charCodeAt(at)]! << 4) | NIBBLE[text.charCodeAt(at + 1)]!;
  return out;
}
