// The boards' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's batched
// verbs.
import { each, stableKey } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import type { BoardModel } from './models.ts';
import { boardMilestones, collapsedOfLists, issuesOfLists, issueViewsByIds, listsOfBoards, type ListIssuesKey } from './reads.ts';

export const boardLoaders = (ctx: RequestContext) => ({
  /** Board.lists by board: every board of a request in one query. */
  boardLists: each(
    (found: readonly BoardModel[]) => listsOfBoards(ctx, found),
    (b) => b.board.id,
  ),
  /** BoardList issue ids, count and weight by (list, filters): one statement per board parent and filter set. */
  boardListIssues: each(
    (keys: readonly ListIssuesKey[]) => issuesOfLists(ctx, keys),
    (k) => stableKey({ list: k.list.view.list.id, filters: k.filters }),
  ),
  /** Board list issues by id (ids found visible by boardListIssues). */
  boardIssue: each((ids: readonly number[]) => issueViewsByIds(ctx, ids)),
  /** BoardList.collapsed by list id, for the current user. */
  boardListCollapsed: each((ids: readonly number[]) => collapsedOfLists(ctx, ids)),
  /** A scoped board's milestone by id, with its owner's path. */
  boardMilestone: each(async (ids: readonly number[]) => {
    const found = new Map((await boardMilestones(ctx, ids)).map((m) => [m.milestone.id, m]));
    return ids.map((id) => found.get(id) ?? null);
  }),
});
