// Issue boards: a parent's boards (with their lists in one statement), creating, changing and deleting them, their
// scope (labels, assignees) and the lock the list verbs take. Their lists are in boards/lists.ts, what a list holds
// in boards/list-issues.ts, what it may be made of in boards/list-sources.ts, issue positions in issues/positions.ts.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { boardLabels, boards, labels, lists, milestones, users, LIST_TYPES, type BoardRow } from '../schema/index.ts';
import { byParent } from './lib/window.ts';
import { type ListView, milestonePathSql } from './boards/lists.ts';

/** A board's parent: a project (with its groups, root first) or a group (with its ancestors and itself). */
export type BoardParent = { kind: 'project'; id: number; groupIds: readonly number[] } | { kind: 'group'; id: number; groupIds: readonly number[] };

const parentWhere = (p: { kind: 'project' | 'group'; id: number }) => (p.kind === 'project' ? eq(boards.projectId, p.id) : eq(boards.groupId, p.id));

/** GitLab's order_by_name_asc: lower(name), then id. */
const byName = [sql`lower(${boards.name})`, asc(boards.id)];

/**
 * A page of a parent's boards (by id) with their lists of these types, in GitLab's order: one statement (the board
 * page joined with its lists, their labels, milestones and users).
 */
export async function listBoardsWithLists(
  db: Db,
  parent: BoardParent,
  types: readonly number[],
  limit: number,
  offset: number,
): Promise<Array<{ board: BoardRow; lists: ListView[] }>> {
  const page = db.select().from(boards).where(parentWhere(parent)).orderBy(asc(boards.id)).limit(limit).offset(offset).as('b');
  const found = await db
    .select({
      board: {
        id: page.id,
        projectId: page.projectId,
        groupId: page.groupId,
        name: page.name,
        milestoneId: page.milestoneId,
        weight: page.weight,
        assigneeId: page.assigneeId,
        hideBacklogList: page.hideBacklogList,
        hideClosedList: page.hideClosedList,
        createdAt: page.createdAt,
        updatedAt: page.updatedAt,
      },
      list: lists,
      label: labels,
      milestone: milestones,
      user: users,
      milestonePath: milestonePathSql,
    })
    .from(page)
    .leftJoin(lists, and(eq(lists.boardId, page.id), inArray(lists.listType, [...types])))
    .leftJoin(labels, eq(labels.id, lists.labelId))
    .leftJoin(milestones, eq(milestones.id, lists.milestoneId))
    .leftJoin(users, eq(users.id, lists.userId))
    .orderBy(asc(page.id), asc(lists.listType), asc(lists.position), asc(lists.id));
  const out: Array<{ board: BoardRow; lists: ListView[] }> = [];
  for (const r of found) {
    if (out.at(-1)?.board.id !== r.board.id) out.push({ board: r.board, lists: [] });
    if (r.list) out.at(-1)!.lists.push({ list: r.list, label: r.label, milestone: r.milestone, user: r.user, milestonePath: r.milestonePath });
  }
  return out;
}

export async function countBoards(db: Db, parent: BoardParent, limit: number): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(
    db
      .select({ one: sql`1` })
      .from(boards)
      .where(parentWhere(parent))
      .limit(limit)
      .as('counted'),
  );
  return row?.n ?? 0;
}

/** A parent's boards by name (GitLab's order_by_name_asc: lower(name), then id). */
export function listBoardsByName(db: Db, parent: { kind: 'project' | 'group'; id: number }): Promise<BoardRow[]> {
  return db
    .select()
    .from(boards)
    .where(parentWhere(parent))
    .orderBy(...byName);
}

export async function findBoard(db: Db, parent: { kind: 'project' | 'group'; id: number }, id: number): Promise<BoardRow | undefined> {
  const [row] = await db
    .select()
    .from(boards)
    .where(and(parentWhere(parent), eq(boards.id, id)));
  return row;
}

export async function findBoardById(db: Db, id: number): Promise<BoardRow | undefined> {
  const [row] = await db.select().from(boards).where(eq(boards.id, id));
  return row;
}

/** Boards::CreateService: the board, then its backlog and closed lists (position null), in the caller's transaction. */
export async function insertBoard(tx: Db, parent: BoardParent, name: string): Promise<BoardRow> {
  const [board] = await tx
    .insert(boards)
    .values({ name, projectId: parent.kind === 'project' ? parent.id : null, groupId: parent.kind === 'group' ? parent.id : null })
    .returning();
  await tx.insert(lists).values([
    { boardId: board!.id, listType: LIST_TYPES.backlog },
    { boardId: board!.id, listType: LIST_TYPES.closed },
  ]);
  return board!;
}

export async function updateBoard(
  db: Db,
  id: number,
  values: Partial<Pick<BoardRow, 'name' | 'milestoneId' | 'weight' | 'assigneeId' | 'hideBacklogList' | 'hideClosedList'>>,
): Promise<BoardRow> {
  const [row] = await db
    .update(boards)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(boards.id, id))
    .returning();
  return row!;
}

/** Boards::DestroyService: never the parent's last board (GitLab refuses silently). */
export async function deleteBoardUnlessLast(db: Db, parent: BoardParent, id: number): Promise<void> {
  await db
    .delete(boards)
    .where(
      and(
        eq(boards.id, id),
        sql`(SELECT count(*) FROM ${boards} b WHERE ${parent.kind === 'project' ? sql`b.project_id` : sql`b.group_id`} = ${parent.id}) > 1`,
      ),
    );
}

/** A scoped board's labels become exactly these (board_labels). */
export async function setBoardLabels(tx: Db, boardId: number, labelIds: readonly number[]) {
  await tx.delete(boardLabels).where(eq(boardLabels.boardId, boardId));
  if (labelIds.length)
    await tx
      .insert(boardLabels)
      .values([...new Set(labelIds)].map((labelId) => ({ boardId, labelId })))
      .onConflictDoNothing();
}

/** The scope labels of each board (by title), and the scope assignees by id: two queries, none without boards. */
export async function boardScopes(db: Db, boardIds: readonly number[], assigneeIds: readonly number[]) {
  const [found, assignees] = await Promise.all([
    boardIds.length
      ? db
          .select({ boardId: boardLabels.boardId, label: labels })
          .from(boardLabels)
          .innerJoin(labels, eq(labels.id, boardLabels.labelId))
          .where(inArray(boardLabels.boardId, [...boardIds]))
          .orderBy(asc(labels.title), asc(labels.id))
      : Promise.resolve([]),
    assigneeIds.length
      ? db
          .select()
          .from(users)
          .where(inArray(users.id, [...new Set(assigneeIds)]))
      : Promise.resolve([]),
  ]);
  return { labels: byParent(boardIds, found, (r) => r.boardId).map((rs) => rs.map((r) => r.label)), assignees: new Map(assignees.map((u) => [u.id, u])) };
}

/** User.find_by(id:) (any user). */
export async function findUserById(db: Db, id: number) {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, id));
  return row;
}

export async function lockBoard(tx: Db, id: number) {
  await tx.execute(sql`SELECT 1 FROM ${boards} WHERE ${boards.id} = ${id} FOR UPDATE`);
}
