// SHA-1 in plain JavaScript, for the small objects a commit writes by the thousand (trees of a few entries):
// WebCrypto's digest is a promise per call whose fixed cost (~20 us) is ten times the hashing of a small tree, and a
// deep commit hashes each of its trees twice (built, then stored). Incremental too, for a pack's trailer (the SHA-1
// of every byte of a pack streamed in pieces; WebCrypto's digest is one-shot). Written by hand because it is tiny
// (FIPS 180-4, section 6.1) and no hashing library is in the bundle; large bodies still go to WebCrypto (oid.ts).

const W = new Uint32Array(80);

/** SHA-1 over bytes given in pieces: `update` as often as needed, then `digest` once. */
export class Sha1 {
  private readonly h = new Int32Array([0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476, 0xc3d2e1f0 | 0]);
  private readonly block = new Uint8Array(64);
  private readonly view = new DataView(this.block.buffer);
  private filled = 0;
  private length = 0;

  update(data: Uint8Array): this {
    this.length += data.length;
    let at = 0;
    if (this.filled) {
      const take = Math.min(64 - this.filled, data.length);
      this.block.set(data.subarray(0, take), this.filled);
      this.filled += take;
      at = take;
      if (this.filled < 64) return this;
      this.compress(this.view, 0);
      this.filled = 0;
    }
    const whole = new DataView(data.buffer, data.byteOffset, data.byteLength);
    for (; at + 64 <= data.length; at += 64) this.compress(whole, at);
    this.block.set(data.subarray(at));
    this.filled = data.length - at;
    return this;
  }

  digest(): Uint8Array {
    const bitLength = this.length * 8;
    // The message, a 1 bit, zeros, and its length in bits as 64 bits: a multiple of 64 bytes.
    const pad = new Uint8Array((this.filled < 56 ? 56 : 120) - this.filled + 8);
    pad[0] = 0x80;
    const tail = new DataView(pad.buffer);
    tail.setUint32(pad.length - 8, Math.floor(bitLength / 0x100000000));
    tail.setUint32(pad.length - 4, bitLength >>> 0);
    this.update(pad);
    const out = new Uint8Array(20);
    const outView = new DataView(out.buffer);
    this.h.forEach((h, i) => outView.setUint32(i * 4, h >>> 0));
    return out;
  }

  private compress(view: DataView, offset: number) {
    for (let t = 0; t < 16; t++) W[t] = view.getUint32(offset + t * 4);
    for (let t = 16; t < 80; t++) {
      const x = W[t - 3]! ^ W[t - 8]! ^ W[t - 14]! ^ W[t - 16]!;
      W[t] = (x << 1) | (x >>> 31);
    }
    const h = this.h;
    let a = h[0]!;
    let b = h[1]!;
    let c = h[2]!;
    let d = h[3]!;
    let e = h[4]!;
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
    h[0] = (h[0]! + a) | 0;
    h[1] = (h[1]! + b) | 0;
    h[2] = (h[2]! + c) | 0;
    h[3] = (h[3]! + d) | 0;
    h[4] = (h[4]! + e) | 0;
  }
}

/** The SHA-1 digest of `data`, 20 bytes. */
export function sha1(data: Uint8Array): Uint8Array {
  return new Sha1().update(data).digest();
}
