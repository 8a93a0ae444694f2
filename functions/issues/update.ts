// Changing an issue (GitLab 13.6 Issues::UpdateService): a transaction that locks the issue's row, applies every
// parameter sent (labels, assignees, milestone, state through issues/state.ts), records the resource events, to-dos
// and notifications of the change; and setting its iteration (Premium).

import * as q from '../../db/queries/issues.ts';
import { findIterationViewsByIds } from '../iterations/lookups.ts';
import { changeEventStatements } from '../../db/queries/issues/resource-events.ts';
import { findOrCreateProjectLabels } from '../labels/statements.ts';

import type { EmailEvent, IssueRow } from '../../db/schema/index.ts';
import { notify } from '../notifications/record.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { notFound, paramErrors, validationFailed } from '../lib/errors.ts';
import { groupIdsOf, resolveAssignees, resolveMilestone } from '../issuables/attributes.ts';
import { insertAssignmentTodos } from '../todos/statements.ts';
import { issuableErrors, stripTitle } from '../issuables/validation.ts';
import { assertCan, can, iterationsAvailable, weightsAvailable } from '../lib/policy.ts';
import type { Output } from '../lib/validate.ts';

import { createMentionTodos } from '../issuables/mention-todos.ts';
import { issueStateStatements } from './state.ts';
import { canSetCreatedAt, findIssue, issueFacts, issueNotFound, issueReader, reload, type IssueRef } from './service.ts';
import { UPDATE_FIELDS, type UpdateIssueInput } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export async function updateIssue({ ctx, input }: Verb<IssueRef & { params: Output<typeof UpdateIssueInput> }>) {
  const p = input.params;
  // EE adds `weight` to the parameters one of which an update needs (where weights are licensed).
  const fields = weightsAvailable(ctx.config.instanceTier) ? [...UPDATE_FIELDS, 'weight' as const] : UPDATE_FIELDS;
  if (!fields.some((f) => p[f] !== undefined)) {
    throw paramErrors([`${fields.join(', ')} are missing, at least one parameter must be provided`]);
  }
  const user = requireUser(ctx);
  const { project, view } = await findIssue(ctx, input);
  const facts = issueFacts(project, view);
  assertCan(ctx.actor, 'issue:update', facts);
  // GitLab's filter_params: who cannot admin the issue (below reporter) may not set these.
  const admin = can(ctx.actor, 'issue:admin', facts);
  const projectId = project.project.id;
  const title = p.title === undefined ? undefined : stripTitle(p.title);
  const invalid = issuableErrors({ title, description: p.description });
  if (invalid) throw validationFailed(invalid);
  await ctx.transaction(async (tx) => {
    const issue = await q.lockIssue(tx, view.issue.id);
    if (!issue) throw issueNotFound();
    // The notification-setting events of this update (their recipients are resolved when delivered).
    const notification = (action: EmailEvent, previousAssigneeIds?: number[]) =>
      notify(tx, ctx, { action, target: { type: 'Issue', id: issue.id }, projectId, actorId: user.id, previousAssigneeIds });
    const now = new Date();
    const changes: Parameters<typeof q.updateIssue>[2] = {};
    if (title !== undefined) changes.title = title;
    if (p.description !== undefined) changes.description = p.description;
    if (p.confidential !== undefined) changes.confidential = p.confidential;
    if (admin) {
      if (p.discussion_locked !== undefined) changes.discussionLocked = p.discussion_locked;
      if (p.due_date !== undefined) changes.dueDate = p.due_date;
      const milestoneId = await resolveMilestone(tx, project, p.milestone_id);
      if (milestoneId !== undefined) changes.milestoneId = milestoneId;
      if (p.weight !== undefined && weightsAvailable(ctx.config.instanceTier)) changes.weight = p.weight;
      const assignees = await resolveAssignees(tx, project, p);
      if (assignees !== undefined) {
        const { added, previous } = await q.setAssignees(tx, issue.id, assignees);
        await insertAssignmentTodos(tx, issue, user.id, added);
        if (added.length || previous.some((id) => !assignees.includes(id))) await notification('reassign_issue', previous);
      }
      if (p.labels !== undefined || p.add_labels !== undefined || p.remove_labels !== undefined) {
        let ids = p.labels !== undefined ? (await findOrCreateProjectLabels(tx, projectId, p.labels)).map((l) => l.id) : await q.issueLabelIds(tx, issue.id);
        if (p.add_labels?.length) ids = [...ids, ...(await findOrCreateProjectLabels(tx, projectId, p.add_labels)).map((l) => l.id)];
        if (p.remove_labels?.length) {
          const removed = new Set(await q.findLabelIdsByTitle(tx, projectId, groupIdsOf(project), p.remove_labels));
          ids = ids.filter((id) => !removed.has(id));
        }
        await q.setLabelLinks(tx, issue.id, ids);
      }
    }
    if (p.created_at && canSetCreatedAt(ctx, project)) changes.createdAt = p.created_at;
    // State changes record their event and a system note; closing an already closed issue (or reopening an open one) changes nothing.
    const to = p.state_event === 'close' && issue.state !== 'closed' ? 'closed' : p.state_event === 'reopen' && issue.state !== 'opened' ? 'opened' : null;
    if (to) {
      Object.assign(
        changes,
        to === 'closed' ? { state: 'closed' as const, closedAt: now, closedById: user.id } : { state: 'opened' as const, closedAt: null, closedById: null },
      );
      for (const statement of issueStateStatements(tx, ctx, { issue, userId: user.id, to, note: to === 'closed' ? 'closed' : 'reopened' })) await statement;
    }
    await q.updateIssue(tx, issue.id, { ...changes, updatedAt: now, updatedById: user.id });
    for (const statement of changeEventStatements(tx, issue.id, user.id, issue, changes)) await statement;
    if (changes.title !== undefined || changes.description !== undefined) {
      const updated = { ...issue, ...changes } as IssueRow;
      await createMentionTodos(tx, {
        project,
        issue,
        authorId: user.id,
        texts: [updated.title, updated.description],
        before: [issue.title, issue.description],
        mayRead: issueReader(project, updated, await q.issueAssigneeIds(tx, issue.id)),
      });
    }
  });
  return reload(ctx, view.issue.id);
}

