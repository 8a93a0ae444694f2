// Epic verbs (GitLab 13.6 EE: ee/lib/api/epics.rb, Epics::{Create,Update}Service, Issuable::DestroyService). Epics
// are Premium (`feature_available?(:epics)`): without the license every endpoint answers 403 once the group is
// found (a missing or hidden group is 404 first, as `user_group` is evaluated before the license check).
// Permissions: lib/policy.ts's group:*_epic rules.
// Here: the license and policy facts, the group and epic lookups, the listing, delete and subscriptions. Creating is
// in create.ts, updating in update.ts, the steps both take in their transaction in write-steps.ts.
import * as q from '../../db/queries/epics.ts';
import type { EpicView } from '../../db/queries/epics.ts';
import * as qBatched from '../../db/queries/epics/batched-reads.ts';
import * as qWrites from '../../db/queries/epics/writes.ts';
import type { GroupView } from '../../db/queries/groups.ts';
import { findGroup, groupFacts } from '../groups/service.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { forbidden } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, can, epicsAvailable, subepicsAvailable, type EpicFacts } from '../lib/policy.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** The group an epic lives in (or is created in), with the license fact, for the policy. */
export const epicFacts = (
  ctx: RequestContext,
  group: Pick<GroupView, 'namespace' | 'accessLevel' | 'hasDescendantAccess'>,
  confidential = false,
): EpicFacts => ({
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
