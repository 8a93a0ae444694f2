// Changing a merge request (GitLab 13.6 MergeRequests::UpdateService): a transaction that locks its row and applies
// every parameter sent (title and draft, description, target branch, assignees, reviewers, milestone, labels, state,
// squash, source branch removal), with its to-dos, system notes and notifications; then the refresh a target change
// needs and the closing issues a text change names.

import { cacheClosingIssuesStatements } from '../../db/queries/merge-requests/versions.ts';
import { findLabelIdsByTitle } from '../issues/lookups.ts';
import { assignableUserIds } from '../issuables/lookups.ts';
import { assignableScope, groupIdsOf, resolveMilestone, wantedAssignees } from '../issuables/attributes.ts';
import { insertAssignmentTodos } from '../todos/statements.ts';
import { findOrCreateProjectLabels } from '../labels/statements.ts';
import * as q from '../../db/queries/merge-requests.ts';

import { recordEvent } from '../events/record.ts';
import { createMentionTodos } from '../issuables/mention-todos.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { paramErrors, recordNotFound, validationFailed } from '../lib/errors.ts';
import { issuableErrors, stripTitle } from '../issuables/validation.ts';

import { assertCan, can } from '../lib/policy.ts';
import { notify } from '../notifications/record.ts';
import type { EmailEvent } from '../../db/schema/index.ts';

import { UPDATE_FIELDS, type UpdateMergeRequestParams } from './schemas.ts';
import { isOpen } from './mergeability.ts';
import { closingIssueIds, refreshMergeRequest } from './refresh.ts';
import { findMergeRequest, mergeRequestFacts, readsMergeRequestAs, sameBranch, type MergeRequestRef } from './service.ts';
import { closingSourceOf } from './closing.ts';

type Verb<I> = { ctx: RequestContext; input: I };

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
    await ctx.batch((db) => [...cacheClosingIssuesStatements(db, refreshed.mr.id, closing)]);
  }
  return refreshed;
}
