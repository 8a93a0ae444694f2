// PUT .../merge (GitLab 13.6 merge_requests.rb over MergeRequests::MergeService and PostMergeService), rebase,
// merge_ref, cancel_merge_when_pipeline_succeeds. A merge is ONE batch: the objects, the target branch's
// compare-and-swap (and the source branch's deletion when asked), the push event, the MR marked merged with its
// `merged` event and system note, and the issues it closes with theirs (repositories/ref-write.ts). A merge that loses
// the race for the target branch is worked out again on the new tip (once): one wins, the other merges after it or
// is refused as the MR then stands; nothing is half-written.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import * as q from '../../db/queries/merge-requests.ts';
import { insertNoteStatements } from '../notes/statements.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { mergeRequests } from '../../db/schema/index.ts';
import { eventStatement } from '../events/record.ts';
import { issueFacts } from '../issues/service.ts';
import { issueStateStatements } from '../issues/state.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { conflict, forbidden, invalidMessage, methodNotAllowed, notAcceptable, unauthorized } from '../lib/errors.ts';
import { can } from '../lib/policy.ts';
import { canMergeToBranch, canPushToBranch } from '../repositories/writes/push-access.ts';
import { repositoryInfo, type RepositoryInfo } from '../repositories/service.ts';
import { writeRefs } from '../repositories/store/ref-write.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { RefConflictError } from '../repositories/store/store.ts';
import { closesIssues, closingSourceOf, type ClosingIssue } from './closing.ts';
import { buildMerge, mergeability, rebase as rebaseSource } from './merge-engine.ts';
import { defaultMergeCommitMessage, defaultSquashCommitMessage, mergeMessageInput } from './merge-messages.ts';
import type { MergeParams } from './schemas.ts';
import { isOpen, mergeable, mergeableState } from './mergeability.ts';
import { refreshMergeRequest } from './refresh.ts';
import { findMergeRequest, type MergeRequestRef } from './service.ts';
import { notifyStatements, type NotifyingContext } from '../notifications/record.ts';
import { headPipeline } from '../pipelines/lookups.ts';
import { ACTIVE_STATUSES } from '../pipelines/status.ts';
import { squashOnMerge } from './squash-option.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** The project's repository as push-access.ts reads it; null while it has none (no branch, nothing to merge). */
async function repositoryOf(ctx: RequestContext, projectId: number): Promise<RepositoryInfo | null> {
  const info = await repositoryInfo(ctx, projectId);
  return info.poolId === null ? null : info;
}

/** MergeRequest#can_be_merged_by?: the user may update the target branch (push, or merge under its protection). */
const canMergeInto = (ctx: RequestContext, project: ProjectView, view: q.MergeRequestView, repository: RepositoryInfo | null) =>
  ctx.actor.user !== null && repository !== null && canMergeToBranch(ctx, projectFacts(project), repository, view.mr.targetBranch);

export async function canMerge(ctx: RequestContext, project: ProjectView, view: q.MergeRequestView): Promise<boolean> {
  return ctx.actor.user !== null && canMergeInto(ctx, project, view, await repositoryOf(ctx, project.project.id));
}

/** The statements that close each issue as PostMergeService does (Issues::CloseService's, naming the MR). */
const closeIssueStatements = (db: Db, ctx: NotifyingContext, closing: readonly ClosingIssue[], userId: number, mrReference: string) =>
  closing.flatMap(({ issue }) => issueStateStatements(db, ctx, { issue: issue.issue, userId, to: 'closed', note: `closed via merge request ${mrReference}` }));

