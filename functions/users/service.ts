// User verbs for REST and GraphQL alike: policy first, then the work, one transaction when it writes several rows.
import { revokeOAuthOfUser } from '../../db/queries/oauth-tokens.ts';
import { deleteSessionsOfUser } from '../../db/queries/sessions.ts';
import * as q from '../../db/queries/users.ts';
import type { Db } from '../../db/client.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { hashPassword, randomToken } from '../lib/crypto.ts';
import { assertUnmodifiedSince, conflict, forbidden, isUniqueViolation, notFound, unauthorized, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, isAdministrator } from '../lib/policy.ts';
import type { Output } from '../lib/validate.ts';
import { avatarErrors, storeAvatar } from '../uploads/avatars.ts';
import { identityErrors, rethrowIdentityTaken, writeIdentity } from './identities.ts';
import { modelErrors, type CreateUserInput, type ListUsersInput, type UpdateUserInput } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

const DEFAULT_PROJECTS_LIMIT = 100_000;

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

async function assertUnique(ctx: RequestContext, values: { username?: string | undefined; email?: string | undefined }, exceptUserId?: number) {
  if (values.email && (await q.emailTaken(ctx.db, values.email, exceptUserId))) throw conflict('Email has already been taken');
  if (values.username && (await q.namespacePathTaken(ctx.db, values.username, exceptUserId))) throw conflict('Username has already been taken');
}

/** Unique indexes are the last word when two requests race past the checks above. */
function rethrowConflict(error: unknown): never {
  if (isUniqueViolation(error, 'email')) throw conflict('Email has already been taken');
  if (isUniqueViolation(error)) throw conflict('Username has already been taken');
  throw error;
}

/**
 * The model's validations, with public_email ("is not an email you own") checked against the user's emails, and
 * those of the avatar and the identity it comes with.
 */
async function assertValid(ctx: RequestContext, input: Output<typeof UpdateUserInput>, user?: UserRow) {
  const errors: Record<string, string[]> = { ...modelErrors(input), ...(await identityErrors(ctx, input, user?.id)) };
  if (input.avatar && avatarErrors(input.avatar).length) errors.avatar = avatarErrors(input.avatar);
  const publicEmail = input.public_email;
  if (publicEmail) {
    const owned = user ? await q.ownsEmail(ctx.db, user.id, publicEmail) : publicEmail.toLowerCase() === input.email?.toLowerCase();
    if (!owned) (errors.public_email ??= []).push('is not an email you own');
  }
  if (Object.keys(errors).length) throw validationFailed(errors);
}

function profileValues(input: Output<typeof UpdateUserInput>) {
  return {
    name: input.name,
    bio: input.bio,
    location: input.location,
    publicEmail: input.public_email,
    websiteUrl: input.website_url,
    organization: input.organization,
    jobTitle: input.job_title,
    projectsLimit: input.projects_limit,
    canCreateGroup: input.can_create_group,
    external: input.external,
    privateProfile: input.private_profile,
    admin: input.admin,
  };
}

/**
 * User#ensure_user_rights_and_limits: external users can create neither groups nor projects; turning a user back
 * into a regular one restores the defaults unless the request sets them.
 */
function externalLimits(input: Output<typeof UpdateUserInput>) {
  if (input.external === true) return { canCreateGroup: false, projectsLimit: 0 };
  if (input.external === false) return { canCreateGroup: input.can_create_group ?? true, projectsLimit: input.projects_limit ?? DEFAULT_PROJECTS_LIMIT };
  return {};
}

/** The identity and the avatar a create or an update brings, in its transaction; the user's row as it then is. */
async function writeIdentityAndAvatar(tx: Db, user: UserRow, input: Output<typeof UpdateUserInput>): Promise<UserRow> {
  if (input.provider === undefined && !input.avatar) return user;
  await writeIdentity(tx, user.id, input);
  if (input.avatar) await storeAvatar(tx, { kind: 'user', id: user.id }, input.avatar);
  return (await q.findUserByRef(tx, user.id))!;
}

/** POST /users: 201 UserWithAdmin. A missing password is random (force_random_password / reset_password). */
export async function createUser({ ctx, input }: Verb<Output<typeof CreateUserInput>>) {
  requireAdmin(ctx);
  await assertUnique(ctx, input);
  await assertValid(ctx, input);
  const passwordHash = await hashPassword(input.password ?? randomToken());
  const confirmed = input.skip_confirmation ?? (input.confirm === undefined ? false : !input.confirm);
  try {
    return await ctx.transaction(async (tx) => {
      const user = await q.insertUserWithNamespace(tx, {
        ...stripUndefined(profileValues(input)),
        ...externalLimits(input),
        username: input.username,
        name: input.name,
        email: input.email,
        passwordHash,
        confirmedAt: confirmed ? new Date() : null,
      });
      return writeIdentityAndAvatar(tx, user, input);
    });
  } catch (error) {
    rethrowIdentityTaken(error);
    rethrowConflict(error);
  }
}

/** PUT /users/:id: 200 UserWithAdmin. */
export async function updateUser({ ctx, input }: Verb<{ id: number | null } & Output<typeof UpdateUserInput>>) {
  requireAdmin(ctx);
  const user = await findUserById(ctx, input.id);
  await assertUnique(ctx, input, user.id);
  await assertValid(ctx, input, user);
  const values = {
    ...stripUndefined(profileValues(input)),
    ...(input.external !== undefined && input.external !== user.external ? externalLimits(input) : {}),
    ...(input.email !== undefined ? { email: input.email } : {}),
    ...(input.username !== undefined ? { username: input.username } : {}),
    ...(input.password !== undefined ? { passwordHash: await hashPassword(input.password) } : {}),
  };
  try {
    return await ctx.transaction(async (tx) => {
      const updated = await q.updateUser(tx, user.id, values);
      // A new password signs the user out of every browser (GitLab), with the change or not at all.
      if (input.password !== undefined) await deleteSessionsOfUser(tx, user.id);
      return writeIdentityAndAvatar(tx, updated, input);
    });
  } catch (error) {
    rethrowIdentityTaken(error);
    rethrowConflict(error);
  }
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

function stripUndefined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
