// Issue board verbs (GitLab 13.6 EE: lib/api/boards.rb, group_boards.rb, ee/lib/ee/api/boards_responses.rb,
// Boards::{Create,Update,Destroy}Service, Boards::Lists::{Create,Move,Destroy,Update}Service). Every REST endpoint wants
// a signed-in user; reads need read_board (reading the parent), changes admin_board/admin_list (reporters and above).
// License features follow the instance's tier (lib/policy.ts boardFeatureAvailable); a free instance is GitLab Core.
// This file: the board parent (a project or group, read under the policy), licensing, board views and the board verbs;
// the list verbs are in lists.ts.
import type { Db } from '../../db/client.ts';
import * as q from '../../db/queries/boards.ts';
import * as qListSources from '../../db/queries/boards/list-sources.ts';
import * as qLists from '../../db/queries/boards/lists.ts';
import { findGroupLabelsByTitles } from '../epics/lookups.ts';
import { DEFAULT_LABEL_COLOR } from '../labels/lookups.ts';
import { findOrCreateProjectLabels, insertLabel } from '../labels/statements.ts';
import type { GroupView } from '../../db/queries/groups.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { LIST_TYPES, type BoardRow } from '../../db/schema/index.ts';
import { findGroup, groupFacts } from '../groups/service.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { forbidden, invalidRecord, recordNotFound, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, boardFeatureAvailable, can, type BoardFeature } from '../lib/policy.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import type { BoardOwner, BoardView } from './schemas.ts';

export interface BoardParentInput {
  kind: 'project' | 'group';
  ref: Ref | null;
}
type Verb<I> = { ctx: RequestContext; input: BoardParentInput & I };

/** A readable board parent: its entity view, what the queries scope by. */
export interface Parent {
  owner: BoardOwner;
  scope: q.BoardParent;
}

export const projectParent = (view: ProjectView): Parent => ({
  owner: { kind: 'project', view },
  scope: { kind: 'project', id: view.project.id, groupIds: view.namespace.kind === 'group' ? view.namespace.traversalIds : [] },
});

export const groupParent = (view: GroupView): Parent => ({
  owner: { kind: 'group', view },
  scope: { kind: 'group', id: view.namespace.id, groupIds: view.namespace.traversalIds },
});

export const licensed = (ctx: RequestContext, feature: BoardFeature) => boardFeatureAvailable(ctx.config.instanceTier, feature);

export function assertOnParent(ctx: RequestContext, ability: 'read_board' | 'admin_board', owner: BoardOwner) {
  if (owner.kind === 'project') assertCan(ctx.actor, `project:${ability}`, projectFacts(owner.view));
  else assertCan(ctx.actor, `group:${ability}`, groupFacts(owner.view));
}

/** Whether the actor has this ability on the board's parent (no error). */
export function canOnParent(ctx: RequestContext, ability: 'read_board' | 'admin_board', owner: BoardOwner): boolean {
  return owner.kind === 'project' ? can(ctx.actor, `project:${ability}`, projectFacts(owner.view)) : can(ctx.actor, `group:${ability}`, groupFacts(owner.view));
}

/** `user_project` / `user_group` (404 when hidden), then read_board. */
export async function readableParent(ctx: RequestContext, input: BoardParentInput): Promise<Parent> {
  requireUser(ctx);
  const parent = input.kind === 'project' ? projectParent(await findProject(ctx, input.ref)) : groupParent(await findGroup(ctx, input.ref));
  assertOnParent(ctx, 'read_board', parent.owner);
  return parent;
}

/** List types a board shows as movable lists: labels (Core), assignees and milestones (Premium). */
export function movableTypes(ctx: RequestContext): number[] {
  const types: number[] = [LIST_TYPES.label];
  if (licensed(ctx, 'board_assignee_lists')) types.push(LIST_TYPES.assignee);
  if (licensed(ctx, 'board_milestone_lists')) types.push(LIST_TYPES.milestone);
  return types;
}

