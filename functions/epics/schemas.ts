// Epic inputs (GitLab 13.6 ee/lib/api/epics.rb, epic_issues.rb) and EE::API::Entities::Epic / EpicIssueLink.
import type { EpicView } from '../../db/queries/epics.ts';
import type { EpicIssueRow } from '../../db/schema/index.ts';
import { toLabelBasic } from '../labels/schemas.ts';
import type { Config } from '../lib/context.ts';
import { iso } from '../lib/format.ts';
import { paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { bool, dateParam, dateTime, id, oneOf, pathId, schema, str } from '../lib/validate.ts';
import { toUserBasic } from '../users/schemas.ts';
import { description, labelList, title } from '../issuables/schemas.ts';

/** `:epic_iid`: an integer (else 400 `epic_iid is invalid`); one no row can have is null. */
export const EpicPath = () => ({ epic_iid: pathId() });

/** A date; an empty value (or JSON null) clears it. */
const optionalDate = () =>
  z.optional(
    z.pipe(
      z.transform((v: unknown) => (v === '' ? null : v)),
      z.nullable(dateParam()),
    ),
  );

export const ListEpicsInput = schema(() =>
  z.object({
    ...paginationParams(),
    order_by: z.optional(oneOf(['created_at', 'updated_at'])),
    sort: z.optional(oneOf(['asc', 'desc'])),
    search: z.optional(str(1000)),
    state: z.optional(oneOf(['opened', 'closed', 'all'])),
    author_id: z.optional(id()),
    labels: z.optional(labelList()),
    with_labels_details: z.optional(bool()),
    created_after: z.optional(dateTime()),
    created_before: z.optional(dateTime()),
    updated_after: z.optional(dateTime()),
    updated_before: z.optional(dateTime()),
    include_ancestor_groups: z.optional(bool()),
    include_descendant_groups: z.optional(bool()),
    confidential: z.optional(bool()),
  }),
);

/**
 * The date fields. 13.6 declares `start_date`/`end_date` with `as: :start_date_fixed`/`:due_date_fixed`, while its
 * documentation names them start_date_fixed/due_date_fixed; both spellings are taken (the declared one wins).
 */
const dateFields = () => ({
  start_date: optionalDate(),
  start_date_fixed: optionalDate(),
  start_date_is_fixed: z.optional(bool()),
  end_date: optionalDate(),
  due_date_fixed: optionalDate(),
  due_date_is_fixed: z.optional(bool()),
});

export const CreateEpicInput = schema(() =>
  z.object({
    title: title(),
    description: z.optional(z.nullable(description())),
    confidential: z.optional(bool()),
    labels: z.optional(labelList()),
    parent_id: z.optional(id()),
    ...dateFields(),
  }),
);

export const UpdateEpicInput = schema(() =>
  z.object({
    title: z.optional(title()),
    description: z.optional(z.nullable(description())),
    confidential: z.optional(bool()),
    labels: z.optional(labelList()),
    add_labels: z.optional(labelList()),
    remove_labels: z.optional(labelList()),
    state_event: z.optional(oneOf(['reopen', 'close'])),
    ...dateFields(),
  }),
);

/** Grape's at_least_one_of on PUT, in its order. */
export const UPDATE_FIELDS = [
  'title',
  'description',
  'start_date_fixed',
  'start_date_is_fixed',
  'due_date_fixed',
  'due_date_is_fixed',
  'labels',
  'add_labels',
  'remove_labels',
  'state_event',
  'confidential',
] as const;

export const EpicIssuePath = () => ({ ...EpicPath(), epic_issue_id: pathId() });
export const IssueIdPath = () => ({ ...EpicPath(), issue_id: pathId() });
export const MoveEpicIssueInput = schema(() => z.object({ move_before_id: z.optional(id()), move_after_id: z.optional(id()) }));

const webPath = (groupPath: string, iid: number) => `/groups/${groupPath}/-/epics/${iid}`;
export const epicWebPath = (v: Pick<EpicView, 'groupPath' | 'epic'>) => webPath(v.groupPath, v.epic.iid);

/** Epic#start_date / end_date: the fixed date when fixed, else the one inherited from milestones. */
export const effectiveStartDate = (v: EpicView) => (v.epic.startDateIsFixed ? v.epic.startDateFixed : v.startDateFromMilestones);
export const effectiveDueDate = (v: EpicView) => (v.epic.dueDateIsFixed ? v.epic.dueDateFixed : v.dueDateFromMilestones);

/** EE::API::Entities::Epic; the admin-only date fields for those who may admin the epic, `subscribed` on single epics. */
export function toEpic(v: EpicView, config: Config, options: { admin: boolean; labelDetails?: boolean; subscribed?: boolean }) {
  const e = v.epic;
  const start = effectiveStartDate(v);
  const due = effectiveDueDate(v);
  const api = `${config.publicUrl}/api/v4/groups/${e.groupId}`;
  return {
    id: e.id,
    iid: e.iid,
    group_id: e.groupId,
    parent_id: e.parentId,
    title: e.title,
    description: e.description,
    confidential: e.confidential,
    author: v.author ? toUserBasic(v.author, config) : null,
    start_date: start,
    ...(options.admin
      ? {
          start_date_is_fixed: e.startDateIsFixed ?? false,
          start_date_fixed: e.startDateFixed,
          start_date_from_inherited_source: v.startDateFromMilestones,
          start_date_from_milestones: v.startDateFromMilestones,
        }
      : {}),
    end_date: due,
    due_date: due,
    ...(options.admin
      ? {
          due_date_is_fixed: e.dueDateIsFixed ?? false,
          due_date_fixed: e.dueDateFixed,
          due_date_from_inherited_source: v.dueDateFromMilestones,
          due_date_from_milestones: v.dueDateFromMilestones,
        }
      : {}),
    state: e.state,
    ...(options.admin ? { web_edit_url: webPath(v.groupPath, e.iid) } : {}),
    web_url: `${config.publicUrl}${webPath(v.groupPath, e.iid)}`,
    references: { short: `&${e.iid}`, relative: `&${e.iid}`, full: `${v.groupPath}&${e.iid}` },
    created_at: iso(e.createdAt),
    updated_at: iso(e.updatedAt),
    closed_at: iso(e.closedAt),
    labels: options.labelDetails ? v.labels.map(toLabelBasic) : v.labels.map((l) => l.title),
    upvotes: v.upvotes,
    downvotes: v.downvotes,
    ...(options.subscribed !== undefined ? { subscribed: options.subscribed } : {}),
    _links: { self: `${api}/epics/${e.iid}`, epic_issues: `${api}/epics/${e.iid}/issues`, group: api },
  };
}

/** The epic as EpicIssueLink shows it (Entities::Epic's short form in the epic_issues docs). */
const toLinkedEpic = (v: EpicView, config: Config) => ({
  id: v.epic.id,
  iid: v.epic.iid,
  title: v.epic.title,
  description: v.epic.description,
  author: v.author ? toUserBasic(v.author, config) : null,
  start_date: effectiveStartDate(v),
  end_date: effectiveDueDate(v),
});

/** EpicIssueLink: the association with its epic and issue (the issue entity given as rendered). */
export const toEpicIssueLink = (link: EpicIssueRow, epic: EpicView, issue: unknown, config: Config) => ({
  id: link.id,
  relative_position: link.relativePosition,
  epic: toLinkedEpic(epic, config),
  issue,
});

/** `:child_epic_id`: the child's global id. */
export const ChildEpicPath = () => ({ ...EpicPath(), child_epic_id: pathId() });
export const MoveChildEpicInput = schema(() => z.object({ move_before_id: z.optional(id()), move_after_id: z.optional(id()) }));

/**
 * EE::API::Entities::LinkedEpic (the answer to creating a child): the child with its relation to the parent; the
 * reference is relative to the parent's group.
 */
export function toLinkedChildEpic(child: EpicView, parent: EpicView, flags: { hasChildren: boolean; hasIssues: boolean }, config: Config) {
  const e = child.epic;
  return {
    id: e.id,
    iid: e.iid,
    title: e.title,
    group_id: e.groupId,
    parent_id: e.parentId,
    has_children: flags.hasChildren,
    has_issues: flags.hasIssues,
    reference: e.groupId === parent.epic.groupId ? `&${e.iid}` : `${child.groupPath}&${e.iid}`,
    url: `${config.publicUrl}${epicWebPath(child)}`,
    relation_url: `${config.publicUrl}${epicWebPath(parent)}/links/${e.id}`,
  };
}
