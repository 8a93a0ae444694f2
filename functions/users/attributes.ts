// What creating and updating a user share (create.ts, update.ts): uniqueness of username and email, the model's
// validations, the profile columns a request sets, external users' limits, the identity and avatar written along.
import * as q from '../../db/queries/users.ts';
import type { Db } from '../../db/client.ts';
import type { UserRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { conflict, isUniqueViolation, validationFailed } from '../lib/errors.ts';
import type { Output } from '../lib/validate.ts';
import { avatarErrors, storeAvatar } from '../uploads/avatars.ts';
import { identityErrors, writeIdentity } from './identities.ts';
import { modelErrors, type UpdateUserInput } from './schemas.ts';

export async function assertUnique(ctx: RequestContext, values: { username?: string | undefined; email?: string | undefined }, exceptUserId?: number) {
  if (values.email && (await q.emailTaken(ctx.db, values.email, exceptUserId))) throw conflict('Email has already been taken');
  if (values.username && (await q.namespacePathTaken(ctx.db, values.username, exceptUserId))) throw conflict('Username has already been taken');
}

/** Unique indexes are the last word when two requests race past the checks above. */
export function rethrowConflict(error: unknown): never {
  if (isUniqueViolation(error, 'email')) throw conflict('Email has already been taken');
  if (isUniqueViolation(error)) throw conflict('Username has already been taken');
  throw error;
}

/**
 * The model's validations, with public_email ("is not an email you own") checked against the user's emails, and
 * those of the avatar and the identity it comes with.
 */
export async function assertValid(ctx: RequestContext, input: Output<typeof UpdateUserInput>, user?: UserRow) {
  const errors: Record<string, string[]> = { ...modelErrors(input), ...(await identityErrors(ctx, input, user?.id)) };
  if (input.avatar && avatarErrors(input.avatar).length) errors.avatar = avatarErrors(input.avatar);
  const publicEmail = input.public_email;
  if (publicEmail) {
    const owned = user ? await q.ownsEmail(ctx.db, user.id, publicEmail) : publicEmail.toLowerCase() === input.email?.toLowerCase();
    if (!owned) (errors.public_email ??= []).push('is not an email you own');
  }
  if (Object.keys(errors).length) throw validationFailed(errors);
}

export function profileValues(input: Output<typeof UpdateUserInput>) {
  return {
    name: input.name,
    bio: input.bio,
    location: input.location,
    publicEmail: input.public_email,
    websiteUrl: input.website_url,
    organization: input.organization,
    jobTitle: input.job_title,
    skype: input.skype,
    linkedin: input.linkedin,
    twitter: input.twitter,
    themeId: input.theme_id,
    colorSchemeId: input.color_scheme_id,
    note: input.note,
    sharedRunnersMinutesLimit: input.shared_runners_minutes_limit,
    extraSharedRunnersMinutesLimit: input.extra_shared_runners_minutes_limit,
    projectsLimit: input.projects_limit,
    canCreateGroup: input.can_create_group,
    external: input.external,
    privateProfile: input.private_profile,
    admin: input.admin,
  };
}

/**
 * User#ensure_user_rights_and_limits: external users can create neither groups nor projects; turning a user back
 * into a regular one restores the defaults (the instance's default_projects_limit) unless the request sets them.
 */
export function externalLimits(input: Output<typeof UpdateUserInput>, defaultProjectsLimit: number) {
  if (input.external === true) return { canCreateGroup: false, projectsLimit: 0 };
  if (input.external === false) return { canCreateGroup: input.can_create_group ?? true, projectsLimit: input.projects_limit ?? defaultProjectsLimit };
  return {};
}

/** The identity and the avatar a create or an update brings, in its transaction; the user's row as it then is. */
export async function writeIdentityAndAvatar(tx: Db, user: UserRow, input: Output<typeof UpdateUserInput>): Promise<UserRow> {
  if (input.provider === undefined && !input.avatar) return user;
  await writeIdentity(tx, user.id, input);
  if (input.avatar) await storeAvatar(tx, { kind: 'user', id: user.id }, input.avatar);
  return (await q.findUserByRef(tx, user.id))!;
}

export function stripUndefined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
