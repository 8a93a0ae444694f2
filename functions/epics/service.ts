// Epic verbs (GitLab 13.6 EE: ee/lib/api/epics.rb, Epics::{Create,Update}Service, Issuable::DestroyService). Epics
// are Premium (`feature_available?(:epics)`): without the license every endpoint answers 403 once the group is
// found (a missing or hidden group is 404 first, as `user_group` is evaluated before the license check).
// Permissions: lib/policy.ts's group:*_epic rules.
import type { Db } from '../../db/client.ts';
import * as q from '../../db/queries/epics.ts';
import * as qBatched from '../../db/queries/epics/batched-reads.ts';
import * as qLabels from '../../db/queries/epics/labels.ts';
import * as qWrites from '../../db/queries/epics/writes.ts';
import { lockEpicTree, treeFacts } from '../../db/queries/epic-links.ts';
import { newEpicFacts, parentErrors, parentFieldErrors } from './tree-rules.ts';
import type { EpicView } from '../../db/queries/epics.ts';
import type { GroupView } from '../../db/queries/groups.ts';
import { DEFAULT_LABEL_COLOR } from '../../db/queries/labels.ts';
import { insertLabel } from '../../db/queries/labels/writes.ts';
import { nextIid } from '../../db/queries/internal-ids.ts';
import { recordEvent } from '../events/record.ts';
import { notify } from '../notifications/record.ts';
import { findGroup, groupFacts } from '../groups/service.ts';
import { requireUser, readerActor } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { forbidden, paramErrors, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, can, epicsAvailable, subepicsAvailable, type EpicFacts } from '../lib/policy.ts';
import { UPDATE_FIELDS } from './schemas.ts';
import type { EpicRow } from '../../db/schema/index.ts';
import { createEpicMentionTodos } from '../todos/epic-mentions.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** The group an epic lives in (or is created in), with the license fact, for the policy. */
export const epicFacts = (ctx: RequestContext, group: Pick<GroupView, 'namespace' | 'accessLevel' | 'hasDescendantAccess'>, confidential = false): EpicFacts => ({
  ...groupFacts(group),
  epicsAvailable: epicsAvailable(ctx.config.instanceTier),
  subepicsAvailable: subepicsAvailable(ctx.config.instanceTier),
  confidential,
});

/** May the actor admin epics of this epic's group (the entity's admin-only fields, GraphQL permissions)? */
export const canAdminEpic = (ctx: RequestContext, group: GroupView) => can(ctx.actor, 'group:admin_epic', epicFacts(ctx, group));

/** `user_group` then `authorize_epics_feature!`: 404 for a missing/hidden group, then 403 without the license. */
export async function epicGroup(ctx: RequestContext, ref: Ref | null): Promise<GroupView> {
  const group = await findGroup(ctx, ref);
  if (!epicsAvailable(ctx.config.instanceTier)) throw forbidden();
  return group;
}

export interface EpicListInput {
  ref: Ref | null;
  filter: Omit<q.EpicFilter, 'groupId' | 'ancestorIds'> & { includeAncestors?: boolean };
  order: q.EpicOrder;
}

/** GET /groups/:id/epics (EpicsFinder): the group's epics (and its subgroups' by default) the actor may read. */
export async function listEpics({ ctx, input }: Verb<EpicListInput>) {
  const group = await epicGroup(ctx, input.ref);
  assertCan(ctx.actor, 'group:read_epic', epicFacts(ctx, group));
  const { includeAncestors, ...rest } = input.filter;
  const ns = group.namespace;
  const filter: q.EpicFilter = { ...rest, groupId: ns.id, ancestorIds: includeAncestors ? ns.traversalIds.filter((id) => id !== ns.id) : undefined };
  return {
    group,
    fetch: (limit: number, offset: number) => q.listEpicViews(ctx.db, ctx.actor, filter, input.order, limit, offset),
    count: (limit: number) => q.countEpics(ctx.db, ctx.actor, filter, limit),
  };
}

/**
 * The epic by iid as the actor may read it. GitLab's `find_epics(...).find_by(iid:)` then `authorize!(:read_epic,
 * epic)`: a missing epic is `authorize!` on nil, a 403 like an unreadable one.
 */
