// Milestone verbs for projects and groups (lib/api/milestone_responses.rb, Milestones::{Create,Update,Close,Reopen,
// Destroy}Service, the Timebox validations). Every endpoint wants a signed-in user (`before { authenticate! }`);
// reads need the source to be visible, changes need admin_milestones (reporters and above).
//
// Events (EventCreateService), for project milestones only, as GitLab records them (`if milestone.project_milestone?`):
// created, closed, reopened (state_event=activate), destroyed; target_type 'Milestone'. Group milestones record none.
// Each event is written in the transaction of its change.
import { countIssues, listIssueViews } from '../issues/lookups.ts';
import { countMergeRequests, listMergeRequestViews } from '../merge-requests/lookups.ts';
import * as q from '../../db/queries/milestones.ts';
import { COUNT_LIMIT } from '../lib/pagination.ts';
import type { MilestoneRow } from '../../db/schema/index.ts';
import { detachEventTarget, recordEvent } from '../events/record.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { invalidRecord, isUniqueViolation, paramErrors, recordNotFound } from '../lib/errors.ts';
import type { GroupFacts, ProjectFacts } from '../lib/policy.ts';
import { assertCanOnSource, loadSource, type SourceInput } from '../sources/service.ts';
import { UPDATE_FIELDS, type MilestoneOwner } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: SourceInput & I };

interface Source {
  facts: ProjectFacts | GroupFacts;
  source: q.MilestoneSource;
  owner: MilestoneOwner;
  /** Ancestor groups (root first), not including a group source itself. */
  ancestors: number[];
}

/** The source (sources/service.ts) with what milestones need of it. */
async function milestoneSource(ctx: RequestContext, input: SourceInput): Promise<Source> {
  const s = await loadSource(ctx, input);
  const source: q.MilestoneSource =
    s.kind === 'project'
      ? { kind: 'project', projectId: s.id, parentGroupId: s.namespace.kind === 'group' ? s.namespace.id : null }
      : { kind: 'group', groupId: s.id };
  return { facts: s.facts, source, owner: { fullPath: s.fullPath }, ancestors: s.ancestorGroupIds };
}

/** `parent.milestones.find(id)` misses: ActiveRecord's `404 Not found`. */
const milestoneNotFound = recordNotFound;

/** GitLab's `render_api_error!("Failed to create milestone #{milestone.errors.messages}", 400)`. */
const failed = (verb: 'create' | 'update', errors: Record<string, string[]>) => invalidRecord(`Failed to ${verb} milestone`, errors, 'render_api_error');

const TITLE_TAKEN = 'already being used for another group or project milestone.';
const DATES = 'must be greater than start date';

function titleErrors(title: string): string[] {
  if (title === '') return ["can't be blank"];
  return title.length > 255 ? ['is too long (maximum is 255 characters)'] : [];
}

export interface MilestoneWithOwner {
  milestone: MilestoneRow;
  owner: MilestoneOwner;
}

export async function listMilestones({ ctx, input }: Verb<{ filter: q.MilestoneFilter; includeParents: boolean }>) {
  const s = await milestoneSource(ctx, input);
  const own = s.source.kind === 'project' ? { projectIds: [s.source.projectId], groupIds: [] } : { projectIds: [], groupIds: [s.source.groupId] };
  // With parent milestones GitLab ignores iids (they are not unique across the sources).
  const scope = input.includeParents ? { projectIds: own.projectIds, groupIds: [...own.groupIds, ...s.ancestors] } : own;
  const filter = input.includeParents ? { ...input.filter, iids: undefined } : input.filter;
  return {
    fetch: async (limit: number, offset: number): Promise<MilestoneWithOwner[]> =>
      (await q.listMilestones(ctx.db, scope, filter, limit, offset)).map((r) => ({
        milestone: r.milestone,
        owner: r.groupPath !== null ? { fullPath: r.groupPath } : s.owner,
      })),
    count: (limit: number) => q.countMilestones(ctx.db, scope, filter, limit),
  };
}

