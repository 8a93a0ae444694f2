// A commit's PGP signature, verified when it is read (GitLab 13.6's Gitlab::Gpg::Commit and GpgKey, without the
// gpg_signatures cache: a read writes nothing). The signature's issuer picks the stored key (primary key or subkey);
// the key counts as verified when one of its user ids' emails is a verified email of its owner; the status then
// follows 13.6's order: unknown_key, unverified_key, unverified (the signature does not verify), verified (the
// committer email is one of the key's verified emails), same_user_different_email (an email of the key's owner),
// other_user. A revoked or deleted key is no longer stored, so its signatures read as unknown_key, which is what 13.6's
// GpgKey#revoke writes into their cache.
import { findSigningKey, type SigningKey } from '../../db/queries/gpg-keys.ts';
import type { RequestContext } from '../lib/context.ts';
import { readDetachedSignature } from './openpgp.ts';
import type { CommitSignatureView, VerificationStatus } from './schemas.ts';

/** What the commit gives: its `gpgsig` header, the object without it (what was signed), the committer's email. */
export interface SignedCommit {
  signature: string;
  signed: Uint8Array;
  committerEmail: string;
}

/** User#verified_emails (13.6): the primary email once confirmed, and the confirmed secondary emails, downcased. */
const verifiedEmails = (k: SigningKey) =>
  new Set([...(k.owner.confirmed ? [k.owner.email] : []), ...k.emails.filter((e) => e.confirmed).map((e) => e.email)].map((e) => e.toLowerCase()));

/** User#all_emails (13.6): the primary email and every secondary one, confirmed or not (stored downcased). */
const allEmails = (k: SigningKey) => [k.owner.email, ...k.emails.map((e) => e.email)].map((e) => e.toLowerCase());

/**
 * Gitlab::Gpg::Commit#verification_status and #attributes for one signed commit. Null when the signature does not
 * read as an OpenPGP signature (GPGME's error: 13.6 then has no signature to present).
 */
export async function verifyCommitSignature(ctx: RequestContext, commit: SignedCommit): Promise<CommitSignatureView | null> {
  const signature = await readDetachedSignature(commit.signature);
  if (!signature) return null;
  // find_gpg_key: a fingerprint (GnuPG reports the issuer's when the signature carries it) or else the key id.
  const issuer = signature.issuerFingerprint ?? signature.issuerKeyid;
  const found = await findSigningKey(ctx.db, signature.issuerFingerprint ? { fingerprint: signature.issuerFingerprint } : { keyid: signature.issuerKeyid });
  if (!found) {
    return {
      verificationStatus: 'unknown_key',
      gpgKeyId: null,
      gpgKeyPrimaryKeyid: issuer,
      gpgKeyUserName: null,
      gpgKeyUserEmail: null,
      gpgKeySubkeyId: null,
    };
  }
  const verified = verifiedEmails(found);
  // GpgKey#emails_with_verified_status: each user id's email, verified when it is one of the owner's verified emails.
  const verifiedInfos = found.key.userInfos.filter((u) => verified.has(u.email));
  const info = verifiedInfos[0] ?? found.key.userInfos[0];
  return {
    verificationStatus: await status(found, verifiedInfos.length > 0, commit, signature.verifies),
    // GpgSignature#gpg_key= stores a subkey in gpg_key_subkey_id and leaves gpg_key_id empty.
    gpgKeyId: found.subkeyId === null ? found.key.id : null,
    gpgKeyPrimaryKeyid: found.keyid,
    gpgKeyUserName: info?.name ?? null,
    gpgKeyUserEmail: info?.email ?? null,
    gpgKeySubkeyId: found.subkeyId,
  };
}

async function status(
  found: SigningKey,
  keyVerified: boolean,
  commit: SignedCommit,
  verifies: (signed: Uint8Array, armoredKey: string) => Promise<boolean>,
): Promise<VerificationStatus> {
  if (!keyVerified) return 'unverified_key';
  if (!(await verifies(commit.signed, found.key.key))) return 'unverified';
  // verified_and_belongs_to_email?: `emails_with_verified_status.fetch(email.downcase, false)`.
  const committer = commit.committerEmail.toLowerCase();
  if (found.key.userInfos.some((u) => u.email === committer) && verifiedEmails(found).has(committer)) return 'verified';
  // `gpg_key.user.all_emails.include?(@commit.committer_email)`: compared as written.
  if (allEmails(found).includes(commit.committerEmail)) return 'same_user_different_email';
  return 'other_user';
}
