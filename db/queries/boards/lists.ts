// A board's lists. They come out as GitLab orders them (list_type, then position); movable lists (label, assignee,
// milestone) share one 0-based contiguous position sequence per board, kept by the insert, move and delete here.
import { and, asc, eq, gt, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { boards, labels, lists, listUserPreferences, milestones, namespaces, projects, users, LIST_TYPES, type ListRow } from '../../schema/index.ts';
import { byParent } from '../lib/window.ts';

/** A list with what its entity shows: the label, the milestone (with its owner's path), the user. */
export interface ListView {
  list: ListRow;
  label: typeof labels.$inferSelect | null;
  milestone: typeof milestones.$inferSelect | null;
  user: typeof users.$inferSelect | null;
  /** The milestone's project path_with_namespace or group full path (its web_url). */
  milestonePath: string | null;
}

export const milestonePathSql = sql<
  string | null
>`COALESCE((SELECT p.path_with_namespace FROM ${projects} p WHERE p.id = ${milestones.projectId}), (SELECT n.full_path FROM ${namespaces} n WHERE n.id = ${milestones.groupId}))`;

const listViewQuery = (db: Db) =>
  db
    .select({
      list: lists,
      label: labels,
      milestone: milestones,
      user: users,
      milestonePath: milestonePathSql,
    })
    .from(lists)
    .leftJoin(labels, eq(labels.id, lists.labelId))
    .leftJoin(milestones, eq(milestones.id, lists.milestoneId))
    .leftJoin(users, eq(users.id, lists.userId));

/** The lists of each board, of these types, in GitLab's order (list_type, position). */
export async function listsOfBoards(db: Db, boardIds: readonly number[], types: readonly number[]): Promise<ListView[][]> {
  if (!boardIds.length) return [];
  const found = await listViewQuery(db)
    .where(and(inArray(lists.boardId, [...boardIds]), inArray(lists.listType, [...types])))
    .orderBy(asc(lists.listType), asc(lists.position), asc(lists.id));
  return byParent(boardIds, found, (r) => r.list.boardId);
}

/** The movable lists of a board in GitLab's order, paged (REST's destroyable_lists). */
export function listMovableLists(db: Db, boardId: number, types: readonly number[], limit: number, offset: number) {
  return listViewQuery(db)
    .where(and(eq(lists.boardId, boardId), inArray(lists.listType, [...types])))
    .orderBy(asc(lists.listType), asc(lists.position), asc(lists.id))
    .limit(limit)
    .offset(offset);
}

export async function countMovableLists(db: Db, boardId: number, types: readonly number[], limit: number): Promise<number> {
  const inner = db
    .select({ one: sql`1` })
    .from(lists)
    .where(and(eq(lists.boardId, boardId), inArray(lists.listType, [...types])))
    .limit(limit);
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(inner.as('counted'));
  return row?.n ?? 0;
}

export async function findListView(db: Db, boardId: number, id: number, types: readonly number[]): Promise<ListView | undefined> {
  const [row] = await listViewQuery(db).where(and(eq(lists.boardId, boardId), eq(lists.id, id), inArray(lists.listType, [...types])));
  return row;
}

/** A list by id with its board (GraphQL mutations name lists by global id). */
export async function findListWithBoard(db: Db, id: number) {
  const [row] = await db.select({ list: lists, board: boards }).from(lists).innerJoin(boards, eq(boards.id, lists.boardId)).where(eq(lists.id, id));
  return row;
}

/** Boards::Lists::CreateService: appended after the board's movable lists (max position + 1, or 0). */
export async function insertMovableList(
  tx: Db,
  boardId: number,
  movable: readonly number[],
  values: Pick<typeof lists.$inferInsert, 'listType' | 'labelId' | 'userId' | 'milestoneId' | 'maxIssueCount' | 'maxIssueWeight'>,
): Promise<ListRow> {
  const next = sql<number>`(SELECT COALESCE(MAX(${lists.position}), -1) + 1 FROM ${lists} WHERE ${lists.boardId} = ${boardId} AND ${inArray(lists.listType, [...movable])})`;
  const [row] = await tx
    .insert(lists)
    .values({ boardId, ...values, position: next })
    .returning();
  return row!;
}

export async function findBacklogList(db: Db, boardId: number) {
  const [row] = await db
    .select()
    .from(lists)
    .where(and(eq(lists.boardId, boardId), eq(lists.listType, LIST_TYPES.backlog)));
  return row;
}

export async function insertBacklogList(tx: Db, boardId: number): Promise<ListRow> {
  const [row] = await tx.insert(lists).values({ boardId, listType: LIST_TYPES.backlog }).returning();
  return row!;
}

export async function maxMovablePosition(tx: Db, boardId: number, movable: readonly number[]): Promise<number | null> {
  const [row] = await tx
    .select({ max: sql<number | null>`MAX(${lists.position})` })
    .from(lists)
    .where(and(eq(lists.boardId, boardId), inArray(lists.listType, [...movable])));
  return row?.max == null ? null : Number(row.max);
}

/** Boards::Lists::MoveService: shift the lists between the old and new position by one, then place the list. */
export async function moveList(tx: Db, list: ListRow, to: number, movable: readonly number[]) {
  const from = list.position!;
  const same = and(eq(lists.boardId, list.boardId), inArray(lists.listType, [...movable]));
  if (from < to)
    await tx
      .update(lists)
      .set({ position: sql`${lists.position} - 1` })
      .where(and(same, gt(lists.position, from), lte(lists.position, to)));
  else
    await tx
      .update(lists)
      .set({ position: sql`${lists.position} + 1` })
      .where(and(same, gte(lists.position, to), lt(lists.position, from)));
  await tx
    .update(lists)
    .set({ position: to, updatedAt: sql`now()` })
    .where(eq(lists.id, list.id));
}

/** Boards::Lists::DestroyService: the lists after it move up by one. */
export async function deleteList(tx: Db, list: ListRow, movable: readonly number[]) {
  await tx
    .update(lists)
    .set({ position: sql`${lists.position} - 1` })
    .where(and(eq(lists.boardId, list.boardId), inArray(lists.listType, [...movable]), gt(lists.position, list.position!)));
  await tx.delete(lists).where(eq(lists.id, list.id));
}

export async function updateListLimits(
  db: Db,
  id: number,
  values: Partial<Pick<ListRow, 'maxIssueCount' | 'maxIssueWeight' | 'limitMetric'>>,
): Promise<ListRow> {
  const [row] = await db
    .update(lists)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(lists.id, id))
    .returning();
  return row!;
}

/** List#update_preferences_for: the user's row for the list, created or updated (one statement). */
export async function setListCollapsed(db: Db, userId: number, listId: number, collapsed: boolean | null) {
  await db
    .insert(listUserPreferences)
    .values({ listId, userId, collapsed })
    .onConflictDoUpdate({ target: [listUserPreferences.listId, listUserPreferences.userId], set: { collapsed, updatedAt: sql`now()` } });
}

/** `collapsed` of each list for this user (list_user_preferences; false when unset). */
export async function collapsedOfLists(db: Db, userId: number, listIds: readonly number[]): Promise<boolean[]> {
  if (!listIds.length) return [];
  const found = await db
    .select({ listId: listUserPreferences.listId, collapsed: listUserPreferences.collapsed })
    .from(listUserPreferences)
    .where(and(eq(listUserPreferences.userId, userId), inArray(listUserPreferences.listId, [...listIds])));
  const by = new Map(found.map((r) => [r.listId, r.collapsed === true]));
  return listIds.map((id) => by.get(id) ?? false);
}
