// The hand-written MD5 (functions/lib/md5.ts) against RFC 1321's test suite and Node's OpenSSL digest, across the
// padding boundaries (55/56/63/64 bytes) and seeded random inputs.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { md5 } from '../../../functions/lib/md5.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const text = (s: string) => new TextEncoder().encode(s);

describe('md5', () => {
  it("matches RFC 1321's test suite", () => {
    expect(hex(md5(text('')))).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(hex(md5(text('a')))).toBe('0cc175b9c0f1b6a831c399e269772661');
    expect(hex(md5(text('abc')))).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(hex(md5(text('message digest')))).toBe('f96b697d7cb7938d525a2f31aaf161d0');
    expect(hex(md5(text('abcdefghijklmnopqrstuvwxyz')))).toBe('c3fcd3d76192e4007dfb496cca67e13b');
    expect(hex(md5(text('12345678901234567890123456789012345678901234567890123456789012345678901234567890')))).toBe('57edf4a22be3c955ac49da2e2107b67a');
  });

  it('equals OpenSSL at every padding boundary and for random inputs', () => {
    for (const n of [55, 56, 57, 63, 64, 65, 119, 120, 128, 1000]) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 31 + 7) & 0xff);
      expect(hex(md5(data))).toBe(createHash('md5').update(data).digest('hex'));
    }
    let seed = 20261124;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
    for (let run = 0; run < 200; run++) {
      const data = Uint8Array.from({ length: next() * 3 }, next);
      expect(hex(md5(data))).toBe(createHash('md5').update(data).digest('hex'));
    }
  });
});
