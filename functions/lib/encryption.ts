// Secrets the service must read back (error-tracking auth tokens), encrypted at rest with AES-256-GCM on WebCrypto
// (the same code in workerd and Node). The key is the ENCRYPTION_KEY secret: 32 random bytes, base64. A stored
// value is base64(iv ‖ ciphertext ‖ tag) with a fresh 96-bit IV per encryption. An optional `context` is bound as
// GCM additional data, so a ciphertext copied to another row (another project) does not decrypt there.
import { unavailable } from './errors.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const IV_BYTES = 12;
const TAG_BYTES = 16;

function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const bin = atob(text);
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** Why the instance cannot encrypt: the key is absent or is not 32 bytes of base64. */
export class EncryptionKeyError extends Error {
  constructor(readonly reason: 'missing' | 'invalid') {
    super(reason === 'missing' ? 'ENCRYPTION_KEY is not configured' : 'ENCRYPTION_KEY is not 32 bytes of base64');
    this.name = 'EncryptionKeyError';
  }
}

/** The stored value does not decrypt with this key and context (tampered, truncated, wrong key or wrong row). */
export class DecryptionError extends Error {
  constructor() {
    super('the stored secret does not decrypt');
    this.name = 'DecryptionError';
  }
}

/** Imports ENCRYPTION_KEY (base64 of 32 bytes) as an AES-GCM key usable for encrypt and decrypt only. */
export async function importEncryptionKey(base64: string | undefined): Promise<CryptoKey> {
  if (!base64) throw new EncryptionKeyError('missing');
  let raw: Uint8Array<ArrayBuffer>;
  try {
    raw = fromBase64(base64.trim());
  } catch {
    throw new EncryptionKeyError('invalid');
  }
  if (raw.length !== 32) throw new EncryptionKeyError('invalid');
  return crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
}

const additionalData = (context: string | undefined) => (context === undefined ? {} : { additionalData: encoder.encode(context) });

/** base64(iv ‖ AES-GCM ciphertext with its tag) of `plaintext`. */
export async function encryptSecret(key: CryptoKey, plaintext: string, context?: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, ...additionalData(context) }, key, encoder.encode(plaintext)));
  const out = new Uint8Array(IV_BYTES + sealed.length);
  out.set(iv, 0);
  out.set(sealed, IV_BYTES);
  return toBase64(out);
}

/** The plaintext of a value made by encryptSecret with the same key and context; DecryptionError otherwise. */
export async function decryptSecret(key: CryptoKey, stored: string, context?: string): Promise<string> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = fromBase64(stored);
  } catch {
    throw new DecryptionError();
  }
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new DecryptionError();
  try {
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.slice(0, IV_BYTES), ...additionalData(context) }, key, bytes.slice(IV_BYTES));
    return decoder.decode(plain);
  } catch {
    throw new DecryptionError();
  }
}

/**
 * The instance's key for a request, or 503 naming the missing configuration: a deployment without ENCRYPTION_KEY
 * is misconfigured, not broken, and the operator needs to know which secret to set (its value is never shown).
 */
export async function requireEncryptionKey(configured: string | undefined): Promise<CryptoKey> {
  try {
    return await importEncryptionKey(configured);
  } catch (error) {
    if (error instanceof EncryptionKeyError) throw unavailable(error.message);
    throw error;
  }
}
