// Users' SSH keys (GitLab 13.6's users.rb key routes and keys.rb): a user's own keys (/user/keys), anyone's public
// list (/users/:id/keys), administrators' writes for others and the instance lookups (/keys/:id, /keys?fingerprint=).
// User keys and deploy keys share the `keys` table and its one fingerprint rule: a key is one or the other.
import * as q from '../../db/queries/deploy-keys.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { invalidMessage, notFound, recordNotFound, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan } from '../lib/policy.ts';
import { findUser, requireAdmin } from '../users/service.ts';
import { deployKeyErrors } from './schemas.ts';
import { readPublicKey, sanitizePublicKey } from './ssh-key.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** Whose keys a route names: the caller (`/user/keys`) or a user by id or username (`/users/:id/keys`). */
export async function keyOwner(ctx: RequestContext, ref: Ref | null | 'self'): Promise<UserRow> {
  // The caller's own row, as authentication loaded it.
  if (ref === 'self') return requireUser(ctx);
  const user = await findUser(ctx, ref);
  assertCan(ctx.actor, 'user:read', { kind: 'user', id: user.id, state: user.state });
  return user;
}

export function listUserKeys({ ctx, input }: Verb<{ user: UserRow }>) {
  return {
    fetch: (limit: number, offset: number) => q.listUserKeys(ctx.db, input.user.id, limit, offset),
    count: (limit: number) => q.countUserKeys(ctx.db, input.user.id, limit),
  };
}

export async function getUserKey({ ctx, input }: Verb<{ user: UserRow; keyId: number | null }>) {
  const key = input.keyId === null ? undefined : await q.findUserKey(ctx.db, input.user.id, input.keyId);
  if (!key) throw notFound('Key');
  return key;
}

/** Adds a key to the user: the Key model's validations (every error at once), then the one fingerprint rule. */
export async function addUserKey({ ctx, input }: Verb<{ user: UserRow; title: string; key: string; expires_at?: Date | null | undefined }>) {
  const key = await sanitizePublicKey(input.key.trim());
  const facts = await readPublicKey(key);
  const check = (taken: boolean) => deployKeyErrors({ title: input.title, key, facts, fingerprintTaken: taken }, '');
  const errors = check(false);
  if (Object.keys(errors).length || !facts) {
    const taken = facts !== null && (await q.fingerprintTaken(ctx.db, facts.fingerprint));
    throw validationFailed(taken ? check(true) : errors);
  }
  const row = await q.insertUserKey(ctx.db, {
    title: input.title,
    key,
    fingerprint: facts.fingerprint,
    fingerprintSha256: facts.fingerprintSha256,
    userId: input.user.id,
    expiresAt: input.expires_at ?? null,
  });
  if (!row) throw validationFailed({ fingerprint: ['has already been taken'] });
  return row;
}

export async function removeUserKey({ ctx, input }: Verb<{ user: UserRow; keyId: number | null }>) {
  if (input.keyId === null || !(await q.deleteUserKey(ctx.db, input.user.id, input.keyId))) throw notFound('Key');
}

/** GET /keys/:id: administrators (authenticated_with_can_read_all_resources!); `Key.find`'s 404 otherwise. */
export async function keyById({ ctx, input }: Verb<{ id: number | null }>) {
  requireAdmin(ctx);
  const found = input.id === null ? undefined : await q.findKeyWithUser(ctx.db, { id: input.id });
  if (!found) throw recordNotFound();
  return withLinks(ctx, found);
}

const MD5 = /^([0-9a-f]{2}:){15}[0-9a-f]{2}$/i;
const SHA256 = /^SHA256:([A-Za-z0-9+/]{43})=?$/;

/** GET /keys?fingerprint=: KeysFinder's two forms; anything else is its InvalidFingerprint (400). */
export async function keyByFingerprint({ ctx, input }: Verb<{ fingerprint: string }>) {
  requireAdmin(ctx);
  const sha = SHA256.exec(input.fingerprint);
  if (!sha && !MD5.test(input.fingerprint)) throw invalidMessage('Failed to return the key');
  const found = await q.findKeyWithUser(ctx.db, sha ? { sha256: sha[1]! } : { md5: input.fingerprint.toLowerCase() });
  if (!found) throw notFound('Key');
  return withLinks(ctx, found);
}

async function withLinks(ctx: RequestContext, found: NonNullable<Awaited<ReturnType<typeof q.findKeyWithUser>>>) {
  const links = found.key.type === 'DeployKey' ? await q.deployKeyLinks(ctx.db, found.key.id) : null;
  return { ...found, links };
}
