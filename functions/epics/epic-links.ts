// Child epics (GitLab 13.6 ee/lib/api/epic_links.rb, EpicLinks::{Create,Update}Service, Epic#validate_parent). Every
// endpoint wants a signed-in user and the epics license (Premium); linking, creating and moving children need the
// subepics license too (multi-level epics, Ultimate: `authorize_subepics_feature!` then admin_epic_link, both 403),
// unlinking only destroy_epic_link (reporters, Premium). A child is found among the readable epics of the parent's
// group and its subgroups (`find_epics(group_id: user_group.id)`). The tree lives in epics.parent_id and
// relative_position; each change takes the tree lock of the top-level group (db/queries/epics/links.ts) and validates
// against what it reads under it, so concurrent links cannot together form a cycle or exceed the depth.
import * as links from '../../db/queries/epics/links.ts';
import * as q from '../../db/queries/epics.ts';
import * as qBatched from '../../db/queries/epics/batched-reads.ts';
import type { EpicView } from '../../db/queries/epics.ts';
import type { GroupView } from '../../db/queries/groups.ts';
import { findGroup } from '../groups/service.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { conflict, forbidden, notFound, notFoundMessage } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { toSentence } from '../lib/format.ts';
import { assertCan, subepicsAvailable } from '../lib/policy.ts';
import { insertEpicIn } from './create.ts';
import { epicFacts, epicGroup, readEpic } from './service.ts';
import { MAX_HIERARCHY_DEPTH, parentErrors } from './tree-rules.ts';

type Verb<I> = { ctx: RequestContext; input: I };
type EpicRef = { ref: Ref | null; iid: number | null };

const NO_EPIC = 'No Epic found for given params';
const EPIC_NOT_FOUND = 'Epic not found for given params';
const PARENT_AT_MAX_DEPTH = "This epic can't be added because the parent is already at the maximum depth from its most distant ancestor";

/** The group, the parent epic (readable), then the action on it. */
async function parentFor(ctx: RequestContext, input: EpicRef, action: 'group:read_epic' | 'group:admin_epic_link' | 'group:destroy_epic_link') {
  requireUser(ctx);
  const group = await epicGroup(ctx, input.ref);
  // `authorize_subepics_feature!` comes before the epic is looked at.
  if (action === 'group:admin_epic_link' && !subepicsAvailable(ctx.config.instanceTier)) throw forbidden();
  const epic = await readEpic(ctx, group, input.iid);
  assertCan(ctx.actor, action, epicFacts(ctx, group, epic.epic.confidential));
  return { group, epic };
}

/** A readable epic of the group or its subgroups by id (the finder the endpoints use for `child_epic_id`). */
async function findChild(ctx: RequestContext, group: GroupView, childId: number | null): Promise<EpicView | undefined> {
  if (childId === null) return undefined;
  const [found] = await q.listEpicViews(
    ctx.db,
    ctx.actor,
    { groupId: group.namespace.id, includeDescendants: true, ids: [childId] },
    { by: 'created_at', sort: 'desc' },
    1,
    0,
  );
  return found;
}

/** The readable children of an epic in tree order (EpicsFinder with parent_id, sorted by relative_position). */
async function readableChildren(ctx: RequestContext, group: GroupView, epic: EpicView): Promise<EpicView[]> {
  return q.listEpicViews(
    ctx.db,
    ctx.actor,
    { groupId: group.namespace.id, includeDescendants: true, parentIds: [epic.epic.id] },
    { by: 'relative_position', sort: 'asc' },
    1000,
    0,
  );
}

const rootOf = (group: GroupView) => group.namespace.traversalIds[0] ?? group.namespace.id;

/** GET /groups/:id/epics/:epic_iid/epics. */
export async function listChildEpics({ ctx, input }: Verb<EpicRef>) {
  const { group, epic } = await parentFor(ctx, input, 'group:read_epic');
  return { group, children: await readableChildren(ctx, group, epic) };
}

/** POST /groups/:id/epics/:epic_iid/epics/:child_epic_id: the child, now under the epic (placed first). */
export async function addChildEpic({ ctx, input }: Verb<EpicRef & { childId: number | null }>) {
  const { group, epic } = await parentFor(ctx, input, 'group:admin_epic_link');
  const child = await findChild(ctx, group, input.childId);
  await ctx.transaction(async (tx) => {
    await links.lockEpicTree(tx, rootOf(group));
    const facts = await links.treeFacts(tx, [epic.epic.id, ...(child ? [child.epic.id] : [])]);
    const parent = facts.get(epic.epic.id);
    if (!parent) throw forbidden();
    if (parent.baseAndAncestors.length >= MAX_HIERARCHY_DEPTH) throw conflict(PARENT_AT_MAX_DEPTH);
    const current = child && facts.get(child.epic.id);
    if (!current) throw notFoundMessage(NO_EPIC);
    const errors = parentErrors(current, parent);
    if (errors.length) throw conflict(toSentence(errors));
    await links.setParent(tx, current.id, parent.id);
  });
  const [view] = await q.findEpicViewsByIds(ctx.db, [child!.epic.id]);
  return { group, epic, child: view! };
}

