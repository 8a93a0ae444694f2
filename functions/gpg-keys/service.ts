// Users' GPG keys (GitLab 13.6 lib/api/users.rb over GpgKeys::CreateService, GpgKeys::DestroyService and
// GpgKey#revoke): a user's own keys (/user/gpg_keys), anyone's list and key (/users/:id/gpg_keys, public in 13.6:
// `User.find_by(id:)` and no read_user check), administrators' writes for others. Who may call is the routes'
// middleware (authenticated, adminOnly); the owner is the caller or the user the path names.
import * as q from '../../db/queries/gpg-keys.ts';
import type { UserRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { assertUnmodifiedSince, isUniqueViolation, notFound, validationFailed } from '../lib/errors.ts';
import { derivedErrors, keyFormatErrors, stripKey } from './schemas.ts';
import { readPublicKey } from './openpgp.ts';

type Verb<I> = { ctx: RequestContext; input: I };
type OfUser<I = {}> = Verb<{ user: UserRow } & I>;

export function listGpgKeys({ ctx, input }: OfUser) {
  return {
    fetch: (limit: number, offset: number) => q.listUserGpgKeys(ctx.db, input.user.id, limit, offset),
    count: (limit: number) => q.countUserGpgKeys(ctx.db, input.user.id, limit),
  };
}

/** `user.gpg_keys.find_by(id:)` or 404 `GPG Key Not Found` (null: an id no row can have). */
export async function getGpgKey({ ctx, input }: OfUser<{ keyId: number | null }>) {
  const key = input.keyId === null ? undefined : await q.findUserGpgKey(ctx.db, input.user.id, input.keyId);
  if (!key) throw notFound('GPG Key');
  return key;
}

/**
 * `user.gpg_keys.create(key:)`: the key stripped, then GpgKey's validations in Rails' order (key: presence, uniqueness,
 * format; then, only when the key has no error, fingerprint and primary_keyid: presence, uniqueness) and its
 * after_create subkeys, written with the key in one statement.
 */
export async function addGpgKey({ ctx, input }: OfUser<{ key: string }>) {
  const key = stripKey(input.key);
  const formatErrors = keyFormatErrors(key);
  // A malformed key can be no stored key's text (those all had the form), so uniqueness adds nothing to these.
  if (formatErrors.length) throw validationFailed({ key: formatErrors });
  const facts = await readPublicKey(key);
  if (!facts) throw validationFailed(derivedErrors({ parsed: false }));
  let row;
  try {
    row = await q.insertGpgKey(ctx.db, { userId: input.user.id, key, ...facts });
  } catch (error) {
    // A subkey of another stored key (13.6 raises from generate_subkeys' create!): its fingerprint is taken.
    if (isUniqueViolation(error, 'gpg_key_subkeys_')) throw validationFailed({ fingerprint: ['has already been taken'] });
    throw error;
  }
  if (row) return row;
  const taken = await q.gpgKeyTaken(ctx.db, { key, fingerprint: facts.fingerprint, primaryKeyid: facts.primaryKeyid });
  // The same text: the key's own uniqueness error, and fingerprint and primary_keyid are not validated.
  if (taken.key) throw validationFailed({ key: ['has already been taken'] });
  throw validationFailed(derivedErrors({ parsed: true, fingerprintTaken: taken.fingerprint, primaryKeyidTaken: taken.primaryKeyid }));
}

/** DELETE: GpgKeys::DestroyService through destroy_conditionally! (412 when changed after If-Unmodified-Since). */
export async function removeGpgKey({ ctx, input }: OfUser<{ keyId: number | null; ifUnmodifiedSince?: string | undefined }>) {
  if (input.ifUnmodifiedSince !== undefined) assertUnmodifiedSince(input.ifUnmodifiedSince, (await getGpgKey({ ctx, input })).updatedAt);
  if (input.keyId === null || !(await q.deleteUserGpgKey(ctx.db, input.user.id, input.keyId))) throw notFound('GPG Key');
}

/**
 * POST .../revoke: GpgKey#revoke marks the key's verified signatures unknown_key and destroys the key. Signatures are
 * verified when read here, so destroying the key is the whole of it: they read as unknown_key from now on.
 */
export async function revokeGpgKey({ ctx, input }: OfUser<{ keyId: number | null }>) {
  if (input.keyId === null || !(await q.deleteUserGpgKey(ctx.db, input.user.id, input.keyId))) throw notFound('GPG Key');
}
