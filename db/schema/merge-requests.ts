// Merge requests (GitLab's merge_requests) with their assignees, reviewers and diff versions. A version
// (merge_request_diffs) is the three SHAs the MR's diff was taken between: git objects are immutable and kept in the
// pool, so the SHAs are enough to render any version again, and a diff note's position stays valid after new pushes.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { milestones } from './milestones.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

export type MergeRequestState = 'opened' | 'closed' | 'merged' | 'locked';
/** GitLab's merge_status state machine (13.6). */
export type MergeStatus = 'unchecked' | 'checking' | 'can_be_merged' | 'cannot_be_merged' | 'cannot_be_merged_recheck';

export const mergeRequests = pgTable(
  'merge_requests',
  {
    id: serial('id').primaryKey(),
    /** The target project: the MR belongs to it (its iid, its notes, its events). */
    targetProjectId: integer('target_project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    iid: integer('iid').notNull(),
    /** Null once a fork it came from is deleted (GitLab keeps the MR). */
    sourceProjectId: integer('source_project_id').references(() => projects.id, { onDelete: 'set null' }),
    sourceBranch: text('source_branch').notNull(),
    targetBranch: text('target_branch').notNull(),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    description: text('description'),
    state: text('state').$type<MergeRequestState>().notNull().default('opened'),
    mergeStatus: text('merge_status').$type<MergeStatus>().notNull().default('unchecked'),
    milestoneId: integer('milestone_id').references(() => milestones.id, { onDelete: 'set null' }),
    discussionLocked: boolean('discussion_locked'),
    mergeWhenPipelineSucceeds: boolean('merge_when_pipeline_succeeds').notNull().default(false),
    /** Who set merge_when_pipeline_succeeds (GitLab's merge_user). */
    mergeUserId: integer('merge_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The parameters merge_when_pipeline_succeeds will merge with (GitLab's merge_params). */
    mergeParams: text('merge_params'),
    squash: boolean('squash').notNull().default(false),
    /** The author's wish (merge_params force_remove_source_branch). */
    forceRemoveSourceBranch: boolean('force_remove_source_branch').notNull().default(false),
    allowCollaboration: boolean('allow_collaboration').notNull().default(false),
    mergedById: integer('merged_by_id').references(() => users.id, { onDelete: 'set null' }),
    mergedAt: timestamp('merged_at', { withTimezone: true }),
    closedById: integer('closed_by_id').references(() => users.id, { onDelete: 'set null' }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    mergeCommitSha: text('merge_commit_sha'),
    squashCommitSha: text('squash_commit_sha'),
    mergeError: text('merge_error'),
    updatedById: integer('updated_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** Seconds. */
    timeEstimate: integer('time_estimate').notNull().default(0),
    /** Seconds; the sum of the MR's timelogs, kept with them in one transaction. */
    totalTimeSpent: integer('total_time_spent').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('merge_requests_target_project_id_iid_idx').on(t.targetProjectId, t.iid),
    index('merge_requests_target_project_id_state_id_idx').on(t.targetProjectId, t.state, t.id),
    index('merge_requests_author_id_idx').on(t.authorId),
    index('merge_requests_milestone_id_idx').on(t.milestoneId),
    // GitLab's validate_branch_uniqueness, held by the database so two racing creates cannot both pass: one open MR
    // per source branch and target project.
    uniqueIndex('merge_requests_open_source_branch_idx')
      .on(t.targetProjectId, t.sourceProjectId, t.sourceBranch)
      .where(sql`${t.state} IN ('opened', 'locked')`),
    // Pushes find the open MRs of a branch (as source or target) to record their new version.
    index('merge_requests_source_idx')
      .on(t.sourceProjectId, t.sourceBranch)
      .where(sql`${t.state} IN ('opened', 'locked')`),
    index('merge_requests_target_branch_idx')
      .on(t.targetProjectId, t.targetBranch)
      .where(sql`${t.state} IN ('opened', 'locked')`),
  ],
);

/** The users linked to an MR in one role (assignees, reviewers): one table each, the same shape. */
const mergeRequestUsers = (name: 'merge_request_assignees' | 'merge_request_reviewers') =>
  pgTable(
    name,
    {
      mergeRequestId: integer('merge_request_id')
        .notNull()
        .references(() => mergeRequests.id, { onDelete: 'cascade' }),
      userId: integer('user_id')
        .notNull()
        .references(() => users.id, { onDelete: 'cascade' }),
    },
    (t) => [primaryKey({ columns: [t.mergeRequestId, t.userId] }), index(`${name}_user_id_idx`).on(t.userId)],
  );

export const mergeRequestAssignees = mergeRequestUsers('merge_request_assignees');
export const mergeRequestReviewers = mergeRequestUsers('merge_request_reviewers');

/** A version of the MR's diff: GitLab's merge_request_diffs (state `collected`, or `empty` with no commits). */
export const mergeRequestDiffs = pgTable(
  'merge_request_diffs',
  {
    id: serial('id').primaryKey(),
    mergeRequestId: integer('merge_request_id')
      .notNull()
      .references(() => mergeRequests.id, { onDelete: 'cascade' }),
    /** The merge base of start and head (null for unrelated histories: then the diff is taken from start). */
    baseCommitSha: text('base_commit_sha'),
    /** The target branch's tip when the version was taken. */
    startCommitSha: text('start_commit_sha').notNull(),
    headCommitSha: text('head_commit_sha').notNull(),
    state: text('state').$type<'collected' | 'empty'>().notNull(),
    commitsCount: integer('commits_count').notNull(),
    /** Files changed (GitLab's real_size, a string). */
    filesCount: integer('files_count').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('merge_request_diffs_merge_request_id_idx').on(t.mergeRequestId, t.id)],
);

export type MergeRequestRow = typeof mergeRequests.$inferSelect;
export type MergeRequestDiffRow = typeof mergeRequestDiffs.$inferSelect;
