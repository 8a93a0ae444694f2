// Merge request verbs (GitLab 13.6 lib/api/merge_requests.rb over MergeRequests::{Create,Update,Close,Reopen}Service):
// policy first; a create is one batch (iid, row, links, to-dos, first diff version, event, read back); an update a
// transaction that locks the MR row. find_merge_request_with_access: a missing MR is `404 Not found`, one the actor
// may not read 403 (the project was readable).
import type { Db } from '../../db/client.ts';
import { currentIidSql, nextIidStatement } from '../../db/queries/lib/internal-ids.ts';
import { findLabelIdsByTitle } from '../issues/lookups.ts';
import { assignableUserIds, usersWithProjectLevels } from '../issuables/lookups.ts';
import { assignableScope, assignableUsersSql, groupIdsOf, milestoneIdSql, resolveMilestone, wantedAssignees } from '../issuables/attributes.ts';
import { insertAssignmentTodos, mentionTodosStatement } from '../todos/statements.ts';
import { findOrCreateLabelLinkStatements, findOrCreateProjectLabels } from '../labels/statements.ts';
import * as q from '../../db/queries/merge-requests.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { projectViewQuery, toProjectView } from '../projects/lookups.ts';
import { findRef, findRepository } from '../repositories/lookups.ts';
import { setMergeRequestRefQuery } from '../repositories/statements.ts';
import { eventStatement, recordEvent } from '../events/record.ts';
import { findGroup } from '../groups/service.ts';
import { createMentionTodos, freshMentions, mentionReaders } from '../issuables/mention-todos.ts';
import { requireUser, readerActor } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { conflict, isUniqueViolation, notFound, paramErrors, recordNotFound, unprocessable, validationFailed } from '../lib/errors.ts';
import { issuableErrors, stripTitle } from '../issuables/validation.ts';
import type { Ref } from '../lib/ids.ts';
import { COUNT_LIMIT } from '../lib/pagination.ts';
import { assertCan, can, type MergeRequestFacts } from '../lib/policy.ts';
import { notify, notifyStatements } from '../notifications/record.ts';
import { createMergeRequestPipelines } from '../pipelines/merge-request.ts';
import type { EmailEvent, UserRow } from '../../db/schema/index.ts';
import { findProject, projectFacts, readableProject } from '../projects/service.ts';
import { mergeRequestFilter, type MergeRequestListKind } from './filter.ts';
import { UPDATE_FIELDS, type CreateMergeRequestParams, type ListMergeRequestsParams, type UpdateMergeRequestParams } from './schemas.ts';
import { takeVersion } from './versions.ts';
import { isOpen } from './mergeability.ts';
import { closingIssueIds, refreshMergeRequest } from './refresh.ts';
import { closingSourceOf } from './closing.ts';

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

async function reload(ctx: RequestContext, id: number) {
  const view = await q.findMergeRequestViewById(ctx.db, ctx.actor, id, ctx.actor.user?.id);
  if (!view) throw recordNotFound();
  return view;
}

/** validate_branches' and validate_fork's refusals, as the API answers them (handle_merge_request_errors!). */
const sameBranch = () => unprocessable(["You can't use same project/branch for source and target"], 'list');
const notAFork = () => unprocessable(['Source project is not a fork of the target project'], 'list');
const duplicate = (iid: number) => conflict([`Another open merge request already exists for this source branch: !${iid}`]);

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
        squash: p.squash ?? false,
        forceRemoveSourceBranch: p.remove_source_branch ?? false,
        allowCollaboration: fork && (p.allow_collaboration ?? p.allow_maintainer_to_push ?? false),
      }),
      ...(assignees?.length ? q.assignmentStatements(db, mrId, targetId, user.id, assignableUsersSql(db, target, assignees)) : []),
      ...(admin && p.reviewer_ids?.length ? [q.linkUsersStatement(db, 'reviewers', mrId, assignableUsersSql(db, target, p.reviewer_ids).getSQL())] : []),
      ...(admin && p.labels?.length ? findOrCreateLabelLinkStatements(db, targetId, p.labels, { type: 'MergeRequest', id: mrId }) : []),
      q.insertDiffVersionStatement(db, mrId, version),
      setMergeRequestRefQuery(db, targetId, currentIidSql('merge_requests', { projectId: targetId }), sourceHead!),
      ...q.cacheClosingIssuesStatements(db, mrId, closing),
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