export async function mergeMergeRequest({ ctx, input }: Verb<MergeRequestRef & { params: MergeParams }>) {
  const user = requireUser(ctx);
  const p = input.params;
  for (let attempt = 0; ; attempt++) {
    const { project, view: found } = await findMergeRequest(ctx, input, { subscribed: true });
    const repository = await repositoryOf(ctx, project.project.id);
    // merge_requests.rb: unauthorized! unless can_be_merged_by?; not_allowed! unless immediately or automatically
    // mergeable; 406 unless mergeable?(skip_ci_check: automatically); then the SHA.
    if (!canMergeInto(ctx, project, found, repository)) throw unauthorized();
    // The head pipeline: the latest of the source branch (or of the MR) at the source's head commit.
    const pipeline =
      found.sourceHead && found.mr.sourceProjectId !== null
        ? await headPipeline(ctx.db, found.mr.sourceProjectId, found.mr.sourceBranch, found.sourceHead, found.mr.id)
        : undefined;
    const whenPipelineSucceeds = p.merge_when_pipeline_succeeds === true;
    // automatically_mergeable?: asked to wait, mergeable but for CI, and the head pipeline still running.
    const automatically =
      whenPipelineSucceeds && mergeableState(found, { skipCiCheck: true }) && pipeline !== undefined && ACTIVE_STATUSES.includes(pipeline.status);
    // immediately_mergeable?: asked to wait, a head pipeline that already succeeded; otherwise the mergeable state.
    const immediately = whenPipelineSucceeds ? pipeline?.status === 'success' : mergeableState(found);
    if (!immediately && !automatically) throw methodNotAllowed();
    // mergeable? checks the mergeability first (check_mergeability): here the push's refresh, where it has not run yet.
    const view = await refreshMergeRequest(ctx, project, found, user.id);
    if (!mergeable(view, { skipCiCheck: automatically }) || !view.sourceHead || !view.targetTip || !view.latestDiff)
      throw notAcceptable('Branch cannot be merged');
    if (p.sha !== undefined && p.sha !== view.latestDiff.headCommitSha)
      throw conflict(`SHA does not match HEAD of source branch: ${view.latestDiff.headCommitSha}`);
    if (!immediately) return waitForPipeline(ctx, input, view, p, user.id, pipeline!.sha);
    const head = view.latestDiff.headCommitSha;

    const projectId = project.project.id;
    const squash = squashOnMerge(project.project, p.squash ?? view.mr.squash);
    // PostMergeService closes the open ones the merger may update (Issues::CloseService's update_issue check); only a
    // merge into the default branch closes issues (MergeRequest#closes_issues).
    const closing = (await closesIssues(ctx, project, closingSourceOf(view), repository?.defaultBranch ?? null)).filter(
      (c) => c.issue.issue.state === 'opened' && can(ctx.actor, 'issue:update', issueFacts(c.project, c.issue)),
    );
    const now = Math.floor(Date.now() / 1000);
    const mergeMessage =
      p.merge_commit_message?.trim() ||
      defaultMergeCommitMessage(
        mergeMessageInput(
          view,
          closing.map((c) => ({ projectPath: c.project.project.pathWithNamespace, iid: c.issue.issue.iid })),
        ),
      );
    const author = view.author ? { name: view.author.name, email: view.author.email ?? user.email } : { name: user.name, email: user.email };
    const built = await buildMerge(ctx.db, projectId, {
      targetTip: view.targetTip,
      sourceHead: head,
      method: view.mergeMethod,
      squash: squash ? { message: p.squash_commit_message, defaultMessage: defaultSquashCommitMessage(view.mr), author } : undefined,
      mergeMessage,
      user: { name: user.name, email: user.email },
      now,
    });
    if (built.kind !== 'ok') throw notAcceptable('Branch cannot be merged');

    const removeSource = (p.should_remove_source_branch ?? view.mr.forceRemoveSourceBranch) && view.mr.sourceProjectId !== null;
    const mrReference = `!${view.mr.iid}`;
    try {
      await writeRefs(ctx, {
        poolId: repository!.poolId!,
        write: built.write,
        refs: [
          {
            projectId,
            name: `refs/heads/${view.mr.targetBranch}`,
            old: view.targetTip,
            new: built.newTip,
            commitCount: built.commitCount,
            lastCommitMessage: built.lastCommitMessage,
          },
          ...(removeSource
            ? [
                {
                  projectId: view.mr.sourceProjectId!,
                  name: `refs/heads/${view.mr.sourceBranch}`,
                  old: view.sourceHead,
                  new: null,
                  commitCount: 0,
                  lastCommitMessage: null,
                },
              ]
            : []),
        ],
        extra: (db) => [
          db
            .update(mergeRequests)
            .set({
              state: 'merged',
              mergedById: user.id,
              mergedAt: sql`now()`,
              mergeCommitSha: built.mergeCommitSha,
              squashCommitSha: built.squashCommitSha,
              squash,
              mergeError: null,
              mergeStatus: 'can_be_merged',
              updatedAt: sql`now()`,
            })
            .where(sql`${mergeRequests.id} = ${view.mr.id} AND ${mergeRequests.state} IN ('opened', 'locked')`),
          eventStatement(db, { action: 'merged', authorId: user.id, projectId, target: { type: 'MergeRequest', id: view.mr.id } }),
          ...insertNoteStatements(
            db,
            { noteableType: 'MergeRequest', noteableId: view.mr.id, projectId, authorId: user.id, body: 'merged', system: true, systemAction: 'merged' },
            { type: 'MergeRequest', id: view.mr.id },
            null,
          ),
          ...closeIssueStatements(db, ctx, closing, user.id, `${view.projectPath}${mrReference}`),
          ...notifyStatements(db, ctx, { action: 'merge_merge_request', target: { type: 'MergeRequest', id: view.mr.id }, projectId, actorId: user.id }),
        ],
      });
    } catch (error) {
      // The target (or source) moved since it was read: work the merge out again on the new tips, once.
      if (error instanceof RefConflictError && attempt === 0) continue;
      if (error instanceof RefConflictError) throw notAcceptable('Branch cannot be merged');
      throw error;
    }
    return { ...(await findMergeRequest(ctx, input, { subscribed: true })), canMerge: true };
  }
}

