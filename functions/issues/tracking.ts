// Verbs on one issue beyond CRUD: time tracking (GitLab's TimeTrackingEndpoints), subscriptions and the "mark as
// to-do" action. Each write locks the issue row in its transaction, so concurrent calls serialize per issue. The
// bodies of these verbs are shared with merge requests (functions/merge-requests/tracking.ts): only the row they lock
// and write differs (a TimeTracker).
import type { Db } from '../../db/client.ts';
import * as q from '../../db/queries/issues.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { notModified, validationFailed } from '../lib/errors.ts';
import { assertCan } from '../lib/policy.ts';
import { parseDuration } from './duration.ts';
import { findIssue, issueFacts, type IssueRef } from './service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** What time tracking reads and writes on an issuable's row (the issue's or the merge request's). */
export interface TimeTracker<R extends { timeEstimate: number; totalTimeSpent: number }> {
  /** The row, locked for the rest of the transaction. */
  lock(tx: Db, id: number): Promise<R | undefined>;
  setEstimate(tx: Db, id: number, seconds: number): Promise<void>;
  /** Adds a timelog and moves the row's total with it. */
  addTimelog(tx: Db, id: number, userId: number, seconds: number): Promise<void>;
}

/** POST .../time_estimate and .../reset_time_estimate (`duration` null): the row after the change. */
export async function writeTimeEstimate<R extends { timeEstimate: number; totalTimeSpent: number }>(
  ctx: RequestContext,
  t: TimeTracker<R>,
  id: number,
  duration: string | null,
): Promise<R> {
  const seconds = duration === null ? 0 : parseDuration(duration);
  if (seconds === null || seconds < 0) throw validationFailed({ time_estimate: ['has an invalid format'] });
  return ctx.transaction(async (tx) => {
    await t.lock(tx, id);
    await t.setEstimate(tx, id, seconds);
    return (await t.lock(tx, id))!;
  });
}

/** POST .../add_spent_time and .../reset_spent_time (`duration` null: a timelog that takes the total back to 0). */
export async function writeSpentTime<R extends { timeEstimate: number; totalTimeSpent: number }>(
  ctx: RequestContext,
  t: TimeTracker<R>,
  id: number,
  userId: number,
  duration: string | null,
): Promise<R> {
  const parsed = duration === null ? 0 : parseDuration(duration);
  if (parsed === null) throw validationFailed({ time_spent: ['has an invalid format'] });
  return ctx.transaction(async (tx) => {
    const row = (await t.lock(tx, id))!;
    const seconds = duration === null ? -row.totalTimeSpent : parsed;
    if (row.totalTimeSpent + seconds < 0) throw validationFailed({ time_spent: ['Time to subtract exceeds the total time spent'] });
    if (seconds !== 0) await t.addTimelog(tx, id, userId, seconds);
    return (await t.lock(tx, id))!;
  });
}

/** Subscribes or unsubscribes the user explicitly; 304 (thrown) when `current` already is what is asked. */
export async function writeSubscription(
  ctx: RequestContext,
  target: { type: q.TodoTargetType; id: number; projectId: number },
  userId: number,
  current: boolean,
  wanted: boolean,
) {
  if (current === wanted) throw notModified();
  await ctx.transaction((tx) => q.setSubscription(tx, target.id, target.projectId, userId, wanted, target.type));
}

/**
 * TodoService#mark_todo: a "marked" to-do of the user on the target, unless a pending one exists (then 304, thrown).
 * `lock` takes the target's row lock, so two concurrent calls make one to-do.
 */
export async function writeMarkedTodo(
  ctx: RequestContext,
  target: { type: q.TodoTargetType; id: number; projectId: number },
  userId: number,
  lock: (tx: Db) => Promise<unknown>,
) {
  const todo = await ctx.transaction(async (tx) => {
    await lock(tx);
    if (await q.findPendingMarkedTodo(tx, target.id, userId, target.type)) return null;
    return q.insertTodo(tx, { userId, authorId: userId, projectId: target.projectId, targetType: target.type, targetId: target.id, action: q.TODO_MARKED });
  });
  if (!todo) throw notModified();
  return todo;
}

const issueTime: TimeTracker<Awaited<ReturnType<typeof q.lockIssue>> & {}> = {
  lock: q.lockIssue,
  setEstimate: (tx, id, seconds) => q.updateIssue(tx, id, { timeEstimate: seconds, updatedAt: new Date() }),
  addTimelog: q.addTimelog,
};

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
  return writeTimeEstimate(ctx, issueTime, view.issue.id, input.duration);
}

/** `duration` null: reset (a timelog that takes the total back to 0). */
export async function addSpentTime({ ctx, input }: Verb<IssueRef & { duration: string | null }>) {
  const user = requireUser(ctx);
  const { view } = await manageable(ctx, input);
  return writeSpentTime(ctx, issueTime, view.issue.id, user.id, input.duration);
}

/** 201 with the issue when the subscription changed; 304 when it already was so. */
export async function setSubscribed({ ctx, input }: Verb<IssueRef & { subscribed: boolean }>) {
  const user = requireUser(ctx);
  const { project, view } = await findIssue(ctx, input, { subscribed: true });
  await writeSubscription(ctx, { type: 'Issue', id: view.issue.id, projectId: project.project.id }, user.id, view.subscribed, input.subscribed);
  return { ...view, subscribed: input.subscribed };
}

/** Marks the issue as a to-do of the caller: 201 with the to-do, 304 when a pending one exists. */
export async function markTodo({ ctx, input }: Verb<IssueRef>) {
  const user = requireUser(ctx);
  const { project, view } = await findIssue(ctx, input);
  const target = { type: 'Issue' as const, id: view.issue.id, projectId: project.project.id };
  const todo = await writeMarkedTodo(ctx, target, user.id, (tx) => q.lockIssue(tx, view.issue.id));
  return { todo, project, view };
}
