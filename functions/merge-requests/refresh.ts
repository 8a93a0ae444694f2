// A merge request's versions follow its branches (MergeRequests::RefreshService#reload_merge_requests): when a
// branch moves, each open merge request from or into it gets a new version (merge base, commits, files), the merge
// status it implies, its head ref (refs/merge-requests/<iid>/head) and the issues it now closes. Every branch move
// enqueues this (UpdateMergeRequestsWorker, from functions/repositories/store/ref-write.ts), run right after the push's
// response; the verbs that change an MR's branches (a new target, a reopen) and merging call it themselves. Reads
// never do: REST and GraphQL show what the last refresh recorded.
import { cacheClosingIssuesStatements, openMergeRequestIdsOfBranch, refreshVersionStatements } from '../../db/queries/merge-requests/versions.ts';
import * as q from '../../db/queries/merge-requests.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { projectViewQuery, toProjectView } from '../projects/lookups.ts';
import { setMergeRequestRefQuery } from '../repositories/statements.ts';
import { findUsersByIds } from '../users/lookups.ts';
import type { JobContext } from '../housekeeping/service.ts';
import { userActor } from '../lib/auth.ts';
import { anonymous, jobContext, type RequestContext } from '../lib/context.ts';
import { can } from '../lib/policy.ts';
import { projectFacts } from '../projects/service.ts';
import { closesIssues, type ClosingSource } from './closing.ts';
import { isOpen } from './mergeability.ts';
import { awaitsCheck, checkMergeStatus, isCurrent, takeVersion } from './versions.ts';

/**
 * The issues the MR closes, for the cache (cache_merge_request_closes_issues!, as the actor sees them). Where the
 * actor reads nothing the closing pattern names, nothing else is read.
 */
export const closingIssueIds = async (ctx: RequestContext, project: ProjectView, mr: ClosingSource) =>
  (await closesIssues(ctx, project, mr)).map((c) => c.issue.issue.id);

/**
 * Records a new version when the source or target branch moved since the latest one (or, where the version stands,
 * checks a status left unchecked), with the merge status it implies and (where the actor reads the project) the
 * issues it now closes; an open MR only, and only while both branches exist. The MR as it is now.
 */
export async function refreshMergeRequest(
  ctx: RequestContext,
  project: ProjectView | undefined,
  view: q.MergeRequestView,
  subscriberId?: number | null,
): Promise<q.MergeRequestView> {
  const m = view.mr;
  if (!isOpen(m) || !view.sourceHead || !view.targetTip) return view;
  const tips = { sourceHead: view.sourceHead, targetTip: view.targetTip };
  if (isCurrent(view.latestDiff, tips)) {
    // The version stands, but its status waits for a check (a reopen marks it unchecked): the check alone.
    if (!awaitsCheck(m.mergeStatus)) return view;
    const mergeStatus = await checkMergeStatus(ctx.db, m.targetProjectId, tips);
    await ctx.batch((db) => [q.updateMergeRequestStatement(db, m.id, { mergeStatus })]);
    return (await q.findMergeRequestViewById(ctx.db, ctx.actor, m.id, subscriberId)) ?? view;
  }
  const { mergeStatus, ...version } = await takeVersion(ctx.db, m.targetProjectId, tips);
  const closing = project ? await closingIssueIds(ctx, project, { ...m, version }) : undefined;
  await ctx.batch((db) => [
    ...refreshVersionStatements(db, m.id, version, mergeStatus),
    ...(closing ? cacheClosingIssuesStatements(db, m.id, closing) : []),
    setMergeRequestRefQuery(db, m.targetProjectId, m.iid, tips.sourceHead),
  ]);
  return (await q.findMergeRequestViewById(ctx.db, ctx.actor, m.id, subscriberId)) ?? view;
}

export interface BranchPush {
  projectId: number;
  userId: number;
  /** The full ref name; only branches (`refs/heads/…`) have merge requests. */
  ref: string;
}

/**
 * UpdateMergeRequestsWorker: the open merge requests from or into the pushed branch, refreshed as the pusher (whose
 * view of the target decides the closing issues, as GitLab's `current_user` does). Idempotent: an MR already at its
 * branches' tips is left as it is.
 */
export async function updateMergeRequestsAfterPush(job: JobContext, push: BranchPush): Promise<{ refreshed: number }> {
  if (!job.config) throw new Error('update_merge_requests needs the instance configuration');
  if (!push.ref.startsWith('refs/heads/')) return { refreshed: 0 };
  const [user] = await findUsersByIds(job.ctx.db, [push.userId]);
  const ctx = jobContext(job.ctx, job.config, user ? userActor(user) : anonymous, `update_merge_requests:${push.projectId}:${push.ref}`);
  const ids = await openMergeRequestIdsOfBranch(ctx.db, push.projectId, push.ref.slice('refs/heads/'.length));
  const views = await q.findMergeRequestViewsByIds(ctx.db, ctx.actor, ids);
  // The target projects as the pusher reads them, each read once (one for most pushes; a fork's branch may feed several).
  const projects = new Map<number, ProjectView | undefined>();
  let refreshed = 0;
  for (const view of views) {
    const id = view.mr.targetProjectId;
    if (!projects.has(id)) {
      const [row] = await projectViewQuery(ctx.db, ctx.actor, { id });
      const project = row ? toProjectView(row) : undefined;
      projects.set(id, project && can(ctx.actor, 'project:read', projectFacts(project)) ? project : undefined);
    }
    if ((await refreshMergeRequest(ctx, projects.get(id), view)) !== view) refreshed++;
  }
  return { refreshed };
}
