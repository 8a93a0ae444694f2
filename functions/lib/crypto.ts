// Random tokens, SHA-256 digests, constant-time comparison and password hashing, on WebCrypto only so the same
// code runs in workerd and Node.

const encoder = new TextEncoder();

function toHex(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let out = '';
  for (const b of view) out += b.toString(16).padStart(2, '0');
  return out;
}

function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** 32 random bytes, base64url, behind a prefix (`glpat-` like GitLab's, so secret scanners recognise it). */
export function randomToken(prefix = ''): string {
  return prefix + toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** Hex SHA-256 of a token: what is stored and looked up, never the token itself. */
export async function sha256Hex(value: string): Promise<string> {
  return toHex(await crypto.subtle.digest('SHA-256', encoder.encode(value)));
}

/** Hex HMAC-SHA256 of `message` under `key`: a value only a holder of the key can make. */
export async function hmacSha256Hex(key: string, message: string): Promise<string> {
  const hmacKey = await crypto.subtle.importKey('raw', encoder.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return toHex(await crypto.subtle.sign('HMAC', hmacKey, encoder.encode(message)));
}

/** Constant-time equality of two strings: both sides are hashed first so lengths never leak. */
export async function constantTimeEqual(a: string, b: string): Promise<boolean> {
  const [da, db] = await Promise.all([crypto.subtle.digest('SHA-256', encoder.encode(a)), crypto.subtle.digest('SHA-256', encoder.encode(b))]);
  const x = new Uint8Array(da);
  const y = new Uint8Array(db);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}

// PBKDF2-SHA256 at 100,000 iterations: the most workerd's WebCrypto allows in production. The format is versioned
// (`pbkdf2-sha256$<iterations>$<salt>$<hash>`) so it can be upgraded on sign-in later.
const PASSWORD_ITERATIONS = 100_000;
const MAX_ITERATIONS = 100_000;

async function pbkdf2(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, 256);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await pbkdf2(password, salt, PASSWORD_ITERATIONS);
  return `pbkdf2-sha256$${PASSWORD_ITERATIONS}$${toBase64Url(salt)}$${toBase64Url(hash)}`;
}

// Verifying against this when the user does not exist makes "no such user" cost the same as "wrong password".
const DUMMY_HASH = 'pbkdf2-sha256$100000$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored ?? DUMMY_HASH).split('$');
  const iterations = Number(parts[1]);
  // A crafted stored hash must not make us spin: only the iteration counts we write are accepted.
  if (parts.length !== 4 || parts[0] !== 'pbkdf2-sha256' || !Number.isInteger(iterations) || iterations < 1 || iterations > MAX_ITERATIONS) {
    return false;
  }
  const expected = fromBase64Url(parts[3]!);
  const actual = await pbkdf2(password, fromBase64Url(parts[2]!), iterations);
  let diff = expected.length ^ actual.length;
  for (let i = 0; i < actual.length; i++) diff |= actual[i]! ^ (expected[i] ?? 0);
  return diff === 0 && stored != null;
}

export { toHex };
