// Requests for access to a project or a group (GitLab keeps them as members with `requested_at`; here they are
// their own rows, so no membership query has to leave them out). Approving one turns it into a membership.
import { index, integer, pgTable, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const accessRequests = pgTable(
  'access_requests',
  {
    id: serial('id').primaryKey(),
    sourceType: text('source_type').$type<'Project' | 'Namespace'>().notNull(),
    sourceId: integer('source_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [unique('access_requests_source_user_key').on(t.sourceType, t.sourceId, t.userId), index('access_requests_user_idx').on(t.userId)],
);

export type AccessRequestRow = typeof accessRequests.$inferSelect;