/**
 * AutoMerge::MergeWhenPipelineSucceedsService#execute: the merge is recorded as waiting (who asked, with which
 * parameters) with GitLab's system note, and happens when the pipeline succeeds (functions/merge-requests/auto-merge.ts).
 */
async function waitForPipeline(ctx: RequestContext, input: MergeRequestRef, view: q.MergeRequestView, p: MergeParams, userId: number, sha: string) {
  if (!view.mr.mergeWhenPipelineSucceeds) {
    const { merge_when_pipeline_succeeds: _flag, ...saved } = p;
    await ctx.batch((db) => [
      autoMergeStatement(db, view.mr.id, userId, saved),
      ...insertNoteStatements(
        db,
        {
          noteableType: 'MergeRequest',
          noteableId: view.mr.id,
          projectId: view.mr.targetProjectId,
          authorId: userId,
          body: `enabled an automatic merge when the pipeline for ${sha} succeeds`,
          system: true,
          systemAction: 'merge',
        },
        { type: 'MergeRequest', id: view.mr.id },
        null,
      ),
    ]);
  }
  return { ...(await findMergeRequest(ctx, input, { subscribed: true })), canMerge: true };
}

/** A merge request waits for its pipeline to merge as `userId`, with the merge parameters `saved`. */
const autoMergeStatement = (db: Db, id: number, userId: number, saved: Omit<MergeParams, 'merge_when_pipeline_succeeds'>) =>
  q.updateMergeRequestStatement(db, id, { mergeWhenPipelineSucceeds: true, mergeUserId: userId, mergeParams: JSON.stringify(saved) });

/**
 * The `merge_request.merge_when_pipeline_succeeds` push option (PushOptionsHandlerService#merge_params): the merge
 * request is set to merge, as the pusher, when the pipeline of the pushed commit succeeds. GitLab sets the merge
 * request's attributes (no AutoMergeService: no system note, no check of a pipeline the push has not made yet);
 * the merge itself checks the pusher's right to merge then, as every automatic merge does.
 */
export async function mergeWhenPipelineSucceedsByPush({ ctx, input }: Verb<MergeRequestRef & { sha: string }>) {
  const user = requireUser(ctx);
  const { view } = await findMergeRequest(ctx, input);
  await ctx.batch((db) => [autoMergeStatement(db, view.mr.id, user.id, { sha: input.sha })]);
}

