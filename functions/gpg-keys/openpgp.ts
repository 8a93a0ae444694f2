// What GitLab asks GnuPG (lib/gitlab/gpg.rb, Gitlab::Gpg::Commit) asked of openpgp.js instead: a public key's primary
// and subkey ids and fingerprints and its user ids, a detached signature's issuer, and whether the signature verifies
// against a key. The library (about 370 KiB of code) is imported on the first call, never at an isolate's start
// (DESIGN.md "Cold start").
import type { GpgUserInfo } from '../../db/schema/index.ts';

type OpenPgp = typeof import('./openpgp-lib.ts');

let library: Promise<OpenPgp> | undefined;
const openpgp = (): Promise<OpenPgp> => {
  const p = (library ??= import('./openpgp-lib.ts'));
  // A failed import is retried by the next call rather than cached.
  p.catch(() => (library = undefined));
  return p;
};

const upper = (hex: string) => hex.toUpperCase();

export interface PublicKeyFacts {
  /** Upper-case hex, as GitLab reads its sha_attributes. */
  fingerprint: string;
  primaryKeyid: string;
  subkeys: Array<{ keyid: string; fingerprint: string }>;
  /** The user ids with a valid self-certification, in the key's order (user attributes such as photos are not ids). */
  userInfos: GpgUserInfo[];
}

/**
 * The first key of an armored block, as `gpg --import` would take it: null when nothing in it reads as an OpenPGP
 * public key, or when none of its user ids is self-certified (GnuPG imports no key without a valid user id). Names
 * and emails as GPGME's uid splits them, the email downcased (Gitlab::Gpg.user_infos_from_key).
 */
export async function readPublicKey(armored: string): Promise<PublicKeyFacts | null> {
  const pgp = await openpgp();
  let key: Awaited<ReturnType<OpenPgp['readKey']>>;
  try {
    key = await pgp.readKey({ armoredKey: armored });
  } catch {
    return null;
  }
  if (key.isPrivate()) return null;
  const userInfos: GpgUserInfo[] = [];
  for (const user of key.users) {
    if (!user.userID) continue;
    const certified = await user.verify().then(
      () => true,
      () => false,
    );
    if (!certified) continue;
    const { name, email } = splitUserId(user.userID.userID);
    userInfos.push({ name, email: email.toLowerCase() });
  }
  if (!userInfos.length) return null;
  return {
    fingerprint: upper(key.getFingerprint()),
    primaryKeyid: upper(key.getKeyID().toHex()),
    subkeys: key.subkeys.map((s) => ({ keyid: upper(s.getKeyID().toHex()), fingerprint: upper(s.getFingerprint()) })),
    userInfos,
  };
}

/**
 * GPGME's split of a user id (parse_user_id in gpgme's key.c): the name runs from the first non-blank character to a
 * `(` or `<`, the email is inside the first `<...>`, a comment inside `(...)` is neither. openpgp.js splits only ids
 * of the form `Name <email>` and reads a bare `a@b` as an email, where GPGME has it as the name; GitLab sees GPGME's.
 */
export function splitUserId(uid: string): { name: string; email: string } {
  let name: string | undefined;
  let email: string | undefined;
  let inName = false;
  let inEmail = 0;
  let inComment = 0;
  let start = 0;
  const endName = (at: number) => {
    if (inName && name === undefined) name = uid.slice(start, at);
    inName = false;
  };
  for (let i = 0; i < uid.length; i++) {
    const ch = uid[i];
    if (inEmail) {
      if (ch === '<') inEmail++;
      else if (ch === '>' && --inEmail === 0 && email === undefined) email = uid.slice(start, i);
    } else if (inComment) {
      if (ch === '(') inComment++;
      else if (ch === ')') inComment--;
    } else if (ch === '<' || ch === '(') {
      endName(i);
      if (ch === '<') inEmail = 1;
      else inComment = 1;
      start = i + 1;
    } else if (!inName && ch !== ' ' && ch !== '\t') {
      inName = true;
      start = i;
    }
  }
  endName(uid.length);
  return { name: (name ?? '').replace(/[ \t]+$/, ''), email: email ?? '' };
}

export interface DetachedSignature {
  /** The issuer's fingerprint (upper-case hex) when the signature carries one (GnuPG 2.2+ always writes it). */
  issuerFingerprint: string | null;
  /** The issuer's 64-bit key id (upper-case hex). */
  issuerKeyid: string;
  /** Whether the signature verifies `signed` with `armoredKey` (GPGME's Signature#valid?). */
  verifies(signed: Uint8Array, armoredKey: string): Promise<boolean>;
}

/**
 * An armored detached signature: its first signature packet's issuer (13.6 reads the first signature GPGME reports,
 * "Return the first signature for now"), or null when it does not read as one.
 */
export async function readDetachedSignature(armored: string): Promise<DetachedSignature | null> {
  const pgp = await openpgp();
  let signature: Awaited<ReturnType<OpenPgp['readSignature']>>;
  try {
    signature = await pgp.readSignature({ armoredSignature: armored });
  } catch {
    return null;
  }
  const packet = signature.packets[0];
  if (!packet) return null;
  const fingerprint = packet.issuerFingerprint;
  return {
    issuerFingerprint: fingerprint ? upper(Array.from(fingerprint, (b) => b.toString(16).padStart(2, '0')).join('')) : null,
    issuerKeyid: upper(packet.issuerKeyID.toHex()),
    async verifies(signed, armoredKey) {
      try {
        const key = await pgp.readKey({ armoredKey });
        const message = await pgp.createMessage({ binary: signed });
        // GnuPG 2.2 (13.6's) verifies DSA and 1024-bit RSA signatures, which openpgp.js refuses by default; its
        // refusal of MD5, RIPEMD-160 and SHA-1 message digests (forgeable) is kept.
        const config = { rejectPublicKeyAlgorithms: new Set<never>(), minRSABits: 1024 };
        const result = await pgp.verify({ message, signature, verificationKeys: key, format: 'binary', config });
        const first = result.signatures[0];
        return first ? await first.verified : false;
      } catch {
        return false;
      }
    },
  };
}
