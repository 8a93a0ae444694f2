// GitLab's container_expiration_policies: one per project (the project's id is the key). A project without a row
// has GitLab's defaults (db/queries/projects.ts reads them through a left join; the row is written on the first
// change), so creating a project writes nothing here.
import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { projects } from './projects.ts';

export const containerExpirationPolicies = pgTable(
  'container_expiration_policies',
  {
    projectId: integer('project_id')
      .primaryKey()
      .references(() => projects.id, { onDelete: 'cascade' }),
    enabled: boolean('enabled').notNull(),
    cadence: text('cadence').notNull(),
    olderThan: text('older_than'),
    keepN: integer('keep_n'),
    nameRegex: text('name_regex'),
    nameRegexKeep: text('name_regex_keep'),
    nextRunAt: timestamp('next_run_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    check('container_expiration_policies_name_regex_length', sql`char_length(${t.nameRegex}) <= 255`),
    check('container_expiration_policies_name_regex_keep_length', sql`char_length(${t.nameRegexKeep}) <= 255`),
  ],
);

export type ContainerExpirationPolicyRow = typeof containerExpirationPolicies.$inferSelect;
