// Whether a merge request can merge, from the facts its view carries (pure): the merge status shown, whether blocking
// discussions are resolved, and detailed_merge_status. That field is GitLab 15.6's
// (MergeRequests::Mergeability::DetailedMergeStatusService), read unconditionally by current clients (python-gitlab's
// merge-request objects): an additive field derived from what 13.6 has (DESIGN.md, Compatibility). A pending check
// comes first, then 15.6's mergeable-state checks in their order (open, draft, broken, discussions, CI); the first that
// fails names the status, and a fast-forward MR behind its target is `need_rebase` (later versions' value for 13.6's
// should_be_rebased?). 13.6 has no approval rules or blocking merge requests here: not_approved, blocked_status and
// the other later values never apply.
import { isDraftTitle, type MergeRequestView } from '../../db/queries/merge-requests.ts';

/**
 * The merge status shown: GitLab marks an open MR `unchecked` when a push moves its source or target branch, until the
 * check runs; here the check is the push's refresh (refresh.ts, run right after the push's response), and until it
 * has run every read (one MR or a list, REST or GraphQL) shows `unchecked`.
 */
export function mergeStatusOf(v: Pick<MergeRequestView, 'mr' | 'latestDiff' | 'sourceHead' | 'targetTip'>) {
  const open = isOpen(v.mr);
  const d = v.latestDiff;
  const moved = d !== null && v.sourceHead !== null && v.targetTip !== null && (d.headCommitSha !== v.sourceHead || d.startCommitSha !== v.targetTip);
  return open && moved ? 'unchecked' : v.mr.mergeStatus;
}

/** MergeRequest#mergeable_discussions_state?: unresolved discussions block only where the project says so. */
export const blockingDiscussionsResolved = (v: Pick<MergeRequestView, 'onlyAllowMergeIfAllDiscussionsAreResolved' | 'unresolvedDiscussions'>) =>
  !v.onlyAllowMergeIfAllDiscussionsAreResolved || v.unresolvedDiscussions === 0;

export type DetailedMergeStatus =
  'unchecked' | 'checking' | 'mergeable' | 'not_open' | 'draft_status' | 'broken_status' | 'discussions_not_resolved' | 'ci_must_pass' | 'need_rebase';

type Facts = Pick<
  MergeRequestView,
  | 'mr'
  | 'latestDiff'
  | 'sourceHead'
  | 'targetTip'
  | 'onlyAllowMergeIfAllDiscussionsAreResolved'
  | 'unresolvedDiscussions'
  | 'onlyAllowMergeIfPipelineSucceeds'
  | 'allowMergeOnSkippedPipeline'
  | 'requiredPipelineStatus'
>;

/** MergeRequest#open?: opened or locked. */
export const isOpen = (mr: { state: string }) => mr.state === 'opened' || mr.state === 'locked';

/**
 * MergeRequest#should_be_rebased?: the project merges by fast-forward only (ff, rebase_merge) and the target's tip
 * is not an ancestor of the source's, i.e. the version's merge base is not the target's tip.
 */
export function shouldBeRebased(v: Pick<MergeRequestView, 'mr' | 'mergeMethod' | 'latestDiff' | 'targetTip'>): boolean {
  if (!isOpen(v.mr) || (v.mergeMethod !== 'ff' && v.mergeMethod !== 'rebase_merge') || !v.latestDiff || !v.targetTip) return false;
  return (v.latestDiff.baseCommitSha ?? v.latestDiff.startCommitSha) !== v.targetTip;
}

/**
 * MergeRequest#mergeable_state?(skip_ci_check:): open, not a draft, not broken, CI (unless skipped), discussions. The
 * gate of PUT .../merge (405 where it fails), read from the MR as stored: a branch moved since the last check is
 * `unchecked`, not broken, until the check runs (mergeable? below).
 */
export const mergeableState = (v: Facts, options: { skipCiCheck?: boolean } = {}): boolean => failedCheck(v, options) === null;

/**
 * MergeRequest#mergeable?(skip_ci_check:): the mergeable state, checked (merge status can_be_merged: the check ran and
 * merges cleanly) and no rebase needed. GraphQL's `mergeable`; PUT .../merge answers 406 where it fails.
 */
export const mergeable = (v: Facts & Pick<MergeRequestView, 'mergeMethod'>, options: { skipCiCheck?: boolean } = {}): boolean =>
  mergeableState(v, options) && mergeStatusOf(v) === 'can_be_merged' && !shouldBeRebased(v);

type FailedCheck = 'not_open' | 'draft_status' | 'broken_status' | 'discussions_not_resolved' | 'ci_must_pass';

/** The first of 15.6's mergeable-state checks that fails (their order names detailed_merge_status), or null. */
function failedCheck(v: Facts, { skipCiCheck = false }: { skipCiCheck?: boolean }): FailedCheck | null {
  if (!isOpen(v.mr)) return 'not_open';
  if (isDraftTitle(v.mr.title)) return 'draft_status';
  // MergeRequest#broken?: no commits, a branch missing, or a conflict found by the last check.
  const noCommits = !v.latestDiff || v.latestDiff.commitsCount === 0;
  if (noCommits || v.sourceHead === null || v.targetTip === null || mergeStatusOf(v) === 'cannot_be_merged') return 'broken_status';
  if (!blockingDiscussionsResolved(v)) return 'discussions_not_resolved';
  // mergeable_ci_state?: where the project requires it, the head pipeline succeeded, or was skipped where the project
  // allows merging on a skipped pipeline (13.6's allow_merge_on_skipped_pipeline).
  const ciPassed = v.requiredPipelineStatus === 'success' || (v.requiredPipelineStatus === 'skipped' && v.allowMergeOnSkippedPipeline);
  if (!skipCiCheck && v.onlyAllowMergeIfPipelineSucceeds && !ciPassed) return 'ci_must_pass';
  return null;
}

/** The merge request's detailed_merge_status (pure: every fact comes with the view). */
export function detailedMergeStatus(v: Facts & Pick<MergeRequestView, 'mergeMethod'>): DetailedMergeStatus {
  const status = mergeStatusOf(v);
  if (status === 'checking') return 'checking';
  // `unchecked?`; a conflict waiting for its recheck has not been checked either.
  if (status === 'unchecked' || status === 'cannot_be_merged_recheck') return 'unchecked';
  // A fast-forward project's MR behind its target: later versions' need_rebase (13.6's should_be_rebased?).
  return failedCheck(v, {}) ?? (shouldBeRebased(v) ? 'need_rebase' : 'mergeable');
}
