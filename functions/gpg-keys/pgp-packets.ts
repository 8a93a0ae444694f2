// OpenPGP (RFC 4880, v4 keys and signatures) read by hand, checked with WebCrypto. Written here instead of using
// openpgp.js (DESIGN.md "Libraries before hand-written code": a library may be replaced when it breaks the bundle
// budget): its 372 KiB of code put the Worker's cold start at the 13x ceiling `npm run build` enforces, for one rarely
// called endpoint, and workerd compiles every uploaded byte at each isolate start. What is needed is small: ASCII
// armor, the packet framing, public key packets (fingerprint and key id), user ids, and signature packets with their
// subpackets; checking a signature is WebCrypto's (RSASSA-PKCS1-v1_5, ECDSA P-256/384/521, Ed25519). DSA, ElGamal
// and SHA-224 have no WebCrypto algorithm: such a signature does not verify. MD5, RIPEMD-160 and SHA-1 digests are
// refused (forgeable), as openpgp.js refuses them.

import { concatBytes } from '../repositories/git/text.ts';

/** The bytes of an armored block of this kind (`PUBLIC KEY BLOCK`, `SIGNATURE`), null when it is not one. */
export function dearmor(armored: string, kind: string): Uint8Array | null {
  const m = new RegExp(`-----BEGIN PGP ${kind}-----\\r?\\n([\\s\\S]*?)-----END PGP ${kind}-----`).exec(armored);
  if (!m) return null;
  const lines = m[1]!.split(/\r?\n/);
  // Armor headers (`Version: ...`) end at the first blank line; a block without headers may start at once.
  const blank = lines.findIndex((l) => l.trim() === '');
  const hasHeaders = lines.slice(0, Math.max(blank, 0)).every((l) => /^[\w-]+: /.test(l));
  const body = (blank >= 0 && hasHeaders ? lines.slice(blank + 1) : lines).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('='));
  const text = body.join('');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

export interface Packet {
  tag: number;
  body: Uint8Array;
}

/** The packets of a binary stream (old and new framing; partial lengths are for data packets, not keys: refused). */
export function readPackets(bytes: Uint8Array): Packet[] | null {
  const packets: Packet[] = [];
  let at = 0;
  while (at < bytes.length) {
    const head = bytes[at++]!;
    if ((head & 0x80) === 0) return null;
    let tag: number;
    let length: number;
    if (head & 0x40) {
      tag = head & 0x3f;
      const first = bytes[at++];
      if (first === undefined) return null;
      if (first < 192) length = first;
      else if (first < 224) length = ((first - 192) << 8) + (bytes[at++] ?? 0) + 192;
      else if (first === 255) {
        length = ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
        at += 4;
      } else return null;
    } else {
      tag = (head >> 2) & 0x0f;
      const type = head & 3;
      if (type === 3) return null;
      const size = [1, 2, 4][type]!;
      length = 0;
      for (let i = 0; i < size; i++) length = length * 256 + (bytes[at++] ?? 0);
    }
    if (at + length > bytes.length) return null;
    packets.push({ tag, body: bytes.subarray(at, at + length) });
    at += length;
  }
  return packets;
}

