// Issues with their assignees and time logs, and the per-project/per-group counters that hand out `iid`s.
import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, primaryKey, serial, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { iterations } from './iterations.ts';
import { mergeRequests } from './merge-requests.ts';
import { milestones } from './milestones.ts';
import { namespaces } from './namespaces.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

/**
 * GitLab's internal_ids: the last `iid` handed out per project (issues, project milestones) or group (group
 * milestones). Allocation is one upsert that increments and returns, so concurrent creates never share an iid.
 */
export const internalIds = pgTable(
  'internal_ids',
  {
    id: serial('id').primaryKey(),
    usage: text('usage')
      .$type<'issues' | 'milestones' | 'merge_requests' | 'epics' | 'requirements' | 'alert_management_alerts' | 'ci_pipelines' | 'deployments'>()
      .notNull(),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    namespaceId: integer('namespace_id').references(() => namespaces.id, { onDelete: 'cascade' }),
    lastValue: integer('last_value').notNull(),
  },
  (t) => [unique('internal_ids_usage_source_key').on(t.usage, t.projectId, t.namespaceId).nullsNotDistinct()],
);

export const issues = pgTable(
  'issues',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    iid: integer('iid').notNull(),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    description: text('description'),
    state: text('state').$type<'opened' | 'closed'>().notNull().default('opened'),
    confidential: boolean('confidential').notNull().default(false),
    discussionLocked: boolean('discussion_locked'),
    milestoneId: integer('milestone_id').references(() => milestones.id, { onDelete: 'set null' }),
    dueDate: date('due_date'),
    /** GitLab's issue weight (Premium: shown and set on premium/ultimate instances only). */
    weight: integer('weight'),
    /** GitLab's issue_type: an ordinary issue, an incident, or an Ultimate test case (hidden from issue lists). */
    issueType: text('issue_type').$type<'issue' | 'incident' | 'test_case'>().notNull().default('issue'),
    /** Order on boards (RelativePositioning); null: placed after the positioned ones. */
    relativePosition: integer('relative_position'),
    /** GitLab's sprint_id: the issue's iteration (Premium). */
    sprintId: integer('sprint_id').references(() => iterations.id, { onDelete: 'set null' }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedById: integer('closed_by_id').references(() => users.id, { onDelete: 'set null' }),
    updatedById: integer('updated_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** Seconds. */
    timeEstimate: integer('time_estimate').notNull().default(0),
    /** Seconds; the sum of the issue's timelogs, kept with them in one transaction. */
    totalTimeSpent: integer('total_time_spent').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('issues_project_id_iid_idx').on(t.projectId, t.iid),
    index('issues_project_id_state_id_idx').on(t.projectId, t.state, t.id),
    index('issues_author_id_idx').on(t.authorId),
    index('issues_milestone_id_idx').on(t.milestoneId),
    index('issues_sprint_id_idx').on(t.sprintId),
    index('issues_project_id_created_at_idx').on(t.projectId, t.createdAt),
    // Full-text-free search (title/description ILIKE) stays on the project's rows; no trigram index yet.
    index('issues_confidential_idx')
      .on(t.projectId)
      .where(sql`${t.confidential}`),
  ],
);

export const issueAssignees = pgTable(
  'issue_assignees',
  {
    issueId: integer('issue_id')
      .notNull()
      .references(() => issues.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.userId] }), index('issue_assignees_user_id_idx').on(t.userId)],
);

export const timelogs = pgTable(
  'timelogs',
  {
    id: serial('id').primaryKey(),
    /** Exactly one of issue_id and merge_request_id (GitLab's timelogs). */
    issueId: integer('issue_id').references(() => issues.id, { onDelete: 'cascade' }),
    mergeRequestId: integer('merge_request_id').references(() => mergeRequests.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Seconds; negative to subtract, as GitLab's `add_spent_time=-1h`. */
    timeSpent: integer('time_spent').notNull(),
    spentAt: timestamp('spent_at', { withTimezone: true }).notNull().defaultNow(),
    ...timestamps,
  },
  (t) => [
    index('timelogs_issue_id_idx').on(t.issueId),
    index('timelogs_merge_request_id_idx').on(t.mergeRequestId),
    check('timelogs_one_target', sql`(${t.issueId} IS NULL) <> (${t.mergeRequestId} IS NULL)`),
  ],
);

/**
 * The issues an open MR would close when merged (GitLab's merge_requests_closing_issues, the cache
 * MergeRequest#cache_merge_request_closes_issues! keeps): rewritten when the MR is created, edited or gets a new
 * version; what an issue's `merge_requests_count` and `closed_by` read.
 */
export const mergeRequestsClosingIssues = pgTable(
  'merge_requests_closing_issues',
  {
    mergeRequestId: integer('merge_request_id')
      .notNull()
      .references(() => mergeRequests.id, { onDelete: 'cascade' }),
    issueId: integer('issue_id')
      .notNull()
      .references(() => issues.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.mergeRequestId, t.issueId] }), index('merge_requests_closing_issues_issue_id_idx').on(t.issueId)],
);

export type IssueRow = typeof issues.$inferSelect;
