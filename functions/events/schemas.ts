// Events: the listing parameters (GitLab's lib/api/helpers/events_helpers.rb) and the Event entity
// (lib/api/entities/event.rb with Entities::Note and Entities::PushEventPayload).
import type { EventListRow } from '../../db/queries/events/listing.ts';
import { EVENT_ACTIONS } from '../../db/schema/index.ts';
import type { Config } from '../lib/context.ts';
import { keysetParams, paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { dateParam, id, oneOf, schema, str, type Output } from '../lib/validate.ts';
import { toNote } from '../notes/schemas.ts';
import { toUserBasic } from '../users/schemas.ts';

/** The spec's action filter values (Event.actions). */
export const ACTION_FILTERS = ['created', 'updated', 'closed', 'reopened', 'pushed', 'commented', 'merged', 'joined', 'left', 'destroyed', 'expired'] as const;

/** The spec's target_type filter values, and the stored class name each matches exactly (Event::TARGET_TYPES). */
export const TARGET_TYPE_FILTERS = {
  issue: 'Issue',
  milestone: 'Milestone',
  merge_request: 'MergeRequest',
  note: 'Note',
  project: 'Project',
  snippet: 'Snippet',
  user: 'User',
} as const;
const TARGET_TYPE_NAMES = Object.keys(TARGET_TYPE_FILTERS) as [keyof typeof TARGET_TYPE_FILTERS, ...(keyof typeof TARGET_TYPE_FILTERS)[]];

const listing = () => ({
  action: z.optional(oneOf(ACTION_FILTERS)),
  target_type: z.optional(oneOf(TARGET_TYPE_NAMES)),
  before: z.optional(dateParam()),
  after: z.optional(dateParam()),
  sort: z.optional(oneOf(['asc', 'desc'])),
  ...paginationParams(),
  ...keysetParams(),
  id_after: z.optional(id()),
  id_before: z.optional(id()),
});

export const ListEventsInput = schema(() => z.object(listing()));
/** `GET /events`: `scope=all` widens to every project the caller is authorized for (other values are ignored, as GitLab). */
export const ListOwnEventsInput = schema(() => z.object({ ...listing(), scope: z.optional(str(255)) }));
export type ListEventsParams = Output<typeof ListEventsInput>;

const A = EVENT_ACTIONS;
/** PushEventPayload actions and ref types as stored. */
const PUSH_ACTIONS = ['created', 'removed', 'pushed'] as const;
const REF_TYPES = ['branch', 'tag'] as const;

/** GitLab's Event#action_name (13.x and newer). */
export function actionName(row: Pick<EventListRow, 'action' | 'targetType' | 'push'>): string {
  switch (row.action) {
    case A.pushed:
      return row.push?.action === 0 ? 'pushed new' : row.push?.action === 1 ? 'deleted' : 'pushed to';
    case A.closed:
      return 'closed';
    case A.merged:
      return 'accepted';
    case A.joined:
      return 'joined';
    case A.left:
      return 'left';
    case A.expired:
      return 'removed due to membership expiration from';
    case A.destroyed:
      return 'destroyed';
    case A.commented:
      return 'commented on';
    case A.approved:
      return 'approved';
    case A.created:
      return row.targetType === null || row.targetType === 'WikiPage::Meta' ? 'created' : 'opened';
    case A.updated:
      return row.targetType === 'WikiPage::Meta' ? 'updated' : 'opened';
    default:
      // reopened, and anything else: "opened"
      return 'opened';
  }
}

/** Entities::Event; `title` and `data` are always null (the spec's table lists them). */
export function toEvent(row: EventListRow, config: Config) {
  // Event#target_iid: the target's iid when it has one (issues, merge requests, milestones), else its id.
  const targetIid =
    row.issue && row.targetType === 'Issue'
      ? row.issue.iid
      : row.mergeRequest && row.targetType === 'MergeRequest'
        ? row.mergeRequest.iid
        : row.milestone
          ? row.milestone.iid
          : row.targetId;
  const targetTitle =
    row.targetType === 'Issue'
      ? (row.issue?.title ?? null)
      : row.targetType === 'MergeRequest'
        ? (row.mergeRequest?.title ?? null)
        : row.milestone
          ? row.milestone.title
          : row.snippet && !row.note
            ? row.snippet.title
            : null;
  return {
    id: row.id,
    title: null,
    project_id: row.projectId,
    action_name: actionName(row),
    target_id: row.targetId,
    target_iid: targetIid,
    target_type: row.targetType,
    author_id: row.authorId,
    target_title: targetTitle,
    created_at: row.createdAt,
    author: toUserBasic(row.author, config),
    ...(row.push
      ? {
          push_data: {
            commit_count: row.push.commitCount,
            action: PUSH_ACTIONS[row.push.action] ?? 'pushed',
            ref_type: REF_TYPES[row.push.refType] ?? 'branch',
            commit_from: row.push.commitFrom,
            commit_to: row.push.commitTo,
            ref: row.push.ref,
            commit_title: row.push.commitTitle,
            ref_count: row.push.refCount,
          },
        }
      : {}),
    ...(row.note ? { note: toNote(row.note, row.note.author, row.issue?.iid ?? row.mergeRequest?.iid ?? null, config) } : {}),
    author_username: row.author.username,
    data: null,
  };
}
