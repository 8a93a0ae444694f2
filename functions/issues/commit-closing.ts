// Issues closed by the commits a push brings to the default branch (GitLab 13.6's Git::BranchPushService, which
// enqueues ProcessCommitWorker for at most PROCESS_COMMIT_LIMIT of them): each commit message's closing references
// (`Closes #1`, `fixes group/project#2`), the open issues the pusher may update, closed with Issues::CloseService's
// state change naming the commit. Run by the post_receive job, after the response, for pushes through git and commits
// through the API alike: one path. The commit's author is not matched to an account here: the pusher closes.
import { closingIssuesIn, type ClosingIssue } from '../merge-requests/closing.ts';
import { findProjectView } from '../projects/lookups.ts';
import { findUsersByIds } from '../users/lookups.ts';
import type { JobContext } from '../housekeeping/service.ts';
import { userActor } from '../lib/auth.ts';
import { commitsBetween, findRepository, logPage } from '../repositories/lookups.ts';
import { jobContext, type RequestContext } from '../lib/context.ts';
import { can } from '../lib/policy.ts';
import { issueFacts } from './service.ts';
import { issueStateStatements } from './state.ts';

/** Git::BaseHooksService::PROCESS_COMMIT_LIMIT. */
const PROCESS_COMMIT_LIMIT = 100;
const BLANK_SHA = '0'.repeat(40);

export interface PushedChange {
  ref: string;
  before: string;
  after: string;
}

/** Closes what the commits pushed to the project's default branch say they close. Returns how many it closed. */
export async function closeIssuesFromPush(ctx: RequestContext, projectId: number, changes: readonly PushedChange[]): Promise<number> {
  const user = ctx.actor.user;
  if (!user) return 0;
  const repository = await findRepository(ctx.db, projectId);
  const change = changes.find((c) => c.ref === `refs/heads/${repository?.defaultBranch ?? ''}`);
  if (!change || change.after === BLANK_SHA) return 0;
  const project = await findProjectView(ctx.db, ctx.actor, { id: projectId });
  if (!project) return 0;
  // Oldest first, as the worker jobs are enqueued: an issue named twice is closed by the first commit naming it.
  const commits =
    change.before === BLANK_SHA
      ? ((await logPage(ctx.db, { projectId, rev: change.after, limit: PROCESS_COMMIT_LIMIT, offset: 0 }))?.commits ?? []).reverse()
      : (await commitsBetween(ctx.db, projectId, change.before, change.after)).commits.slice(-PROCESS_COMMIT_LIMIT);
  const closed = new Set<number>();
  const closing: { issue: ClosingIssue; oid: string }[] = [];
  for (const commit of commits) {
    for (const c of await closingIssuesIn(ctx, project, commit.message)) {
      if (closed.has(c.issue.issue.id) || c.issue.issue.state !== 'opened') continue;
      if (!can(ctx.actor, 'issue:update', issueFacts(c.project, c.issue))) continue;
      closed.add(c.issue.issue.id);
      closing.push({ issue: c, oid: commit.oid });
    }
  }
  if (!closing.length) return 0;
  await ctx.batch(
    (db) =>
      closing.flatMap(({ issue, oid }) =>
        issueStateStatements(db, ctx, { issue: issue.issue.issue, userId: user.id, to: 'closed', note: `closed via commit ${oid}` }),
      ) as unknown as readonly [ReturnType<typeof issueStateStatements>[number]],
  );
  return closing.length;
}

/** PostReceive's part: the push's changes, per project, closed as the pusher (a pusher deleted since closes nothing). */
export async function closeIssuesAfterPush(job: JobContext, push: { userId: number; changes: readonly (PushedChange & { project_id: number })[] }) {
  if (!job.config) throw new Error('post_receive needs the instance configuration');
  const [user] = await findUsersByIds(job.ctx.db, [push.userId]);
  if (!user) return { closedIssues: 0 };
  let closedIssues = 0;
  for (const projectId of new Set(push.changes.map((c) => c.project_id))) {
    const ctx = jobContext(job.ctx, job.config, userActor(user), `post_receive:${projectId}`);
    closedIssues += await closeIssuesFromPush(
      ctx,
      projectId,
      push.changes.filter((c) => c.project_id === projectId),
    );
  }
  return { closedIssues };
}
