// Issue boards and their lists. A board's lists come out as GitLab orders them (list_type, then position); movable
// lists (label, assignee, milestone) share one 0-based contiguous position sequence per board.
import { and, asc, eq, gt, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { awardEmoji, boardLabels, boards, issueAssignees, issues, labelLinks, labels, lists, listUserPreferences, members, milestones, namespaces, projects, users, LIST_TYPES, type BoardRow, type ListRow } from '../schema/index.ts';
import type { Viewer } from './access.ts';
import { listWhere, type IssueListFilter } from './issues.ts';
import { rows } from './raw.ts';
import { byParent } from './window.ts';

/** A board's parent: a project (with its groups, root first) or a group (with its ancestors and itself). */
export type BoardParent = { kind: 'project'; id: number; groupIds: readonly number[] } | { kind: 'group'; id: number; groupIds: readonly number[] };

const parentWhere = (p: { kind: 'project' | 'group'; id: number }) => (p.kind === 'project' ? eq(boards.projectId, p.id) : eq(boards.groupId, p.id));

/** GitLab's order_by_name_asc: lower(name), then id. */
const byName = [sql`lower(${boards.name})`, asc(boards.id)];

/**
 * A page of a parent's boards (by id) with their lists of these types, in GitLab's order: one statement (the board
 * page joined with its lists, their labels, milestones and users).
 */
export async function listBoardsWithLists(db: Db, parent: BoardParent, types: readonly number[], limit: number, offset: number): Promise<Array<{ board: BoardRow; lists: ListView[] }>> {
  const page = db.select().from(boards).where(parentWhere(parent)).orderBy(asc(boards.id)).limit(limit).offset(offset).as('b');
  const found = await db
    .select({
      board: { id: page.id, projectId: page.projectId, groupId: page.groupId, name: page.name, milestoneId: page.milestoneId, weight: page.weight, assigneeId: page.assigneeId, hideBacklogList: page.hideBacklogList, hideClosedList: page.hideClosedList, createdAt: page.createdAt, updatedAt: page.updatedAt },
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
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(db.select({ one: sql`1` }).from(boards).where(parentWhere(parent)).limit(limit).as('counted'));
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
  const [row] = await db.select().from(boards).where(and(parentWhere(parent), eq(boards.id, id)));
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

export async function updateBoard(db: Db, id: number, values: Partial<Pick<BoardRow, 'name' | 'milestoneId' | 'weight' | 'assigneeId' | 'hideBacklogList' | 'hideClosedList'>>): Promise<BoardRow> {
  const [row] = await db
    .update(boards)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(boards.id, id))
    .returning();
  return row!;
}

/** Boards::DestroyService: never the parent's last board (GitLab refuses silently). */
export async function deleteBoardUnlessLast(db: Db, parent: BoardParent, id: number): Promise<void> {
  await db.delete(boards).where(and(eq(boards.id, id), sql`(SELECT count(*) FROM ${boards} b WHERE ${parent.kind === 'project' ? sql`b.project_id` : sql`b.group_id`} = ${parent.id}) > 1`));
}

/** A scoped board's labels become exactly these (board_labels). */
export async function setBoardLabels(tx: Db, boardId: number, labelIds: readonly number[]) {
  await tx.delete(boardLabels).where(eq(boardLabels.boardId, boardId));
  if (labelIds.length) await tx.insert(boardLabels).values([...new Set(labelIds)].map((labelId) => ({ boardId, labelId }))).onConflictDoNothing();
}

/** The scope labels of each board (by title), and the scope assignees by id: two queries, none without boards. */
export async function boardScopes(db: Db, boardIds: readonly number[], assigneeIds: readonly number[]) {
  const [found, assignees] = await Promise.all([
    boardIds.length
      ? db.select({ boardId: boardLabels.boardId, label: labels }).from(boardLabels).innerJoin(labels, eq(labels.id, boardLabels.labelId)).where(inArray(boardLabels.boardId, [...boardIds])).orderBy(asc(labels.title), asc(labels.id))
      : Promise.resolve([]),
    assigneeIds.length ? db.select().from(users).where(inArray(users.id, [...new Set(assigneeIds)])) : Promise.resolve([]),
  ]);
  return { labels: byParent(boardIds, found, (r) => r.boardId).map((rs) => rs.map((r) => r.label)), assignees: new Map(assignees.map((u) => [u.id, u])) };
}

/** User.find_by(id:) (any user). */
export async function findUserById(db: Db, id: number) {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, id));
  return row;
}

/** A list with what its entity shows: the label, the milestone (with its owner's path), the user. */
export interface ListView {
  list: ListRow;
  label: typeof labels.$inferSelect | null;
  milestone: typeof milestones.$inferSelect | null;
  user: typeof users.$inferSelect | null;
  /** The milestone's project path_with_namespace or group full path (its web_url). */
  milestonePath: string | null;
}

const milestonePathSql = sql<
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

export async function lockBoard(tx: Db, id: number) {
  await tx.execute(sql`SELECT 1 FROM ${boards} WHERE ${boards.id} = ${id} FOR UPDATE`);
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
  const [row] = await db.select().from(lists).where(and(eq(lists.boardId, boardId), eq(lists.listType, LIST_TYPES.backlog)));
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
  if (from < to) await tx.update(lists).set({ position: sql`${lists.position} - 1` }).where(and(same, gt(lists.position, from), lte(lists.position, to)));
  else await tx.update(lists).set({ position: sql`${lists.position} + 1` }).where(and(same, gte(lists.position, to), lt(lists.position, from)));
  await tx.update(lists).set({ position: to, updatedAt: sql`now()` }).where(eq(lists.id, list.id));
}

/** Boards::Lists::DestroyService: the lists after it move up by one. */
export async function deleteList(tx: Db, list: ListRow, movable: readonly number[]) {
  await tx
    .update(lists)
    .set({ position: sql`${lists.position} - 1` })
    .where(and(eq(lists.boardId, list.boardId), inArray(lists.listType, [...movable]), gt(lists.position, list.position!)));
  await tx.delete(lists).where(eq(lists.id, list.id));
}

export async function updateListLimits(db: Db, id: number, values: Partial<Pick<ListRow, 'maxIssueCount' | 'maxIssueWeight' | 'limitMetric'>>): Promise<ListRow> {
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

// ---- What a list may be made of (AvailableLabelsService, Boards::MilestonesFinder, Boards::UsersFinder) ----

/** Own labels of the parent and those of its groups (a project's groups; a group's ancestors and itself). */
const ownedBy = (t: typeof labels | typeof milestones, parent: BoardParent): SQL =>
  sql`(${parent.kind === 'project' ? sql`${t.projectId} = ${parent.id} OR ` : sql``}${parent.groupIds.length ? inArray(t.groupId, [...parent.groupIds]) : sql`false`})`;

export async function findAvailableLabel(db: Db, parent: BoardParent, id: number) {
  const [row] = await db.select().from(labels).where(and(eq(labels.id, id), ownedBy(labels, parent)));
  return row;
}

/** Milestones by id with their owner's path (a scoped board's milestone). */
export async function milestonesByIds(db: Db, ids: readonly number[]) {
  if (!ids.length) return [];
  return db
    .select({
      milestone: milestones,
      path: sql<string>`COALESCE((SELECT p.path_with_namespace FROM ${projects} p WHERE p.id = ${milestones.projectId}), (SELECT n.full_path FROM ${namespaces} n WHERE n.id = ${milestones.groupId}))`,
    })
    .from(milestones)
    .where(inArray(milestones.id, [...ids]));
}

export async function findAvailableMilestone(db: Db, parent: BoardParent, id: number) {
  const [row] = await db.select().from(milestones).where(and(eq(milestones.id, id), ownedBy(milestones, parent)));
  return row;
}

/** A member of the board's project or group hierarchy. */
export async function findBoardUser(db: Db, parent: BoardParent, id: number) {
  const sources = [
    parent.kind === 'project' ? and(eq(members.sourceType, 'Project'), eq(members.sourceId, parent.id)) : undefined,
    parent.groupIds.length ? and(eq(members.sourceType, 'Namespace'), inArray(members.sourceId, [...parent.groupIds])) : undefined,
  ].filter((c): c is SQL => c !== undefined);
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), sql`EXISTS (SELECT 1 FROM ${members} WHERE ${members.userId} = ${users.id} AND (${sql.join(sources, sql` OR `)}))`));
  return row;
}

