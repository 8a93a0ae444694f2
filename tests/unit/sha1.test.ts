// The JavaScript SHA-1 (functions/repositories/git/sha1.ts) against WebCrypto for every length around the padding
// boundaries and random bodies, and hashObject against ids git prints (`git hash-object`).
import { describe, expect, it } from 'vitest';
import { hashObject } from '../../functions/repositories/git/oid.ts';
import { sha1 } from '../../functions/repositories/git/sha1.ts';

const hex = (b: ArrayBuffer | Uint8Array) => Buffer.from(b instanceof Uint8Array ? b : new Uint8Array(b)).toString('hex');

describe('sha1', () => {
  it('equals WebCrypto for lengths 0..300 and random bodies up to 20 KB', async () => {
    const lengths = [...Array.from({ length: 301 }, (_, i) => i), 1000, 4095, 4096, 16383, 16384, 20000];
    for (const n of lengths) {
      const data = new Uint8Array(n);
      for (let i = 0; i < n; i++) data[i] = (i * 7919 + n * 31) & 0xff;
      expect(hex(sha1(data)), `length ${n}`).toBe(hex(await crypto.subtle.digest('SHA-1', data)));
    }
  });

  it("hashObject gives git's ids", async () => {
    expect(await hashObject('blob', new Uint8Array())).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
    expect(await hashObject('tree', new Uint8Array())).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
    expect(await hashObject('blob', new TextEncoder().encode('hello\n'))).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    expect(await hashObject('blob', new Uint8Array(100_000).fill(0x61))).toBe(
      hex(await crypto.subtle.digest('SHA-1', new Uint8Array([...new TextEncoder().encode('blob 100000\0'), ...new Uint8Array(100_000).fill(0x61)]))),
    );
  });
});
