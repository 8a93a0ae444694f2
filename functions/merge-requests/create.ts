// Opening a merge request (GitLab 13.6 MergeRequests::CreateService over lib/api/merge_requests.rb): the target
// (the source project or one of its fork network), the branches and the first diff version read first, then ONE
// batch: the iid, the row, its assignees, reviewers, labels and to-dos, the version, the MR's head ref, the closing
// issues, the event and the notification, and the read back. A push pipeline for merge request events follows.
import { cacheClosingIssuesStatements, insertDiffVersionStatement } from '../../db/queries/merge-requests/versions.ts';
import type { Db } from '../../db/client.ts';
import { currentIidSql, nextIidStatement } from '../../db/queries/lib/internal-ids.ts';
import { usersWithProjectLevels } from '../issuables/lookups.ts';
import { assignableUsersSql, groupIdsOf, milestoneIdSql, wantedAssignees } from '../issuables/attributes.ts';
import { mentionTodosStatement } from '../todos/statements.ts';
import { findOrCreateLabelLinkStatements } from '../labels/statements.ts';
import * as q from '../../db/queries/merge-requests.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { findRef, findRepository } from '../repositories/lookups.ts';
import { setMergeRequestRefQuery } from '../repositories/statements.ts';
import { eventStatement } from '../events/record.ts';
import { freshMentions, mentionReaders } from '../issuables/mention-todos.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { isUniqueViolation, recordNotFound, unprocessable, validationFailed } from '../lib/errors.ts';
import { issuableErrors, stripTitle } from '../issuables/validation.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, can } from '../lib/policy.ts';
import { notifyStatements } from '../notifications/record.ts';
import { createMergeRequestPipelines } from '../pipelines/merge-request.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { type CreateMergeRequestParams } from './schemas.ts';
import { takeVersion } from './versions.ts';
import { closingIssueIds } from './refresh.ts';
import { duplicate, notAFork, readsMergeRequestAs, sameBranch } from './service.ts';
import { squashByDefault } from './squash-option.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/**
 * The target project of a new MR: the source itself, or (`target_project_id`) a project of its fork network the
 * actor may read; a fork network shares one object pool, which is what makes the MR's commits readable there.
 */
async function targetOf(ctx: RequestContext, source: ProjectView, targetProjectId: number | undefined) {
  if (targetProjectId === undefined || targetProjectId === source.project.id) return source;
  const target = await findProject(ctx, { id: targetProjectId }).catch(() => null);
  if (!target) throw notAFork();
  const [sourceRepo, targetRepo] = await Promise.all([poolOf(ctx.db, source.project.id), poolOf(ctx.db, target.project.id)]);
  if (sourceRepo === null || sourceRepo !== targetRepo) throw notAFork();
  return target;
}

const poolOf = async (db: Db, projectId: number) => (await findRepository(db, projectId))?.poolId ?? null;

