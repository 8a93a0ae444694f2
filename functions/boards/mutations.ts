// boardListCreate and boardListUpdateLimitMetrics (13.6 Mutations::Boards::Lists::Create, EE UpdateLimitMetrics):
// the board or list must be one the actor may admin (admin_list; else GraphQL's resource error), refusals are the
// payload's errors as ActiveModel full messages.
import * as q from '../../db/queries/boards.ts';
import * as qLists from '../../db/queries/boards/lists.ts';
import type { BoardRow, ListRow } from '../../db/schema/index.ts';
import { findGroup } from '../groups/service.ts';
import type { RequestContext } from '../lib/context.ts';
import { DomainError, recordNotFound } from '../lib/errors.ts';
import { findProject } from '../projects/service.ts';
import type { BoardListModel, BoardModel } from './models.ts';
import { listsOfBoards } from './reads.ts';
import { insertList, ListInvalid, resolveTarget } from './lists.ts';
import { ALL_MOVABLE, assertOnParent, canOnParent, groupParent, licensed, projectParent, type Parent } from './service.ts';

/** The board's parent as the actor may read it (404 otherwise), and admin_list on it (403). */
async function adminBoard(ctx: RequestContext, board: BoardRow | undefined): Promise<BoardModel> {
  if (!board) throw recordNotFound();
  const parent: Parent =
    board.projectId !== null ? projectParent(await findProject(ctx, { id: board.projectId })) : groupParent(await findGroup(ctx, { id: board.groupId! }));
  assertOnParent(ctx, 'admin_board', parent.owner);
  return { board, parent };
}

/** Rails' human attribute names in full messages: `label_id` -> "Label", `list_type` -> "List type". */
const fullMessages = (fields: Record<string, string[]>) =>
  Object.entries(fields).flatMap(([k, ms]) => {
    const name = k.replace(/_id$/, '').replace(/_/g, ' ');
    return ms.map((m) => `${name[0]!.toUpperCase()}${name.slice(1)} ${m}`);
  });

async function listModel(ctx: RequestContext, board: BoardModel, list: ListRow): Promise<BoardListModel | null> {
  const [lists = []] = await listsOfBoards(ctx, [board]);
  const found = lists.find((l) => l.view.list.id === list.id);
  if (found) return { ...found, issueFilters: null };
  const view = await qLists.findListView(ctx.db, board.board.id, list.id, [list.listType]);
  return view ? { view, board, siblings: lists[0]?.siblings ?? [], issueFilters: null } : null;
}

export interface ListPayload {
  list: BoardListModel | null;
  errors: string[];
}

/**
 * Boards::Lists::CreateService: the backlog (the existing one, or a new one), or a label, milestone or assignee list
 * after the others. An unavailable label, milestone or user is GitLab's ArgumentError: `argumentError`.
 */
export async function createBoardList(
  ctx: RequestContext,
  input: { boardId: number; backlog?: boolean | null; labelId?: number | null; milestoneId?: number | null; assigneeId?: number | null },
): Promise<ListPayload | { argumentError: string }> {
  const board = await adminBoard(ctx, await q.findBoardById(ctx.db, input.boardId));
  if (input.backlog != null) {
    const existing = await qLists.findBacklogList(ctx.db, board.board.id);
    const list = existing ?? (await ctx.transaction((tx) => qLists.insertBacklogList(tx, board.board.id)));
    return { list: await listModel(ctx, board, list), errors: [] };
  }
  let target;
  try {
    target = await resolveTarget(ctx, board.parent, {
      label_id: input.labelId ?? undefined,
      milestone_id: input.milestoneId ?? undefined,
      assignee_id: input.assigneeId ?? undefined,
    });
  } catch (error) {
    if (error instanceof DomainError && error.problem.code === 'invalid' && error.problem.kind === 'service')
      return { argumentError: error.problem.messages.join(', ') };
    throw error;
  }
  try {
    return { list: await listModel(ctx, board, await insertList(ctx, board.board, target)), errors: [] };
  } catch (error) {
    if (error instanceof ListInvalid) return { list: null, errors: fullMessages(error.fields) };
    throw error;
  }
}