/** POST .../cancel_merge_when_pipeline_succeeds: 406 `Can't cancel the automatic merge` unless it was set. */
export async function cancelMergeWhenPipelineSucceeds({ ctx, input }: Verb<MergeRequestRef>) {
  requireUser(ctx);
  const found = await findMergeRequest(ctx, input, { subscribed: true });
  if (!(await canMerge(ctx, found.project, found.view))) throw forbidden();
  if (!found.view.mr.mergeWhenPipelineSucceeds) throw notAcceptable("Can't cancel the automatic merge");
  await ctx.batch((db) => [q.updateMergeRequestStatement(db, found.view.mr.id, { mergeWhenPipelineSucceeds: false, mergeUserId: null, mergeParams: null })]);
  return findMergeRequest(ctx, input, { subscribed: true });
}

/**
 * PUT .../rebase: the source rebased onto the target tip and its branch moved by compare-and-swap (GitLab queues it
 * and answers 202 `{"rebase_in_progress": true}`; here it is done by the time the answer is sent). 403 for who may
 * not push to the source branch; a conflict leaves the branch and records the merge error, as GitLab's worker does.
 */
export async function rebaseMergeRequest({ ctx, input }: Verb<MergeRequestRef>) {
  const user = requireUser(ctx);
  const { view } = await findMergeRequest(ctx, input);
  if (view.mr.sourceProjectId === null || !view.sourceHead || !view.targetTip) throw forbidden();
  const sourceProject = await findProject(ctx, { id: view.mr.sourceProjectId });
  const info = await repositoryOf(ctx, sourceProject.project.id);
  if (!info || !canPushToBranch(ctx, projectFacts(sourceProject), info, view.mr.sourceBranch)) throw forbidden();
  const result = await rebaseSource(ctx.db, view.mr.targetProjectId, {
    targetTip: view.targetTip,
    sourceHead: view.sourceHead,
    user: { name: user.name, email: user.email },
    now: Math.floor(Date.now() / 1000),
  });
  if (result.kind === 'conflict') {
    await ctx.batch((db) => [q.updateMergeRequestStatement(db, view.mr.id, { mergeError: 'Rebase failed. Please rebase locally' })]);
    return;
  }
  if (result.newHead === view.sourceHead) return;
  try {
    await writeRefs(ctx, {
      poolId: info.poolId!,
      write: result.write,
      refs: [
        {
          projectId: info.projectId,
          name: `refs/heads/${view.mr.sourceBranch}`,
          old: view.sourceHead,
          new: result.newHead,
          commitCount: result.commitCount,
          lastCommitMessage: result.lastCommitMessage,
        },
      ],
      extra: (db) => [q.updateMergeRequestStatement(db, view.mr.id, { mergeError: null })],
    });
  } catch (error) {
    if (error instanceof RefConflictError) throw invalidMessage(`Could not update branch ${view.mr.sourceBranch}. Please refresh and try again.`);
    throw error;
  }
}

/**
 * GET .../merge_ref (MergeRequests::MergeToRefService): the merge commit GitLab would write, as `{"commit_id"}`;
 * 400 `Merge request is not mergeable` when it conflicts or cannot merge.
 */
export async function mergeRefMergeRequest({ ctx, input }: Verb<MergeRequestRef>) {
  const user = requireUser(ctx);
  const { project, view } = await findMergeRequest(ctx, input);
  if (!isOpen(view.mr) || !view.sourceHead || !view.targetTip || !view.latestDiff) throw invalidMessage('Merge request is not mergeable');
  const merge = await mergeability(ctx.db, project.project.id, { targetTip: view.targetTip, sourceHead: view.latestDiff.headCommitSha });
  if (merge.conflict) throw invalidMessage('Merge request is not mergeable');
  const built = await buildMerge(ctx.db, project.project.id, {
    targetTip: view.targetTip,
    sourceHead: view.latestDiff.headCommitSha,
    method: 'merge',
    mergeMessage: defaultMergeCommitMessage(mergeMessageInput(view)),
    user: { name: user.name, email: user.email },
    now: Math.floor(Date.now() / 1000),
  });
  if (built.kind !== 'ok' || !built.mergeCommitSha) throw invalidMessage('Merge request is not mergeable');
  return built.mergeCommitSha;
}

/** GET .../closes_issues: the issues merging would close, as the actor may read them. */
export async function mergeRequestClosesIssues({ ctx, input }: Verb<MergeRequestRef>) {
  const { project, view } = await findMergeRequest(ctx, input);
  return (await closesIssues(ctx, project, closingSourceOf(view))).map((c) => c.issue);
}