// ---- Which issues a list holds (Boards::Issues::ListService): derived from labels, state, assignees, milestone ----

/** One list to fill, with the board's other lists (the backlog leaves out what they hold). */
export interface ListIssuesSpec {
  list: ListRow;
  /** The board's lists of the licensed types (label lists always; assignee and milestone lists when licensed). */
  siblings: readonly ListRow[];
}

/** Open issues for every list but closed; a label, assignee or milestone list holds its own; backlog what none of them do. */
function membership(spec: ListIssuesSpec): SQL {
  const l = spec.list;
  const linked = (labelIds: readonly number[]) =>
    sql`EXISTS (SELECT 1 FROM ${labelLinks} ll WHERE ll.target_type = 'Issue' AND ll.target_id = ${issues.id} AND ${inArray(sql`ll.label_id`, [...labelIds])})`;
  const assigned = (userIds: readonly number[]) => sql`EXISTS (SELECT 1 FROM ${issueAssignees} ia WHERE ia.issue_id = ${issues.id} AND ${inArray(sql`ia.user_id`, [...userIds])})`;
  const open = eq(issues.state, 'opened');
  switch (l.listType) {
    case LIST_TYPES.closed:
      return eq(issues.state, 'closed');
    case LIST_TYPES.label:
      return and(open, linked([l.labelId!]))!;
    case LIST_TYPES.assignee:
      return and(open, assigned([l.userId!]))!;
    case LIST_TYPES.milestone:
      return and(open, eq(issues.milestoneId, l.milestoneId!))!;
    default: {
      const of = <K extends 'labelId' | 'userId' | 'milestoneId'>(key: K) => spec.siblings.map((s) => s[key]).filter((v): v is number => v !== null);
      const [labelIds, userIds, milestoneIds] = [of('labelId'), of('userId'), of('milestoneId')];
      return and(
        open,
        labelIds.length ? sql`NOT ${linked(labelIds)}` : undefined,
        userIds.length ? sql`NOT ${assigned(userIds)}` : undefined,
        milestoneIds.length ? sql`(${issues.milestoneId} IS NULL OR ${sql`NOT ${inArray(issues.milestoneId, milestoneIds)}`})` : undefined,
      )!;
    }
  }
}