export async function readEpic(ctx: RequestContext, group: GroupView, iid: number | null): Promise<EpicView> {
  const epic = iid === null ? undefined : await q.findEpicView(ctx.db, group.namespace.id, iid);
  if (!epic) throw forbidden();
  assertCan(ctx.actor, 'group:read_epic', epicFacts(ctx, group, epic.epic.confidential));
  return epic;
}

export async function getEpic({ ctx, input }: Verb<{ ref: Ref | null; iid: number | null }>) {
  const group = await epicGroup(ctx, input.ref);
  return { group, epic: await readEpic(ctx, group, input.iid) };
}

/**
 * Group labels by title in the group or its ancestors; missing ones are created in the group
 * (Labels::FindOrCreateService), inside the epic's transaction so a refused write leaves no new label behind.
 */
async function labelIdsFor(tx: Db, group: GroupView, titles: readonly string[]): Promise<number[]> {
  if (!titles.length) return [];
  const found = await qLabels.findGroupLabelsByTitles(tx, group.namespace.traversalIds, titles);
  const ids = titles.map((t) => found.find((l) => l.title === t && l.groupId === group.namespace.id)?.id ?? found.find((l) => l.title === t)?.id);
  const out: number[] = [];
  for (const [i, title] of titles.entries()) {
    const known = ids[i];
    if (known !== undefined) out.push(known);
    else {
      const created = await insertLabel(tx, { kind: 'group', groupId: group.namespace.id, groupIds: [] }, { title, color: DEFAULT_LABEL_COLOR, description: null, priority: null });
      const again = created ?? (await qLabels.findGroupLabelsByTitles(tx, [group.namespace.id], [title]))[0];
      if (again) out.push(again.id);
    }
  }
  return [...new Set(out)];
}

interface DateFields {
  start_date?: string | null | undefined;
  start_date_fixed?: string | null | undefined;
  start_date_is_fixed?: boolean | undefined;
  end_date?: string | null | undefined;
  due_date_fixed?: string | null | undefined;
  due_date_is_fixed?: boolean | undefined;
}

/** The date columns the request sets (declared names first, then the documented ones). */
const dateChanges = (input: DateFields) => ({
  startDateFixed: input.start_date !== undefined ? input.start_date : input.start_date_fixed,
  startDateIsFixed: input.start_date_is_fixed,
  dueDateFixed: input.end_date !== undefined ? input.end_date : input.due_date_fixed,
  dueDateIsFixed: input.due_date_is_fixed,
});

export interface CreateEpicFields extends DateFields {
  title: string;
  description?: string | null | undefined;
  confidential?: boolean | undefined;
  labels?: readonly string[] | undefined;
  labelIds?: readonly number[] | undefined;
  parent_id?: number | undefined;
}

const PARENT_INVALID = 'The parent is not valid';

/** POST /groups/:id/epics and createEpic: reporters and above (`authorize!(:admin_epic, user_group)`). */
export async function createEpic({ ctx, input }: Verb<{ ref: Ref | null } & CreateEpicFields>) {
  const user = requireUser(ctx);
  const group = await epicGroup(ctx, input.ref);
  assertCan(ctx.actor, 'group:create_epic', epicFacts(ctx, group));
  return insertEpicIn(ctx, group, user.id, input);
}

