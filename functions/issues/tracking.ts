// Verbs on one issue beyond CRUD: time tracking (GitLab's TimeTrackingEndpoints), subscriptions and the "mark as
// to-do" action. Each write locks the issue row in its transaction, so concurrent calls serialize per issue.
import * as q from '../../db/queries/issues.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { notModified, validationFailed } from '../lib/errors.ts';
import { assertCan } from '../lib/policy.ts';
import { parseDuration } from './duration.ts';
import { findIssue, issueFacts, type IssueRef } from './service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** GitLab's admin_issue (reporters and above): time tracking is for those who manage issues. */
async function manageable(ctx: RequestContext, ref: IssueRef) {
  requireUser(ctx);
  const found = await findIssue(ctx, ref);
  assertCan(ctx.actor, 'issue:admin', issueFacts(found.project, found.view));
  return found;
}

export async function getTimeStats({ ctx, input }: Verb<IssueRef>) {
  return (await findIssue(ctx, input)).view.issue;
}

export async function setTimeEstimate({ ctx, input }: Verb<IssueRef & { duration: string | null }>) {
  const { view } = await manageable(ctx, input);
  const seconds = input.duration === null ? 0 : parseDuration(input.duration);
  if (seconds === null || seconds < 0) throw validationFailed({ time_estimate: ['has an invalid format'] });
  return ctx.transaction(async (tx) => {
    await q.lockIssue(tx, view.issue.id);
    await q.updateIssue(tx, view.issue.id, { timeEstimate: seconds, updatedAt: new Date() });
    return (await q.lockIssue(tx, view.issue.id))!;
  });
}

/** `duration` null: reset (a timelog that takes the total back to 0). */
export async function addSpentTime({ ctx, input }: Verb<IssueRef & { duration: string | null }>) {
  const user = requireUser(ctx);
  const { view } = await manageable(ctx, input);
  const parsed = input.duration === null ? 0 : parseDuration(input.duration);
  if (parsed === null) throw validationFailed({ time_spent: ['has an invalid format'] });
  return ctx.transaction(async (tx) => {
    const issue = (await q.lockIssue(tx, view.issue.id))!;
    const seconds = input.duration === null ? -issue.totalTimeSpent : parsed;
    if (issue.totalTimeSpent + seconds < 0) throw validationFailed({ time_spent: ['Time to subtract exceeds the total time spent'] });
    if (seconds !== 0) await q.addTimelog(tx, issue.id, user.id, seconds);
    return (await q.lockIssue(tx, issue.id))!;
  });
}

/** 201 with the issue when the subscription changed; 304 when it already was so. */
export async function setSubscribed({ ctx, input }: Verb<IssueRef & { subscribed: boolean }>) {
  const user = requireUser(ctx);
  const { project, view } = await findIssue(ctx, input, { subscribed: true });
  if (view.subscribed === input.subscribed) throw notModified();
  await ctx.transaction((tx) => q.setSubscription(tx, view.issue.id, project.project.id, user.id, input.subscribed));
  return { ...view, subscribed: input.subscribed };
}

/** Marks the issue as a to-do of the caller: 201 with the to-do, 304 when a pending one exists. */
export async function markTodo({ ctx, input }: Verb<IssueRef>) {
  const user = requireUser(ctx);
  const { project, view } = await findIssue(ctx, input);
  const todo = await ctx.transaction(async (tx) => {
    await q.lockIssue(tx, view.issue.id);
    if (await q.findPendingMarkedTodo(tx, view.issue.id, user.id)) return null;
    return q.insertTodo(tx, { userId: user.id, authorId: user.id, projectId: project.project.id, targetType: 'Issue', targetId: view.issue.id, action: q.TODO_MARKED });
  });
  if (!todo) throw notModified();
  return { todo, project, view };
}
