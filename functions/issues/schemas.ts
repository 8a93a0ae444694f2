// Issue inputs (GitLab's lib/api/issues.rb parameters) and Entities::Issue (13.x).
import type { IssueView, UserJson } from '../../db/queries/issues.ts';
import { toLabelBasic } from '../labels/schemas.ts';
import { toMilestone } from '../milestones/schemas.ts';
import type { UserRow } from '../../db/schema/index.ts';
import type { Config } from '../lib/context.ts';
import { paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { bool, dateParam, dateTime, id, int, pathId, modelRule, oneOf, schema, str, type Output } from '../lib/validate.ts';
import { toUserBasic } from '../users/schemas.ts';
import { issuableFields, labelList, noneAny, taskStatus, title, toTimeStats } from '../issuables/schemas.ts';
import { iso } from '../lib/format.ts';
import { weightsAvailable } from '../lib/policy.ts';

/** `:issue_iid`: an integer (else 400 `issue_iid is invalid`); one no row can have is null (404). */
export const IssuePath = () => ({ issue_iid: pathId() });

const dueDate = () =>
  z.pipe(
    z.transform((v: unknown) => (v === '' ? null : v)),
    z.nullable(dateParam()),
  );

/** EE's `weight` (Integer): the model's `greater_than_or_equal_to: 0`; empty clears. */
const weight = () =>
  z.pipe(
    z.transform((v: unknown) => (v === '' ? null : v)),
    z.nullable(
      z.pipe(
        int(),
        z.int().check(
          modelRule((n: number) => n >= 0, 'must be greater than or equal to 0'),
          z.maximum(2_147_483_647),
        ),
      ),
    ),
  );

const issueFields = () => ({
  ...issuableFields(),
  confidential: z.optional(bool()),
  due_date: z.optional(dueDate()),
  weight: z.optional(weight()),
});

export const CreateIssueInput = schema(() =>
  z.object({
    title: title(),
    ...issueFields(),
    created_at: z.optional(dateTime()),
  }),
);

export const UPDATE_FIELDS = [
  'assignee_id',
  'assignee_ids',
  'confidential',
  'created_at',
  'description',
  'discussion_locked',
  'due_date',
  'labels',
  'add_labels',
  'remove_labels',
  'milestone_id',
  'state_event',
  'title',
] as const;

export const UpdateIssueInput = schema(() =>
  z.object({
    title: z.optional(title()),
    ...issueFields(),
    add_labels: z.optional(labelList()),
    remove_labels: z.optional(labelList()),
    state_event: z.optional(oneOf(['close', 'reopen'])),
    discussion_locked: z.optional(bool()),
    created_at: z.optional(dateTime()),
  }),
);

export const ListIssuesInput = schema(() =>
  z
    .object({
      ...paginationParams(),
      state: z.optional(oneOf(['opened', 'closed', 'all'])),
      labels: z.optional(labelList()),
      milestone: z.optional(str(255)),
      scope: z.optional(oneOf(['created_by_me', 'assigned_to_me', 'all', 'created-by-me', 'assigned-to-me'])),
      author_id: z.optional(id()),
      author_username: z.optional(str(255)),
      assignee_id: z.optional(z.union([z.pipe(z.pipe(z.string(), z.transform(noneAny)), z.enum(['none', 'any'])), id()])),
      assignee_username: z.optional(
        z.pipe(
          z.transform((v: unknown) => (Array.isArray(v) ? v : [v])),
          z.array(str(255)).check(z.maxLength(1)),
        ),
      ),
      search: z.optional(str(255)),
      /** Where `search` looks: `title`, `description` or both (comma-separated). */
      in: z.optional(
        z.pipe(
          z.pipe(
            str(100),
            z.transform((s: string) => s.split(',').map((t) => t.trim())),
          ),
          z.array(z.enum(['title', 'description'])),
        ),
      ),
      non_archived: z.optional(bool()),
      with_labels_details: z.optional(bool()),
      iids: z.optional(
        z.pipe(
          z.transform((v: unknown) => (Array.isArray(v) ? v : [v])),
          z.array(id()),
        ),
      ),
      confidential: z.optional(bool()),
      created_after: z.optional(dateTime()),
      created_before: z.optional(dateTime()),
      updated_after: z.optional(dateTime()),
      updated_before: z.optional(dateTime()),
      order_by: z.optional(oneOf(['created_at', 'updated_at'])),
      sort: z.optional(oneOf(['asc', 'desc'])),
      // EE (13.6): an iteration id, `None` or `Any`; or an iteration's title. Grape's mutually_exclusive.
      iteration_id: z.optional(z.union([z.pipe(z.pipe(z.string(), z.transform(noneAny)), z.enum(['none', 'any'])), id()])),
      iteration_title: z.optional(str(255)),
    })
    .check(
      z.superRefine((v: { iteration_id?: unknown; iteration_title?: unknown }, ctx) => {
        if (v.iteration_id !== undefined && v.iteration_title !== undefined) {
          ctx.issues.push({ code: 'custom', message: 'are mutually exclusive', path: ['iteration_id, iteration_title'], input: v });
        }
      }),
    ),
);
export type ListIssuesParams = Output<typeof ListIssuesInput>;

// ---- Entities ----

/** UserBasic through the users serializer (it reads only the fields the page query loads). */
const userBasic = (u: UserJson | UserRow, config: Config) => toUserBasic(u, config);

/** Entities::IssueBasic (the search API's issues; Entities::Issue adds to it). */
export function toIssueBasic(v: IssueView, config: Config, options: { labelDetails?: boolean } = {}) {
  const i = v.issue;
  const assignees = v.assignees.map((u) => userBasic(u, config));
  return {
    id: i.id,
    iid: i.iid,
    project_id: i.projectId,
    title: i.title,
    description: i.description,
    state: i.state,
    created_at: iso(i.createdAt),
    updated_at: iso(i.updatedAt),
    closed_at: iso(i.closedAt),
    closed_by: v.closedBy ? userBasic(v.closedBy, config) : null,
    labels: options.labelDetails ? v.labels.map(toLabelBasic) : v.labels.map((l) => l.title),
    milestone: v.milestone ? toMilestone(v.milestone, { fullPath: v.milestone.groupId !== null ? (v.milestoneGroupPath ?? '') : v.projectPath }, config) : null,
    assignees,
    author: v.author ? userBasic(v.author, config) : null,
    assignee: assignees[0] ?? null,
    user_notes_count: v.userNotesCount,
    merge_requests_count: v.mergeRequestsCount,
    upvotes: v.upvotes,
    downvotes: v.downvotes,
    due_date: i.dueDate,
    confidential: i.confidential,
    discussion_locked: i.discussionLocked,
    web_url: `${config.publicUrl}/${v.projectPath}/-/issues/${i.iid}`,
    time_stats: toTimeStats(i),
    task_completion_status: taskStatus(i.description),
    // EE's IssueBasic exposes the weight where it is licensed (weight_available?) only.
    ...(weightsAvailable(config.instanceTier) ? { weight: i.weight } : {}),
  };
}

/** Entities::Issue; `subscribed` only on single issues (GitLab removed it from lists). */
export function toIssue(v: IssueView, config: Config, options: { subscribed?: boolean; labelDetails?: boolean } = {}) {
  const i = v.issue;
  const tasks = taskStatus(i.description);
  const apiBase = `${config.publicUrl}/api/v4/projects/${i.projectId}`;
  return {
    ...toIssueBasic(v, config, options),
    has_tasks: tasks.count > 0,
    ...(tasks.count > 0 ? { task_status: `${tasks.completed_count} of ${tasks.count} ${tasks.count === 1 ? 'task' : 'tasks'} completed` } : {}),
    _links: {
      self: `${apiBase}/issues/${i.iid}`,
      notes: `${apiBase}/issues/${i.iid}/notes`,
      award_emoji: `${apiBase}/issues/${i.iid}/award_emoji`,
      project: apiBase,
    },
    references: { short: `#${i.iid}`, relative: `#${i.iid}`, full: `${v.projectPath}#${i.iid}` },
    moved_to_id: null,
    ...(options.subscribed !== undefined ? { subscribed: options.subscribed } : {}),
  };
}
