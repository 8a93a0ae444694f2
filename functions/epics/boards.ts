// Epics on issue boards (GitLab 13.6 EE): Board.epics (Resolvers::BoardGroupings::EpicsResolver) is the open epics of
// the board's group hierarchy the actor may read that hold an issue on the board; each carries the current user's
// collapsed preference (boards_epic_user_preferences), set by updateBoardEpicUserPreferences.
import * as q from '../../db/queries/epics/board-preferences.ts';
import { findBoardById } from '../boards/lookups.ts';
import type { BoardModel } from '../boards/models.ts';
import { assertOnParent, groupParent, projectParent, type Parent } from '../boards/service.ts';
import { findGroup } from '../groups/service.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { recordNotFound } from '../lib/errors.ts';
import { epicsAvailable } from '../lib/policy.ts';
import { findProject } from '../projects/service.ts';
import type { EpicModel } from './models.ts';
import { epicsByIds, groupEpics } from './reads.ts';

/** The group whose epics a board shows: a group board's group, a project board's group (none in a personal namespace). */
const boardGroupId = (board: BoardModel): number | null =>
  board.parent.scope.kind === 'group' ? board.parent.scope.id : (board.parent.scope.groupIds[board.parent.scope.groupIds.length - 1] ?? null);

/** Board.epics: the accessible open epics (the group's, its ancestors' and descendants') holding any of `issueIds`. */
export async function epicsOfBoard(ctx: RequestContext, board: BoardModel, issueIds: readonly number[]): Promise<EpicModel[]> {
  const groupId = boardGroupId(board);
  if (groupId === null || !issueIds.length) return [];
  const ancestorIds =
    board.parent.scope.kind === 'group' ? board.parent.scope.groupIds.filter((id) => id !== groupId) : board.parent.scope.groupIds.slice(0, -1);
  return groupEpics(ctx, { groupId, includeDescendants: true, ancestorIds, state: 'opened', issueIds }, { by: 'created_at', sort: 'desc' });
}

/** The current user's `collapsed` preference for each epic on the board (null where none is stored, or anonymous). */
export async function boardEpicPreferences(ctx: RequestContext, boardId: number, epicIds: readonly number[]): Promise<Array<{ collapsed: boolean } | null>> {
  const user = ctx.actor.user;
  if (!user) return epicIds.map(() => null);
  const rows = new Map((await q.boardEpicPreferences(ctx.db, user.id, boardId, epicIds)).map((r) => [r.epicId, r]));
  return epicIds.map((id) => {
    const row = rows.get(id);
    return row ? { collapsed: row.collapsed } : null;
  });
}

/** updateBoardEpicUserPreferences: a readable board and a readable epic (else not found), then one upsert. */
export async function setBoardEpicCollapsed({ ctx, input }: { ctx: RequestContext; input: { boardId: number; epicId: number; collapsed: boolean } }) {
  const user = requireUser(ctx);
  const board = await findBoardById(ctx.db, input.boardId);
  if (!board) throw recordNotFound();
  const parent: Parent =
    board.projectId !== null ? projectParent(await findProject(ctx, { id: board.projectId })) : groupParent(await findGroup(ctx, { id: board.groupId! }));
  assertOnParent(ctx, 'read_board', parent.owner);
  const [epic] = epicsAvailable(ctx.config.instanceTier) ? await epicsByIds(ctx, [input.epicId]) : [null];
  if (!epic) throw recordNotFound();
  const row = await q.upsertBoardEpicPreference(ctx.db, { boardId: board.id, userId: user.id, epicId: epic.view.epic.id, collapsed: input.collapsed });
  return { collapsed: row.collapsed };
}
