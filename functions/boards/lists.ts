// Board list verbs (GitLab 13.6: Boards::Lists::{Create,Move,Destroy}Service, lib/api/boards_responses.rb): REST's
// lists (the movable ones only: never backlog nor closed), and what a new list is made of and how it is inserted,
// which GraphQL's boardListCreate shares (mutations.ts).
import * as q from '../../db/queries/boards.ts';
import * as qListSources from '../../db/queries/boards/list-sources.ts';
import * as qLists from '../../db/queries/boards/lists.ts';
import { LIST_TYPES, type BoardRow, type ListRow, type ListType } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { isUniqueViolation, recordNotFound, serviceFailed, validationFailed } from '../lib/errors.ts';
import { type BoardParentInput, type Parent, readableParent, findBoardIn, assertOnParent, movableTypes, ALL_MOVABLE, licensed } from './service.ts';

type Verb<I> = { ctx: RequestContext; input: BoardParentInput & I };

// ---- Lists (REST shows the movable ones only: never backlog nor closed) ----

export async function listLists({ ctx, input }: Verb<{ boardId: number | null }>) {
  const parent = await readableParent(ctx, input);
  const board = await findBoardIn(ctx, parent, input.boardId);
  const types = movableTypes(ctx);
  return {
    fetch: (limit: number, offset: number) => qLists.listMovableLists(ctx.db, board.id, types, limit, offset),
    count: (limit: number) => qLists.countMovableLists(ctx.db, board.id, types, limit),
  };
}

async function findListIn(ctx: RequestContext, board: BoardRow, id: number | null) {
  const list = id === null ? undefined : await qLists.findListView(ctx.db, board.id, id, movableTypes(ctx));
  if (!list) throw recordNotFound();
  return list;
}

export async function getList({ ctx, input }: Verb<{ boardId: number | null; id: number | null }>) {
  const parent = await readableParent(ctx, input);
  return findListIn(ctx, await findBoardIn(ctx, parent, input.boardId), input.id);
}

/** What a new list is made of (one of them). */
export type ListTarget = { label_id?: number | undefined; milestone_id?: number | undefined; assignee_id?: number | undefined };

const LICENSE_ERRORS: Partial<Record<ListType, string>> = {
  assignee: 'Assignee lists not available with your current license',
  milestone: 'Milestone lists not available with your current license',
};

/** authorize_list_type_resource!: the label, milestone or user must be available to the board's parent (400 otherwise). */
export async function resolveTarget(ctx: RequestContext, parent: Parent, t: ListTarget) {
  if (t.label_id !== undefined) {
    if (!(await qListSources.findAvailableLabel(ctx.db, parent.scope, t.label_id))) throw serviceFailed(['Label not found!']);
    return { type: 'label', values: { labelId: t.label_id } } as const;
  }
  if (t.milestone_id !== undefined) {
    if (!(await qListSources.findAvailableMilestone(ctx.db, parent.scope, t.milestone_id))) throw serviceFailed(['Milestone not found!']);
    return { type: 'milestone', values: { milestoneId: t.milestone_id } } as const;
  }
  if (!(await qListSources.findBoardUser(ctx.db, parent.scope, t.assignee_id!))) throw serviceFailed(['User not found!']);
  return { type: 'assignee', values: { userId: t.assignee_id! } } as const;
}

/** Where a list failed GitLab's List validations: attribute -> messages. */
export class ListInvalid extends Error {
  constructor(readonly fields: Record<string, string[]>) {
    super('list invalid');
  }
}

/**
 * Boards::Lists::CreateService for a label, milestone or assignee list: appended after the movable lists. The
 * license (assignee and milestone lists are Premium) and uniqueness (one list per label, milestone or user) are the
 * model's validations: ListInvalid with its errors.
 */
export async function insertList(ctx: RequestContext, board: BoardRow, target: Awaited<ReturnType<typeof resolveTarget>>): Promise<ListRow> {
  const type = target.type;
  const license = LICENSE_ERRORS[type];
  if (license && !licensed(ctx, type === 'assignee' ? 'board_assignee_lists' : 'board_milestone_lists')) throw new ListInvalid({ list_type: [license] });
  const key = type === 'label' ? 'label_id' : type === 'milestone' ? 'milestone_id' : 'user_id';
  try {
    return await ctx.transaction(async (tx) => {
      await q.lockBoard(tx, board.id);
      return qLists.insertMovableList(tx, board.id, ALL_MOVABLE, { listType: LIST_TYPES[type], ...target.values });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ListInvalid({ [key]: ['has already been taken'] });
    throw error;
  }
}

/** POST .../lists: the list type's resource (400), admin_list (403), the board (404), then the list. */
export async function createList({ ctx, input }: Verb<{ boardId: number | null } & ListTarget>) {
  const parent = await readableParent(ctx, input);
  const target = await resolveTarget(ctx, parent, input);
  assertOnParent(ctx, 'admin_board', parent.owner);
  const board = await findBoardIn(ctx, parent, input.boardId);
  try {
    const list = await insertList(ctx, board, target);
    return (await qLists.findListView(ctx.db, board.id, list.id, ALL_MOVABLE))!;
  } catch (error) {
    if (error instanceof ListInvalid) throw validationFailed(error.fields);
    throw error;
  }
}

/** PUT .../lists/:list_id: the list (404), admin_list (403), then Boards::Lists::MoveService. */
export async function moveList({ ctx, input }: Verb<{ boardId: number | null; id: number | null; position: number }>) {
  const parent = await readableParent(ctx, input);
  const board = await findBoardIn(ctx, parent, input.boardId);
  const found = await findListIn(ctx, board, input.id);
  assertOnParent(ctx, 'admin_board', parent.owner);
  const moved = await ctx.transaction(async (tx) => {
    await q.lockBoard(tx, board.id);
    const max = await qLists.maxMovablePosition(tx, board.id, ALL_MOVABLE);
    const to = input.position;
    // valid_move?: a new position within 0..max.
    if (max === null || to === found.list.position || to < 0 || to > max) return false;
    await qLists.moveList(tx, found.list, to, ALL_MOVABLE);
    return true;
  });
  if (!moved) throw serviceFailed(['List could not be moved!']);
  return (await qLists.findListView(ctx.db, board.id, found.list.id, ALL_MOVABLE))!;
}

/** DELETE .../lists/:list_id: the list (404), admin_list (403), then the lists after it move up. */
export async function deleteList({ ctx, input }: Verb<{ boardId: number | null; id: number | null }>) {
  const parent = await readableParent(ctx, input);
  const board = await findBoardIn(ctx, parent, input.boardId);
  const found = await findListIn(ctx, board, input.id);
  assertOnParent(ctx, 'admin_board', parent.owner);
  await ctx.transaction(async (tx) => {
    await q.lockBoard(tx, board.id);
    await qLists.deleteList(tx, found.list, ALL_MOVABLE);
  });
}
