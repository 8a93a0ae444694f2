// Whether a merge request can merge, from the facts its view carries (pure): the merge status shown, whether blocking
// discussions are resolved, and detailed_merge_status. That field is GitLab 15.6's
// (MergeRequests::Mergeability::DetailedMergeStatusService), read unconditionally by current clients (python-gitlab's
// merge-request objects): an additive field derived from what 13.6 has (DESIGN.md, Compatibility). A pending check
// comes first, then 15.6's mergeable-state checks in their order (open, draft, broken, discussions, CI); the first that
// fails names the status. 13.6 has no approval rules or blocking merge requests here: not_approved, blocked_status and
// the later values never apply.
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
  | 'unchecked'
  | 'checking'
  | 'mergeable'
  | 'not_open'
  | 'draft_status'
  | 'broken_status'
  | 'discussions_not_resolved'
  | 'ci_must_pass';

type Facts = Pick<
  MergeRequestView,
  'mr' | 'latestDiff' | 'sourceHead' | 'targetTip' | 'onlyAllowMergeIfAllDiscussionsAreResolved' | 'unresolvedDiscussions' | 'onlyAllowMergeIfPipelineSucceeds' | 'requiredPipelineStatus'
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
 * MergeRequest#mergeable?: every mergeable-state check passes (detailed_merge_status `mergeable`: open, not a draft,
 * not broken, discussions, CI), it was checked and merges cleanly, and it needs no rebase. GraphQL's `mergeable`.
 */
export const mergeable = (v: Facts & Pick<MergeRequestView, 'mergeMethod'>): boolean => detailedMergeStatus(v) === 'mergeable' && !shouldBeRebased(v);

/** The merge request's detailed_merge_status (pure: every fact comes with the view). */
export function detailedMergeStatus(v: Facts): DetailedMergeStatus {
  const status = mergeStatusOf(v);
  if (status === 'checking') return 'checking';
  // `unchecked?`; a conflict waiting for its recheck has not been checked either.
  if (status === 'unchecked' || status === 'cannot_be_merged_recheck') return 'unchecked';
  if (!isOpen(v.mr)) return 'not_open';
  if (isDraftTitle(v.mr.title)) return 'draft_status';
  // MergeRequest#broken?: no commits, a branch missing, or a conflict.
  const noCommits = !v.latestDiff || v.latestDiff.commitsCount === 0;
  if (noCommits || v.sourceHead === null || v.targetTip === null || status === 'cannot_be_merged') return 'broken_status';
  if (!blockingDiscussionsResolved(v)) return 'discussions_not_resolved';
  // mergeable_ci_state?: where the project requires it, the head pipeline succeeded (or was skipped, as merge.ts allows).
  if (v.onlyAllowMergeIfPipelineSucceeds && v.requiredPipelineStatus !== 'success' && v.requiredPipelineStatus !== 'skipped') return 'ci_must_pass';
  return 'mergeable';
}
