// Input schemas and GitLab's user entities (UserBasic, User, UserPublic, UserWithAdmin, UserDetailsWithAdmin).
// Parameters are checked in two layers, as GitLab does: Grape-level types and presence here (`{"error":...}`,
// before any permission check), ActiveRecord-level rules in `modelErrors` (`{"message":{...}}`, after the
// administrator check and the uniqueness checks, which GitLab answers with 409 first).
import type { IdentityEntry, UserRow } from '../../db/schema/index.ts';
import type { Config } from '../lib/context.ts';
import type { Actor } from '../lib/context.ts';
import { can } from '../lib/policy.ts';
import { paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { allOrNoneOf, atLeastOneOf, bool, dateTime, id, int, oneOf, schema, str, text } from '../lib/validate.ts';
import { iso } from '../lib/format.ts';
import { avatarFile } from '../uploads/avatars.ts';

// GitLab's namespace path rule (usernames and group/project paths share it).
export const PATH_PATTERN = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;
const PATH_ENDINGS = /(\.git|\.atom|\.)$/i;
export const isValidPath = (s: string) => PATH_PATTERN.test(s) && !PATH_ENDINGS.test(s);
export const PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.";
/** Devise's email format, as the User and Email models check it. */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_INT = 2_147_483_647;

/**
 * An id looked up where GitLab answers "not found" for an unknown one (`requires :id, type: Integer` and
 * `find_by`): any integer is accepted (anything else is `is invalid`); integers no row can have (no lib/validate.ts
 * `id()`: outside 1..2^31-1, the integer column's range) become null, which the verbs treat as not found, as
 * lib/ids.ts does.
 */
export const lookupId = () =>
  z.transform((v: unknown, ctx): number | null => {
    const s = typeof v === 'string' ? v.trim() : v;
    const n = typeof s === 'string' && /^[+-]?\d+$/.test(s) ? Number(s) : typeof s === 'number' && Number.isInteger(s) ? s : undefined;
    if (n === undefined) {
      ctx.issues.push({ code: 'invalid_type', expected: 'int', input: v });
      return null;
    }
    return id().safeParse(n).success ? n : null;
  });

// `/users/:id` takes a number only (GitLab's route requirement `id: /[0-9]*/`): a username matches no route.
export const USER_ID_ROUTE = ':id{[0-9]+}';
export const UserIdPath = schema(() => z.object({ id: lookupId() }));

// Free-form string attributes: Grape only checks the type; lengths are model rules (see modelErrors).
const attr = () => str(100_000);

const profileFields = () => ({
  bio: z.optional(text(100_000)),
  location: z.optional(attr()),
  public_email: z.optional(attr()),
  website_url: z.optional(attr()),
  organization: z.optional(attr()),
  job_title: z.optional(attr()),
  skype: z.optional(attr()),
  linkedin: z.optional(attr()),
  twitter: z.optional(attr()),
  theme_id: z.optional(int()),
  color_scheme_id: z.optional(int()),
  note: z.optional(text(100_000)),
  shared_runners_minutes_limit: z.optional(int()),
  extra_shared_runners_minutes_limit: z.optional(int()),
  projects_limit: z.optional(int()),
  can_create_group: z.optional(bool()),
  external: z.optional(bool()),
  private_profile: z.optional(bool()),
  admin: z.optional(bool()),
  // An identity (see allOrNoneOf) and an avatar: administrators set them on create and update alike.
  provider: z.optional(attr()),
  extern_uid: z.optional(attr()),
  avatar: z.optional(avatarFile()),
});

const IDENTITY_KEYS = ['extern_uid', 'provider'];

export const CreateUserInput = schema(() =>
  z
    .object({
      email: attr(),
      password: z.optional(attr()),
      reset_password: z.optional(bool()),
      skip_confirmation: z.optional(bool()),
      name: attr(),
      username: attr(),
      force_random_password: z.optional(bool()),
      /** Deprecated in v4 (`confirm=false` is `skip_confirmation=true`); still accepted. */
      confirm: z.optional(bool()),
      ...profileFields(),
    })
    .check(atLeastOneOf(['password', 'reset_password', 'force_random_password']), allOrNoneOf(IDENTITY_KEYS)),
);

export const UpdateUserInput = schema(() =>
  z
    .object({
      email: z.optional(attr()),
      password: z.optional(attr()),
      skip_reconfirmation: z.optional(bool()),
      name: z.optional(attr()),
      username: z.optional(attr()),
      ...profileFields(),
    })
    .check(allOrNoneOf(IDENTITY_KEYS)),
);

export const ListUsersInput = schema(() =>
  z
    .object({
      username: z.optional(str(255)),
      /** With `provider`: the user holding this uid there (administrators). */
      extern_uid: z.optional(attr()),
      provider: z.optional(attr()),
      search: z.optional(str(255)),
      active: z.optional(bool()),
      external: z.optional(bool()),
      blocked: z.optional(bool()),
      created_after: z.optional(dateTime()),
      created_before: z.optional(dateTime()),
      order_by: z._default(oneOf(['id', 'name', 'username', 'created_at', 'updated_at']), 'id'),
      sort: z._default(oneOf(['asc', 'desc']), 'desc'),
      ...paginationParams(),
    })
    .check(allOrNoneOf(IDENTITY_KEYS)),
);

export const DeleteUserInput = schema(() => z.object({ hard_delete: z.optional(bool()) }));

type ModelInput = Partial<
  Record<
    'email' | 'password' | 'name' | 'username' | 'bio' | 'location' | 'website_url' | 'organization' | 'job_title' | 'skype' | 'linkedin' | 'twitter',
    string
  >
> &
  Partial<Record<'projects_limit' | 'theme_id' | 'color_scheme_id' | 'shared_runners_minutes_limit' | 'extra_shared_runners_minutes_limit', number>>;

/**
 * The User model's validations (ActiveRecord messages), for the attributes present in `input`:
 * `{"password":["is too short (minimum is 8 characters)"], ...}`; empty when valid.
 */
export function modelErrors(input: ModelInput): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const tooLong = (field: keyof ModelInput, max: number) => {
    const v = input[field];
    if (typeof v === 'string' && v.length > max) add(field, `is too long (maximum is ${max} characters)`);
  };
  if (input.email !== undefined) {
    if (input.email.trim() === '') add('email', "can't be blank");
    else if (!EMAIL.test(input.email)) add('email', 'is invalid');
  }
  if (input.password !== undefined) {
    if (input.password.length < 8) add('password', 'is too short (minimum is 8 characters)');
    tooLong('password', 128);
  }
  if (input.name !== undefined) {
    if (input.name.trim() === '') add('name', "can't be blank");
    tooLong('name', 255);
  }
  if (input.username !== undefined) {
    if (input.username === '') add('username', "can't be blank");
    else if (!isValidPath(input.username)) add('username', PATH_MESSAGE);
    tooLong('username', 255);
  }
  tooLong('bio', 255);
  tooLong('location', 255);
  tooLong('website_url', 255);
  tooLong('organization', 255);
  tooLong('job_title', 200);
  tooLong('skype', 500);
  tooLong('linkedin', 500);
  tooLong('twitter', 500);
  // Gitlab::Themes.valid_ids (13.6: 1-11) and Gitlab::ColorSchemes.valid_ids (1-6).
  if (input.theme_id !== undefined && (input.theme_id < 1 || input.theme_id > 11)) add('theme_id', 'is not included in the list');
  if (input.color_scheme_id !== undefined && (input.color_scheme_id < 1 || input.color_scheme_id > 6)) add('color_scheme_id', 'is not included in the list');
  for (const field of ['shared_runners_minutes_limit', 'extra_shared_runners_minutes_limit'] as const) {
    const v = input[field];
    if (v !== undefined && v < 0) add(field, 'must be greater than or equal to 0');
  }
  if (input.projects_limit !== undefined) {
    if (input.projects_limit < 0) add('projects_limit', 'must be greater than or equal to 0');
    else if (input.projects_limit > MAX_INT) add('projects_limit', `must be less than or equal to ${MAX_INT}`);
  }
  return errors;
}