/**
 * GraphQL's issueSetIteration (EE, 13.6): Issues::UpdateService with `iteration`. The iteration must be one the
 * project sees (its own or its groups', where licensed; anything else is not found); who may not admin the issue
 * changes nothing (filter_params). The change and its resource event are one transaction.
 */
export async function setIssueIteration({ ctx, input }: Verb<IssueRef & { iterationId: number | null }>) {
  const user = requireUser(ctx);
  const { project, view } = await findIssue(ctx, input);
  const facts = issueFacts(project, view);
  assertCan(ctx.actor, 'issue:update', facts);
  let sprintId: number | null = null;
  if (input.iterationId !== null) {
    const [found] = iterationsAvailable(ctx.config.instanceTier) ? await findIterationViewsByIds(ctx.db, [input.iterationId]) : [];
    const i = found?.iteration;
    if (!i || !(i.projectId === project.project.id || (i.groupId !== null && groupIdsOf(project).includes(i.groupId)))) throw notFound('Iteration');
    sprintId = i.id;
  }
  if (can(ctx.actor, 'issue:admin', facts)) {
    await ctx.transaction(async (tx) => {
      const issue = await q.lockIssue(tx, view.issue.id);
      if (!issue) throw issueNotFound();
      if (issue.sprintId === sprintId) return;
      await q.updateIssue(tx, issue.id, { sprintId, updatedAt: new Date(), updatedById: user.id });
      for (const statement of changeEventStatements(tx, issue.id, user.id, issue, { sprintId })) await statement;
    });
  }
  return { project, view: await reload(ctx, view.issue.id) };
}
