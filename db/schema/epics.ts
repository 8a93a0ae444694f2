// Group epics (GitLab EE, Premium): epics with their own iid sequence per group, the issues they hold (an issue is
// in at most one epic) and the per-user collapsed state of an epic on a board. Labels reach epics through
// label_links (target_type 'Epic'). The dates inherited from milestones (GitLab's Epics::UpdateDatesService cache)
// are computed when read, from the milestones of the epic's issues, so an issue's milestone change needs no hook here.
import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, serial, text, timestamp, unique, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { issues } from './issues.ts';
import { namespaces } from './namespaces.ts';
import { users } from './users.ts';

export const epics = pgTable(
  'epics',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => namespaces.id, { onDelete: 'cascade' }),
    iid: integer('iid').notNull(),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    description: text('description'),
    state: text('state').$type<'opened' | 'closed'>().notNull().default('opened'),
    confidential: boolean('confidential').notNull().default(false),
    parentId: integer('parent_id').references((): AnyPgColumn => epics.id, { onDelete: 'cascade' }),
    startDateFixed: date('start_date_fixed'),
    startDateIsFixed: boolean('start_date_is_fixed'),
    dueDateFixed: date('due_date_fixed'),
    dueDateIsFixed: boolean('due_date_is_fixed'),
    closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }),
    closedById: integer('closed_by_id').references(() => users.id, { onDelete: 'set null' }),
    relativePosition: integer('relative_position'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('epics_group_id_iid_idx').on(t.groupId, t.iid),
    index('epics_parent_id_idx').on(t.parentId),
    index('epics_author_id_idx').on(t.authorId),
    check('epics_title_length', sql`char_length(${t.title}) <= 255`),
  ],
);

export const epicIssues = pgTable(
  'epic_issues',
  {
    id: serial('id').primaryKey(),
    epicId: integer('epic_id')
      .notNull()
      .references(() => epics.id, { onDelete: 'cascade' }),
    issueId: integer('issue_id')
      .notNull()
      .references(() => issues.id, { onDelete: 'cascade' }),
    relativePosition: integer('relative_position'),
  },
  // GitLab: an issue belongs to at most one epic (index_epic_issues_on_issue_id is unique).
  (t) => [uniqueIndex('epic_issues_issue_id_idx').on(t.issueId), index('epic_issues_epic_id_idx').on(t.epicId)],
);

/** boards_epic_user_preferences: whether an epic's swimlane is collapsed on a board, per user. */
export const boardEpicUserPreferences = pgTable(
  'boards_epic_user_preferences',
  {
    id: serial('id').primaryKey(),
    boardId: integer('board_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    epicId: integer('epic_id')
      .notNull()
      .references(() => epics.id, { onDelete: 'cascade' }),
    collapsed: boolean('collapsed').notNull().default(false),
  },
  (t) => [unique('boards_epic_user_preferences_key').on(t.boardId, t.userId, t.epicId)],
);

export type EpicRow = typeof epics.$inferSelect;
export type EpicIssueRow = typeof epicIssues.$inferSelect;
