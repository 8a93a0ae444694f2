// Issue boards (project or group) and their lists, as GitLab 13.6 stores them (boards, board_labels, lists,
// list_user_preferences).
// Which issues a list shows is derived from the issues (labels, state, assignees, milestone), never stored.
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { labels } from './labels.ts';
import { milestones } from './milestones.ts';
import { namespaces } from './namespaces.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

export const boards = pgTable(
  'boards',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    groupId: integer('group_id').references(() => namespaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull().default('Development'),
    /** EE board scope; may hold GitLab's special ids (0 None, -1 Any, -2 Upcoming, -3 Started): no foreign key. */
    milestoneId: integer('milestone_id'),
    /** EE board scope; -1 Any, null not scoped. */
    weight: integer('weight'),
    /** EE board scope (Boards::UpdateService#set_assignee: any user by id; null not scoped). */
    assigneeId: integer('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    hideBacklogList: boolean('hide_backlog_list').notNull().default(false),
    hideClosedList: boolean('hide_closed_list').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    check('boards_one_parent', sql`(${t.projectId} IS NULL) <> (${t.groupId} IS NULL)`),
    index('boards_project_id_idx').on(t.projectId),
    index('boards_group_id_idx').on(t.groupId),
  ],
);

/** GitLab's List.list_types (the integers order the lists: backlog, labels, closed, assignees, milestones). */
export const LIST_TYPES = { backlog: 0, label: 1, closed: 2, assignee: 3, milestone: 4 } as const;
export type ListType = keyof typeof LIST_TYPES;

export const lists = pgTable(
  'lists',
  {
    id: serial('id').primaryKey(),
    boardId: integer('board_id')
      .notNull()
      .references(() => boards.id, { onDelete: 'cascade' }),
    labelId: integer('label_id').references(() => labels.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    milestoneId: integer('milestone_id').references(() => milestones.id, { onDelete: 'cascade' }),
    listType: integer('list_type').notNull().default(LIST_TYPES.label),
    /** 0-based, contiguous among the movable lists of a board; null for backlog and closed. */
    position: integer('position'),
    /** WIP limits; 0 means no limit. */
    maxIssueCount: integer('max_issue_count').notNull().default(0),
    maxIssueWeight: integer('max_issue_weight').notNull().default(0),
    limitMetric: text('limit_metric').$type<'all_metrics' | 'issue_count' | 'issue_weights'>(),
    ...timestamps,
  },
  (t) => [
    check('lists_limits_nonnegative', sql`${t.maxIssueCount} >= 0 AND ${t.maxIssueWeight} >= 0`),
    index('lists_board_id_idx').on(t.boardId, t.listType, t.position),
    // GitLab's uniqueness validations (label, user, milestone per board), and one backlog and one closed list.
    uniqueIndex('lists_board_id_label_id_idx')
      .on(t.boardId, t.labelId)
      .where(sql`${t.labelId} IS NOT NULL`),
    uniqueIndex('lists_board_id_user_id_idx')
      .on(t.boardId, t.userId)
      .where(sql`${t.userId} IS NOT NULL`),
    uniqueIndex('lists_board_id_milestone_id_idx')
      .on(t.boardId, t.milestoneId)
      .where(sql`${t.milestoneId} IS NOT NULL`),
    uniqueIndex('lists_one_backlog_idx')
      .on(t.boardId)
      .where(sql`${t.listType} = 0`),
    uniqueIndex('lists_one_closed_idx')
      .on(t.boardId)
      .where(sql`${t.listType} = 2`),
    index('lists_label_id_idx').on(t.labelId),
  ],
);

export const listUserPreferences = pgTable(
  'list_user_preferences',
  {
    id: serial('id').primaryKey(),
    listId: integer('list_id')
      .notNull()
      .references(() => lists.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    collapsed: boolean('collapsed'),
    ...timestamps,
  },
  (t) => [uniqueIndex('list_user_preferences_list_id_user_id_idx').on(t.listId, t.userId)],
);

/** EE board scope: the labels a scoped board shows (board_labels). */
export const boardLabels = pgTable(
  'board_labels',
  {
    id: serial('id').primaryKey(),
    boardId: integer('board_id')
      .notNull()
      .references(() => boards.id, { onDelete: 'cascade' }),
    labelId: integer('label_id')
      .notNull()
      .references(() => labels.id, { onDelete: 'cascade' }),
  },
  (t) => [uniqueIndex('board_labels_board_id_label_id_idx').on(t.boardId, t.labelId), index('board_labels_label_id_idx').on(t.labelId)],
);

export type BoardRow = typeof boards.$inferSelect;
export type ListRow = typeof lists.$inferSelect;
