// What client created an issue or a snippet (GitLab's user_agent_details, polymorphic there: one nullable foreign key
// per subject here, so a detail goes with its subject): the User-Agent and the IP of the creating request, for
// administrators' spam review. `akismet_submitted` stays false: no Akismet here.
import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { issues } from './issues.ts';
import { snippets } from './snippets.ts';

export const userAgentDetails = pgTable(
  'user_agent_details',
  {
    id: serial('id').primaryKey(),
    issueId: integer('issue_id').references(() => issues.id, { onDelete: 'cascade' }),
    snippetId: integer('snippet_id').references(() => snippets.id, { onDelete: 'cascade' }),
    userAgent: text('user_agent').notNull(),
    ipAddress: text('ip_address').notNull(),
    akismetSubmitted: boolean('akismet_submitted').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('user_agent_details_issue_id_idx').on(t.issueId),
    uniqueIndex('user_agent_details_snippet_id_idx').on(t.snippetId),
    check('user_agent_details_one_subject', sql`num_nonnulls(${t.issueId}, ${t.snippetId}) = 1`),
  ],
);

export type UserAgentDetailRow = typeof userAgentDetails.$inferSelect;