const hex = (b: Uint8Array) =>
  Array.from(b, (x) => x.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();

/** An MPI at `at`: its magnitude bytes and where the next field starts. */
function mpi(body: Uint8Array, at: number): { value: Uint8Array; next: number } | null {
  if (at + 2 > body.length) return null;
  const bits = (body[at]! << 8) | body[at + 1]!;
  const len = (bits + 7) >> 3;
  if (at + 2 + len > body.length) return null;
  return { value: body.subarray(at + 2, at + 2 + len), next: at + 2 + len };
}

const OIDS: Record<string, 'P-256' | 'P-384' | 'P-521' | 'Ed25519'> = {
  '2a8648ce3d030107': 'P-256',
  '2b81040022': 'P-384',
  '2b81040023': 'P-521',
  '2b06010401da470f01': 'Ed25519',
};

export type KeyMaterial =
  | { kind: 'rsa'; n: Uint8Array; e: Uint8Array }
  | { kind: 'ecdsa'; curve: 'P-256' | 'P-384' | 'P-521'; point: Uint8Array }
  | { kind: 'ed25519'; point: Uint8Array }
  | { kind: 'unsupported' };

export interface PublicKeyPacket {
  /** The packet body as stored (what fingerprints and certifications hash). */
  body: Uint8Array;
  fingerprint: string;
  keyid: string;
  material: KeyMaterial;
}

/** A v4 public key or subkey packet's body; null for other versions. */
export async function readPublicKeyPacket(body: Uint8Array): Promise<PublicKeyPacket | null> {
  if (body[0] !== 4 || body.length < 6) return null;
  const algorithm = body[5]!;
  let material: KeyMaterial = { kind: 'unsupported' };
  if (algorithm === 1 || algorithm === 3) {
    const n = mpi(body, 6);
    const e = n && mpi(body, n.next);
    if (!n || !e) return null;
    material = { kind: 'rsa', n: n.value, e: e.value };
  } else if (algorithm === 19 || algorithm === 22) {
    const oidLength = body[6] ?? 0;
    const curve = OIDS[hex(body.subarray(7, 7 + oidLength)).toLowerCase()];
    const point = mpi(body, 7 + oidLength);
    if (!point) return null;
    if (algorithm === 22 && curve === 'Ed25519' && point.value[0] === 0x40 && point.value.length === 33)
      material = { kind: 'ed25519', point: point.value.subarray(1) };
    else if (algorithm === 19 && curve && curve !== 'Ed25519' && point.value[0] === 0x04) material = { kind: 'ecdsa', curve, point: point.value };
  } else if (algorithm === 27 && body.length === 6 + 32) material = { kind: 'ed25519', point: body.subarray(6) };
  const framed = new Uint8Array(3 + body.length);
  framed.set([0x99, body.length >> 8, body.length & 0xff]);
  framed.set(body, 3);
  const fingerprint = new Uint8Array(await crypto.subtle.digest('SHA-1', own(framed)));
  return { body, fingerprint: hex(fingerprint), keyid: hex(fingerprint.subarray(12)), material };
}

export interface SignaturePacket {
  type: number;
  publicKeyAlgorithm: number;
  hashAlgorithm: number;
  /** Version to hashed subpackets: what is hashed after the signed data, before the trailer. */
  hashedPart: Uint8Array;
  issuerFingerprint: string | null;
  issuerKeyid: string | null;
  /** The algorithm-specific MPIs. */
  values: Uint8Array[];
}

/** A v4 signature packet's body; null for other versions or a malformed one. */
export function readSignaturePacket(body: Uint8Array): SignaturePacket | null {
  if (body[0] !== 4 || body.length < 6) return null;
  const hashedLength = (body[4]! << 8) | body[5]!;
  const hashedEnd = 6 + hashedLength;
  if (hashedEnd + 2 > body.length) return null;
  const unhashedLength = (body[hashedEnd]! << 8) | body[hashedEnd + 1]!;
  const unhashedEnd = hashedEnd + 2 + unhashedLength;
  if (unhashedEnd + 2 > body.length) return null;
  let issuerFingerprint: string | null = null;
  let issuerKeyid: string | null = null;
  // Subpackets: the issuer's fingerprint (33: version, then the fingerprint) and key id (16), hashed or not.
  for (const [from, to] of [
    [6, hashedEnd],
    [hashedEnd + 2, unhashedEnd],
  ] as const) {
    let at = from;
    while (at < to) {
      const first = body[at++]!;
      let length: number;
      if (first < 192) length = first;
      else if (first < 255) length = ((first - 192) << 8) + body[at++]! + 192;
      else {
        length = ((body[at]! << 24) | (body[at + 1]! << 16) | (body[at + 2]! << 8) | body[at + 3]!) >>> 0;
        at += 4;
      }
      if (length < 1 || at + length > to) return null;
      const type = body[at]! & 0x7f;
      const data = body.subarray(at + 1, at + length);
      if (type === 33 && data.length === 21) issuerFingerprint ??= hex(data.subarray(1));
      if (type === 16 && data.length === 8) issuerKeyid ??= hex(data);
      at += length;
    }
  }
  const values: Uint8Array[] = [];
  let at = unhashedEnd + 2;
  while (at < body.length) {
    const value = mpi(body, at);
    if (!value) return null;
    values.push(value.value);
    at = value.next;
  }
  if (!issuerKeyid && issuerFingerprint) issuerKeyid = issuerFingerprint.slice(-16);
  return {
    type: body[1]!,
    publicKeyAlgorithm: body[2]!,
    hashAlgorithm: body[3]!,
    hashedPart: body.subarray(0, hashedEnd),
    issuerFingerprint,
    issuerKeyid,
    values,
  };
}

const HASHES: Record<number, 'SHA-256' | 'SHA-384' | 'SHA-512'> = { 8: 'SHA-256', 9: 'SHA-384', 10: 'SHA-512' };
const FIELD_BYTES = { 'P-256': 32, 'P-384': 48, 'P-521': 66 } as const;

const padded = (value: Uint8Array, size: number) => {
  if (value.length > size) return null;
  const out = new Uint8Array(size);
  out.set(value, size - value.length);
  return out;
};

/** A copy on its own ArrayBuffer (WebCrypto's BufferSource). */
const own = (b: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(b);

const base64url = (b: Uint8Array) =>
  btoa(String.fromCharCode(...b))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** Whether `signature` (over `signed`: the data, or the framed key and user id of a certification) verifies with `key`. */
export async function verifySignature(signature: SignaturePacket, signed: Uint8Array, key: KeyMaterial): Promise<boolean> {
  const hash = HASHES[signature.hashAlgorithm];
  if (!hash || key.kind === 'unsupported') return false;
  const h = signature.hashedPart;
  const trailer = new Uint8Array([0x04, 0xff, (h.length >>> 24) & 0xff, (h.length >>> 16) & 0xff, (h.length >>> 8) & 0xff, h.length & 0xff]);
  const message = concatBytes([signed, h, trailer]);
  try {
    if (key.kind === 'rsa' && (signature.publicKeyAlgorithm === 1 || signature.publicKeyAlgorithm === 3)) {
      const s = signature.values[0] && padded(signature.values[0], key.n.length);
      if (!s) return false;
      const k = await crypto.subtle.importKey('jwk', { kty: 'RSA', n: base64url(key.n), e: base64url(key.e) }, { name: 'RSASSA-PKCS1-v1_5', hash }, false, [
        'verify',
      ]);
      return await crypto.subtle.verify('RSASSA-PKCS1-v1_5', k, own(s), message);
    }
    if (key.kind === 'ecdsa' && signature.publicKeyAlgorithm === 19) {
      const size = FIELD_BYTES[key.curve];
      const [r, s] = signature.values.map((v) => padded(v, size));
      if (!r || !s) return false;
      const k = await crypto.subtle.importKey('raw', own(key.point), { name: 'ECDSA', namedCurve: key.curve }, false, ['verify']);
      return await crypto.subtle.verify({ name: 'ECDSA', hash }, k, concatBytes([r, s]), message);
    }
    if (key.kind === 'ed25519' && (signature.publicKeyAlgorithm === 22 || signature.publicKeyAlgorithm === 27)) {
      const [r, s] = signature.values.map((v) => padded(v, 32));
      if (!r || !s) return false;
      // EdDSA signs the digest, not the message (RFC 4880bis 5.2.4).
      const digest = new Uint8Array(await crypto.subtle.digest(hash, message));
      const k = await crypto.subtle.importKey('raw', own(key.point), { name: 'Ed25519' }, false, ['verify']);
      return await crypto.subtle.verify({ name: 'Ed25519' }, k, concatBytes([r, s]), digest);
    }
  } catch {
    return false;
  }
  return false;
}

/** What a certification hashes: the key framed as for its fingerprint, then the user id framed (0xB4, 4-byte length). */
export function certifiedBytes(key: PublicKeyPacket, userId: Uint8Array): Uint8Array {
  const k = key.body;
  return concatBytes([
    new Uint8Array([0x99, k.length >> 8, k.length & 0xff]),
    k,
    new Uint8Array([0xb4, (userId.length >>> 24) & 0xff, (userId.length >>> 16) & 0xff, (userId.length >>> 8) & 0xff, userId.length & 0xff]),
    userId,
  ]);
}