export interface ListIssues {
  /** Issue ids in board order: relative_position ASC NULLS LAST, then id DESC. */
  ids: number[];
  count: number;
  totalWeight: number;
}

/**
 * The issues of each list that match the issue list filter (IssuesFinder's, with the actor's visibility), with their
 * count and total weight: one statement for all the lists.
 */
/**
 * BoardIssueInput's filters the issue list filter has no field for: myReactionEmoji (the current user's award),
 * weight (where licensed), releaseTag, and the `not` negations. 'none' / 'any' as IssuesFinder spells them.
 */
export interface BoardIssueExtra {
  /** The current user's id for myReactionEmoji (anonymous: the filter is ignored, as GitLab's). */
  userId: number | null;
  myReactionEmoji?: string | undefined;
  weight?: string | undefined;
  releaseTag?: string | undefined;
  not?: {
    labels?: string[] | undefined;
    milestone?: string | undefined;
    assigneeUsernames?: string[] | undefined;
    authorUsername?: string | undefined;
    myReactionEmoji?: string | undefined;
    weight?: string | undefined;
    releaseTag?: string | undefined;
  };
}

const special = (v: string) => (/^none$/i.test(v) ? 'none' : /^any$/i.test(v) ? 'any' : null);

function reacted(userId: number, name: string) {
  const s = special(name);
  const award = sql`EXISTS (SELECT 1 FROM ${awardEmoji} a WHERE a.awardable_type = 'Issue' AND a.awardable_id = ${issues.id} AND a.user_id = ${userId}${s ? sql`` : sql` AND a.name = ${name}`})`;
  return s === 'none' ? sql`NOT ${award}` : award;
}

function weighs(value: string) {
  const s = special(value);
  if (s === 'none') return sql`${issues.weight} IS NULL`;
  if (s === 'any') return sql`${issues.weight} IS NOT NULL`;
  return /^\d+$/.test(value) ? eq(issues.weight, Number(value)) : sql`false`;
}

const labelled = (titles: readonly string[]) =>
  sql`EXISTS (SELECT 1 FROM ${labelLinks} ll JOIN ${labels} l ON l.id = ll.label_id WHERE ll.target_type = 'Issue' AND ll.target_id = ${issues.id} AND ${inArray(sql`l.title`, [...titles])})`;
