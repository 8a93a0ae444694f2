// Iterations (GitLab EE's `sprints`, Premium): timeboxes of a group (or, in the schema only, a project) with
// their own iid sequence per group. There is no state column: GitLab 13.6 moves state_enum with a daily cron
// (IterationsUpdateStatusWorker), which is just a function of the dates and today, so it is computed when read.
// Dates of one group never overlap; the check runs in the create transaction under a lock on the group row
// (drizzle-kit cannot emit GitLab's `EXCLUDE USING gist` and PGlite lacks btree_gist).
import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { namespaces } from './namespaces.ts';
import { projects } from './projects.ts';

export const iterations = pgTable(
  'sprints',
  {
    id: serial('id').primaryKey(),
    iid: integer('iid').notNull(),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    groupId: integer('group_id').references(() => namespaces.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    startDate: date('start_date').notNull(),
    dueDate: date('due_date').notNull(),
    ...timestamps,
  },
  (t) => [
    check('sprints_must_belong_to_project_or_group', sql`(${t.projectId} IS NULL) <> (${t.groupId} IS NULL)`),
    check('sprints_title', sql`char_length(${t.title}) <= 255`),
    check('sprints_due_after_start', sql`${t.dueDate} > ${t.startDate}`),
    uniqueIndex('sprints_group_id_iid_idx')
      .on(t.groupId, t.iid)
      .where(sql`${t.groupId} IS NOT NULL`),
    uniqueIndex('sprints_project_id_iid_idx')
      .on(t.projectId, t.iid)
      .where(sql`${t.projectId} IS NOT NULL`),
    uniqueIndex('sprints_group_id_title_idx')
      .on(t.groupId, t.title)
      .where(sql`${t.groupId} IS NOT NULL`),
    uniqueIndex('sprints_project_id_title_idx')
      .on(t.projectId, t.title)
      .where(sql`${t.projectId} IS NOT NULL`),
    index('sprints_due_date_idx').on(t.dueDate, t.title),
  ],
);

export type IterationRow = typeof iterations.$inferSelect;
