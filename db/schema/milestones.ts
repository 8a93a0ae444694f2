// Project and group milestones (exactly one of project_id, group_id), with their own iid sequence per source.
import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { namespaces } from './namespaces.ts';
import { projects } from './projects.ts';

export const milestones = pgTable(
  'milestones',
  {
    id: serial('id').primaryKey(),
    iid: integer('iid').notNull(),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    groupId: integer('group_id').references(() => namespaces.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    state: text('state').$type<'active' | 'closed'>().notNull().default('active'),
    dueDate: date('due_date'),
    startDate: date('start_date'),
    ...timestamps,
  },
  (t) => [
    check('milestones_one_source', sql`(${t.projectId} IS NULL) <> (${t.groupId} IS NULL)`),
    uniqueIndex('milestones_project_id_iid_idx')
      .on(t.projectId, t.iid)
      .where(sql`${t.projectId} IS NOT NULL`),
    uniqueIndex('milestones_group_id_iid_idx')
      .on(t.groupId, t.iid)
      .where(sql`${t.groupId} IS NOT NULL`),
    // GitLab: a title is unique within its project or group.
    uniqueIndex('milestones_project_id_title_idx')
      .on(t.projectId, t.title)
      .where(sql`${t.projectId} IS NOT NULL`),
    uniqueIndex('milestones_group_id_title_idx')
      .on(t.groupId, t.title)
      .where(sql`${t.groupId} IS NOT NULL`),
    index('milestones_state_idx').on(t.state),
  ],
);

export type MilestoneRow = typeof milestones.$inferSelect;