export async function updateMergeRequest({ ctx, input }: Verb<MergeRequestRef & { params: UpdateMergeRequestParams }>) {
  const p = input.params;
  if (!UPDATE_FIELDS.some((f) => p[f] !== undefined)) {
    throw paramErrors([`${UPDATE_FIELDS.join(', ')} are missing, at least one parameter must be provided`]);
  }
  const user = requireUser(ctx);
  const { project, view } = await findMergeRequest(ctx, input);
  const facts = mergeRequestFacts(project, view);
  assertCan(ctx.actor, 'merge_request:update', facts);
  const admin = can(ctx.actor, 'merge_request:admin', facts);
  const projectId = project.project.id;
  const target = { type: 'MergeRequest', id: view.mr.id };
  const title = p.title === undefined ? undefined : stripTitle(p.title);
  const invalid = issuableErrors({ title, description: p.description });
  if (invalid) throw validationFailed(invalid);
  await ctx.transaction(async (tx) => {
    const mr = await q.lockMergeRequest(tx, view.mr.id);
    if (!mr) throw recordNotFound();
    // The notification-setting events of this update (their recipients are resolved when delivered).
    const notification = (action: EmailEvent, previousAssigneeIds?: number[]) =>
      notify(tx, ctx, { action, target: { type: 'MergeRequest', id: mr.id }, projectId, actorId: user.id, previousAssigneeIds });
    const now = new Date();
    const changes: Parameters<typeof q.updateMergeRequest>[2] = {};
    if (title !== undefined) changes.title = title;
    if (p.description !== undefined) changes.description = p.description;
    if (p.squash !== undefined) changes.squash = p.squash;
    if (p.remove_source_branch !== undefined) changes.forceRemoveSourceBranch = p.remove_source_branch;
    const collaboration = p.allow_collaboration ?? p.allow_maintainer_to_push;
    if (collaboration !== undefined && mr.sourceProjectId !== mr.targetProjectId) changes.allowCollaboration = collaboration;
    if (p.target_branch !== undefined && p.target_branch !== mr.targetBranch) {
      if (mr.sourceProjectId === mr.targetProjectId && p.target_branch === mr.sourceBranch) throw sameBranch();
      changes.targetBranch = p.target_branch;
    }
    if (admin) {
      if (p.discussion_locked !== undefined) changes.discussionLocked = p.discussion_locked;
      const milestoneId = await resolveMilestone(tx, project, p.milestone_id);
      if (milestoneId !== undefined) changes.milestoneId = milestoneId;
      const assignees = wantedAssignees(p);
      if (assignees !== undefined) {
        const previous = await q.mergeRequestUserIds(tx, 'assignees', mr.id);
        const wanted = await assignableUserIds(tx, assignableScope(project), assignees);
        const added = await q.setUsers(tx, 'assignees', mr.id, wanted);
        await insertAssignmentTodos(tx, { id: mr.id, projectId, type: 'MergeRequest' }, user.id, added);
        if (added.length || previous.some((id) => !wanted.includes(id))) await notification('reassign_merge_request', previous);
      }
      if (p.reviewer_ids !== undefined) await q.setUsers(tx, 'reviewers', mr.id, await assignableUserIds(tx, assignableScope(project), p.reviewer_ids));
      if (p.labels !== undefined || p.add_labels !== undefined || p.remove_labels !== undefined) {
        let ids =
          p.labels !== undefined ? (await findOrCreateProjectLabels(tx, projectId, p.labels)).map((l) => l.id) : await q.mergeRequestLabelIds(tx, mr.id);
        if (p.add_labels?.length) ids = [...ids, ...(await findOrCreateProjectLabels(tx, projectId, p.add_labels)).map((l) => l.id)];
        if (p.remove_labels?.length) {
          const removed = new Set(await findLabelIdsByTitle(tx, projectId, groupIdsOf(project), p.remove_labels));
          ids = ids.filter((id) => !removed.has(id));
        }
        await q.setMergeRequestLabels(tx, mr.id, ids);
      }
    }
    // State changes record their event and a system note; a merged MR neither closes nor reopens.
    if (p.state_event === 'close' && isOpen(mr)) {
      Object.assign(changes, { state: 'closed' as const, closedAt: now, closedById: user.id });
      await recordEvent(tx, { action: 'closed', authorId: user.id, projectId, target });
      await q.insertMergeRequestSystemNote(tx, mr, user.id, 'closed', 'closed');
      await notification('close_merge_request');
    } else if (p.state_event === 'reopen' && mr.state === 'closed') {
      Object.assign(changes, { state: 'opened' as const, closedAt: null, closedById: null, mergeStatus: 'unchecked' as const });
      await recordEvent(tx, { action: 'reopened', authorId: user.id, projectId, target });
      await q.insertMergeRequestSystemNote(tx, mr, user.id, 'reopened', 'opened');
      await notification('reopen_merge_request');
    }
    await q.updateMergeRequest(tx, mr.id, { ...changes, updatedAt: now, updatedById: user.id });
    // TodoService#update_merge_request: users newly mentioned in the title or description who may read the MR.
    if (changes.title !== undefined || changes.description !== undefined) {
      const assigneeIds = await q.mergeRequestUserIds(tx, 'assignees', mr.id);
      await createMentionTodos(tx, {
        project,
        issue: { type: 'MergeRequest', id: mr.id, projectId },
        authorId: user.id,
        texts: [changes.title ?? mr.title, changes.description !== undefined ? changes.description : mr.description],
        before: [mr.title, mr.description],
        mayRead: readsMergeRequestAs({ ...facts, assigneeIds }),
      });
    }
  });
  // A new target branch (or a reopened MR) gets its version now, and new texts the issues they close.
  const updated = await findMergeRequest(ctx, input, { subscribed: true });
  const refreshed = await refreshMergeRequest(ctx, updated.project, updated.view, user.id);
  const texts = p.title !== undefined || p.description !== undefined;
  if (texts && refreshed === updated.view && isOpen(refreshed.mr)) {
    const closing = await closingIssueIds(ctx, updated.project, closingSourceOf(refreshed));
    await ctx.batch((db) => [...q.cacheClosingIssuesStatements(db, refreshed.mr.id, closing)]);
  }
  return refreshed;
}

