import { describe, expect, it } from 'vitest';
import { DomainError } from '../../functions/lib/errors.ts';
import { restError } from '../../functions/rest-errors.ts';
import {
  DecryptionError,
  decryptSecret,
  EncryptionKeyError,
  encryptSecret,
  importEncryptionKey,
  requireEncryptionKey,
} from '../../functions/lib/encryption.ts';

const KEY = btoa(String.fromCharCode(...Array.from({ length: 32 }, (_, i) => i)));
const OTHER_KEY = btoa(String.fromCharCode(...Array.from({ length: 32 }, (_, i) => 255 - i)));

const bytesOf = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
const b64Of = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

describe('encryption (AES-256-GCM, base64(iv ‖ ciphertext))', () => {
  it('round-trips, including non-ASCII and empty text', async () => {
    const key = await importEncryptionKey(KEY);
    for (const text of ['sntrys_abc123', '', 'tökén ✓ 🔑', 'x'.repeat(5000)]) {
      const sealed = await encryptSecret(key, text);
      expect(sealed).not.toContain(text || '\u0000');
      expect(await decryptSecret(key, sealed)).toBe(text);
    }
  });

  it('stores a 12-byte IV, then the ciphertext and its 16-byte tag', async () => {
    const key = await importEncryptionKey(KEY);
    const sealed = bytesOf(await encryptSecret(key, 'secret'));
    expect(sealed.length).toBe(12 + 'secret'.length + 16);
  });

  it('uses a fresh IV each time: the same text never encrypts the same way', async () => {
    const key = await importEncryptionKey(KEY);
    const sealed = await Promise.all(Array.from({ length: 50 }, () => encryptSecret(key, 'same token')));
    expect(new Set(sealed).size).toBe(50);
    expect(new Set(sealed.map((s) => b64Of(bytesOf(s).slice(0, 12)))).size).toBe(50);
  });

  it('refuses a tampered ciphertext, IV or tag, and a truncated or non-base64 value', async () => {
    const key = await importEncryptionKey(KEY);
    const sealed = bytesOf(await encryptSecret(key, 'secret token'));
    for (const index of [0, 11, 12, sealed.length - 17, sealed.length - 1]) {
      const tampered = sealed.slice();
      tampered[index]! ^= 0x01;
      await expect(decryptSecret(key, b64Of(tampered))).rejects.toBeInstanceOf(DecryptionError);
    }
    await expect(decryptSecret(key, b64Of(sealed.slice(0, 20)))).rejects.toBeInstanceOf(DecryptionError);
    await expect(decryptSecret(key, '!!not base64!!')).rejects.toBeInstanceOf(DecryptionError);
  });

  it('refuses another key, and another context (a ciphertext moved to another row)', async () => {
    const key = await importEncryptionKey(KEY);
    const sealed = await encryptSecret(key, 'secret', 'row:1');
    expect(await decryptSecret(key, sealed, 'row:1')).toBe('secret');
    await expect(decryptSecret(key, sealed, 'row:2')).rejects.toBeInstanceOf(DecryptionError);
    await expect(decryptSecret(key, sealed)).rejects.toBeInstanceOf(DecryptionError);
    await expect(decryptSecret(await importEncryptionKey(OTHER_KEY), sealed, 'row:1')).rejects.toBeInstanceOf(DecryptionError);
  });

  it('wants exactly 32 bytes of base64 as the key', async () => {
    await expect(importEncryptionKey(undefined)).rejects.toEqual(new EncryptionKeyError('missing'));
    await expect(importEncryptionKey('')).rejects.toEqual(new EncryptionKeyError('missing'));
    await expect(importEncryptionKey(btoa('short'))).rejects.toEqual(new EncryptionKeyError('invalid'));
    await expect(importEncryptionKey('not base64 at all!')).rejects.toEqual(new EncryptionKeyError('invalid'));
  });

  it('requireEncryptionKey: 503 naming the missing configuration (never its value)', async () => {
    const error = await requireEncryptionKey(undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(restError(error as DomainError).status).toBe(503);
    expect(restError(error as DomainError).body).toEqual({ message: '503 Service Unavailable - ENCRYPTION_KEY is not configured' });
    const invalid = (await requireEncryptionKey(btoa('short')).catch((e: unknown) => e)) as DomainError;
    expect(restError(invalid).body).toEqual({ message: '503 Service Unavailable - ENCRYPTION_KEY is not 32 bytes of base64' });
  });
});