/** The create itself, the group authorized: one transaction (iid, epic, label links). */
export async function insertEpicIn(ctx: RequestContext, group: GroupView, authorId: number, input: CreateEpicFields) {
  const title = input.title.trim();
  if (title === '') throw validationFailed({ title: ["can't be blank"] });
  if (title.length > 255) throw validationFailed({ title: ['is too long (maximum is 255 characters)'] });
  if (input.parent_id !== undefined) {
    // Epic#validate_parent: the parent is an epic of this group or one of its ancestors.
    const [parent] = await q.findEpicViewsByIds(ctx.db, [input.parent_id]);
    if (!parent || !group.namespace.traversalIds.includes(parent.epic.groupId)) throw validationFailed({ parent: [PARENT_INVALID] });
  }
  const dates = dateChanges(input);
  const groupId = group.namespace.id;
  const row = await ctx.transaction(async (tx) => {
    if (input.parent_id !== undefined) {
      // Epic#validate_parent's depth and confidentiality, against the tree as it is under the tree lock (concurrent
      // links and creates cannot together exceed the depth).
      await lockEpicTree(tx, group.namespace.traversalIds[0] ?? groupId);
      const parent = (await treeFacts(tx, [input.parent_id])).get(input.parent_id);
      const errors = parent ? parentErrors(newEpicFacts(groupId, input.confidential ?? false), parent) : [];
      if (errors.length) throw validationFailed(parentFieldErrors(errors));
    }
    const labelIds = [...(input.labelIds ?? []), ...(await labelIdsFor(tx, group, input.labels ?? []))];
    const iid = await nextIid(tx, 'epics', { namespaceId: groupId });
    const epic = await qWrites.insertEpic(tx, {
      groupId,
      iid,
      authorId,
      title,
      description: input.description ?? null,
      confidential: input.confidential ?? false,
      parentId: input.parent_id ?? null,
      startDateFixed: dates.startDateFixed ?? null,
      startDateIsFixed: dates.startDateIsFixed ?? null,
      dueDateFixed: dates.dueDateFixed ?? null,
      dueDateIsFixed: dates.dueDateIsFixed ?? null,
    });
    if (labelIds.length) await qLabels.setEpicLabels(tx, epic.id, [...new Set(labelIds)]);
    await epicMentionTodos(ctx, tx, group, epic, authorId);
    await recordEpicCreated(ctx, tx, group, epic.id, authorId);
    return epic;
  });
  return { group, epic: (await q.findEpicView(ctx.db, groupId, row.iid))! };
}

export interface UpdateEpicFields extends DateFields {
  title?: string | undefined;
  description?: string | null | undefined;
  confidential?: boolean | undefined;
  labels?: readonly string[] | undefined;
  add_labels?: readonly string[] | undefined;
  remove_labels?: readonly string[] | undefined;
  addLabelIds?: readonly number[] | undefined;
  removeLabelIds?: readonly number[] | undefined;
  state_event?: 'close' | 'reopen' | undefined;
}

/** PUT /groups/:id/epics/:epic_iid (admin_epic on the epic). */
export async function updateEpic({ ctx, input }: Verb<{ ref: Ref | null; iid: number | null } & UpdateEpicFields>) {
  const withDocumentedNames = { ...input, start_date_fixed: input.start_date_fixed ?? input.start_date, due_date_fixed: input.due_date_fixed ?? input.end_date };
  if (UPDATE_FIELDS.every((f) => withDocumentedNames[f] === undefined))
    throw paramErrors([`${UPDATE_FIELDS.join(', ')} are missing, at least one parameter must be provided`]);
  const user = requireUser(ctx);
  const group = await epicGroup(ctx, input.ref);
  const current = await readEpic(ctx, group, input.iid);
  assertCan(ctx.actor, 'group:admin_epic', epicFacts(ctx, group, current.epic.confidential));
  return applyEpicUpdate(ctx, group, current, user.id, input);
}

