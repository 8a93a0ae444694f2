// The issues' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's batched
// verbs.
import { each, perParent } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import type { KeysetPage } from '../lib/pagination.ts';
import type { IssueFinderParams } from './filter.ts';
import {
  currentUserTodosOfIssues,
  issueCounts,
  issuePages,
  labelsOfIssues,
  participantsOfIssues,
  userDiscussionCounts,
  type IssueWithProject,
} from './reads.ts';

const issueId = (i: IssueWithProject) => i.view.issue.id;

export const issueLoaders = (ctx: RequestContext) => ({
  /** Labels by issue id, by title. */
  issueLabels: each((ids: readonly number[]) => labelsOfIssues(ctx, ids)),
  /** Distinct discussions of user notes by issue id. */
  issueUserDiscussionsCount: each((ids: readonly number[]) => userDiscussionCounts(ctx, ids)),
  /** The users who take part in an issue, as the actor may see them. */
  issueParticipants: each((found: readonly IssueWithProject[]) => participantsOfIssues(ctx, found), issueId),
  /** The current user's to-dos by issue id (none when anonymous). */
  currentUserIssueTodos: each((ids: readonly number[]) => currentUserTodosOfIssues(ctx, ids)),
  /** Project.issues/issue pages by project id. */
  issuePages: perParent((projectIds: number[], a: { params: IssueFinderParams; page: KeysetPage }) => issuePages(ctx, projectIds, a.params, a.page)),
  /** IssueConnection.count by project id (one grouped count). */
  issueCounts: perParent((projectIds: number[], params: IssueFinderParams) => issueCounts(ctx, projectIds, params)),
});
