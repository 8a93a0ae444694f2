// The merge request as a kind of issuable for the verbs issues and merge requests share
// (functions/issuables/tracking.ts): time tracking (GitLab 13.6 TimeTrackingEndpoints: admin_merge_request to write,
// read_merge_request to read), subscriptions (lib/api/subscriptions.rb finds the MR with update_merge_request), the
// "mark as to-do" action (lib/api/todos.rb, read_merge_request); and the participants (Participable: author,
// assignees, note authors).
import * as q from '../../db/queries/merge-requests.ts';
import { findParticipants } from '../issuables/lookups.ts';
import { visibleParticipants } from '../issuables/participants.ts';
import { issuableVerbs } from '../issuables/tracking.ts';
import type { RequestContext } from '../lib/context.ts';
import { assertCan } from '../lib/policy.ts';
import { findMergeRequest, mergeRequestFacts, type MergeRequestRef } from './service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export const {
  getTimeStats: getMergeRequestTimeStats,
  setTimeEstimate: setMergeRequestTimeEstimate,
  addSpentTime: addMergeRequestSpentTime,
  setSubscribed: setMergeRequestSubscribed,
  markTodo: markMergeRequestTodo,
} = issuableVerbs({
  type: 'MergeRequest',
  find: (ctx, ref: MergeRequestRef, options) => findMergeRequest(ctx, ref, options),
  row: (view) => view.mr,
  assertAdmin: (ctx, { project, view }) => assertCan(ctx.actor, 'merge_request:admin', mergeRequestFacts(project, view)),
  assertSubscribe: (ctx, { project, view }) => assertCan(ctx.actor, 'merge_request:update', mergeRequestFacts(project, view)),
  lock: q.lockMergeRequest,
  setEstimate: (tx, id, seconds) => q.updateMergeRequest(tx, id, { timeEstimate: seconds, updatedAt: new Date() }),
  addTimelog: q.addMergeRequestTimelog,
});

/** GET .../participants: the author, the assignees and the authors of the notes the actor may read, each once. */
export async function mergeRequestParticipants({ ctx, input }: Verb<MergeRequestRef>) {
  const { project, view } = await findMergeRequest(ctx, input);
  const rows = await findParticipants(ctx.db, [view.mr.id], 'MergeRequest');
  return visibleParticipants(ctx, rows, mergeRequestFacts(project, view));
}
