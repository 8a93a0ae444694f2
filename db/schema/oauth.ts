import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { users } from './users.ts';

/** OAuth applications (clients). Only the SHA-256 digest of the client secret is stored. */
export const oauthApplications = pgTable(
  'oauth_applications',
  {
    id: serial('id').primaryKey(),
    /** The client id ("Application ID"): 64 hex characters, public. */
    uid: text('uid').notNull(),
    secretDigest: text('secret_digest').notNull(),
    name: text('name').notNull(),
    redirectUris: text('redirect_uris').array().notNull(),
    scopes: text('scopes').array().notNull(),
    confidential: boolean('confidential').notNull().default(true),
    /** Admin-created (API) applications have no owner. */
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Trusted applications skip the consent page (GitLab admin setting). */
    trusted: boolean('trusted').notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex('oauth_applications_uid_idx').on(t.uid), index('oauth_applications_owner_id_idx').on(t.ownerId)],
);

/** Authorization codes (Doorkeeper's access grants): single use, 10 minutes, bound to client, redirect URI and PKCE. */
export const oauthGrants = pgTable(
  'oauth_grants',
  {
    id: serial('id').primaryKey(),
    codeDigest: text('code_digest').notNull(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => oauthApplications.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    redirectUri: text('redirect_uri').notNull(),
    scopes: text('scopes').array().notNull(),
    codeChallenge: text('code_challenge'),
    codeChallengeMethod: text('code_challenge_method'),
    nonce: text('nonce'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('oauth_grants_code_digest_idx').on(t.codeDigest), index('oauth_grants_application_user_idx').on(t.applicationId, t.userId)],
);

/**
 * OAuth access tokens with their refresh tokens (digests only). `lineage` groups every token that descends from one
 * authorization (a code, or a password grant), so a replayed refresh token can revoke them all at once.
 */
export const oauthAccessTokens = pgTable(
  'oauth_access_tokens',
  {
    id: serial('id').primaryKey(),
    tokenDigest: text('token_digest').notNull(),
    refreshTokenDigest: text('refresh_token_digest'),
    applicationId: integer('application_id').references(() => oauthApplications.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scopes: text('scopes').array().notNull(),
    /** Seconds the access token lives (7200); null would mean no expiry (never issued now). */
    expiresIn: integer('expires_in'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** The authorization code this lineage started from (null for the password grant). */
    grantId: integer('grant_id').references(() => oauthGrants.id, { onDelete: 'set null' }),
    lineage: text('lineage').notNull(),
    /** The token whose refresh token was exchanged for this one. */
    previousTokenId: integer('previous_token_id'),
    /** First use of this access token or its refresh token: ends the grace of the token it replaced. */
    firstUsedAt: timestamp('first_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('oauth_access_tokens_token_digest_idx').on(t.tokenDigest),
    uniqueIndex('oauth_access_tokens_refresh_token_digest_idx').on(t.refreshTokenDigest),
    index('oauth_access_tokens_lineage_idx').on(t.lineage),
    index('oauth_access_tokens_application_user_idx').on(t.applicationId, t.userId),
    index('oauth_access_tokens_previous_token_id_idx').on(t.previousTokenId),
  ],
);

/** Browser sessions: the cookie holds a random id, the table its digest. */
export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    digest: text('digest').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('sessions_digest_idx').on(t.digest), index('sessions_user_id_idx').on(t.userId)],
);

/** Fixed-window failure counters for sign-in and the password grant (per account and per client IP). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
});

export type OAuthApplicationRow = typeof oauthApplications.$inferSelect;
export type OAuthGrantRow = typeof oauthGrants.$inferSelect;
export type OAuthAccessTokenRow = typeof oauthAccessTokens.$inferSelect;