/** Every list type GitLab keeps in the movable sequence, licensed or not (positions never collide). */
export const ALL_MOVABLE = [LIST_TYPES.label, LIST_TYPES.assignee, LIST_TYPES.milestone];

/** Boards with their lists, and (scoped boards, when licensed) their milestones, assignees and labels: three queries, none without the license. */
async function withMilestones(ctx: RequestContext, found: ReadonlyArray<{ board: BoardRow; lists: qLists.ListView[] }>): Promise<BoardView[]> {
  const scoped = licensed(ctx, 'scoped_issue_board');
  const milestoneIds = scoped ? found.map((b) => b.board.milestoneId).filter((id): id is number => id !== null && id > 0) : [];
  const assigneeIds = scoped ? found.map((b) => b.board.assigneeId).filter((id): id is number => id !== null) : [];
  const [milestoneRows, scopes] = await Promise.all([
    qListSources.milestonesByIds(ctx.db, milestoneIds),
    q.boardScopes(ctx.db, scoped ? found.map((b) => b.board.id) : [], assigneeIds),
  ]);
  const milestones = new Map(milestoneRows.map((m) => [m.milestone.id, m]));
  return found.map(({ board, lists }, i) => ({
    board,
    lists,
    milestone: scoped && board.milestoneId !== null ? (milestones.get(board.milestoneId) ?? null) : null,
    assignee: scoped && board.assigneeId !== null ? (scopes.assignees.get(board.assigneeId) ?? null) : null,
    labels: scoped ? (scopes.labels[i] ?? []) : [],
  }));
}

/** The entities' views of these boards (their movable lists: one query). */
async function boardViews(ctx: RequestContext, found: readonly BoardRow[]): Promise<BoardView[]> {
  const lists = await qLists.listsOfBoards(
    ctx.db,
    found.map((b) => b.id),
    movableTypes(ctx),
  );
  return withMilestones(
    ctx,
    found.map((board, i) => ({ board, lists: lists[i]! })),
  );
}

// ---- Boards ----

export async function listBoards({ ctx, input }: Verb<object>) {
  const parent = await readableParent(ctx, input);
  return {
    owner: parent.owner,
    fetch: async (limit: number, offset: number) => withMilestones(ctx, await q.listBoardsWithLists(ctx.db, parent.scope, movableTypes(ctx), limit, offset)),
    count: (limit: number) => q.countBoards(ctx.db, parent.scope, limit),
  };
}

export async function findBoardIn(ctx: RequestContext, parent: Parent, id: number | null): Promise<BoardRow> {
  const board = id === null ? undefined : await q.findBoard(ctx.db, parent.scope, id);
  if (!board) throw recordNotFound();
  return board;
}

export async function getBoard({ ctx, input }: Verb<{ id: number | null }>) {
  const parent = await readableParent(ctx, input);
  const board = await findBoardIn(ctx, parent, input.id);
  return { owner: parent.owner, view: (await boardViews(ctx, [board]))[0]! };
}

/**
 * create_board: multiple project boards are Core; a group's second board needs Premium (Boards::CreateService's
 * `parent.boards.empty? || multiple_issue_boards_available?`), else 403. The backlog and closed lists come with it.
 */
export async function createBoard({ ctx, input }: Verb<{ name: string }>) {
  const parent = await readableParent(ctx, input);
  assertOnParent(ctx, 'admin_board', parent.owner);
  const name = input.name.trim();
  if (name === '') throw validationFailed({ name: ["can't be blank"] });
  const board = await ctx.transaction(async (tx) => {
    if (parent.scope.kind === 'group' && !licensed(ctx, 'multiple_group_issue_boards') && (await q.countBoards(tx, parent.scope, 1)) > 0) throw forbidden();
    return q.insertBoard(tx, parent.scope, name);
  });
  return { owner: parent.owner, view: (await boardViews(ctx, [board]))[0]! };
}