// ---- Entities ----

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const userWebUrl = (config: Config, u: Pick<UserRow, 'username'>) => `${config.publicUrl}/${u.username}`;
export const avatarUrl = (config: Config, url: string | null | undefined) => (url ? (url.startsWith('/') ? config.publicUrl + url : url) : null);

/** What UserBasic needs of a user (a row, or the json a page query builds). */
export type BasicUserFields = Pick<UserRow, 'id' | 'name' | 'username' | 'avatarUrl'> & { state: string };

/** Entities::UserBasic */
export function toUserBasic(u: BasicUserFields, config: Config) {
  return { id: u.id, name: u.name, username: u.username, state: u.state, avatar_url: avatarUrl(config, u.avatarUrl), web_url: userWebUrl(config, u) };
}

/** GitLab's `read_user_profile`: a private profile is readable by its owner and administrators only. */
const readsProfile = (u: UserRow, viewer: Actor) =>
  can(viewer, 'user:read_profile', { kind: 'user', id: u.id, state: u.state, privateProfile: u.privateProfile });

/** UsersHelper#work_information: "<job title> at <organization>", either alone, or null. */
function workInformation(u: UserRow) {
  if (u.jobTitle && u.organization) return `${u.jobTitle} at ${u.organization}`;
  return u.jobTitle || u.organization || null;
}