const assignedTo = (usernames: readonly string[]) =>
  sql`EXISTS (SELECT 1 FROM ${issueAssignees} ia JOIN ${users} u ON u.id = ia.user_id WHERE ia.issue_id = ${issues.id} AND ${inArray(sql`lower(u.username)`, usernames.map((u) => u.toLowerCase()))})`;

/** The conditions of BoardIssueExtra (releases do not exist here: a release tag matches no issue). */
export function boardIssueConditions(e: BoardIssueExtra): SQL[] {
  const c: SQL[] = [];
  if (e.myReactionEmoji !== undefined && e.userId !== null) c.push(reacted(e.userId, e.myReactionEmoji));
  if (e.weight !== undefined) c.push(weighs(e.weight));
  if (e.releaseTag !== undefined) c.push(sql`false`);
  const n = e.not ?? {};
  if (n.labels?.length) c.push(sql`NOT ${labelled(n.labels)}`);
  if (n.milestone !== undefined) c.push(sql`(${issues.milestoneId} IS NULL OR ${milestones.title} <> ${n.milestone})`);
  if (n.assigneeUsernames?.length) c.push(sql`NOT ${assignedTo(n.assigneeUsernames)}`);
  if (n.authorUsername !== undefined)
    c.push(sql`NOT EXISTS (SELECT 1 FROM ${users} u WHERE u.id = ${issues.authorId} AND lower(u.username) = lower(${n.authorUsername}))`);
  if (n.myReactionEmoji !== undefined && e.userId !== null && !special(n.myReactionEmoji)) c.push(sql`NOT ${reacted(e.userId, n.myReactionEmoji)}`);
  if (n.weight !== undefined && /^\d+$/.test(n.weight)) c.push(sql`${issues.weight} IS DISTINCT FROM ${Number(n.weight)}`);
  return c;
}

export async function issuesOfLists(db: Db, actor: Viewer, filter: IssueListFilter, extra: BoardIssueExtra, specs: readonly ListIssuesSpec[]): Promise<ListIssues[]> {
  if (!specs.length) return [];
  const conditions = boardIssueConditions(extra);
  const parts = specs.map(
    (spec) => sql`(SELECT ${spec.list.id}::int AS list_id,
        COALESCE(json_agg(${issues.id} ORDER BY ${issues.relativePosition} ASC NULLS LAST, ${issues.id} DESC), '[]'::json) AS ids,
        count(*)::int AS n, COALESCE(sum(${issues.weight}), 0)::int AS w
      FROM ${issues}
      JOIN ${projects} ON ${projects.id} = ${issues.projectId}
      JOIN ${namespaces} ON ${namespaces.id} = ${projects.namespaceId}
      LEFT JOIN ${milestones} ON ${milestones.id} = ${issues.milestoneId}
      WHERE ${and(listWhere(actor, filter), membership(spec), ...conditions)})`,
  );
  const found = await rows<{ list_id: number; ids: number[] | string; n: number; w: number }>(db, sql.join(parts, sql` UNION ALL `));
  const by = new Map(found.map((r) => [Number(r.list_id), r]));
  return specs.map((s) => {
    const r = by.get(s.list.id);
    const ids = r ? (typeof r.ids === 'string' ? (JSON.parse(r.ids) as number[]) : r.ids) : [];
    return { ids: ids.map(Number), count: Number(r?.n ?? 0), totalWeight: Number(r?.w ?? 0) };
  });
}

// ---- Relative positions of issues (RelativePositioning on boards) ----

export async function issuePositions(db: Db, projectId: number, ids: readonly number[]) {
  if (!ids.length) return [];
  return db
    .select({ id: issues.id, relativePosition: issues.relativePosition })
    .from(issues)
    .where(and(eq(issues.projectId, projectId), inArray(issues.id, [...ids])));
}

export async function maxRelativePosition(db: Db, projectId: number): Promise<number | null> {
  const [row] = await db.select({ max: sql<number | null>`MAX(${issues.relativePosition})` }).from(issues).where(eq(issues.projectId, projectId));
  return row?.max == null ? null : Number(row.max);
}

export async function setRelativePosition(db: Db, issueId: number, position: number) {
  await db.update(issues).set({ relativePosition: position }).where(eq(issues.id, issueId));
}
