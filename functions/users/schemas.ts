// Input schemas and GitLab's user entities (UserBasic, User, UserPublic, UserWithAdmin).
import type { UserRow } from '../../db/schema/index.ts';
import type { Config } from '../env.ts';
import type { Actor } from '../lib/context.ts';
import { paginationParams } from '../lib/pagination.ts';
import { bool, id, modelRule, oneOf, str, text, z } from '../lib/validate.ts';

// GitLab's namespace path rule (usernames and group/project paths share it).
export const PATH_PATTERN = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;
const PATH_ENDINGS = /(\.git|\.atom|\.)$/i;
export const isValidPath = (s: string) => PATH_PATTERN.test(s) && !PATH_ENDINGS.test(s);
export const PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.";
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const username = () => z.pipe(str(255), z.string().check(modelRule((s: string) => isValidPath(s), PATH_MESSAGE)));
const email = () => z.pipe(str(255), z.string().check(modelRule((s: string) => EMAIL.test(s), 'is invalid')));
const password = () => z.pipe(str(128), z.string().check(modelRule((s: string) => s.length >= 8, 'is too short (minimum is 8 characters)')));

const profileFields = {
  bio: z.optional(text(255)),
  location: z.optional(str(255)),
  public_email: z.optional(str(255)),
  website_url: z.optional(str(255)),
  organization: z.optional(str(255)),
  job_title: z.optional(str(255)),
  projects_limit: z.optional(z.pipe(id(), z.number())),
  can_create_group: z.optional(bool()),
  external: z.optional(bool()),
  private_profile: z.optional(bool()),
  admin: z.optional(bool()),
};

export const CreateUserInput = z.object({
  email: email(),
  name: str(255),
  username: username(),
  password: z.optional(password()),
  reset_password: z.optional(bool()),
  force_random_password: z.optional(bool()),
  skip_confirmation: z.optional(bool()),
  /** Deprecated in v4 (`confirm=false` is `skip_confirmation=true`); still accepted. */
  confirm: z.optional(bool()),
  ...profileFields,
});

export const UpdateUserInput = z.object({
  email: z.optional(email()),
  name: z.optional(str(255)),
  username: z.optional(username()),
  password: z.optional(password()),
  skip_reconfirmation: z.optional(bool()),
  ...profileFields,
});

export const ListUsersInput = z.object({
  ...paginationParams,
  username: z.optional(str(255)),
  search: z.optional(str(255)),
  active: z.optional(bool()),
  blocked: z.optional(bool()),
  external: z.optional(bool()),
  order_by: z._default(oneOf(['id', 'name', 'username', 'created_at', 'updated_at']), 'id'),
  sort: z._default(oneOf(['asc', 'desc']), 'desc'),
});

export const DeleteUserInput = z.object({ hard_delete: z.optional(bool()) });

const iso = (d: Date | string | null | undefined) => (d == null ? null : new Date(d).toISOString());

export const userWebUrl = (config: Config, u: Pick<UserRow, 'username'>) => `${config.publicUrl}/${u.username}`;
export const avatarUrl = (config: Config, url: string | null | undefined) => (url ? (url.startsWith('/') ? config.publicUrl + url : url) : null);

/** Entities::UserBasic */
export function toUserBasic(u: UserRow, config: Config) {
  return { id: u.id, name: u.name, username: u.username, state: u.state, avatar_url: avatarUrl(config, u.avatarUrl), web_url: userWebUrl(config, u) };
}

/** Entities::User: the profile, hidden behind a private profile from everyone but the user and admins. */
export function toUser(u: UserRow, config: Config, viewer: Actor) {
  const basic = toUserBasic(u, config);
  const hidden = u.privateProfile && !(viewer.user?.admin || viewer.user?.id === u.id);
  if (hidden) return basic;
  return {
    ...basic,
    created_at: iso(u.createdAt),
    bio: u.bio,
    location: u.location,
    public_email: u.publicEmail,
    skype: '',
    linkedin: '',
    twitter: '',
    website_url: u.websiteUrl,
    organization: u.organization,
    job_title: u.jobTitle,
  };
}

/** Entities::UserPublic: what a user sees of themselves. */
export function toUserPublic(u: UserRow, config: Config, viewer: Actor) {
  return {
    ...toUser(u, config, viewer),
    created_at: iso(u.createdAt),
    bio: u.bio,
    location: u.location,
    public_email: u.publicEmail,
    skype: '',
    linkedin: '',
    twitter: '',
    website_url: u.websiteUrl,
    organization: u.organization,
    job_title: u.jobTitle,
    last_sign_in_at: iso(u.lastSignInAt),
    confirmed_at: iso(u.confirmedAt),
    last_activity_on: u.lastActivityOn ?? null,
    email: u.email,
    theme_id: 1,
    color_scheme_id: 1,
    projects_limit: u.projectsLimit,
    current_sign_in_at: iso(u.currentSignInAt),
    identities: [],
    can_create_group: u.canCreateGroup,
    can_create_project: u.projectsLimit > 0,
    two_factor_enabled: false,
    external: u.external,
    private_profile: u.privateProfile,
  };
}

/** Entities::UserWithAdmin: UserPublic plus `is_admin`, for administrators. */
export function toUserWithAdmin(u: UserRow, config: Config, viewer: Actor) {
  return { ...toUserPublic(u, config, viewer), is_admin: u.admin };
}