/** Entities::User: UserBasic and the profile; `created_at` only for those who may read a private profile. */
export function toUser(u: UserRow, config: Config, viewer: Actor) {
  return {
    ...toUserBasic(u, config),
    ...(readsProfile(u, viewer) ? { created_at: iso(u.createdAt) } : {}),
    bio: u.bio,
    bio_html: escapeHtml(u.bio),
    location: u.location,
    public_email: u.publicEmail,
    skype: u.skype,
    linkedin: u.linkedin,
    twitter: u.twitter,
    website_url: u.websiteUrl,
    organization: u.organization,
    job_title: u.jobTitle,
    bot: false,
    work_information: workInformation(u),
  };
}

/** Entities::Identity; EE adds `saml_provider_id` (group SAML, a paid feature: always null here). */
function toIdentity(i: IdentityEntry, config: Config) {
  const identity = { provider: i.provider, extern_uid: i.extern_uid };
  return config.instanceTier === 'free' ? identity : { ...identity, saml_provider_id: null };
}

/** Entities::UserPublic: what a user sees of themselves (`identities`: theirs, oldest first). */
export function toUserPublic(u: UserRow, config: Config, viewer: Actor) {
  return {
    ...toUser(u, config, viewer),
    last_sign_in_at: iso(u.lastSignInAt),
    confirmed_at: iso(u.confirmedAt),
    last_activity_on: u.lastActivityOn ?? null,
    email: u.email,
    theme_id: u.themeId,
    color_scheme_id: u.colorSchemeId,
    projects_limit: u.projectsLimit,
    current_sign_in_at: iso(u.currentSignInAt),
    identities: u.identities.map((i) => toIdentity(i, config)),
    can_create_group: u.canCreateGroup,
    can_create_project: u.projectsLimit > 0,
    two_factor_enabled: false,
    external: u.external,
    private_profile: u.privateProfile,
  };
}

/** Entities::UserWithAdmin: UserPublic plus `is_admin`, for administrators. */
export function toUserWithAdmin(u: UserRow, config: Config, viewer: Actor) {
  return {
    ...toUserPublic(u, config, viewer),
    is_admin: u.admin,
    note: u.note,
    // EE::API::Entities::UserWithAdmin
    ...(config.instanceTier !== 'free'
      ? { shared_runners_minutes_limit: u.sharedRunnersMinutesLimit, extra_shared_runners_minutes_limit: u.extraSharedRunnersMinutesLimit }
      : {}),
  };
}

/** Entities::UserDetailsWithAdmin (`GET /users/:id` for administrators). */
export function toUserDetailsWithAdmin(u: UserRow, config: Config, viewer: Actor, highestRole: number) {
  return { ...toUserWithAdmin(u, config, viewer), highest_role: highestRole, current_sign_in_ip: null, last_sign_in_ip: null };
}
