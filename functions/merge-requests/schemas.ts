// Merge request inputs (GitLab 13.6 lib/api/merge_requests.rb parameters) and Entities::MergeRequestBasic,
// ::MergeRequest, ::MergeRequestSimple, ::MergeRequestDiff(Full).
import { isDraftTitle, type DiffVersionJson, type MergeRequestView } from '../../db/queries/merge-requests.ts';
import { blockingDiscussionsResolved, detailedMergeStatus, mergeStatusOf } from './mergeability.ts';
import type { MergeRequestDiffRow } from '../../db/schema/index.ts';
import { DESCRIPTION_MAX, description, idList, issuableFields, labelList, noneAny, taskStatus, title, toTimeStats } from '../issuables/schemas.ts';
import { toLabelBasic } from '../labels/schemas.ts';
import type { Config } from '../lib/context.ts';
import { iso, renderPlainLine, renderPlainText } from '../lib/format.ts';
import { paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { bool, dateTime, id, oneOf, pathId, schema, str, text, type Output } from '../lib/validate.ts';
import { toMilestone } from '../milestones/schemas.ts';
import { toPipeline, toPipelineBasic } from '../pipelines/schemas.ts';
import type { HeadPipeline } from './pipelines.ts';
import { toUserBasic } from '../users/schemas.ts';

/** `:merge_request_iid`: an integer (else 400 `merge_request_iid is invalid`); one no row can have is null (404). */
export const MergeRequestPath = () => ({ merge_request_iid: pathId() });

const BRANCH_MAX = 255;

const mrFields = () => ({
  ...issuableFields(),
  reviewer_ids: z.optional(idList()),
  remove_source_branch: z.optional(bool()),
  allow_collaboration: z.optional(bool()),
  allow_maintainer_to_push: z.optional(bool()),
  squash: z.optional(bool()),
});

export const CreateMergeRequestInput = schema(() =>
  z.object({
    source_branch: str(BRANCH_MAX),
    target_branch: str(BRANCH_MAX),
    title: title(),
    target_project_id: z.optional(id()),
    ...mrFields(),
  }),
);
export type CreateMergeRequestParams = Output<typeof CreateMergeRequestInput>;

/** At least one of these (GitLab's `at_least_one_of`). */
export const UPDATE_FIELDS = [
  'assignee_id',
  'assignee_ids',
  'reviewer_ids',
  'description',
  'labels',
  'add_labels',
  'remove_labels',
  'milestone_id',
  'remove_source_branch',
  'state_event',
  'target_branch',
  'title',
  'discussion_locked',
  'squash',
] as const;

export const UpdateMergeRequestInput = schema(() =>
  z.object({
    title: z.optional(title()),
    target_branch: z.optional(str(BRANCH_MAX)),
    ...mrFields(),
    add_labels: z.optional(labelList()),
    remove_labels: z.optional(labelList()),
    state_event: z.optional(oneOf(['close', 'reopen'])),
    discussion_locked: z.optional(bool()),
  }),
);
export type UpdateMergeRequestParams = Output<typeof UpdateMergeRequestInput>;

export const GetMergeRequestInput = schema(() =>
  z.object({
    render_html: z.optional(bool()),
    include_diverged_commits_count: z.optional(bool()),
    include_rebase_in_progress: z.optional(bool()),
  }),
);

export const MergeInput = schema(() =>
  z.object({
    merge_commit_message: z.optional(text(DESCRIPTION_MAX)),
    squash_commit_message: z.optional(text(DESCRIPTION_MAX)),
    squash: z.optional(bool()),
    should_remove_source_branch: z.optional(bool()),
    merge_when_pipeline_succeeds: z.optional(bool()),
    sha: z.optional(str(64)),
  }),
);
export type MergeParams = Output<typeof MergeInput>;

export const RebaseInput = schema(() => z.object({ skip_ci: z.optional(bool()) }));

/** `author_id` etc.: an id, or (assignee, reviewer) `None`/`Any`. */
const userOrNoneAny = () => z.optional(z.union([z.pipe(z.pipe(z.string(), z.transform(noneAny)), z.enum(['none', 'any'])), id()]));

/** The filters that `not[...]` negates (13.6: labels, milestone, author, assignee, reviewer, my_reaction_emoji). */
const negatable = () => ({
  labels: z.optional(labelList()),
  milestone: z.optional(str(255)),
  author_id: z.optional(id()),
  author_username: z.optional(str(255)),
  assignee_id: userOrNoneAny(),
  assignee_username: z.optional(str(255)),
  reviewer_id: userOrNoneAny(),
  reviewer_username: z.optional(str(255)),
  my_reaction_emoji: z.optional(str(255)),
});

/** `not[labels]=...` arrives as `not: { labels }` (lib/rack-params.ts). */
export const ListMergeRequestsInput = schema(() =>
  z.object({
    ...paginationParams(),
    ...negatable(),
    state: z.optional(oneOf(['opened', 'closed', 'locked', 'merged', 'all'])),
    order_by: z.optional(oneOf(['created_at', 'updated_at'])),
    sort: z.optional(oneOf(['asc', 'desc'])),
    view: z.optional(oneOf(['simple'])),
    with_labels_details: z.optional(bool()),
    with_merge_status_recheck: z.optional(bool()),
    created_after: z.optional(dateTime()),
    created_before: z.optional(dateTime()),
    updated_after: z.optional(dateTime()),
    updated_before: z.optional(dateTime()),
    scope: z.optional(oneOf(['created_by_me', 'assigned_to_me', 'all', 'created-by-me', 'assigned-to-me'])),
    source_branch: z.optional(str(BRANCH_MAX)),
    target_branch: z.optional(str(BRANCH_MAX)),
    search: z.optional(str(255)),
    in: z.optional(
      z.pipe(
        z.pipe(
          str(100),
          z.transform((s: string) => s.split(',').map((t) => t.trim())),
        ),
        z.array(z.enum(['title', 'description'])),
      ),
    ),
    wip: z.optional(oneOf(['yes', 'no'])),
    non_archived: z.optional(bool()),
    iids: z.optional(
      z.pipe(
        z.transform((v: unknown) => (Array.isArray(v) ? v : [v])),
        z.array(id()),
      ),
    ),
    not: z.optional(z.object(negatable())),
  }),
);
export type ListMergeRequestsParams = Output<typeof ListMergeRequestsInput>;

// ---- Entities ----

const userBasic = (u: Parameters<typeof toUserBasic>[0] | null, config: Config) => (u ? toUserBasic(u, config) : null);

/** GitLab's MergeRequest#to_reference: `!iid`, with the project's full path when `full`. */
export const mrReference = (v: Pick<MergeRequestView, 'projectPath'> & { mr: { iid: number } }, full = false) => `${full ? v.projectPath : ''}!${v.mr.iid}`;

export const mrWebUrl = (v: Pick<MergeRequestView, 'projectPath'> & { mr: { iid: number } }, config: Config) =>
  `${config.publicUrl}/${v.projectPath}/-/merge_requests/${v.mr.iid}`;

/** The diff head (the source branch's tip when the version was taken), GitLab's diff_head_sha. */
export const diffHeadSha = (v: { latestDiff: DiffVersionJson | null }) => v.latestDiff?.headCommitSha ?? null;

/** The fields every MR entity starts with (Entities::MergeRequestSimple's, before its web_url). */
const head = (m: MergeRequestView['mr']) => ({
  id: m.id,
  iid: m.iid,
  project_id: m.targetProjectId,
  title: m.title,
  description: m.description,
  state: m.state,
  created_at: iso(m.createdAt),
  updated_at: iso(m.updatedAt),
});

/** Entities::MergeRequestSimple (`view=simple`). */
export const toMergeRequestSimple = (v: MergeRequestView, config: Config) => ({ ...head(v.mr), web_url: mrWebUrl(v, config) });

/** Entities::MergeRequestBasic (lists); `subscribed` is only on single records (Entities::MergeRequest). */
export function toMergeRequestBasic(v: MergeRequestView, config: Config, options: { labelDetails?: boolean; renderHtml?: boolean } = {}) {
  const m = v.mr;
  const assignees = v.assignees.map((u) => toUserBasic(u, config));
  const fork = m.sourceProjectId !== null && m.sourceProjectId !== m.targetProjectId;
  return {
    ...head(m),
    merged_by: userBasic(v.mergedBy, config),
    merged_at: iso(m.mergedAt),
    closed_by: userBasic(v.closedBy, config),
    closed_at: iso(m.closedAt),
    // render_html (Entities::MergeRequestBasic's title_html, description_html): the service's plain-text rendering.
    ...(options.renderHtml ? { title_html: renderPlainLine(m.title), description_html: renderPlainText(m.description) } : {}),
    target_branch: m.targetBranch,
    source_branch: m.sourceBranch,
    user_notes_count: v.userNotesCount,
    upvotes: v.upvotes,
    downvotes: v.downvotes,
    author: userBasic(v.author, config),
    assignees,
    assignee: assignees[0] ?? null,
    reviewers: v.reviewers.map((u) => toUserBasic(u, config)),
    source_project_id: m.sourceProjectId,
    target_project_id: m.targetProjectId,
    labels: options.labelDetails ? v.labels.map(toLabelBasic) : v.labels.map((l) => l.title),
    work_in_progress: isDraftTitle(m.title),
    milestone: v.milestone ? toMilestone(v.milestone, { fullPath: v.milestone.groupId !== null ? (v.milestoneGroupPath ?? '') : v.projectPath }, config) : null,
    merge_when_pipeline_succeeds: m.mergeWhenPipelineSucceeds,
    merge_status: mergeStatusOf(v),
    detailed_merge_status: detailedMergeStatus(v),
    sha: diffHeadSha(v),
    merge_commit_sha: m.mergeCommitSha,
    discussion_locked: m.discussionLocked,
    // GitLab: the merge's own setting once merged, else nil; force_remove_source_branch is the author's wish.
    should_remove_source_branch: null as boolean | null,
    force_remove_source_branch: m.forceRemoveSourceBranch,
    ...(fork ? { allow_collaboration: m.allowCollaboration, allow_maintainer_to_push: m.allowCollaboration } : {}),
    reference: mrReference(v),
    references: { short: mrReference(v), relative: mrReference(v), full: mrReference(v, true) },
    web_url: mrWebUrl(v, config),
    time_stats: toTimeStats(m),
    squash: m.squash,
    task_completion_status: taskStatus(m.description),
    has_conflicts: mergeStatusOf(v) === 'cannot_be_merged',
    blocking_discussions_resolved: blockingDiscussionsResolved(v),
  };
}

export interface SingleOptions {
  subscribed: boolean;
  canMerge: boolean;
  divergedCommitsCount?: number | undefined;
  rebaseInProgress?: boolean | undefined;
  renderHtml?: boolean | undefined;
  /** The head pipeline (pipelines.ts); none given: null. */
  headPipeline?: HeadPipeline | null | undefined;
}

/** Entities::MergeRequest: a single record. */
export function toMergeRequest(v: MergeRequestView, config: Config, o: SingleOptions) {
  const d = v.latestDiff;
  const head = o.headPipeline ?? null;
  // MergeRequest::Metrics: the head pipeline once it has started; finished only when it succeeded.
  const started = head && head.pipeline.startedAt !== null ? head.pipeline : null;
  return {
    ...toMergeRequestBasic(v, config, { renderHtml: o.renderHtml === true }),
    subscribed: o.subscribed,
    changes_count: d ? String(d.filesCount) : null,
    latest_build_started_at: iso(started?.startedAt ?? null),
    latest_build_finished_at: iso(started?.status === 'success' ? started.finishedAt : null),
    first_deployed_to_production_at: null,
    pipeline: started && head ? toPipelineBasic(started, head.project, config) : null,
    head_pipeline: head ? toPipeline(head.pipeline, head.project, head.user, config, head.hasWarnings) : null,
    diff_refs: d ? { base_sha: d.baseCommitSha ?? d.startCommitSha, head_sha: d.headCommitSha, start_sha: d.startCommitSha } : null,
    merge_error: v.mr.mergeError,
    ...(o.rebaseInProgress !== undefined ? { rebase_in_progress: o.rebaseInProgress } : {}),
    ...(o.divergedCommitsCount !== undefined ? { diverged_commits_count: o.divergedCommitsCount } : {}),
    user: { can_merge: o.canMerge },
  };
}

/** Entities::MergeRequestDiff: a version, newest first in the listing. */
export function toMergeRequestVersion(d: MergeRequestDiffRow) {
  return {
    id: d.id,
    head_commit_sha: d.headCommitSha,
    base_commit_sha: d.baseCommitSha ?? d.startCommitSha,
    start_commit_sha: d.startCommitSha,
    created_at: iso(d.createdAt),
    merge_request_id: d.mergeRequestId,
    state: d.state,
    real_size: String(d.filesCount),
  };
}