/** The update itself, the epic authorized: one transaction. */
export async function applyEpicUpdate(ctx: RequestContext, group: GroupView, current: EpicView, userId: number, input: UpdateEpicFields) {
  const title = input.title?.trim();
  if (title !== undefined && title === '') throw validationFailed({ title: ["can't be blank"] });
  const dates = dateChanges(input);
  const e = current.epic;
  const closing = input.state_event === 'close' && e.state === 'opened';
  const reopening = input.state_event === 'reopen' && e.state === 'closed';
  const labelChange = input.labels !== undefined || input.add_labels || input.remove_labels || input.addLabelIds || input.removeLabelIds;
  await ctx.transaction(async (tx) => {
    let labelIds: number[] | undefined;
    if (labelChange) {
      const existing = current.labels.map((l) => l.id);
      const base = input.labels !== undefined ? await labelIdsFor(tx, group, input.labels) : existing;
      const add = [...(await labelIdsFor(tx, group, input.add_labels ?? [])), ...(input.addLabelIds ?? [])];
      const removeByTitle = current.labels.filter((l) => input.remove_labels?.includes(l.title)).map((l) => l.id);
      const remove = new Set([...removeByTitle, ...(input.removeLabelIds ?? [])]);
      labelIds = [...new Set([...base, ...add])].filter((id) => !remove.has(id));
    }
    await qWrites.updateEpic(tx, e.id, {
      ...(title !== undefined ? { title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.confidential !== undefined ? { confidential: input.confidential } : {}),
      ...(dates.startDateFixed !== undefined ? { startDateFixed: dates.startDateFixed } : {}),
      ...(dates.startDateIsFixed !== undefined ? { startDateIsFixed: dates.startDateIsFixed } : {}),
      ...(dates.dueDateFixed !== undefined ? { dueDateFixed: dates.dueDateFixed } : {}),
      ...(dates.dueDateIsFixed !== undefined ? { dueDateIsFixed: dates.dueDateIsFixed } : {}),
      // Epic#close / #reopen: closed_at (and closed_by) set on close, cleared on reopen.
      ...(closing ? { state: 'closed' as const, closedAt: new Date(), closedById: userId } : {}),
      ...(reopening ? { state: 'opened' as const, closedAt: null, closedById: null } : {}),
    });
    if (labelIds) await qLabels.setEpicLabels(tx, e.id, labelIds);
    // EventCreateService#close_epic / #reopen_epic, with the state change (the group's event, project_id null).
    if (closing || reopening) await recordEvent(tx, { action: closing ? 'closed' : 'reopened', authorId: userId, groupId: group.namespace.id, target: { type: 'Epic', id: e.id } });
    if (title !== undefined || input.description !== undefined)
      await epicMentionTodos(ctx, tx, group, { ...e, title: title ?? e.title, description: input.description !== undefined ? input.description : e.description, confidential: input.confidential ?? e.confidential }, userId, e);
  });
  return { group, epic: (await q.findEpicView(ctx.db, group.namespace.id, e.iid))! };
}

/** DELETE /groups/:id/epics/:epic_iid: group owners (destroy_epic). */
export async function deleteEpic({ ctx, input }: Verb<{ ref: Ref | null; iid: number | null }>) {
  requireUser(ctx);
  const group = await epicGroup(ctx, input.ref);
  const current = await readEpic(ctx, group, input.iid);
  assertCan(ctx.actor, 'group:destroy_epic', epicFacts(ctx, group, current.epic.confidential));
  await ctx.transaction((tx) => qWrites.deleteEpic(tx, current.epic.id));
}

/** Epic#subscribed? for the actor (false when anonymous), per epic id. */
export async function subscribedToEpics(ctx: RequestContext, epicIds: readonly number[]): Promise<Map<number, boolean>> {
  const user = ctx.actor.user;
  return user ? qBatched.epicsSubscribed(ctx.db, epicIds, user.id) : new Map();
}

/**
 * Mention to-dos for an epic's title and description (TodoService#new_epic/#update_epic, GitLab 13.6 EE): users
 * newly mentioned (not in `before`) who may read the epic; in the epic's transaction.
 */
async function epicMentionTodos(ctx: RequestContext, tx: Db, group: GroupView, epic: Pick<EpicRow, 'id' | 'title' | 'description' | 'confidential'>, authorId: number, before?: Pick<EpicRow, 'title' | 'description'>) {
  await createEpicMentionTodos(tx, {
    epicId: epic.id,
    groupId: group.namespace.id,
    authorId,
    traversalIds: group.namespace.traversalIds,
    texts: [epic.title, epic.description],
    before: before ? [before.title, before.description] : undefined,
    mayRead: (user, accessLevel) => can(readerActor(user), 'group:read_epic', { ...epicFacts(ctx, group, epic.confidential), accessLevel, hasDescendantAccess: false }),
  });
}

/**
 * EventCreateService#open_epic (the group's event, project_id null) and, on Premium and above, the `new_epic`
 * notification's outbox row (NotificationService#new_epic), in the epic's transaction.
 */
async function recordEpicCreated(ctx: RequestContext, tx: Db, group: GroupView, epicId: number, authorId: number) {
  await recordEvent(tx, { action: 'created', authorId, groupId: group.namespace.id, target: { type: 'Epic', id: epicId } });
  if (epicsAvailable(ctx.config.instanceTier)) await notify(tx, { action: 'new_epic', target: { type: 'Epic', id: epicId }, groupId: group.namespace.id, actorId: authorId });
}
