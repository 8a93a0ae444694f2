// What users attach to issues, notes and snippets: award emoji, to-dos and subscriptions.
import { boolean, index, integer, pgTable, serial, smallint, text, unique } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { namespaces } from './namespaces.ts';
import { notes } from './notes.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

export type AwardableType = 'Issue' | 'Note' | 'Snippet' | 'MergeRequest' | 'Epic';

export const awardEmoji = pgTable(
  'award_emoji',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    awardableType: text('awardable_type').$type<AwardableType>().notNull(),
    awardableId: integer('awardable_id').notNull(),
    ...timestamps,
  },
  // GitLab: one award of a name per user and awardable ("has already been taken").
  (t) => [unique('award_emoji_awardable_user_name_key').on(t.awardableType, t.awardableId, t.userId, t.name), index('award_emoji_user_id_idx').on(t.userId)],
);

/**
 * To-dos. `action` is GitLab's Todo action: 1 assigned, 2 mentioned, 3 build_failed, 4 marked, 5 approval_required,
 * 6 unmergeable, 7 directly_addressed.
 */
export const todos = pgTable(
  'todos',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    groupId: integer('group_id').references(() => namespaces.id, { onDelete: 'cascade' }),
    targetType: text('target_type').$type<'Issue' | 'MergeRequest' | 'Snippet' | 'Epic' | 'AlertManagement::Alert'>().notNull(),
    targetId: integer('target_id').notNull(),
    action: smallint('action').notNull(),
    state: text('state').$type<'pending' | 'done'>().notNull().default('pending'),
    noteId: integer('note_id').references(() => notes.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [index('todos_user_id_state_id_idx').on(t.userId, t.state, t.id), index('todos_target_idx').on(t.targetType, t.targetId)],
);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subscribableType: text('subscribable_type').$type<'Issue' | 'MergeRequest' | 'Label'>().notNull(),
    subscribableId: integer('subscribable_id').notNull(),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    /** False records an explicit unsubscribe (which beats participation). */
    subscribed: boolean('subscribed').notNull(),
    ...timestamps,
  },
  (t) => [unique('subscriptions_subscribable_user_key').on(t.subscribableType, t.subscribableId, t.userId)],
);

export type TodoRow = typeof todos.$inferSelect;
