// Notification settings: one row per user and source (a project, a group, or neither for the global setting), written
// only when the user changes something; no row means the default (global: participating; a source: global).
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, unique } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { namespaces } from './namespaces.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

export const NOTIFICATION_LEVELS = ['disabled', 'participating', 'watch', 'global', 'mention', 'custom'] as const;
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number];

/** The spec's email events, in its order; each a nullable boolean column of the same name. */
export const EMAIL_EVENTS = [
  'new_note',
  'new_issue',
  'reopen_issue',
  'close_issue',
  'reassign_issue',
  'issue_due',
  'new_merge_request',
  'push_to_merge_request',
  'reopen_merge_request',
  'close_merge_request',
  'reassign_merge_request',
  'merge_merge_request',
  'failed_pipeline',
  'fixed_pipeline',
  'success_pipeline',
  'moved_project',
  'new_epic',
] as const;
export type EmailEvent = (typeof EMAIL_EVENTS)[number];

const eventColumns = Object.fromEntries(EMAIL_EVENTS.map((e) => [e, boolean(e)])) as { [K in EmailEvent]: ReturnType<typeof boolean<K>> };

export const notificationSettings = pgTable(
  'notification_settings',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Set for a project setting (deleted with the project). */
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    /** Set for a group setting (deleted with the group). */
    namespaceId: integer('namespace_id').references(() => namespaces.id, { onDelete: 'cascade' }),
    level: text('level').$type<NotificationLevel>().notNull(),
    ...eventColumns,
    ...timestamps,
  },
  (t) => [
    // One setting per user and source; the global one has both sources null (NULLS NOT DISTINCT, PostgreSQL 15+).
    unique('notification_settings_user_source_key').on(t.userId, t.projectId, t.namespaceId).nullsNotDistinct(),
    check('notification_settings_one_source', sql`${t.projectId} IS NULL OR ${t.namespaceId} IS NULL`),
    check('notification_settings_level', sql`${t.level} IN ('disabled', 'participating', 'watch', 'global', 'mention', 'custom')`),
    index('notification_settings_project_id_idx').on(t.projectId),
    index('notification_settings_namespace_id_idx').on(t.namespaceId),
  ],
);

export type NotificationSettingRow = typeof notificationSettings.$inferSelect;
