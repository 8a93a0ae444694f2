// Iteration verbs (GitLab EE's API::Iterations, IterationsFinder and Iterations::CreateService, 13.6): the license
// and the parent's read rule first (policy), then the work.
import * as q from '../../db/queries/iterations.ts';
import { timeboxReportEvents } from '../issues/lookups.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { notFound } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, iterationsAvailable, weightsAvailable } from '../lib/policy.ts';
import { findGroup, groupFacts } from '../groups/service.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { burnup, EVENT_COUNT_LIMIT } from './burnup.ts';
import { iterationErrors, parseDate, type IterationAttributes } from './validation.ts';

type Verb<I> = { ctx: RequestContext; input: I };
export type IterationParentRef = { kind: 'group' | 'project'; ref: Ref | null };

/** The parent (404 when hidden) the actor may read iterations of (403 when not licensed), with the scope it lists. */
export async function iterationParent(ctx: RequestContext, parent: IterationParentRef, action: 'read' | 'create' = 'read') {
  const licensed = iterationsAvailable(ctx.config.instanceTier);
  if (parent.kind === 'group') {
    const group = await findGroup(ctx, parent.ref);
    assertCan(ctx.actor, action === 'read' ? 'group:read_iteration' : 'group:create_iteration', { ...groupFacts(group), iterationsAvailable: licensed });
    const ancestors = group.namespace.traversalIds;
    return {
      kind: 'group' as const,
      id: group.namespace.id,
      rootGroupId: ancestors[0] ?? group.namespace.id,
      ancestors,
      own: { projectIds: [], groupIds: [group.namespace.id] },
    };
  }
  const project = await findProject(ctx, parent.ref);
  assertCan(ctx.actor, action === 'read' ? 'project:read_iteration' : 'project:create_iteration', { ...projectFacts(project), iterationsAvailable: licensed });
  const ancestors = project.namespace.kind === 'group' ? project.namespace.traversalIds : [];
  return {
    kind: 'project' as const,
    id: project.project.id,
    rootGroupId: ancestors[0] ?? null,
    ancestors,
    own: { projectIds: [project.project.id], groupIds: [] },
  };
}

export type IterationListInput = IterationParentRef & { filter: q.IterationFilter; includeAncestors: boolean };

/** IterationsFinder: the parent's iterations, and its ancestor groups' with include_ancestors. */
export async function listIterations({ ctx, input }: Verb<IterationListInput>) {
  const parent = await iterationParent(ctx, input);
  const scope: q.IterationScope = input.includeAncestors ? { projectIds: parent.own.projectIds, groupIds: parent.ancestors } : parent.own;
  return {
    fetch: (limit: number, offset: number) => q.listIterations(ctx.db, scope, input.filter, limit, offset),
    count: (limit: number) => q.countIterations(ctx.db, scope, input.filter, limit),
  };
}

/** An iteration by id, if the actor may read its parent's iterations (else the parent's 404/403). */
export async function findIteration(ctx: RequestContext, id: number) {
  const [view] = await q.findIterationViewsByIds(ctx.db, [id]);
  if (!view) throw notFound('Iteration');
  const i = view.iteration;
  await iterationParent(ctx, i.groupId !== null ? { kind: 'group', ref: { id: i.groupId } } : { kind: 'project', ref: { id: i.projectId! } });
  return view;
}

/**
 * TimeboxReportService for a milestone or an iteration already found readable: its burnup replayed from the resource
 * events, or GitLab's refusal (license, missing dates, too many events) as `error`.
 */
export async function timeboxReport(
  ctx: RequestContext,
  timebox: { kind: 'milestone' | 'iteration'; id: number; startDate: string | null; dueDate: string | null },
) {
  const name = timebox.kind === 'milestone' ? 'Milestone' : 'Iteration';
  // supports_timebox_charts?: the timebox's license (milestone_charts / iterations) and issue weights, all Premium.
  if (!weightsAvailable(ctx.config.instanceTier) || !iterationsAvailable(ctx.config.instanceTier)) return { error: `${name} does not support burnup charts` };
  if (!timebox.startDate || !timebox.dueDate) return { error: `${name} must have a start and due date` };
  const events = await timeboxReportEvents(ctx.db, { kind: timebox.kind, id: timebox.id, dueDate: timebox.dueDate }, EVENT_COUNT_LIMIT + 1);
  if (events.length > EVENT_COUNT_LIMIT) return { error: 'Burnup chart could not be generated due to too many events' };
  return { report: burnup(events, timebox.id, timebox.startDate) };
}

