// lib/crypto.ts: random tokens, digests, constant-time comparison, password hashing (WebCrypto only).
import { describe, expect, it } from 'vitest';
import { constantTimeEqual, hashPassword, randomToken, sha256Hex, toHex, verifyPassword } from '../../functions/lib/crypto.ts';

describe('randomToken', () => {
  it('is 32 random bytes in base64url behind the prefix', () => {
    const token = randomToken('glpat-');
    expect(token).toMatch(/^glpat-[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const many = new Set(Array.from({ length: 200 }, () => randomToken()));
    expect(many.size).toBe(200);
  });
});

describe('sha256Hex', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    // UTF-8 bytes are digested, as Ruby's Digest::SHA256 does for GitLab's token_digest.
    ['ünï', 'e975a52994d88fc7c7bf16c547779c6d0e3cd954f3bdacba332c8858a5ff4d58'],
  ])('%j', async (input, digest) => expect(await sha256Hex(input)).toBe(digest));

  it('digests differ for different tokens and never contain the token', async () => {
    const token = randomToken('glpat-');
    const digest = await sha256Hex(token);
    expect(digest).not.toContain(token.slice(6));
    expect(digest).not.toBe(await sha256Hex(`${token}x`));
    expect(digest).toBe(await sha256Hex(token));
  });

  it('toHex pads every byte', () => {
    expect(toHex(new Uint8Array([0, 1, 15, 16, 255]))).toBe('00010f10ff');
  });
});

describe('constantTimeEqual', () => {
  it.each([
    ['same', 'same', true],
    ['same', 'Same', false],
    ['short', 'a much longer string', false],
    ['', '', true],
    ['', 'x', false],
  ])('%j vs %j: %s', async (a, b, expected) => expect(await constantTimeEqual(a, b)).toBe(expected));
});

describe('hashPassword / verifyPassword', () => {
  it('hashes with a versioned, salted PBKDF2 format and verifies', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^pbkdf2-sha256\$100000\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(hash).not.toContain('correct horse');
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horsE', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('salts: the same password hashes differently each time', async () => {
    const [a, b] = await Promise.all([hashPassword('same'), hashPassword('same')]);
    expect(a).not.toBe(b);
    expect(await verifyPassword('same', b)).toBe(true);
  });

  it.each([
    ['no stored hash', null],
    ['undefined', undefined],
    ['another scheme', 'bcrypt$10$abc$def'],
    ['too many iterations', 'pbkdf2-sha256$100000000$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['zero iterations', 'pbkdf2-sha256$0$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['missing parts', 'pbkdf2-sha256$100000$AAAA'],
  ])('refuses %s', async (_title, stored) => {
    expect(await verifyPassword('anything', stored)).toBe(false);
  });
});
