// To-do inputs (GitLab's GET /todos filters, TodosFinder) and THE Todo entity (lib/api/entities/todo.rb, 13.x).
import type { IssueView } from '../../db/queries/issues.ts';
import type { MergeRequestView } from '../../db/queries/merge-requests.ts';
import type { EpicView } from '../../db/queries/epics.ts';
import { toEpic } from '../epics/schemas.ts';
import { toNamespaceBasic } from '../projects/schemas.ts';
import type { AlertRow, NamespaceRow, ProjectRow, TodoRow, UserRow } from '../../db/schema/index.ts';
import type { Config } from '../lib/context.ts';
import { toIssue } from '../issues/schemas.ts';
import { toMergeRequest } from '../merge-requests/schemas.ts';
import { paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { int, oneOf, pathId, schema, type Output } from '../lib/validate.ts';
import { toProjectIdentity } from '../projects/schemas.ts';
import { toUserBasic } from '../users/schemas.ts';
import { iso } from '../lib/format.ts';

/** Todo::ACTION_NAMES: the stored action number and its name. */
export const TODO_ACTION_NAMES: Readonly<Record<number, string>> = {
  1: 'assigned',
  2: 'mentioned',
  3: 'build_failed',
  4: 'marked',
  5: 'approval_required',
  6: 'unmergeable',
  7: 'directly_addressed',
  8: 'merge_train_removed',
  9: 'review_requested',
};

/** The `action` filter values the spec lists, with their stored numbers. */
export const TODO_ACTION_FILTERS = {
  assigned: 1,
  mentioned: 2,
  build_failed: 3,
  marked: 4,
  approval_required: 5,
  unmergeable: 6,
  directly_addressed: 7,
} as const;
const ACTION_FILTER_NAMES = Object.keys(TODO_ACTION_FILTERS) as [keyof typeof TODO_ACTION_FILTERS, ...(keyof typeof TODO_ACTION_FILTERS)[]];

/** The `type` filter values (target classes GitLab's to-dos point at). */
export const TODO_TYPES = ['Issue', 'MergeRequest', 'Commit', 'Epic', 'DesignManagement::Design', 'AlertManagement::Alert'] as const;

/** A non-negative 32-bit integer (`author_id=0` means "no author" in TodosFinder). */
const ref = () => z.pipe(int(), z.int().check(z.minimum(0), z.maximum(2_147_483_647)));

export const ListTodosInput = schema(() =>
  z.object({
    ...paginationParams(),
    action: z.optional(oneOf(ACTION_FILTER_NAMES)),
    author_id: z.optional(ref()),
    project_id: z.optional(ref()),
    group_id: z.optional(ref()),
    state: z.optional(oneOf(['pending', 'done'])),
    type: z.optional(oneOf(TODO_TYPES)),
  }),
);
export type ListTodosParams = Output<typeof ListTodosInput>;

/** `:id` of a to-do: an integer (else 400 `id is invalid`, Grape's Integer); one no row can have is null (404). */
export const TodoPath = schema(() => z.object({ id: pathId() }));

// ---- Entity ----

/**
 * What the Todo entity is built from: the to-do, its project, its author, the note it came from and its target (the
 * issue, or the merge request when the to-do's target_type is MergeRequest).
 */
export type TodoView = {
  todo: TodoRow;
  project: { project: ProjectRow; namespace: NamespaceRow } | null;
  author: UserRow | null;
  /** The body of the note the to-do came from (a mention in a comment), if any. */
  noteBody: string | null;
} & (
  | { issue: IssueView; mergeRequest?: undefined; epic?: undefined; alert?: undefined }
  | { mergeRequest: MergeRequestView; issue?: undefined; epic?: undefined; alert?: undefined }
  /** An epic to-do (13.6 EE): a group's, with the epic's group namespace and no project. */
  | { epic: EpicView; group: NamespaceRow; issue?: undefined; mergeRequest?: undefined; alert?: undefined }
  /** An alert to-do: its project's. */
  | { alert: AlertRow; issue?: undefined; mergeRequest?: undefined; epic?: undefined }
);

/**
 * An alert's to-do. GitLab 13.6 has no entity for the target (todo_target_class raises, the API answers 500); later
 * versions' API::Entities::AlertManagement::Alert is `{ iid, title }` and the target_url the alert's details page
 * (Todo#for_alert?): what is served here.
 */
function toAlertTodo(v: TodoView & { alert: AlertRow }, config: Config) {
  const t = v.todo;
  const detailsUrl = v.project ? `${config.publicUrl}/${v.project.project.pathWithNamespace}/-/alert_management/${v.alert.iid}/details` : null;
  return {
    id: t.id,
    ...(v.project ? { project: toProjectIdentity(v.project, config) } : {}),
    author: v.author ? toUserBasic(v.author, config) : null,
    action_name: TODO_ACTION_NAMES[t.action] ?? null,
    target_type: t.targetType,
    target: { iid: v.alert.iid, title: v.alert.title },
    target_url: detailsUrl,
    body: v.noteBody ?? v.alert.title,
    state: t.state,
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
  };
}

/**
 * Entities::Todo: the target as Entities::Issue, Entities::MergeRequest or EE's Entities::Epic (todo_target_class;
 * an epic's target_url is its group epic URL, with the note's anchor as for issues); `body` is the note's
 * text for a to-do that came from a note, else the target's title; `target_url` points at the note (`#note_<id>`)
 * when there is one. GitLab represents the target without the caller (the entity's options are only the target
 * type's metadata), so an MR target's `subscribed` and `user.can_merge` are false.
 */
export function toTodo(v: TodoView, config: Config) {
  const t = v.todo;
  if (v.alert) return toAlertTodo({ ...v, alert: v.alert }, config);
  // An epic target is EE's Entities::Epic without the caller (so without its admin-only fields).
  const target = v.epic
    ? toEpic(v.epic, config, { admin: false })
    : v.mergeRequest
      ? toMergeRequest(v.mergeRequest, config, { subscribed: false, canMerge: false })
      : toIssue(v.issue, config);
  const title = v.epic ? v.epic.epic.title : v.mergeRequest ? v.mergeRequest.mr.title : v.issue.issue.title;
  return {
    id: t.id,
    ...(v.project ? { project: toProjectIdentity(v.project, config) } : {}),
    // A group's to-do (an epic): `group` (Entities::NamespaceBasic) instead of `project`.
    ...(v.epic ? { group: toNamespaceBasic(v.group, config) } : {}),
    author: v.author ? toUserBasic(v.author, config) : null,
    action_name: TODO_ACTION_NAMES[t.action] ?? null,
    target_type: t.targetType,
    target,
    target_url: t.noteId ? `${target.web_url}#note_${t.noteId}` : target.web_url,
    body: v.noteBody ?? title,
    state: t.state,
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
  };
}
