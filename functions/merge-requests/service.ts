// Merge request verbs (GitLab 13.6 lib/api/merge_requests.rb over MergeRequests::{Create,Update,Close,Reopen}Service):
// policy first; a create is one batch (iid, row, links, to-dos, first diff version, event, read back); an update a
// transaction that locks the MR row. find_merge_request_with_access: a missing MR is `404 Not found`, one the actor
// may not read 403 (the project was readable).

import * as q from '../../db/queries/merge-requests.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { projectViewQuery, toProjectView } from '../projects/lookups.ts';

import { requireUser, readerActor } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { listParent, type IssuableListSource } from '../issuables/list.ts';
import { pagedWithTotal } from '../lib/pagination.ts';
import { conflict, notFound, recordNotFound, unprocessable } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { COUNT_LIMIT } from '../lib/pagination.ts';
import { assertCan, can, type MergeRequestFacts } from '../lib/policy.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { findProject, projectFacts, readableProject } from '../projects/service.ts';
import { mergeRequestFilter, type MergeRequestListKind } from './filter.ts';
import { type ListMergeRequestsParams } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };
export type MergeRequestRef = { project: Ref | null; iid: number | null };

export const mergeRequestFacts = (project: ProjectView, v: q.MergeRequestView): MergeRequestFacts => ({
  kind: 'merge_request',
  project: projectFacts(project),
  authorId: v.mr.authorId,
  assigneeIds: v.assignees.map((a) => a.id),
  discussionLocked: v.mr.discussionLocked === true,
});

/** The policy's read rule for `facts` as another user at an access level would meet it (to-dos, notifications). */
export const readsMergeRequestAs = (facts: MergeRequestFacts) => (reader: UserRow, accessLevel: number) =>
  can(readerActor(reader), 'merge_request:read', { ...facts, project: { ...facts.project, accessLevel } });

/**
 * The readable MR with its (target) project, as the last refresh recorded it (refresh.ts: reads never write). 404
 * `Project Not Found` for a hidden project, `404 Not found` for a missing MR, 403 for one the actor may not read.
 */
export async function findMergeRequest(ctx: RequestContext, ref: MergeRequestRef, options: { subscribed?: boolean } = {}) {
  const subscriberId = options.subscribed ? ctx.actor.user?.id : null;
  if (!ref.project) throw notFound('Project');
  const projectRef = ref.project;
  const iid = ref.iid;
  const [projectRows, mrRows] = await ctx.batch((db) => [
    projectViewQuery(db, ctx.actor, projectRef),
    q.mergeRequestViewByProjectRefQuery(db, ctx.actor, projectRef, iid ?? 0, subscriberId),
  ]);
  const project = readableProject(ctx, projectRows[0] ? toProjectView(projectRows[0]) : undefined);
  const view = iid === null ? undefined : mrRows[0];
  if (!view) throw recordNotFound();
  assertCan(ctx.actor, 'merge_request:read', mergeRequestFacts(project, view));
  return { project, view };
}

/** The readable MR by its database id (GraphQL's MergeRequestID), with its project. */
export async function findMergeRequestById(ctx: RequestContext, id: number) {
  const view = await q.findMergeRequestViewById(ctx.db, ctx.actor, id, ctx.actor.user?.id);
  if (!view) throw recordNotFound();
  const project = await findProject(ctx, { id: view.mr.targetProjectId });
  assertCan(ctx.actor, 'merge_request:read', mergeRequestFacts(project, view));
  return { project, view };
}

export async function getMergeRequest({ ctx, input }: Verb<MergeRequestRef>) {
  return findMergeRequest(ctx, input, { subscribed: true });
}

export async function reload(ctx: RequestContext, id: number) {
  const view = await q.findMergeRequestViewById(ctx.db, ctx.actor, id, ctx.actor.user?.id);
  if (!view) throw recordNotFound();
  return view;
}

/** validate_branches' and validate_fork's refusals, as the API answers them (handle_merge_request_errors!). */
export const sameBranch = () => unprocessable(["You can't use same project/branch for source and target"], 'list');
export const notAFork = () => unprocessable(['Source project is not a fork of the target project'], 'list');
export const duplicate = (iid: number) => conflict([`Another open merge request already exists for this source branch: !${iid}`]);

export async function deleteMergeRequest({ ctx, input }: Verb<MergeRequestRef>) {
  requireUser(ctx);
  const { project, view } = await findMergeRequest(ctx, input);
  assertCan(ctx.actor, 'merge_request:delete', mergeRequestFacts(project, view));
  await ctx.transaction((tx) => q.deleteMergeRequest(tx, view.mr.id));
}

// ---- Lists ----

export async function listMergeRequests({ ctx, input }: Verb<{ source: IssuableListSource; params: ListMergeRequestsParams }>) {
  const p = input.params;
  const parent = await listParent(ctx, input.source);
  const where = mergeRequestFilter(ctx, input.source.kind as MergeRequestListKind, p);
  if (!where) return { fetch: async () => [], count: async () => 0 };
  const filter: q.MergeRequestListFilter = { ...where, ...parent };
  const order: q.MergeRequestOrder = { by: p.order_by ?? 'created_at', sort: p.sort ?? 'desc' };
  return pagedWithTotal(
    async (limit, offset) => {
      const rows = await q.listMergeRequestViews(ctx.db, ctx.actor, filter, order, limit, offset, COUNT_LIMIT + 1);
      return { rows, total: rows[0] ? Number(rows[0].total) : undefined };
    },
    (cap) => q.countMergeRequests(ctx.db, ctx.actor, filter, cap),
  );
}
