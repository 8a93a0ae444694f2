// A merge request's diff versions (GitLab's merge_request_diffs). A version is taken when the MR is created and
// whenever its source or target branch has moved since the latest one (RefreshService's reload_merge_requests, which
// GitLab runs after a push; here the update_merge_requests job every push enqueues, refresh.ts). A version is three
// SHAs: git objects are immutable, so any version renders again, and diff notes keep pointing at the lines they were
// written on.
import { type NewDiffVersion } from '../../db/queries/merge-requests/versions.ts';
import type { Db } from '../../db/client.ts';
import { changedPaths } from '../repositories/lookups.ts';

import type { MergeStatus } from '../../db/schema/index.ts';
import { mergeability } from './merge-engine.ts';

export interface BranchTips {
  sourceHead: string;
  targetTip: string;
}

export type TakenVersion = NewDiffVersion & { mergeStatus: MergeStatus };

/**
 * The version between the target's tip and the source's head, read in the object pool of `projectId` (source and
 * target of an MR share one pool): its merge base, commits, files and whether it merges cleanly. A fixed number of
 * statements whatever the size of the MR.
 */
export async function takeVersion(db: Db, projectId: number, tips: BranchTips): Promise<TakenVersion> {
  const merge = await mergeability(db, projectId, tips);
  const base = merge.mergeBase;
  const files = await changedPaths(db, projectId, [{ oldCommit: base ?? tips.targetTip, newCommit: tips.sourceHead }]);
  return {
    baseCommitSha: base,
    startCommitSha: tips.targetTip,
    headCommitSha: tips.sourceHead,
    state: merge.ahead ? 'collected' : 'empty',
    commitsCount: merge.ahead,
    filesCount: new Set(files.map((f) => new TextDecoder().decode(f.path))).size,
    mergeStatus: statusOf(merge),
  };
}

const statusOf = (merge: { conflict: boolean }): MergeStatus => (merge.conflict ? 'cannot_be_merged' : 'can_be_merged');

/** MergeabilityCheckService for a version already current: only the merge status, worked out again. */
export const checkMergeStatus = async (db: Db, projectId: number, tips: BranchTips): Promise<MergeStatus> => statusOf(await mergeability(db, projectId, tips));

/** The stored statuses that wait for a check (a reopened MR, a conflict to look at again). */
export const awaitsCheck = (status: string) => status === 'unchecked' || status === 'cannot_be_merged_recheck';

/** Whether the latest version was taken at these tips (nothing to refresh). */
export const isCurrent = (latest: { startCommitSha: string; headCommitSha: string } | null, tips: BranchTips) =>
  latest !== null && latest.startCommitSha === tips.targetTip && latest.headCommitSha === tips.sourceHead;