export interface CreateChildFields {
  title: string;
  confidential?: boolean | undefined;
  subgroup_id?: Ref | null | undefined;
}

/**
 * POST /groups/:id/epics/:epic_iid/epics with `title`: a new epic under this one, in the group or in `subgroup_id`
 * (a descendant of the group; the group itself or anything else is `404 Group Not Found`). Its confidentiality is
 * the parent's unless given; a refused parent is the model's 400.
 */
export async function createChildEpic({ ctx, input }: Verb<EpicRef & CreateChildFields>) {
  const user = requireUser(ctx);
  const { group, epic } = await parentFor(ctx, input, 'group:admin_epic_link');
  let target = group;
  if (input.subgroup_id !== undefined) {
    const sub = await findGroup(ctx, input.subgroup_id);
    if (sub.namespace.id === group.namespace.id || !sub.namespace.traversalIds.includes(group.namespace.id)) throw notFound('Group');
    target = sub;
  }
  // The parent's depth and confidentiality are checked by the create, under the tree lock.
  const confidential = input.confidential ?? epic.epic.confidential;
  const created = await insertEpicIn(ctx, target, user.id, { title: input.title, confidential, parent_id: epic.epic.id });
  return { group, parent: epic, child: created.epic };
}

/** The child by id, readable in the group's subtree and a child of `epic`; else `message` as a 404. */
async function childOf(ctx: RequestContext, group: GroupView, epic: EpicView, childId: number | null, message: string | null) {
  const child = await findChild(ctx, group, childId);
  if (!child || child.epic.parentId !== epic.epic.id) throw message ? notFoundMessage(message) : notFound();
  return child;
}

/**
 * PUT /groups/:id/epics/:epic_iid/epics/:child_epic_id with move_before_id / move_after_id (epic ids among its
 * siblings; move_before_id names the one that ends up before it): the epic's children in their new order.
 */
export async function moveChildEpic({ ctx, input }: Verb<EpicRef & { childId: number | null; before?: number | undefined; after?: number | undefined }>) {
  const { group, epic } = await parentFor(ctx, input, 'group:admin_epic_link');
  const child = await childOf(ctx, group, epic, input.childId, EPIC_NOT_FOUND);
  if (input.before !== undefined || input.after !== undefined) {
    await ctx.transaction(async (tx) => {
      await links.lockEpicTree(tx, rootOf(group));
      const siblings = await links.childIds(tx, epic.epic.id);
      if (!siblings.includes(child.epic.id)) throw notFoundMessage(EPIC_NOT_FOUND);
      const named = [input.before, input.after].filter((id): id is number => id !== undefined);
      if (named.some((id) => id === child.epic.id || !siblings.includes(id))) throw notFoundMessage(EPIC_NOT_FOUND);
      const rest = siblings.filter((id) => id !== child.epic.id);
      const at = input.before !== undefined ? rest.indexOf(input.before) + 1 : rest.indexOf(input.after!);
      rest.splice(at, 0, child.epic.id);
      await links.setPositions(tx, rest);
    });
  }
  return { group, children: await readableChildren(ctx, group, epic) };
}

/** DELETE /groups/:id/epics/:epic_iid/epics/:child_epic_id: the child, now without a parent. */
export async function removeChildEpic({ ctx, input }: Verb<EpicRef & { childId: number | null }>) {
  const { group, epic } = await parentFor(ctx, input, 'group:destroy_epic_link');
  const child = await childOf(ctx, group, epic, input.childId, null);
  const removed = await ctx.transaction(async (tx) => {
    await links.lockEpicTree(tx, rootOf(group));
    return links.clearParent(tx, child.epic.id, epic.epic.id);
  });
  if (!removed) throw notFound();
  const [view] = await q.findEpicViewsByIds(ctx.db, [child.epic.id]);
  return { group, child: view! };
}

/** has_children / has_issues of one epic. */
export async function relationFlags(ctx: RequestContext, epicId: number) {
  const [row] = await qBatched.epicRelationCounts(ctx.db, [epicId]);
  return { hasChildren: (row?.children ?? 0) > 0, hasIssues: (row?.issues ?? 0) > 0 };
}

/** Epic.descendantCounts / descendantWeightSum of many epics (one statement), by epic id. */
export async function descendantAggregatesOf(ctx: RequestContext, epicIds: readonly number[]): Promise<links.DescendantAggregate[]> {
  const found = new Map((await links.descendantAggregates(ctx.db, epicIds)).map((r) => [r.id, r]));
  return epicIds.map((id) => found.get(id) ?? { id, openedEpics: 0, closedEpics: 0, openedIssues: 0, closedIssues: 0, openedWeight: 0, closedWeight: 0 });
}