export async function getMilestone({ ctx, input }: Verb<{ id: number | null }>): Promise<MilestoneWithOwner> {
  const s = await milestoneSource(ctx, input);
  const milestone = input.id === null ? undefined : await q.findMilestone(ctx.db, s.source, input.id);
  if (!milestone) throw milestoneNotFound();
  return { milestone, owner: s.owner };
}

const projectIdOf = (s: Source) => (s.source.kind === 'project' ? s.source.projectId : null);

export async function createMilestone({
  ctx,
  input,
}: Verb<{
  title: string;
  description?: string | null | undefined;
  due_date?: string | null | undefined;
  start_date?: string | null | undefined;
}>): Promise<MilestoneWithOwner> {
  const user = requireUser(ctx);
  const s = await milestoneSource(ctx, input);
  assertCanOnSource(ctx, 'admin_milestones', s.facts);
  const title = input.title.trim();
  const errors: Record<string, string[]> = {};
  const t = titleErrors(title);
  if (t.length) errors.title = t;
  const due = input.due_date ?? null;
  const start = input.start_date ?? null;
  if (due !== null && start !== null && due <= start) errors.due_date = [DATES];
  if (Object.keys(errors).length) throw failed('create', errors);
  const taken = () => failed('create', { title: [TITLE_TAKEN] });
  try {
    const milestone = await ctx.transaction(async (tx) => {
      const row = await q.insertMilestone(tx, s.source, { title, description: input.description ?? null, dueDate: due, startDate: start });
      if (!row) throw taken();
      const projectId = projectIdOf(s);
      if (projectId !== null) await recordEvent(tx, { action: 'created', authorId: user.id, projectId, target: { type: 'Milestone', id: row.id } });
      return row;
    });
    return { milestone, owner: s.owner };
  } catch (error) {
    // Two creates with one title racing past the check: the unique index decides.
    if (isUniqueViolation(error, 'title_idx')) throw taken();
    throw error;
  }
}

export async function updateMilestone({
  ctx,
  input,
}: Verb<{
  id: number | null;
  title?: string | undefined;
  description?: string | null | undefined;
  due_date?: string | null | undefined;
  start_date?: string | null | undefined;
  state_event?: 'close' | 'activate' | undefined;
}>): Promise<MilestoneWithOwner> {
  if (UPDATE_FIELDS.every((f) => input[f] === undefined))
    throw paramErrors([`${UPDATE_FIELDS.join(', ')} are missing, at least one parameter must be provided`]);
  const user = requireUser(ctx);
  const s = await milestoneSource(ctx, input);
  assertCanOnSource(ctx, 'admin_milestones', s.facts);
  const id = input.id;
  if (id === null) throw milestoneNotFound();
  // Timebox#title= ignores blank values: an empty title changes nothing.
  const title = input.title?.trim() || undefined;
  if (title && title.length > 255) throw failed('update', { title: titleErrors(title) });
  const changes: q.MilestoneChanges = {
    title,
    description: input.description,
    dueDate: input.due_date,
    startDate: input.start_date,
    state: input.state_event === 'close' ? 'closed' : input.state_event === 'activate' ? 'active' : undefined,
  };
  // One statement; a state change also writes its event, in the same transaction.
  const apply = async (db: typeof ctx.db) => {
    const result = await q.updateMilestone(db, s.source, id, changes);
    if (result.status === 'not_found') throw milestoneNotFound();
    if (result.status === 'invalid') {
      const errors: Record<string, string[]> = {};
      if (result.titleTaken) errors.title = [TITLE_TAKEN];
      if (result.datesInvalid) errors.due_date = [DATES];
      throw failed('update', errors);
    }
    const projectId = projectIdOf(s);
    const { milestone: row, previousState } = result;
    // The state machine only moves active -> closed and closed -> active; the event follows a real transition.
    if (projectId !== null && row.state !== previousState) {
      await recordEvent(db, {
        action: row.state === 'closed' ? 'closed' : 'reopened',
        authorId: user.id,
        projectId,
        target: { type: 'Milestone', id: row.id },
      });
    }
    return row;
  };
  try {
    const milestone = changes.state !== undefined && s.source.kind === 'project' ? await ctx.transaction(apply) : await apply(ctx.db);
    return { milestone, owner: s.owner };
  } catch (error) {
    if (isUniqueViolation(error, 'title_idx')) throw failed('update', { title: [TITLE_TAKEN] });
    throw error;
  }
}

