import { date, index, integer, pgTable, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { users } from './users.ts';

/**
 * Memberships of projects and groups, one table as GitLab's `members` (source_type 'Project' | 'Namespace').
 * Access levels: 10 guest, 20 reporter, 30 developer, 40 maintainer, 50 owner.
 */
export const members = pgTable(
  'members',
  {
    id: serial('id').primaryKey(),
    sourceType: text('source_type').$type<'Project' | 'Namespace'>().notNull(),
    sourceId: integer('source_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessLevel: smallint('access_level').notNull(),
    expiresAt: date('expires_at'),
    createdById: integer('created_by_id'),
    ...timestamps,
  },
  (t) => [uniqueIndex('members_source_user_idx').on(t.sourceType, t.sourceId, t.userId), index('members_user_id_idx').on(t.userId, t.sourceType)],
);

export type MemberRow = typeof members.$inferSelect;