export async function createMergeRequest({ ctx, input }: Verb<{ project: Ref | null; params: CreateMergeRequestParams }>) {
  const user = requireUser(ctx);
  const p = input.params;
  const source = await findProject(ctx, input.project);
  assertCan(ctx.actor, 'project:create_merge_request_from', projectFacts(source));
  const target = await targetOf(ctx, source, p.target_project_id);
  assertCan(ctx.actor, 'project:create_merge_request_in', projectFacts(target));
  if (target.project.id === source.project.id && p.source_branch === p.target_branch) throw sameBranch();
  const [sourceHead, targetTip] = await Promise.all([
    findRef(ctx.db, source.project.id, `refs/heads/${p.source_branch}`),
    findRef(ctx.db, target.project.id, `refs/heads/${p.target_branch}`),
  ]);
  // MergeRequests::BuildService's refusals for branches that do not exist.
  const missing = [
    ...(sourceHead === undefined ? [`Source branch "${p.source_branch}" does not exist`] : []),
    ...(targetTip === undefined ? [`Target branch "${p.target_branch}" does not exist`] : []),
  ];
  if (missing.length) throw unprocessable(missing, 'list');
  const open = await q.findOpenMergeRequestIid(ctx.db, target.project.id, source.project.id, p.source_branch);
  if (open !== undefined) throw duplicate(open);
  // handle_merge_request_errors!: the branches' refusals first, then the model's validations.
  const title = stripTitle(p.title);
  const invalid = issuableErrors({ title, description: p.description });
  if (invalid) throw validationFailed(invalid);

  const targetId = target.project.id;
  // GitLab's filter_params: who cannot admin merge requests in the target may not set assignees, reviewers, milestone, labels.
  const admin = can(ctx.actor, 'project:admin_merge_requests', projectFacts(target));
  const { mergeStatus, ...version } = await takeVersion(ctx.db, targetId, { sourceHead: sourceHead!, targetTip: targetTip! });
  const closing = await closingIssueIds(ctx, target, {
    title,
    description: p.description ?? null,
    targetBranch: p.target_branch,
    targetProjectId: targetId,
    version,
  });
  const assignees = admin ? wantedAssignees(p) : undefined;
  const mrId = q.lastMergeRequestIdSql();
  const milestoneId = admin ? milestoneIdSql(target, p.milestone_id) : null;
  const fork = source.project.id !== targetId;
  // TodoService#new_merge_request: users mentioned in the title or description who may read the MR get a to-do;
  // who they are is read before the batch, which inserts the to-dos.
  const mayRead = readsMergeRequestAs({ kind: 'merge_request', project: projectFacts(target), authorId: user.id, assigneeIds: [], discussionLocked: false });
  const fresh = freshMentions([title, p.description ?? null]);
  const mentions = fresh.names.length
    ? mentionReaders(fresh, await usersWithProjectLevels(ctx.db, { id: targetId, traversalIds: groupIdsOf(target) }, fresh.names), mayRead)
    : [];
  try {
    const results = await ctx.batch((db) => [
      nextIidStatement(db, 'merge_requests', { projectId: targetId }),
      q.insertMergeRequestStatement(db, {
        targetProjectId: targetId,
        iid: currentIidSql('merge_requests', { projectId: targetId }),
        sourceProjectId: source.project.id,
        sourceBranch: p.source_branch,
        targetBranch: p.target_branch,
        authorId: user.id,
        title,
        description: p.description ?? null,
        milestoneId,
        mergeStatus,
        squash: p.squash ?? squashByDefault(target.project),
        forceRemoveSourceBranch: p.remove_source_branch ?? false,
        allowCollaboration: fork && (p.allow_collaboration ?? p.allow_maintainer_to_push ?? false),
      }),
      ...(assignees?.length ? q.assignmentStatements(db, mrId, targetId, user.id, assignableUsersSql(db, target, assignees)) : []),
      ...(admin && p.reviewer_ids?.length ? [q.linkUsersStatement(db, 'reviewers', mrId, assignableUsersSql(db, target, p.reviewer_ids).getSQL())] : []),
      ...(admin && p.labels?.length ? findOrCreateLabelLinkStatements(db, targetId, p.labels, { type: 'MergeRequest', id: mrId }) : []),
      insertDiffVersionStatement(db, mrId, version),
      setMergeRequestRefQuery(db, targetId, currentIidSql('merge_requests', { projectId: targetId }), sourceHead!),
      ...cacheClosingIssuesStatements(db, mrId, closing),
      ...(mentions.length ? [mentionTodosStatement(db, { type: 'MergeRequest', id: mrId, projectId: targetId }, user.id, mentions)] : []),
      eventStatement(db, { action: 'created', authorId: user.id, projectId: targetId, target: { type: 'MergeRequest', id: mrId } }),
      ...notifyStatements(db, ctx, { action: 'new_merge_request', target: { type: 'MergeRequest', id: mrId }, projectId: targetId, actorId: user.id }),
      q.lastInsertedMergeRequestViewQuery(db, ctx.actor, user.id),
    ]);
    const [view] = results[results.length - 1] as q.MergeRequestView[];
    if (!view) throw recordNotFound();
    if (view.sourceHead && view.mr.sourceProjectId !== null) {
      await createMergeRequestPipelines(ctx, [
        {
          id: view.mr.id,
          iid: view.mr.iid,
          title: view.mr.title,
          sourceProjectId: view.mr.sourceProjectId,
          sourceBranch: view.mr.sourceBranch,
          targetProjectId: view.mr.targetProjectId,
          targetBranch: view.mr.targetBranch,
          sha: view.sourceHead,
        },
      ]);
    }
    return view;
  } catch (error) {
    // Two creates raced past the check above: the partial unique index lets one in.
    if (isUniqueViolation(error, 'merge_requests_open_source_branch_idx')) {
      const iid = await q.findOpenMergeRequestIid(ctx.db, targetId, source.project.id, p.source_branch);
      if (iid !== undefined) throw duplicate(iid);
    }
    throw error;
  }
}