/**
 * EE Boards::Lists::UpdateService#update_max_limits: with the wip_limits license, max_issue_count and max_issue_weight
 * when given (0: no limit), limit_metric when given (null clears it); both limits must be whole and >= 0.
 */
export async function updateListLimits(
  ctx: RequestContext,
  input: {
    listId: number;
    limitMetric?: 'all_metrics' | 'issue_count' | 'issue_weights' | null;
    maxIssueCount?: number | null;
    maxIssueWeight?: number | null;
  },
): Promise<ListPayload> {
  const found = await qLists.findListWithBoard(ctx.db, input.listId);
  const board = await adminBoard(ctx, found?.board);
  const list = found!.list;
  if (!licensed(ctx, 'wip_limits')) return { list: null, errors: ['The update was not successful.'] };
  const errors: Record<string, string[]> = {};
  for (const [key, value] of [
    ['max_issue_count', input.maxIssueCount],
    ['max_issue_weight', input.maxIssueWeight],
  ] as const) {
    if (value != null && value < 0) errors[key] = ['must be greater than or equal to 0'];
  }
  if (Object.keys(errors).length) return { list: null, errors: fullMessages(errors) };
  const changes: Parameters<typeof qLists.updateListLimits>[2] = {};
  if (input.maxIssueCount != null) changes.maxIssueCount = input.maxIssueCount;
  if (input.maxIssueWeight != null) changes.maxIssueWeight = input.maxIssueWeight;
  if (input.limitMetric !== undefined) changes.limitMetric = input.limitMetric;
  const updated = await qLists.updateListLimits(ctx.db, list.id, changes);
  return { list: await listModel(ctx, board, updated), errors: [] };
}

/**
 * updateBoardList (13.6 Mutations::Boards::Lists::Update, Boards::Lists::UpdateService): the list must be on a board
 * the actor may read (else the resource error). `collapsed` is the caller's own preference (read_list); `position`
 * moves a movable list (admin_list, Boards::Lists::MoveService's valid_move?). The payload carries the list only
 * when something was updated (the service's error otherwise has no model errors: `errors` stays empty).
 */
export async function updateBoardList(
  ctx: RequestContext,
  input: { listId: number; position?: number | null; collapsed?: boolean | null },
): Promise<ListPayload> {
  const found = await qLists.findListWithBoard(ctx.db, input.listId);
  if (!found) throw recordNotFound();
  const { board } = found;
  const parent: Parent =
    board.projectId !== null ? projectParent(await findProject(ctx, { id: board.projectId })) : groupParent(await findGroup(ctx, { id: board.groupId! }));
  assertOnParent(ctx, 'read_board', parent.owner);
  const model: BoardModel = { board, parent };
  const user = ctx.actor.user;
  let updated = false;
  if (input.collapsed !== undefined && user) {
    await qLists.setListCollapsed(ctx.db, user.id, found.list.id, input.collapsed);
    updated = true;
  }
  const movable = ALL_MOVABLE.includes(found.list.listType as (typeof ALL_MOVABLE)[number]);
  if (input.position !== undefined && movable && canOnParent(ctx, 'admin_board', parent.owner)) {
    const to = input.position;
    const moved = await ctx.transaction(async (tx) => {
      await q.lockBoard(tx, board.id);
      const list = (await qLists.findListWithBoard(tx, found.list.id))!.list;
      const max = await qLists.maxMovablePosition(tx, board.id, ALL_MOVABLE);
      if (to == null || max === null || to === list.position || to < 0 || to > max) return false;
      await qLists.moveList(tx, list, to, ALL_MOVABLE);
      return true;
    });
    updated ||= moved;
  }
  if (!updated) return { list: null, errors: [] };
  const reloaded = (await qLists.findListWithBoard(ctx.db, found.list.id))!.list;
  return { list: await listModel(ctx, model, reloaded), errors: [] };
}
