// What GitLab asks GnuPG (lib/gitlab/gpg.rb, Gitlab::Gpg::Commit): a public key's primary and subkey ids and
// fingerprints and its user ids, a detached signature's issuer, and whether the signature verifies against a key.
// Read by pgp-packets.ts and checked with WebCrypto (why not openpgp.js: that file's header).
import type { GpgUserInfo } from '../../db/schema/index.ts';
import { certifiedBytes, dearmor, readPackets, readPublicKeyPacket, readSignaturePacket, verifySignature, type PublicKeyPacket } from './pgp-packets.ts';

const utf8 = new TextDecoder();

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
  const keys = await readKeyPackets(armored);
  if (!keys) return null;
  const { primary, subkeys, userIds } = keys;
  const userInfos: GpgUserInfo[] = userIds.map((uid) => {
    const { name, email } = splitUserId(uid);
    return { name, email: email.toLowerCase() };
  });
  if (!userInfos.length) return null;
  return {
    fingerprint: primary.fingerprint,
    primaryKeyid: primary.keyid,
    subkeys: subkeys.map((k) => ({ keyid: k.keyid, fingerprint: k.fingerprint })),
    userInfos,
  };
}

/**
 * The first transferable public key of an armored block: its primary key, its subkeys, and the user ids its primary
 * key certified (a valid 0x10..0x13 self-signature) and did not revoke (0x30). Null for anything else: no block,
 * unreadable packets, a secret key, a primary key that is not v4.
 */
async function readKeyPackets(armored: string): Promise<{ primary: PublicKeyPacket; subkeys: PublicKeyPacket[]; userIds: string[] } | null> {
  const bytes = dearmor(armored, 'PUBLIC KEY BLOCK');
  const packets = bytes && readPackets(bytes);
  if (!packets?.length || packets[0]!.tag !== 6) return null;
  const primary = await readPublicKeyPacket(packets[0]!.body);
  if (!primary) return null;
  const subkeys: PublicKeyPacket[] = [];
  const userIds: string[] = [];
  let uid: { bytes: Uint8Array; certified: boolean; revoked: boolean } | null = null;
  const close = () => {
    if (uid?.certified && !uid.revoked) userIds.push(utf8.decode(uid.bytes));
    uid = null;
  };
  for (const p of packets.slice(1)) {
    if (p.tag === 6) break;
    if (p.tag === 5 || p.tag === 7) return null;
    if (p.tag === 13) {
      close();
      uid = { bytes: p.body, certified: false, revoked: false };
    } else if (p.tag === 17) close();
    else if (p.tag === 14) {
      close();
      const subkey = await readPublicKeyPacket(p.body);
      if (subkey) subkeys.push(subkey);
    } else if (p.tag === 2 && uid) {
      const current: { bytes: Uint8Array; certified: boolean; revoked: boolean } = uid;
      const sig = readSignaturePacket(p.body);
      if (!sig || (sig.issuerFingerprint ?? primary.fingerprint) !== primary.fingerprint || (sig.issuerKeyid ?? primary.keyid) !== primary.keyid) continue;
      const certification = sig.type >= 0x10 && sig.type <= 0x13;
      if ((certification && current.certified) || (!certification && sig.type !== 0x30)) continue;
      const valid = await verifySignature(sig, certifiedBytes(primary, current.bytes), primary.material);
      if (certification) current.certified = valid;
      else current.revoked ||= valid;
    }
  }
  close();
  return { primary, subkeys, userIds };
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
  const bytes = dearmor(armored, 'SIGNATURE');
  const packets = bytes && readPackets(bytes);
  const first = packets?.[0];
  const signature = first?.tag === 2 ? readSignaturePacket(first.body) : null;
  if (!signature?.issuerKeyid) return null;
  const { issuerFingerprint, issuerKeyid } = signature;
  return {
    issuerFingerprint,
    issuerKeyid,
    async verifies(signed, armoredKey) {
      const keys = await readKeyPackets(armoredKey);
      if (!keys) return false;
      const key = [keys.primary, ...keys.subkeys].find((k) => (issuerFingerprint ? k.fingerprint === issuerFingerprint : k.keyid === issuerKeyid));
      // A binary document (what git signs) or a canonical text one (line ends as CR LF).
      if (!key || (signature.type !== 0x00 && signature.type !== 0x01)) return false;
      const data = signature.type === 0x01 ? new TextEncoder().encode(utf8.decode(signed).replace(/\r?\n/g, '\r\n')) : signed;
      return verifySignature(signature, data, key.material);
    },
  };
}
