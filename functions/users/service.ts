// User verbs for REST and GraphQL alike: policy first, then the work, one transaction when it writes several rows.
import * as q from '../../db/queries/users.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { hashPassword, randomToken } from '../lib/crypto.ts';
import { conflict, forbidden, isUniqueViolation, notFound } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, isAdministrator } from '../lib/policy.ts';
import type { z } from '../lib/validate.ts';
import type { CreateUserInput, ListUsersInput, UpdateUserInput } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** The user named by `ref` (id or username), or 404 `User Not Found`. */
export async function findUser(ctx: RequestContext, ref: Ref | null): Promise<UserRow> {
  const user = ref ? await q.findUserByRef(ctx.db, ref.id ?? ref.path!) : undefined;
  if (!user) throw notFound('User');
  return user;
}

/** Administrators only: 401 for anonymous callers, 403 for everyone else. */
export function requireAdmin(ctx: RequestContext): UserRow {
  const user = requireUser(ctx);
  assertCan(ctx.actor, 'user:admin', { kind: 'user', id: user.id, state: user.state });
  return user;
}

export function listUsers({ ctx, input }: Verb<z.output<typeof ListUsersInput>>) {
  const admin = isAdministrator(ctx.actor);
  const filter: q.UserListFilter = {
    username: input.username,
    search: input.search,
    searchEmail: admin,
    active: input.active,
    blocked: input.blocked,
    // GitLab lets only administrators filter by external.
    external: admin ? input.external : undefined,
  };
  return {
    fetch: (limit: number, offset: number) => q.listUsers(ctx.db, filter, { by: input.order_by, sort: input.sort }, limit, offset),
    count: (limit: number) => q.countUsers(ctx.db, filter, limit),
  };
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

function profileValues(input: z.output<typeof UpdateUserInput>) {
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

export async function createUser({ ctx, input }: Verb<z.output<typeof CreateUserInput>>) {
  requireAdmin(ctx);
  await assertUnique(ctx, input);
  // Without a password the account gets a random one (GitLab's reset_password/force_random_password).
  const passwordHash = await hashPassword(input.password ?? randomToken());
  const confirmed = input.skip_confirmation ?? (input.confirm === undefined ? false : !input.confirm);
  try {
    return await ctx.transaction((tx) =>
      q.insertUserWithNamespace(tx, {
        ...stripUndefined(profileValues(input)),
        username: input.username,
        name: input.name,
        email: input.email,
        passwordHash,
        confirmedAt: confirmed ? new Date() : null,
      }),
    );
  } catch (error) {
    rethrowConflict(error);
  }
}

export async function updateUser({ ctx, input }: Verb<{ ref: Ref | null } & z.output<typeof UpdateUserInput>>) {
  requireAdmin(ctx);
  const user = await findUser(ctx, input.ref);
  await assertUnique(ctx, input, user.id);
  const values = {
    ...stripUndefined(profileValues(input)),
    ...(input.email !== undefined ? { email: input.email } : {}),
    ...(input.username !== undefined ? { username: input.username } : {}),
    ...(input.password !== undefined ? { passwordHash: await hashPassword(input.password) } : {}),
  };
  try {
    return await ctx.transaction((tx) => q.updateUser(tx, user.id, values));
  } catch (error) {
    rethrowConflict(error);
  }
}

export async function deleteUser({ ctx, input }: Verb<{ ref: Ref | null }>) {
  const admin = requireAdmin(ctx);
  const user = await findUser(ctx, input.ref);
  if (user.id === admin.id && !(ctx.actor.sudoFrom && ctx.actor.sudoFrom.id !== user.id)) {
    // An administrator deleting their own account would lock the instance out of its last admin too easily.
    throw forbidden('You cannot delete your own account');
  }
  await ctx.transaction((tx) => q.deleteUser(tx, user.id));
}

/** Block: 201 `true`; already blocked: 201 `null` (GitLab 14+). */
export async function blockUser({ ctx, input }: Verb<{ ref: Ref | null }>) {
  requireAdmin(ctx);
  const user = await findUser(ctx, input.ref);
  if (user.state === 'blocked') return null;
  if (user.id === ctx.actor.user!.id) throw forbidden('You cannot block yourself');
  await q.updateUser(ctx.db, user.id, { state: 'blocked' });
  return true;
}

/** Unblock: 201 `true`; not blocked: 201 `false` (the state machine's answer, as GitLab returns it). */
export async function unblockUser({ ctx, input }: Verb<{ ref: Ref | null }>) {
  requireAdmin(ctx);
  const user = await findUser(ctx, input.ref);
  if (user.state !== 'blocked') return false;
  await q.updateUser(ctx.db, user.id, { state: 'active' });
  return true;
}

function stripUndefined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
