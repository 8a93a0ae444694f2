// GPG keys' parameters (GitLab 13.6 lib/api/users.rb), the GpgKey model's validations in its words, and the entities:
// Entities::GpgKey (id, key, created_at) and Entities::CommitSignature for a PGP signature (`signature_type` with
// Entities::GpgCommitSignature merged in, and `commit_source`).
import * as z from 'zod/mini';
import type { GpgKeyRow } from '../../db/schema/index.ts';
import type { FieldErrors } from '../lib/errors.ts';
import { iso } from '../lib/format.ts';
import { paginationParams } from '../lib/pagination.ts';
import { schema, text } from '../lib/validate.ts';
import { lookupId } from '../users/schemas.ts';

export const ListInput = schema(() => z.object(paginationParams()));

/** `requires :key, type: String`; GitLab sets no length, this only bounds the request. */
export const CreateInput = schema(() => z.object({ key: text(1_000_000) }));

/** `requires :key_id, type: Integer` (any integer; one no row can have is not found). */
export const OwnKeyPath = schema(() => z.object({ key_id: lookupId() }));
/** `requires :id, type: Integer` and `:key_id` under /users (the route takes digits only, as GitLab's requirement). */
export const UserKeyPath = schema(() => z.object({ id: lookupId(), key_id: lookupId() }));

export const KEY_PREFIX = '-----BEGIN PGP PUBLIC KEY BLOCK-----';
export const KEY_SUFFIX = '-----END PGP PUBLIC KEY BLOCK-----';
const FORMAT_MESSAGE = `is invalid. A valid public GPG key begins with '${KEY_PREFIX}' and ends with '${KEY_SUFFIX}'`;

/**
 * GpgKey's format rule, `/\A#{KEY_PREFIX}((?!#{KEY_PREFIX})(?!#{KEY_SUFFIX}).)+#{KEY_SUFFIX}\Z/m` on the stripped key:
 * one block, nothing before or after it, and neither marker inside it. Written with indexOf (linear) rather than the
 * per-character lookaheads.
 */
export function isOneKeyBlock(key: string): boolean {
  const end = key.length - KEY_SUFFIX.length;
  if (!key.startsWith(KEY_PREFIX) || end <= KEY_PREFIX.length || key.indexOf(KEY_SUFFIX, KEY_PREFIX.length) !== end) return false;
  return key.indexOf(KEY_PREFIX, KEY_PREFIX.length) === -1;
}

/** GpgKey#key=: `value&.strip` (Ruby's strip: ASCII whitespace and NUL). */
export const stripKey = (key: string) => key.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r \0]+$/g, '');

/** The `key` attribute's errors in Rails' order (presence, then format); uniqueness is the caller's (a lookup). */
export function keyFormatErrors(key: string): string[] {
  const messages: string[] = [];
  if (!key.trim()) messages.push("can't be blank");
  if (!isOneKeyBlock(key)) messages.push(FORMAT_MESSAGE);
  return messages;
}

/**
 * GpgKey's errors once the key has the right form: `fingerprint` and `primary_keyid` are validated only when `key`
 * has no error, for presence (GnuPG could not import the key) and uniqueness.
 */
export function derivedErrors(facts: { parsed: boolean; fingerprintTaken?: boolean; primaryKeyidTaken?: boolean }): FieldErrors {
  if (!facts.parsed) return { fingerprint: ["can't be blank"], primary_keyid: ["can't be blank"] };
  const errors: Record<string, string[]> = {};
  if (facts.fingerprintTaken) errors.fingerprint = ['has already been taken'];
  if (facts.primaryKeyidTaken) errors.primary_keyid = ['has already been taken'];
  return errors;
}

/** Entities::GpgKey */
export const toGpgKey = (key: GpgKeyRow) => ({ id: key.id, key: key.key, created_at: iso(key.createdAt) });

/** GpgSignature's verification_status enum (13.6; `multiple_signatures` came with 14.5). */
export type VerificationStatus = 'unverified' | 'verified' | 'same_user_different_email' | 'other_user' | 'unverified_key' | 'unknown_key';

/** What Gitlab::Gpg::Commit#attributes computes for a PGP-signed commit. */
export interface CommitSignatureView {
  verificationStatus: VerificationStatus;
  gpgKeyId: number | null;
  gpgKeyPrimaryKeyid: string | null;
  gpgKeyUserName: string | null;
  gpgKeyUserEmail: string | null;
  gpgKeySubkeyId: number | null;
}

/**
 * Entities::CommitSignature for a PGP signature: `signature_type`, Entities::GpgCommitSignature merged in, and
 * `commit_source` (Gitaly's commits here: "gitaly"; current clients read it, @gitbeaker/rest types it as required).
 */
export const toCommitSignature = (s: CommitSignatureView) => ({
  signature_type: 'PGP',
  verification_status: s.verificationStatus,
  gpg_key_id: s.gpgKeyId,
  gpg_key_primary_keyid: s.gpgKeyPrimaryKeyid,
  gpg_key_user_name: s.gpgKeyUserName,
  gpg_key_user_email: s.gpgKeyUserEmail,
  gpg_key_subkey_id: s.gpgKeySubkeyId,
  commit_source: 'gitaly',
});
