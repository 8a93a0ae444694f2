// The pure key reader (functions/deploy-keys/ssh-key.ts): Gitlab::SSHPublicKey.sanitize's rules and the facts read
// from a key, against ssh-keygen's own fingerprints.
import { describe, expect, it } from 'vitest';
import { readPublicKey, sanitizePublicKey } from '../../../functions/deploy-keys/ssh-key.ts';
import { generateKey } from './helpers.ts';

describe('readPublicKey', () => {
  it('reads type, size and both fingerprints as ssh-keygen prints them', async () => {
    for (const [type, bits] of [
      ['ed25519', 256],
      ['rsa', 2048],
      ['ecdsa', 256],
    ] as const) {
      const k = generateKey(type);
      expect(await readPublicKey(k.pub)).toEqual({ type, bits, fingerprint: k.md5, fingerprintSha256: k.sha256 });
    }
  });

  it('is null for what is not one public key', async () => {
    const k = generateKey();
    for (const text of ['', 'ssh-ed25519', k.privateKey, `${k.pub}\n${k.pub}`, k.pub.replace(/^ssh-ed25519/, 'ssh-rsa')])
      expect(await readPublicKey(text)).toBeNull();
  });
});

describe('sanitizePublicKey', () => {
  const k = generateKey('rsa', 'a');
  const [type, blob] = k.pub.split(' ') as [string, string];

  it('keeps type, blob and the first word of the comment', async () => {
    expect(await sanitizePublicKey(`${type} ${blob}`)).toBe(`${type} ${blob}`);
    expect(await sanitizePublicKey(`  ${type} ${blob} one two three \n`)).toBe(`${type} ${blob} one`);
  });

  it('joins a blob broken by whitespace', async () => {
    const broken = blob.match(/.{1,70}/g)!.join('\r\n ');
    expect(await sanitizePublicKey(`${type}\n${broken}\ncomment`)).toBe(`${type} ${blob} comment`);
  });

  it('leaves what never parses as it is, stripped', async () => {
    expect(await sanitizePublicKey('  ssh-rsa AAAA BBBB  ')).toBe('ssh-rsa AAAA BBBB');
    expect(await sanitizePublicKey('single')).toBe('single');
    const long = `${type} ${'A '.repeat(3000)}`;
    expect(await sanitizePublicKey(long)).toBe(long.trim());
  });
});
