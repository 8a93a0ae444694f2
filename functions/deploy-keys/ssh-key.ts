// An OpenSSH public key read as GitLab's Gitlab::SSHPublicKey reads it: its type, size and fingerprints, and the
// sanitized text GitLab stores. Parsing is sshpk's; it is imported on first use, never at module load, because it is
// CommonJS over Node built-ins (crypto, stream, util) that only the keys API needs: cold starts do not pay for it.
import type SshPK from 'sshpk';

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

let loading: Promise<typeof SshPK> | undefined;
const sshpk = () => (loading ??= import('sshpk').then((m) => ((m as { default?: typeof SshPK }).default ?? m) as typeof SshPK));

const isSupported = (type: string): type is SshKeyType => (SUPPORTED_TYPES as readonly string[]).includes(type);

/** The key's facts, or null when the text is not one OpenSSH public key of a supported type. */
export async function readPublicKey(text: string): Promise<PublicKeyFacts | null> {
  const lib = await sshpk();
  let key: SshPK.Key;
  try {
    key = lib.parseKey(text, 'ssh');
  } catch {
    return null;
  }
  if (!isSupported(key.type)) return null;
  return {
    type: key.type,
    bits: key.size,
    fingerprint: key.fingerprint('md5').toString('hex'),
    fingerprintSha256: key.fingerprint('sha256').toString('base64').replace(/^SHA256:/, ''),
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
  let content = `${type} `;
  for (let i = 0; i < parts.length; i++) {
    content += parts[i];
    if (await readPublicKey(content)) return parts[i + 1] === undefined ? content : `${content} ${parts[i + 1]}`;
  }
  return text.trim();
}