/** GitLab's special board milestone ids (None, Upcoming, Started) are kept as they are; others must be available. */
const SPECIAL_MILESTONE_IDS = new Set([0, -2, -3]);

/**
 * update_board (EE Boards::UpdateService): the scope applies only with scoped_issue_board. set_milestone: GitLab's
 * special ids stay, other milestones must be the parent's (else unset); set_assignee: any user by id (else unset);
 * set_labels: the titles as available labels, missing ones created in the parent (Labels::FindOrCreateService).
 */
export async function updateBoard({
  ctx,
  input,
}: Verb<{
  id: number | null;
  name?: string | undefined;
  assignee_id?: number | undefined;
  milestone_id?: number | undefined;
  labels?: string[] | undefined;
  weight?: number | undefined;
}>) {
  const parent = await readableParent(ctx, input);
  assertOnParent(ctx, 'admin_board', parent.owner);
  const board = await findBoardIn(ctx, parent, input.id);
  const changes: Parameters<typeof q.updateBoard>[2] = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (name === '') throw invalidRecord('Failed to save board', { name: ["can't be blank"] }, 'bad_request');
    changes.name = name;
  }
  if (licensed(ctx, 'scoped_issue_board')) {
    const m = input.milestone_id;
    if (m !== undefined)
      changes.milestoneId = SPECIAL_MILESTONE_IDS.has(m) ? m : ((await qListSources.findAvailableMilestone(ctx.db, parent.scope, m))?.id ?? null);
    if (input.weight !== undefined) changes.weight = input.weight;
    if (input.assignee_id !== undefined) changes.assigneeId = (await q.findUserById(ctx.db, input.assignee_id))?.id ?? null;
  }
  const titles = licensed(ctx, 'scoped_issue_board') ? input.labels : undefined;
  const updated = await ctx.transaction(async (tx) => {
    if (titles !== undefined) await q.setBoardLabels(tx, board.id, await scopeLabelIds(tx, parent, titles));
    return Object.keys(changes).length ? q.updateBoard(tx, board.id, changes) : board;
  });
  return { owner: parent.owner, view: (await boardViews(ctx, [updated]))[0]! };
}

/** AvailableLabelsService#find_or_create_by_titles for a board's parent: its labels by title, missing ones created. */
async function scopeLabelIds(tx: Db, parent: Parent, titles: readonly string[]): Promise<number[]> {
  const wanted = [...new Set(titles)].filter((t) => t.length > 0);
  if (!wanted.length) return [];
  if (parent.scope.kind === 'project') return (await findOrCreateProjectLabels(tx, parent.scope.id, wanted)).map((l) => l.id);
  const groupId = parent.scope.id;
  const found = await findGroupLabelsByTitles(tx, parent.scope.groupIds, wanted);
  const ids: number[] = [];
  for (const title of wanted) {
    const known = found.find((l) => l.title === title && l.groupId === groupId) ?? found.find((l) => l.title === title);
    if (known) ids.push(known.id);
    else {
      const created = await insertLabel(tx, { kind: 'group', groupId, groupIds: [] }, { title, color: DEFAULT_LABEL_COLOR, description: null, priority: null });
      const again = created ?? (await findGroupLabelsByTitles(tx, [groupId], [title]))[0];
      if (again) ids.push(again.id);
    }
  }
  return ids;
}

/** delete_board: a group's boards need Premium (403); Boards::DestroyService keeps the last board without a word. */
export async function deleteBoard({ ctx, input }: Verb<{ id: number | null }>) {
  const parent = await readableParent(ctx, input);
  assertOnParent(ctx, 'admin_board', parent.owner);
  if (parent.scope.kind === 'group' && !licensed(ctx, 'multiple_group_issue_boards')) throw forbidden();
  const board = await findBoardIn(ctx, parent, input.id);
  await q.deleteBoardUnlessLast(ctx.db, parent.scope, board.id);
}
