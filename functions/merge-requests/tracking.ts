// Verbs on one merge request beyond CRUD, as for issues (functions/issues/tracking.ts, whose bodies they share):
// time tracking (GitLab 13.6 TimeTrackingEndpoints: admin_merge_request to write, read_merge_request to read),
// subscriptions (lib/api/subscriptions.rb finds the MR with update_merge_request), the "mark as to-do" action
// (lib/api/todos.rb, read_merge_request) and the participants (Participable: author, assignees, note authors).
import { findParticipantsOfIssues } from '../issues/lookups.ts';
import * as q from '../../db/queries/merge-requests.ts';
import { visibleParticipants } from '../issues/reads.ts';
import { writeMarkedTodo, writeSpentTime, writeSubscription, writeTimeEstimate, type TimeTracker } from '../issues/tracking.ts';
import type { MergeRequestRow } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { assertCan } from '../lib/policy.ts';
import { findMergeRequest, mergeRequestFacts, type MergeRequestRef } from './service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

const mergeRequestTime: TimeTracker<MergeRequestRow> = {
  lock: q.lockMergeRequest,
  setEstimate: (tx, id, seconds) => q.updateMergeRequest(tx, id, { timeEstimate: seconds, updatedAt: new Date() }),
  addTimelog: q.addMergeRequestTimelog,
};

/** GitLab's admin_merge_request (developers and above): time tracking is for those who manage merge requests. */
async function manageable(ctx: RequestContext, ref: MergeRequestRef) {
  requireUser(ctx);
  const found = await findMergeRequest(ctx, ref);
  assertCan(ctx.actor, 'merge_request:admin', mergeRequestFacts(found.project, found.view));
  return found;
}

export async function getMergeRequestTimeStats({ ctx, input }: Verb<MergeRequestRef>) {
  return (await findMergeRequest(ctx, input)).view.mr;
}

/** `duration` null: reset the estimate. */
export async function setMergeRequestTimeEstimate({ ctx, input }: Verb<MergeRequestRef & { duration: string | null }>) {
  const { view } = await manageable(ctx, input);
  return writeTimeEstimate(ctx, mergeRequestTime, view.mr.id, input.duration);
}

/** `duration` null: reset the time spent (a timelog that takes the total back to 0). */
export async function addMergeRequestSpentTime({ ctx, input }: Verb<MergeRequestRef & { duration: string | null }>) {
  const user = requireUser(ctx);
  const { view } = await manageable(ctx, input);
  return writeSpentTime(ctx, mergeRequestTime, view.mr.id, user.id, input.duration);
}

/** 201 with the MR when the subscription changed; 304 when it already was so. Needs update_merge_request. */
export async function setMergeRequestSubscribed({ ctx, input }: Verb<MergeRequestRef & { subscribed: boolean }>) {
  const user = requireUser(ctx);
  const { project, view } = await findMergeRequest(ctx, input, { subscribed: true });
  assertCan(ctx.actor, 'merge_request:update', mergeRequestFacts(project, view));
  await writeSubscription(ctx, { type: 'MergeRequest', id: view.mr.id, projectId: project.project.id }, user.id, view.subscribed, input.subscribed);
  return { project, view: { ...view, subscribed: input.subscribed } };
}

/** Marks the MR as a to-do of the caller: the to-do, or 304 when a pending one exists. */
export async function markMergeRequestTodo({ ctx, input }: Verb<MergeRequestRef>) {
  const user = requireUser(ctx);
  const { project, view } = await findMergeRequest(ctx, input);
  const target = { type: 'MergeRequest' as const, id: view.mr.id, projectId: project.project.id };
  const todo = await writeMarkedTodo(ctx, target, user.id, (tx) => q.lockMergeRequest(tx, view.mr.id));
  return { todo, project, view };
}

/** GET .../participants: the author, the assignees and the authors of the notes the actor may read, each once. */
export async function mergeRequestParticipants({ ctx, input }: Verb<MergeRequestRef>) {
  const { project, view } = await findMergeRequest(ctx, input);
  const rows = await findParticipantsOfIssues(ctx.db, [view.mr.id], 'MergeRequest');
  return visibleParticipants(ctx, rows, mergeRequestFacts(project, view));
}
