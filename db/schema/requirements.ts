// GitLab's requirements management (Ultimate): requirements, numbered per project, and their test reports (the
// latest one is the requirement's `lastTestReportState`). GitLab keeps `state` as an integer enum; text here, as
// issues' state.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

export const requirements = pgTable(
  'requirements',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    iid: integer('iid').notNull(),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    description: text('description'),
    state: text('state').$type<'opened' | 'archived'>().notNull().default('opened'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('requirements_project_id_iid_idx').on(t.projectId, t.iid),
    index('requirements_project_id_state_idx').on(t.projectId, t.state),
    index('requirements_author_id_idx').on(t.authorId),
    // GitLab's validations (Issuable::TITLE_LENGTH_MAX, the description's CHECK), kept by the database too.
    check('requirements_title_length', sql`char_length(${t.title}) <= 255`),
    check('requirements_description_length', sql`char_length(${t.description}) <= 10000`),
  ],
);

/** GitLab's requirements_management_test_reports: from CI (pipeline, build) or created by hand (updateRequirement). */
export const requirementTestReports = pgTable(
  'requirements_management_test_reports',
  {
    id: serial('id').primaryKey(),
    requirementId: integer('requirement_id')
      .notNull()
      .references(() => requirements.id, { onDelete: 'cascade' }),
    /** The CI pipeline that reported it; null for a report created by hand (no CI here yet). */
    pipelineId: integer('pipeline_id'),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    state: text('state').$type<'passed' | 'failed'>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('requirements_test_reports_requirement_id_idx').on(t.requirementId, t.id)],
);

export type RequirementRow = typeof requirements.$inferSelect;
export type RequirementTestReportRow = typeof requirementTestReports.$inferSelect;
