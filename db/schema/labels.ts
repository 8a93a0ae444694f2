// Project and group labels (exactly one of project_id, group_id) and their links to issues (and, later, merge
// requests): GitLab's labels and label_links.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { namespaces } from './namespaces.ts';
import { projects } from './projects.ts';

export const labels = pgTable(
  'labels',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    groupId: integer('group_id').references(() => namespaces.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** `#RRGGBB` (named CSS colours are converted on input, as GitLab does). */
    color: text('color').notNull(),
    description: text('description'),
    /** Project label priority (lower first); null: not prioritized. */
    priority: integer('priority'),
    ...timestamps,
  },
  (t) => [
    check('labels_one_source', sql`(${t.projectId} IS NULL) <> (${t.groupId} IS NULL)`),
    // GitLab: a title is unique within its project or group (case-sensitive, as its validation).
    uniqueIndex('labels_project_id_title_idx')
      .on(t.projectId, t.title)
      .where(sql`${t.projectId} IS NOT NULL`),
    uniqueIndex('labels_group_id_title_idx')
      .on(t.groupId, t.title)
      .where(sql`${t.groupId} IS NOT NULL`),
  ],
);

export const labelLinks = pgTable(
  'label_links',
  {
    id: serial('id').primaryKey(),
    labelId: integer('label_id')
      .notNull()
      .references(() => labels.id, { onDelete: 'cascade' }),
    targetType: text('target_type').$type<'Issue' | 'MergeRequest' | 'Epic'>().notNull(),
    targetId: integer('target_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('label_links_target_label_key').on(t.targetType, t.targetId, t.labelId), index('label_links_label_id_idx').on(t.labelId)],
);

export type LabelRow = typeof labels.$inferSelect;
