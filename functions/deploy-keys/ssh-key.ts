// An OpenSSH public key read as GitLab's Gitlab::SSHPublicKey reads it: its type, size and fingerprints, and the
// sanitized text GitLab stores. The key line (`<type> <base64 blob> [comment]`) and the blob's wire format (RFC 4253
// §6.6, RFC 5656 §3.1, RFC 8709 §4) are read here by hand: sshpk (considered, and used at first) is CommonJS over
// Node built-ins and with its dependencies added ~175 KiB that every cold start compiled (+9 ms of the 115 ms
// ceiling), for the four key layouts below.
import { md5 } from '../lib/md5.ts';

/** Gitlab::SSHPublicKey's supported types in 13.6 (the *-sk types came later). */
export const SUPPORTED_TYPES = ['rsa', 'dsa', 'ecdsa', 'ed25519'] as const;
export type SshKeyType = (typeof SUPPORTED_TYPES)[number];

export interface PublicKeyFacts {
  type: SshKeyType;
  bits: number;
  /** MD5 of the key blob as colon-separated hex (`ssh-keygen -E md5` without its `MD5:`). */
  fingerprint: string;
  /** SHA-256 of the blob, unpadded base64 (`ssh-keygen -E sha256` without its `SHA256:`). */
  fingerprintSha256: string;
}

/** The blob's fields after its type name, per algorithm; the size in bits from them. */
const LAYOUTS: Record<string, { type: SshKeyType; read: (r: WireReader) => number }> = {
  // e, n
  'ssh-rsa': { type: 'rsa', read: (r) => r.mpints(2)[1]! },
  // p, q, g, y
  'ssh-dss': { type: 'dsa', read: (r) => r.mpints(4)[0]! },
  'ecdsa-sha2-nistp256': { type: 'ecdsa', read: (r) => ecdsa(r, 'nistp256', 256) },
  'ecdsa-sha2-nistp384': { type: 'ecdsa', read: (r) => ecdsa(r, 'nistp384', 384) },
  'ecdsa-sha2-nistp521': { type: 'ecdsa', read: (r) => ecdsa(r, 'nistp521', 521) },
  'ssh-ed25519': { type: 'ed25519', read: (r) => (r.string().length === 32 ? 256 : Number.NaN) },
};

/** An uncompressed point of the named curve (0x04 || x || y). */
function ecdsa(r: WireReader, curve: string, bits: number): number {
  if (new TextDecoder().decode(r.string()) !== curve) return Number.NaN;
  const q = r.string();
  return q[0] === 4 && q.length === 1 + 2 * Math.ceil(bits / 8) ? bits : Number.NaN;
}

/** Bits of a non-negative mpint (a leading zero byte keeps its sign positive). */
function bitLength(n: Uint8Array): number {
  if (n.length && n[0]! & 0x80) throw new Error('negative');
  let i = 0;
  while (i < n.length && n[i] === 0) i++;
  return i === n.length ? 0 : (n.length - i - 1) * 8 + (32 - Math.clz32(n[i]!));
}

class WireReader {
  private at = 0;
  constructor(private readonly bytes: Uint8Array) {}
  string(): Uint8Array {
    if (this.at + 4 > this.bytes.length) throw new Error('truncated');
    const length = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.at, 4).getUint32(0);
    const start = this.at + 4;
    if (start + length > this.bytes.length) throw new Error('truncated');
    this.at = start + length;
    return this.bytes.subarray(start, this.at);
  }
  /** `count` mpints, as their sizes in bits. */
  mpints(count: number): number[] {
    return Array.from({ length: count }, () => bitLength(this.string()));
  }
  get done() {
    return this.at === this.bytes.length;
  }
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The key's facts, or null when the text is not one OpenSSH public key of a supported type. */
export async function readPublicKey(text: string): Promise<PublicKeyFacts | null> {
  const line = text.trim();
  // One key is one line: type, blob, and a comment that may hold spaces.
  if (/[\r\n]/.test(line)) return null;
  const [name, encoded] = line.split(/\s+/);
  const layout = name !== undefined && Object.hasOwn(LAYOUTS, name) ? LAYOUTS[name] : undefined;
  if (!layout || !encoded || !BASE64.test(encoded)) return null;
  const blob = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  let bits: number;
  try {
    const reader = new WireReader(blob);
    // The blob names its own type; a blob of another type under this name is not this key.
    if (new TextDecoder().decode(reader.string()) !== name) return null;
    bits = layout.read(reader);
    if (!reader.done || !(bits > 0)) return null;
  } catch {
    return null;
  }
  return {
    type: layout.type,
    bits,
    fingerprint: Array.from(md5(blob), (b) => b.toString(16).padStart(2, '0')).join(':'),
    fingerprintSha256: btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest('SHA-256', blob)))).replace(/=+$/, ''),
  };
}

/** Longer texts are not sanitized: the model refuses them anyway (5000 characters), and each step below parses. */
const SANITIZE_MAX = 5000;

/**
 * Gitlab::SSHPublicKey.sanitize: a key pasted with its blob broken by whitespace is joined back, part by part, until
 * it parses; what is kept is the type, the blob and the next word (the first word of the comment). A text that never
 * parses is kept as it is (stripped).
 */
export async function sanitizePublicKey(text: string): Promise<string> {
  const [type, ...parts] = text.trim().split(/\s+/);
  if (!parts.length || text.length > SANITIZE_MAX) return text.trim();
  const start = blobStart(type!);
  let blob = '';
  for (let i = 0; i < parts.length; i++) {
    blob += parts[i];
    // Only a blob that could be whole is parsed (padded base64 that begins with its own type name): the others
    // cannot be, and parsing each of thousands of fragments would cost milliseconds of CPU per request.
    if (blob.length % 4 !== 0 || !blob.startsWith(start)) continue;
    const content = `${type} ${blob}`;
    if (await readPublicKey(content)) return parts[i + 1] === undefined ? content : `${content} ${parts[i + 1]}`;
  }
  return text.trim();
}

/** The base64 every blob of this type begins with: its length-prefixed type name, whole 3-byte groups only. */
function blobStart(type: string): string {
  const bytes = String.fromCharCode(0, 0, 0, type.length & 0xff) + type;
  return btoa(bytes.slice(0, bytes.length - (bytes.length % 3)));
}
