import { sql } from 'drizzle-orm';
import { integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { users } from './users.ts';

/**
 * A user's accounts at external authentication providers (GitLab's Identity): set by administrators through
 * `provider`/`extern_uid` on POST/PUT /users. As in GitLab, a user has at most one identity per provider, and an
 * external uid names at most one user of a provider, without regard to case; a blank uid claims nothing.
 */
export const identities = pgTable(
  'identities',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    externUid: text('extern_uid').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('identities_user_id_provider_idx').on(t.userId, t.provider),
    uniqueIndex('identities_provider_extern_uid_lower_idx')
      .on(t.provider, sql`lower(${t.externUid})`)
      .where(sql`${t.externUid} <> ''`),
  ],
);

export type IdentityRow = typeof identities.$inferSelect;