export async function deleteMergeRequest({ ctx, input }: Verb<MergeRequestRef>) {
  requireUser(ctx);
  const { project, view } = await findMergeRequest(ctx, input);
  assertCan(ctx.actor, 'merge_request:delete', mergeRequestFacts(project, view));
  await ctx.transaction((tx) => q.deleteMergeRequest(tx, view.mr.id));
}

// ---- Lists ----

export type MergeRequestListSource = { kind: 'all' } | { kind: 'project'; ref: Ref | null } | { kind: 'group'; ref: Ref | null };

export async function listMergeRequests({ ctx, input }: Verb<{ source: MergeRequestListSource; params: ListMergeRequestsParams }>) {
  const p = input.params;
  const source: Pick<q.MergeRequestListFilter, 'projectId' | 'groupId'> = {};
  if (input.source.kind === 'project') source.projectId = (await findProject(ctx, input.source.ref)).project.id;
  if (input.source.kind === 'group') source.groupId = (await findGroup(ctx, input.source.ref)).namespace.id;
  const where = mergeRequestFilter(ctx, input.source.kind as MergeRequestListKind, p);
  if (!where) return { fetch: async () => [], count: async () => 0 };
  const filter: q.MergeRequestListFilter = { ...where, ...source };
  const order: q.MergeRequestOrder = { by: p.order_by ?? 'created_at', sort: p.sort ?? 'desc' };
  let total: number | undefined;
  return {
    fetch: async (limit: number, offset: number) => {
      const rows = await q.listMergeRequestViews(ctx.db, ctx.actor, filter, order, limit, offset, COUNT_LIMIT + 1);
      if (rows[0]) total = Number(rows[0].total);
      return rows;
    },
    count: (limit: number) => (total !== undefined ? Promise.resolve(Math.min(total, limit)) : q.countMergeRequests(ctx.db, ctx.actor, filter, limit)),
  };
}