/** Milestones::DestroyService: the milestone goes (its issues keep no milestone: the foreign key sets null). */
export async function deleteMilestone({ ctx, input }: Verb<{ id: number | null }>): Promise<void> {
  const user = requireUser(ctx);
  const s = await milestoneSource(ctx, input);
  assertCanOnSource(ctx, 'admin_milestones', s.facts);
  const id = input.id;
  if (id === null) throw milestoneNotFound();
  await ctx.transaction(async (tx) => {
    const row = await q.deleteMilestone(tx, s.source, id);
    if (!row) throw milestoneNotFound();
    const projectId = projectIdOf(s);
    if (projectId !== null) {
      await recordEvent(tx, { action: 'destroyed', authorId: user.id, projectId, target: { type: 'Milestone', id: row.id } });
      // GitLab's log_destroy_event_for: the milestone's events lose their target id and stay visible to project readers.
      await detachEventTarget(tx, { type: 'Milestone', id: row.id });
    }
  });
}

/**
 * GET .../milestones/:milestone_id/issues: the issues with the milestone's title in the source (IssuesFinder with
 * milestone_title), as the actor may see them, through the issues domain's list query.
 */
export async function milestoneIssues({ ctx, input }: Verb<{ id: number | null }>) {
  const { milestone } = await getMilestone({ ctx, input });
  const filter = { ...(input.kind === 'project' ? { projectId: milestone.projectId! } : { groupId: milestone.groupId! }), milestone: milestone.title };
  return {
    fetch: (limit: number, offset: number) => listIssueViews(ctx.db, ctx.actor, filter, { by: 'created_at', sort: 'desc' }, limit, offset),
    count: (limit: number) => countIssues(ctx.db, ctx.actor, filter, limit),
  };
}

/**
 * GET .../milestones/:milestone_id/merge_requests: the merge requests with the milestone's title in the source
 * (MergeRequestsFinder with milestone_title, milestone_responses.rb), as the actor may read them (read_merge_request),
 * through the merge requests domain's list query.
 */
export async function milestoneMergeRequests({ ctx, input }: Verb<{ id: number | null }>) {
  const { milestone } = await getMilestone({ ctx, input });
  const filter = { ...(input.kind === 'project' ? { projectId: milestone.projectId! } : { groupId: milestone.groupId! }), milestone: milestone.title };
  const order = { by: 'created_at', sort: 'desc' } as const;
  return {
    fetch: (limit: number, offset: number) => listMergeRequestViews(ctx.db, ctx.actor, filter, order, limit, offset),
    count: (limit: number) => countMergeRequests(ctx.db, ctx.actor, filter, limit),
  };
}

/**
 * The search API's milestones (SearchResults#milestones): project milestones of one project, of a group's projects or
 * of every project, where the actor may read issues or merge requests; newest updated first, with the capped total.
 */
export function searchMilestones(ctx: RequestContext, within: { projectId: number } | { groupId: number } | null, query: string) {
  let total: number | undefined;
  return {
    fetch: async (limit: number, offset: number) => {
      const rows = await q.searchProjectMilestones(ctx.db, ctx.actor, within, query, limit, offset, COUNT_LIMIT + 1);
      total = rows[0]?.total;
      return rows.map((r) => ({ milestone: r.milestone, projectPath: r.projectPath }));
    },
    count: async (cap: number) => total ?? (await q.searchProjectMilestones(ctx.db, ctx.actor, within, query, 1, 0, cap))[0]?.total ?? 0,
  };
}
