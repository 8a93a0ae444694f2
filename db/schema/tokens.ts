import { boolean, date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { users } from './users.ts';

/** Personal access tokens. Only the SHA-256 digest of the token is stored. */
export const personalAccessTokens = pgTable(
  'personal_access_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenDigest: text('token_digest').notNull(),
    scopes: text('scopes').array().notNull(),
    expiresAt: date('expires_at'),
    revoked: boolean('revoked').notNull().default(false),
    /** An impersonation token: made by an administrator for the user (GitLab's PersonalAccessToken#impersonation). */
    impersonation: boolean('impersonation').notNull().default(false),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [uniqueIndex('pat_token_digest_idx').on(t.tokenDigest), index('pat_user_id_idx').on(t.userId)],
);

export type PersonalAccessTokenRow = typeof personalAccessTokens.$inferSelect;
