// Time tracking's log (GitLab's timelogs): one row per time spent on an issue or a merge request.
import type { Db } from '../../client.ts';
import { timelogs } from '../../schema/index.ts';

/** A timelog of `seconds` by the user on the issuable (the caller moves the issuable's total in the same transaction). */
export function insertTimelogStatement(db: Db, target: { issueId: number } | { mergeRequestId: number }, userId: number, seconds: number) {
  return db.insert(timelogs).values({ ...target, userId, timeSpent: seconds });
}
