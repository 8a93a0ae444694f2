// Object ids: git's SHA-1 of an object, as 40 lowercase hex digits in text and 20 raw bytes inside trees. WebCrypto
// for large objects and sha1.ts for small ones, so the same code runs in workerd and Node.
import { toHex } from '../../lib/crypto.ts';
import { sha1 } from './sha1.ts';
import { concatBytes } from './text.ts';

export const OBJECT_TYPES = ['blob', 'tree', 'commit', 'tag'] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];

export const isObjectType = (s: string): s is ObjectType => (OBJECT_TYPES as readonly string[]).includes(s);

const OID = /^[0-9a-f]{40}$/;

/** A full object id as git prints it: 40 lowercase hex digits (abbreviations and upper case are the caller's to resolve). */
export function isOid(s: string): boolean {
  return OID.test(s);
}

export function oidToBytes(oid: string): Uint8Array {
  if (!isOid(oid)) throw new Error(`not an object id: ${JSON.stringify(oid)}`);
  const bytes = new Uint8Array(20);
  for (let i = 0; i < 20; i++) bytes[i] = parseInt(oid.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** The 20 bytes at `offset` (a tree entry's id sits inside the tree's body) as hex. */
export function bytesToOid(bytes: Uint8Array, offset = 0): string {
  if (offset < 0 || offset + 20 > bytes.length) throw new Error('object id runs past the end of the buffer');
  return toHex(bytes.subarray(offset, offset + 20));
}

/** Below this many bytes an object is hashed in JavaScript (sha1.ts): WebCrypto's per-call cost would dominate. */
const SMALL_OBJECT = 16 * 1024;

/** The id git gives `body` stored as `type`: SHA-1 of `"<type> <size>\0"` followed by the body. */
export async function hashObject(type: ObjectType, body: Uint8Array): Promise<string> {
  const data = concatBytes([new TextEncoder().encode(`${type} ${body.length}\0`), body]);
  return toHex(data.length < SMALL_OBJECT ? sha1(data) : await crypto.subtle.digest('SHA-1', data));
}
