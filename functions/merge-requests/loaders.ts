// The merge requests' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's
// batched verbs.
import type { MergeRequestView } from '../../db/queries/merge-requests.ts';
import { each, perParent } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import type { KeysetPage } from '../lib/pagination.ts';
import {
  closingIssuesOfMergeRequests,
  currentUserTodosOfMergeRequests,
  diffStatsOfMergeRequests,
  labelsOfMergeRequests,
  mergeRequestCounts,
  mergeRequestPages,
  participantsOfMergeRequests,
  repositoryFactsOfMergeRequests,
  type MergeRequestPageArgs,
  type MergeRequestParentKind,
  type MergeRequestWithProject,
} from './reads.ts';

const mergeRequestId = (m: MergeRequestWithProject) => m.view.mr.id;

export const mergeRequestLoaders = (ctx: RequestContext) => ({
  /** Project/Group.mergeRequests, User.authored/assignedMergeRequests pages by parent id (of one kind per batch). */
  mergeRequestPages: perParent((parentIds: number[], a: { kind: MergeRequestParentKind; args: MergeRequestPageArgs; page: KeysetPage }) =>
    mergeRequestPages(ctx, a.kind, parentIds, a.args, a.page),
  ),
  /** MergeRequestConnection.count / totalTimeToMerge by parent id (one grouped statement). */
  mergeRequestCounts: perParent((parentIds: number[], a: { kind: MergeRequestParentKind; args: Omit<MergeRequestPageArgs, 'by'> }) =>
    mergeRequestCounts(ctx, a.kind, parentIds, a.args),
  ),
  /** Labels by MR id, by title. */
  mergeRequestLabels: each((ids: readonly number[]) => labelsOfMergeRequests(ctx, ids)),
  /** The cached closing issues the actor may read, by MR id (one statement for every MR of the response). */
  mergeRequestClosingIssues: each((ids: readonly number[]) => closingIssuesOfMergeRequests(ctx, ids)),
  /** The current user's to-dos by MR id (none when anonymous). */
  currentUserMergeRequestTodos: each((ids: readonly number[]) => currentUserTodosOfMergeRequests(ctx, ids)),
  /** The users who take part in an MR, as the actor may see them. */
  mergeRequestParticipants: each((found: readonly MergeRequestWithProject[]) => participantsOfMergeRequests(ctx, found), mergeRequestId),
  /** An MR's latest diff statistics by file (one statement per distinct target project). */
  mergeRequestDiffStats: each(
    (views: readonly MergeRequestView[]) => diffStatsOfMergeRequests(ctx, views),
    (v) => v.mr.id,
  ),
  /** What the repositories allow the actor on an MR (merge, push to / remove the source branch). */
  mergeRequestRepositoryFacts: each((found: readonly MergeRequestWithProject[]) => repositoryFactsOfMergeRequests(ctx, found), mergeRequestId),
});
