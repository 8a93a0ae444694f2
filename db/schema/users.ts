import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';

/** One of a user's identities, in Entities::Identity's words. */
export interface IdentityEntry {
  provider: string;
  extern_uid: string;
}

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    /** 'active' | 'blocked' (GitLab's state machine, the two states this service has). */
    state: text('state').$type<'active' | 'blocked'>().notNull().default('active'),
    admin: boolean('admin').notNull().default(false),
    /** GitLab's internal users: 'alert_bot' authors what alerts log (system notes); null for a person. Never signs in. */
    userType: text('user_type').$type<'alert_bot'>(),
    /** Versioned PBKDF2 hash (lib/crypto.ts); null for users who cannot sign in with a password. */
    passwordHash: text('password_hash'),
    avatarUrl: text('avatar_url'),
    privateProfile: boolean('private_profile').notNull().default(false),
    bio: text('bio').notNull().default(''),
    location: text('location').notNull().default(''),
    publicEmail: text('public_email').notNull().default(''),
    websiteUrl: text('website_url').notNull().default(''),
    organization: text('organization').notNull().default(''),
    jobTitle: text('job_title').notNull().default(''),
    skype: text('skype').notNull().default(''),
    linkedin: text('linkedin').notNull().default(''),
    twitter: text('twitter').notNull().default(''),
    /** Gitlab::Themes and Gitlab::ColorSchemes ids: the web interface's, stored for the API (no pages use them). */
    themeId: integer('theme_id').notNull().default(1),
    colorSchemeId: integer('color_scheme_id').notNull().default(1),
    /** The administrators' note on the user (UserWithAdmin's `note`). */
    note: text('note'),
    /** EE's CI minutes limits (administrators): stored and returned; no minutes are counted here. */
    sharedRunnersMinutesLimit: integer('shared_runners_minutes_limit'),
    extraSharedRunnersMinutesLimit: integer('extra_shared_runners_minutes_limit'),
    projectsLimit: integer('projects_limit').notNull().default(100000),
    canCreateGroup: boolean('can_create_group').notNull().default(true),
    external: boolean('external').notNull().default(false),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    /** Where notifications go; null means the primary email (`notification_email_or_default`). */
    notificationEmail: text('notification_email'),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    currentSignInAt: timestamp('current_sign_in_at', { withTimezone: true }),
    lastActivityOn: date('last_activity_on'),
    /**
     * The user's identities as the entities show them, oldest first: a copy of their `identities` rows (the source,
     * with the uniqueness rules) refreshed in the same transaction as every change to them, so that the user's
     * entities (GET /user among them) cost no query of their own.
     */
    identities: jsonb('identities')
      .$type<IdentityEntry[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    ...timestamps,
  },
  (t) => [
    // Usernames and emails are unique without regard to case, as in GitLab.
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    index('users_state_idx').on(t.state),
  ],
);

/** Secondary emails; `confirmedAt` set means verified. */
export const emails = pgTable(
  'emails',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [uniqueIndex('emails_email_lower_idx').on(sql`lower(${t.email})`), index('emails_user_id_idx').on(t.userId)],
);

/** A user's status (GitLab's user_statuses): an emoji and a short message; none when both are cleared. */
export const userStatuses = pgTable('user_statuses', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  emoji: text('emoji').notNull().default('speech_balloon'),
  message: text('message'),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type UserRow = typeof users.$inferSelect;
export type UserStatusRow = typeof userStatuses.$inferSelect;
