// User verbs for REST and GraphQL alike: policy first, then the work, one transaction when it writes several rows.
// Here: the lookups, the administrator rule, listings, delete, block and unblock. Creating a user is in create.ts,
// updating one in update.ts, what both check and write (uniqueness, validations, profile values) in attributes.ts.
import type { SQL } from 'drizzle-orm';
import { revokeOAuthOfUser } from '../oauth/statements.ts';
import { deleteSessionsOfUser } from '../../db/queries/lib/sessions.ts';
import * as q from '../../db/queries/users.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { assertUnmodifiedSince, conflict, forbidden, notFound, unauthorized } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, isAdministrator } from '../lib/policy.ts';
import type { Output } from '../lib/validate.ts';
import type { ListUsersInput } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** The user named by `ref` (id or username), or 404 `User Not Found`. */
export async function findUser(ctx: RequestContext, ref: Ref | null): Promise<UserRow> {
  const user = ref ? await q.findUserByRef(ctx.db, ref.id ?? ref.path!) : undefined;
  if (!user) throw notFound('User');
  return user;
}

/** The user with this id (null: an id no row can have), or 404 `User Not Found`: where GitLab takes ids only. */
export async function findUserById(ctx: RequestContext, id: number | null): Promise<UserRow> {
  return findUser(ctx, id === null ? null : { id });
}

/** Administrators only: 401 for anonymous callers, 403 for everyone else (GitLab's authenticated_as_admin!). */
export function requireAdmin(ctx: RequestContext): UserRow {
  const user = requireUser(ctx);
  assertCan(ctx.actor, 'user:admin', { kind: 'user', id: user.id, state: user.state });
  return user;
}

/**
 * What a user list may match for this caller (UsersFinder, 13.x): non-administrators never see external users, match
 * the public email only, and cannot filter by creation date. REST's GET /users and GraphQL's `users` both use it.
 */
export function userListFilter(
  ctx: RequestContext,
  f: Omit<q.UserListFilter, 'searchPrivateEmail' | 'external'> & { external?: boolean | undefined },
): q.UserListFilter {
  const admin = isAdministrator(ctx.actor);
  return {
    ...f,
    searchPrivateEmail: admin,
    external: admin ? (f.external ? true : undefined) : false,
    createdAfter: admin ? f.createdAfter : undefined,
    createdBefore: admin ? f.createdBefore : undefined,
  };
}

/**
 * GET /users. Anonymous callers must name a `username`; `external=true` is for administrators; everyone else
 * never sees external users and gets GitLab's fixed order (id, or search relevance), as UsersFinder does in 13.x.
 */
export function listUsers({ ctx, input }: Verb<Output<typeof ListUsersInput>>) {
  const admin = isAdministrator(ctx.actor);
  if (input.external && !admin) requireAdmin(ctx);
  const byIdentity = input.extern_uid && input.provider ? { provider: input.provider, externUid: input.extern_uid } : undefined;
  if (byIdentity) requireAdmin(ctx);
  if (!ctx.actor.user && !input.username) throw forbidden('Not authorized to access /api/v4/users');
  const filter = userListFilter(ctx, {
    username: input.username,
    search: input.search,
    active: input.active,
    blocked: input.blocked,
    external: input.external,
    createdAfter: input.created_after,
    createdBefore: input.created_before,
    identity: byIdentity,
  });
  const searching = input.search !== undefined && input.search.trim() !== '';
  const order: q.UserOrder = admin ? { by: input.order_by, sort: input.sort } : searching ? { by: 'search_relevance' } : { by: 'id', sort: 'desc' };
  return {
    fetch: (limit: number, offset: number) => q.listUsers(ctx.db, filter, order, limit, offset),
    count: (limit: number) => q.countUsers(ctx.db, filter, limit),
  };
}

/** GET /users/:id, with the highest role for administrators (UserDetailsWithAdmin). */
export async function getUser({ ctx, input }: Verb<{ id: number | null }>) {
  const user = await findUserById(ctx, input.id);
  const highestRole = isAdministrator(ctx.actor) ? await q.highestRole(ctx.db, user.id) : 0;
  return { user, highestRole };
}

/**
 * DELETE /users/:id: 204. The sole owner of a group cannot be removed (409) unless `hard_delete`, which takes
 * those groups along (with everything below them). GitLab lets administrators delete their own account too.
 * The sole-owner check runs in the deleting transaction, so an owner added meanwhile is seen.
 */
export async function deleteUser({ ctx, input }: Verb<{ id: number | null; hard_delete?: boolean | undefined; ifUnmodifiedSince?: string | undefined }>) {
  requireAdmin(ctx);
  const user = await findUserById(ctx, input.id);
  assertUnmodifiedSince(input.ifUnmodifiedSince, user.updatedAt);
  await ctx.transaction(async (tx) => {
    const soleOwned = await q.soleOwnedGroupIds(tx, user.id);
    if (soleOwned.length && !input.hard_delete) throw conflict('User cannot be removed while is the sole-owner of a group');
    await q.deleteUser(tx, user.id, input.hard_delete ? soleOwned : []);
  });
}

/**
 * Block: 201 `true`; already blocked: 201 `null`. The caller cannot block themselves (GitLab's later rule). The block
 * signs the user out of every browser and revokes their OAuth tokens in the same transaction (personal access tokens
 * are refused while the account is blocked and work again after unblocking, as in GitLab).
 */
export async function blockUser({ ctx, input }: Verb<{ id: number | null }>) {
  const admin = requireAdmin(ctx);
  const user = await findUserById(ctx, input.id);
  if (user.id === admin.id) throw forbidden('The API initiating user cannot be blocked by the API');
  if (user.state === 'blocked') return null;
  await ctx.transaction(async (tx) => {
    await q.updateUser(tx, user.id, { state: 'blocked' });
    await deleteSessionsOfUser(tx, user.id);
    await revokeOAuthOfUser(tx, user.id);
  });
  return true;
}

/** Unblock: 201 `true`; not blocked: 201 `false` (the state machine's answer, as GitLab returns it). */
export async function unblockUser({ ctx, input }: Verb<{ id: number | null }>) {
  requireAdmin(ctx);
  const user = await findUserById(ctx, input.id);
  if (user.state !== 'blocked') return false;
  await q.updateUser(ctx.db, user.id, { state: 'active' });
  return true;
}

/** `before { authenticate_non_get! }`: writes on /users need a signed-in caller before parameters are checked. */
export function requireSignedIn(ctx: RequestContext) {
  if (!ctx.actor.user) throw unauthorized();
}

/**
 * The search API's users (UsersFinder with `search`: User.search, most relevant first; everyone when the search is
 * blank, newest first), within `within` (a condition over the users row: a project's team, a group's hierarchy).
 */
export function searchUsers(ctx: RequestContext, query: string, within?: SQL) {
  const filter = userListFilter(ctx, { search: query, within });
  const order: q.UserOrder = query.trim() ? { by: 'search_relevance' } : { by: 'id', sort: 'desc' };
  return {
    fetch: (limit: number, offset: number) => q.listUsers(ctx.db, filter, order, limit, offset),
    count: (limit: number) => q.countUsers(ctx.db, filter, limit),
  };
}
