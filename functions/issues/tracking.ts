// The issue as a kind of issuable for the verbs issues and merge requests share (functions/issuables/tracking.ts):
// time tracking for those who may admin_issue (reporters and above), subscriptions and the "mark as to-do" action for
// readers.
import * as q from '../../db/queries/issues.ts';
import { issuableVerbs } from '../issuables/tracking.ts';
import { assertCan } from '../lib/policy.ts';
import { findIssue, issueFacts, type IssueRef } from './service.ts';

export const { getTimeStats, setTimeEstimate, addSpentTime, setSubscribed, markTodo } = issuableVerbs({
  type: 'Issue',
  find: (ctx, ref: IssueRef, options) => findIssue(ctx, ref, options),
  row: (view) => view.issue,
  assertAdmin: (ctx, { project, view }) => assertCan(ctx.actor, 'issue:admin', issueFacts(project, view)),
  lock: q.lockIssue,
  setEstimate: (tx, id, seconds) => q.updateIssue(tx, id, { timeEstimate: seconds, updatedAt: new Date() }),
  addTimelog: q.addTimelog,
});