export type CreateResult = { iteration: q.IterationView; errors: [] } | { iteration: null; errors: string[] };

/**
 * Iterations::CreateService: the model's errors as full messages (nothing written), else the new iteration. The
 * overlap and title rules are checked and the row written under the hierarchy's lock, so concurrent creates in one
 * group tree cannot both pass.
 */
export async function createIteration({ ctx, input }: Verb<IterationParentRef & { attributes: IterationAttributes }>): Promise<CreateResult> {
  requireUser(ctx);
  const parent = await iterationParent(ctx, input, 'create');
  const a = input.attributes;
  const today = new Date().toISOString().slice(0, 10);
  const found = iterationErrors(a, today, parent.kind);
  if (found.errors.length || !found.valid || parent.kind !== 'group') return { iteration: null, errors: found.errors };
  const v = found.valid;
  const outcome = await ctx.transaction(async (tx) => {
    await q.lockHierarchy(tx, parent.rootGroupId);
    const errors: string[] = [];
    if (await q.groupTitleTaken(tx, parent.id, v.title)) errors.push('Title already being used for another group or project iteration.');
    if (await q.overlapsIteration(tx, parent.ancestors, v.startDate, v.dueDate)) errors.push('Dates cannot overlap with other existing Iterations');
    return { errors, id: errors.length ? null : await q.insertGroupIteration(tx, parent.id, v) };
  });
  if (outcome.id === null) return { iteration: null, errors: outcome.errors };
  const [view] = await q.findIterationViewsByIds(ctx.db, [outcome.id]);
  return { iteration: view!, errors: [] };
}

/** Messages of the model's future_date rule, which runs only when a date changes (start_or_due_dates_changed?). */
const DATE_RANGE_MESSAGE = /^(Start|Due) date cannot be (in the past|more than 500 years in the future)$/;

/**
 * updateIteration (13.6 Mutations::Iterations::Update, Iterations::UpdateService): the iteration is looked up as
 * IterationsResolver finds it under `group` (its own and its ancestors' iterations; none is the resource error), the
 * actor must admin iterations of its group (developers, licensed; else the resource error); the merged attributes go
 * through the model's validations (dates only when changed, overlap with the hierarchy's others) under the
 * hierarchy's lock; the errors are full messages and nothing is written.
 */
export async function updateIteration({
  ctx,
  input,
}: Verb<{ group: Ref | null; iterationId: number; attributes: IterationAttributes }>): Promise<CreateResult> {
  requireUser(ctx);
  const parent = await iterationParent(ctx, { kind: 'group', ref: input.group });
  const [found] = await q.listIterations(ctx.db, { projectIds: [], groupIds: parent.ancestors }, { ids: [input.iterationId] }, 1, 0);
  if (!found || found.iteration.groupId === null) throw notFound('Iteration');
  const owner = await iterationParent(ctx, { kind: 'group', ref: { id: found.iteration.groupId } }, 'create');
  const current = found.iteration;
  const a = input.attributes;
  const merged: IterationAttributes = {
    title: a.title !== undefined ? a.title : current.title,
    description: a.description !== undefined ? a.description : current.description,
    startDate: a.startDate !== undefined ? a.startDate : current.startDate,
    dueDate: a.dueDate !== undefined ? a.dueDate : current.dueDate,
  };
  const today = new Date().toISOString().slice(0, 10);
  const checked = iterationErrors(merged, today, 'group');
  const datesChanged = parseDate(merged.startDate) !== current.startDate || parseDate(merged.dueDate) !== current.dueDate;
  const errors = datesChanged ? checked.errors : checked.errors.filter((m) => !DATE_RANGE_MESSAGE.test(m));
  if (errors.length || !checked.valid) return { iteration: null, errors };
  const v = checked.valid;
  const outcome = await ctx.transaction(async (tx) => {
    await q.lockHierarchy(tx, owner.rootGroupId!);
    const found: string[] = [];
    if (await q.groupTitleTaken(tx, owner.id, v.title, current.id)) found.push('Title already being used for another group or project iteration.');
    if (datesChanged && (await q.overlapsIteration(tx, owner.ancestors, v.startDate, v.dueDate, current.id)))
      found.push('Dates cannot overlap with other existing Iterations');
    if (!found.length) await q.updateIteration(tx, current.id, v);
    return found;
  });
  if (outcome.length) return { iteration: null, errors: outcome };
  const [view] = await q.findIterationViewsByIds(ctx.db, [current.id]);
  return { iteration: view!, errors: [] };
}
