// Batched board reads for GraphQL (loaders.ts wraps them): the lists of many boards in one query, the issues
// of many lists in one statement per board parent and filter set, whatever the number of lists.
import * as q from '../../db/queries/boards.ts';
import * as qListIssues from '../../db/queries/boards/list-issues.ts';
import * as qListSources from '../../db/queries/boards/list-sources.ts';
import * as qLists from '../../db/queries/boards/lists.ts';
import type { IssueView } from '../../db/queries/issues.ts';
import { findIssueViewsByIds } from '../issues/lookups.ts';
import { LIST_TYPES, type ListRow } from '../../db/schema/index.ts';
import { issueFilter } from '../issues/filter.ts';
import type { RequestContext } from '../lib/context.ts';
import { weightsAvailable } from '../lib/policy.ts';
import { boardIssueExtra, boardIssueParams, type BoardIssueFilters } from './issue-filters.ts';
import type { BoardListModel, BoardModel } from './models.ts';
import { licensed, movableTypes, type Parent } from './service.ts';

/**
 * The boards of a parent by name (BoardsResolver), or the one with `id`: all of them where multiple boards are
 * available (projects; groups on Premium), else only the first.
 */
export async function boardsOf(ctx: RequestContext, parent: Parent, id: number | undefined): Promise<BoardModel[]> {
  const found = await q.listBoardsByName(ctx.db, parent.scope);
  const available = parent.scope.kind === 'project' || licensed(ctx, 'multiple_group_issue_boards') ? found : found.slice(0, 1);
  return available.filter((b) => id === undefined || b.id === id).map((board) => ({ board, parent }));
}

/**
 * The lists of each board GraphQL shows (Boards::Lists::ListService, EE): backlog unless hidden, label lists, closed
 * unless hidden, and the assignee and milestone lists when licensed; in GitLab's order. One query.
 */
export async function listsOfBoards(ctx: RequestContext, found: readonly BoardModel[]): Promise<Array<Omit<BoardListModel, 'issueFilters'>[]>> {
  const types = [LIST_TYPES.backlog, LIST_TYPES.closed, ...movableTypes(ctx)];
  const all = await qLists.listsOfBoards(
    ctx.db,
    found.map((b) => b.board.id),
    types,
  );
  return found.map((board, i) => {
    const views = all[i]!;
    const siblings = views.map((v) => v.list).filter((l) => l.listType !== LIST_TYPES.backlog && l.listType !== LIST_TYPES.closed);
    const hidden = (l: ListRow) =>
      (l.listType === LIST_TYPES.backlog && board.board.hideBacklogList) || (l.listType === LIST_TYPES.closed && board.board.hideClosedList);
    return views.filter((v) => !hidden(v.list)).map((view) => ({ view, board, siblings }));
  });
}

export interface ListIssuesKey {
  list: Pick<BoardListModel, 'view' | 'board' | 'siblings'>;
  filters: BoardIssueFilters | null;
}

/**
 * The issues of each list (ids in board order, count, total weight) as the actor may see them, through the issues
 * finder's filter: one statement per distinct (board parent, filters) among the keys.
 */
export async function issuesOfLists(ctx: RequestContext, keys: readonly ListIssuesKey[]): Promise<qListIssues.ListIssues[]> {
  const out = new Array<qListIssues.ListIssues>(keys.length);
  const groups = new Map<string, number[]>();
  keys.forEach((k, i) => {
    const s = k.list.board.parent.scope;
    const key = JSON.stringify([s.kind, s.id, k.filters]);
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  await Promise.all(
    [...groups.values()].map(async (at) => {
      const first = keys[at[0]!]!;
      const scope = first.list.board.parent.scope;
      const filter = issueFilter(ctx, scope.kind, boardIssueParams(first.filters));
      const empty = { ids: [], count: 0, totalWeight: 0 };
      const found = filter
        ? await qListIssues.issuesOfLists(
            ctx.db,
            ctx.actor,
            { ...filter, ...(scope.kind === 'project' ? { projectId: scope.id } : { groupId: scope.id }) },
            boardIssueExtra(first.filters, ctx.actor.user?.id ?? null, weightsAvailable(ctx.config.instanceTier)),
            at.map((i) => ({ list: keys[i]!.list.view.list, siblings: keys[i]!.list.siblings })),
          )
        : at.map(() => empty);
      at.forEach((i, j) => (out[i] = found[j]!));
    }),
  );
  return out;
}

/** Issue views by id, in the order asked (null where the actor may not see one). */
export async function issueViewsByIds(ctx: RequestContext, ids: readonly number[]): Promise<Array<IssueView | null>> {
  const found = new Map((await findIssueViewsByIds(ctx.db, ctx.actor, ids)).map((v) => [v.issue.id, v]));
  return ids.map((id) => found.get(id) ?? null);
}

/** `collapsed` of each list for the current user (false when anonymous or unset). */
export async function collapsedOfLists(ctx: RequestContext, listIds: readonly number[]): Promise<boolean[]> {
  const user = ctx.actor.user;
  return user ? qLists.collapsedOfLists(ctx.db, user.id, listIds) : listIds.map(() => false);
}

/** Milestones by id with their owner's path (a scoped board's milestone). */
export const boardMilestones = (ctx: RequestContext, ids: readonly number[]) => qListSources.milestonesByIds(ctx.db, ids);
