// issueMoveList (13.6 Mutations::Boards::Issues::IssueMoveList, Boards::Issues::MoveService): an issue moves between
// two lists of a board by the changes the lists stand for (labels swapped, closed or reopened, EE assignee and
// milestone), made through the issues service's update verb, and/or between two issues (relative_position).
import * as q from '../../db/queries/boards.ts';
import * as qLists from '../../db/queries/boards/lists.ts';
import { issuePositions, maxRelativePosition } from '../issues/lookups.ts';
import { setRelativePosition } from '../issues/statements.ts';
import { LIST_TYPES, type ListRow } from '../../db/schema/index.ts';
import { UpdateIssueInput } from '../issues/schemas.ts';
import { findIssue } from '../issues/service.ts';
import { updateIssue } from '../issues/update.ts';
import type { RequestContext } from '../lib/context.ts';
import { recordNotFound } from '../lib/errors.ts';
import { assertCan } from '../lib/policy.ts';
import { issueFacts } from '../issues/service.ts';
import { findGroup } from '../groups/service.ts';
import { findProject } from '../projects/service.ts';
import { assertOnParent, groupParent, movableTypes, projectParent } from './service.ts';

export interface MoveInput {
  boardId: number;
  projectPath: string;
  iid: number | null;
  fromListId?: number | null | undefined;
  toListId?: number | null | undefined;
  moveBeforeId?: number | null | undefined;
  moveAfterId?: number | null | undefined;
}

/** RelativePositioning's gap between neighbours placed one after the other. */
const IDEAL_DISTANCE = 500;

const isMovable = (l: ListRow) => l.listType !== LIST_TYPES.backlog && l.listType !== LIST_TYPES.closed;

/** Boards::Issues::MoveService#issue_params (with EE's assignee and milestone lists). */
async function listChanges(ctx: RequestContext, boardId: number, from: ListRow, to: ListRow, assigneeIds: readonly number[]) {
  const [lists = []] = await qLists.listsOfBoards(ctx.db, [boardId], [LIST_TYPES.label, ...movableTypes(ctx)]);
  const title = (l: ListRow) => lists.find((v) => v.list.id === l.id)?.label?.title;
  const params: Record<string, unknown> = {};
  const add = to.listType === LIST_TYPES.label ? [title(to)!] : [];
  // To a movable list: the source list's label goes; to backlog or closed: every label list's label. EE keeps labels
  // when moving between lists of different types.
  let remove = isMovable(to) ? (from.listType === LIST_TYPES.label ? [title(from)!] : []) : lists.filter((v) => v.label).map((v) => v.label!.title);
  if (isMovable(to) && from.listType !== to.listType) remove = [];
  if (add.length) params.add_labels = add;
  if (remove.length) params.remove_labels = remove.filter((t) => !add.includes(t));
  if (from.listType === LIST_TYPES.closed) params.state_event = 'reopen';
  if (to.listType === LIST_TYPES.closed) params.state_event = 'close';
  const visible = (l: ListRow) => lists.some((v) => v.list.id === l.id);
  if (to.listType === LIST_TYPES.assignee && visible(to)) {
    const drop = from.listType === LIST_TYPES.assignee ? from.userId : null;
    params.assignee_ids = [...new Set([...assigneeIds.filter((id) => id !== drop), to.userId!])];
  } else if (from.listType === LIST_TYPES.assignee && visible(from) && to.listType === LIST_TYPES.backlog) {
    params.assignee_ids = assigneeIds.filter((id) => id !== from.userId);
  }
  if (to.listType === LIST_TYPES.milestone && visible(to)) params.milestone_id = to.milestoneId;
  else if (from.listType === LIST_TYPES.milestone && visible(from) && to.listType === LIST_TYPES.backlog) params.milestone_id = 0;
  return params;
}

/**
 * RelativePositioning#move_between: after `after`'s issue and before `before`'s, at the midpoint, or IDEAL_DISTANCE
 * beyond a single neighbour; a neighbour without a position is first placed at the end of the project's issues.
 */
async function reposition(ctx: RequestContext, projectId: number, issueId: number, afterId: number | null, beforeId: number | null) {
  const ids = [afterId, beforeId].filter((id): id is number => id !== null);
  await ctx.transaction(async (tx) => {
    const found = new Map((await issuePositions(tx, projectId, ids)).map((r) => [r.id, r.relativePosition]));
    let end = await maxRelativePosition(tx, projectId);
    const positionOf = async (id: number | null) => {
      if (id === null || !found.has(id)) return null;
      const known = found.get(id);
      if (known !== null && known !== undefined) return known;
      end = (end ?? 0) + IDEAL_DISTANCE;
      await setRelativePosition(tx, id, end);
      return end;
    };
    const after = await positionOf(afterId);
    const before = await positionOf(beforeId);
    const position =
      after !== null && before !== null
        ? Math.floor((after + before) / 2)
        : after !== null
          ? after + IDEAL_DISTANCE
          : before !== null
            ? before - IDEAL_DISTANCE
            : null;
    if (position !== null) await setRelativePosition(tx, issueId, position);
  });
}

/** The board must be readable, the issue updatable (else GitLab's resource error); unknown lists are ignored. */
export async function moveIssue(ctx: RequestContext, input: MoveInput) {
  const board = await q.findBoardById(ctx.db, input.boardId);
  if (!board) throw recordNotFound();
  const parent =
    board.projectId !== null ? projectParent(await findProject(ctx, { id: board.projectId })) : groupParent(await findGroup(ctx, { id: board.groupId! }));
  assertOnParent(ctx, 'read_board', parent.owner);
  const ref = { project: { path: input.projectPath }, iid: input.iid };
  const { project, view } = await findIssue(ctx, ref);
  assertCan(ctx.actor, 'issue:update', issueFacts(project, view));
  const listOf = async (id: number | null | undefined) => {
    if (id == null) return undefined;
    const found = await qLists.findListWithBoard(ctx.db, id);
    return found?.board.id === board.id ? found.list : undefined;
  };
  const [from, to] = [await listOf(input.fromListId), await listOf(input.toListId)];
  if (from && to && from.id !== to.id) {
    const params = await listChanges(
      ctx,
      board.id,
      from,
      to,
      view.assignees.map((a) => a.id),
    );
    if (Object.keys(params).length) await updateIssue({ ctx, input: { ...ref, params: UpdateIssueInput().parse(params) } });
  }
  const positive = (id: number | null | undefined) => (id != null && id > 0 ? id : null);
  const [afterId, beforeId] = [positive(input.moveAfterId), positive(input.moveBeforeId)];
  if (afterId !== null || beforeId !== null) await reposition(ctx, project.project.id, view.issue.id, afterId, beforeId);
  const reloaded = await findIssue(ctx, ref);
  return { project: reloaded.project, view: reloaded.view };
}
