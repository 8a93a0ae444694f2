// GraphQL's merge requests under many parents at once (one statement each): keyset pages and counts per project,
// group, group tree, author or assignee; and the labels and the caller's to-dos of many merge requests.
import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { type Viewer } from '../lib/access.ts';
import type { Db } from '../../client.ts';
import { baseQuery, listWhere, type MergeRequestListFilter, type MergeRequestView } from '../merge-requests.ts';
import { labelLinks, labels, mergeRequestAssignees, mergeRequests, namespaces, notes, projects, todos } from '../../schema/index.ts';

import { byParent, keysetSql, rowNumber, type KeysetPage, type PageSql } from '../lib/window.ts';

/**
 * What a page of MRs hangs under (GraphQL's Project/Group/User connections): target projects, groups (their own
 * projects, or with `namespaceTree` those of their subgroups too), authors or assignees, by id.
 */
export type MergeRequestParentKind = 'project' | 'namespace' | 'namespaceTree' | 'author' | 'assignee';

/** The MR row in scope belongs to the parent `p.pid`. */
function parentCondition(kind: MergeRequestParentKind): SQL {
  switch (kind) {
    case 'project':
      return sql`${mergeRequests.targetProjectId} = p.pid`;
    case 'namespace':
      return sql`${projects.namespaceId} = p.pid`;
    case 'namespaceTree':
      return sql`p.pid = ANY(${namespaces.traversalIds})`;
    case 'author':
      return sql`${mergeRequests.authorId} = p.pid`;
    case 'assignee':
      return sql`EXISTS (SELECT 1 FROM ${mergeRequestAssignees} pa WHERE pa.merge_request_id = ${mergeRequests.id} AND pa.user_id = p.pid)`;
  }
}

const parentsSql = (ids: readonly number[]) =>
  sql`(VALUES ${sql.join(
    [...new Set(ids)].map((id) => sql`(${id}::int)`),
    sql`, `,
  )}) AS p(pid)`;

/** The keyset order of an MR page: by id (created_*), or by updated_at then id (updated_*). */
export type MergeRequestPageOrder = 'id' | 'updated_at';

/**
 * A keyset page's condition and ORDER BY. Cursors name an MR by id only; ordered by updated_at, the cursor row's
 * (updated_at, id) is read back in the statement itself, so the cursor stays the shared codec's `{ id }`.
 */
function mergeRequestKeyset(by: MergeRequestPageOrder, page: KeysetPage): PageSql {
  if (by === 'id') return keysetSql(mergeRequests.id, page);
  const at = (id: number) => sql`(SELECT c.updated_at, c.id FROM ${mergeRequests} c WHERE c.id = ${id})`;
  const key = sql`(${mergeRequests.updatedAt}, ${mergeRequests.id})`;
  const [after, before] = page.order === 'asc' ? ['>', '<'] : ['<', '>'];
  const ascending = (page.order === 'asc') !== page.reverse;
  return {
    where: and(
      page.afterId !== undefined ? sql`${key} ${sql.raw(after)} ${at(page.afterId)}` : undefined,
      page.beforeId !== undefined ? sql`${key} ${sql.raw(before)} ${at(page.beforeId)}` : undefined,
    ),
    orderBy: ascending ? sql`${mergeRequests.updatedAt} ASC, ${mergeRequests.id} ASC` : sql`${mergeRequests.updatedAt} DESC, ${mergeRequests.id} DESC`,
    limit: page.limit,
  };
}

/**
 * A keyset page of MRs under each parent, in one statement: the list filter (listWhere, the REST list's), each row
 * numbered within its parent in the page's order. The rows are full views (baseQuery) with the actor's
 * subscription; one MR under two parents (two assignees asked for) comes once for each.
 */
export async function listMergeRequestViewsPages(
  db: Db,
  actor: Viewer,
  f: MergeRequestListFilter,
  kind: MergeRequestParentKind,
  parentIds: readonly number[],
  by: MergeRequestPageOrder,
  keyset: KeysetPage,
  subscriberId?: number | null,
): Promise<MergeRequestView[][]> {
  if (!parentIds.length) return [];
  const page = mergeRequestKeyset(by, keyset);
  const w = db
    .select({ wid: sql<number>`${mergeRequests.id}`.as('wid'), pid: sql<number>`p.pid`.as('pid'), rn: rowNumber(sql`p.pid`, page.orderBy) })
    .from(mergeRequests)
    .innerJoin(projects, eq(projects.id, mergeRequests.targetProjectId))
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .innerJoin(parentsSql(parentIds), parentCondition(kind))
    .where(and(listWhere(actor, f), page.where))
    .as('w');
  // The parent's id rides in baseQuery's one free column (`total`), and is taken out of the rows below.
  const rows = await baseQuery(db, actor, subscriberId, sql<number | null>`${w.pid}`.mapWith(Number))
    .innerJoin(w, eq(w.wid, mergeRequests.id))
    .where(sql`${w.rn} <= ${page.limit}`)
    .orderBy(w.pid, w.rn);
  return byParent(parentIds, rows, (r) => r.total!).map((list) => list.map((r) => ({ ...r, total: null })));
}

/**
 * The number of matching MRs under each parent and GitLab's total time to merge of them (the sum of merged_at -
 * created_at in seconds over the merged ones, null when none), in one grouped statement.
 */
export async function countMergeRequestsOfParents(
  db: Db,
  actor: Viewer,
  f: MergeRequestListFilter,
  kind: MergeRequestParentKind,
  parentIds: readonly number[],
) {
  if (!parentIds.length) return [];
  const rows = await db
    .select({
      pid: sql<number>`p.pid`.mapWith(Number),
      n: sql<number>`count(*)`.mapWith(Number),
      timeToMerge: sql<
        number | null
      >`sum(EXTRACT(EPOCH FROM (${mergeRequests.mergedAt} - ${mergeRequests.createdAt}))) FILTER (WHERE ${mergeRequests.mergedAt} > ${mergeRequests.createdAt})`.mapWith(
        (v) => (v == null ? null : Number(v)),
      ),
    })
    .from(mergeRequests)
    .innerJoin(projects, eq(projects.id, mergeRequests.targetProjectId))
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .innerJoin(parentsSql(parentIds), parentCondition(kind))
    .where(listWhere(actor, f))
    .groupBy(sql`p.pid`);
  const byId = new Map(rows.map((r) => [r.pid, r]));
  return parentIds.map((id) => ({ count: byId.get(id)?.n ?? 0, totalTimeToMerge: byId.get(id)?.timeToMerge ?? null }));
}

/** The labels of each MR (by MR id), ordered by title, in one statement. */
export async function findLabelsOfMergeRequests(db: Db, mergeRequestIds: readonly number[]) {
  if (!mergeRequestIds.length) return [];
  return db
    .select({ mergeRequestId: labelLinks.targetId, label: labels })
    .from(labelLinks)
    .innerJoin(labels, eq(labels.id, labelLinks.labelId))
    .where(and(eq(labelLinks.targetType, 'MergeRequest'), inArray(labelLinks.targetId, [...new Set(mergeRequestIds)])))
    .orderBy(asc(labels.title), asc(labels.id));
}

/** The user's to-dos on these MRs (oldest first), each with its body: the note it came from, else the MR's title. */
export async function findUserTodosOfMergeRequests(db: Db, userId: number, mergeRequestIds: readonly number[]) {
  if (!mergeRequestIds.length) return [];
  return db
    .select({ todo: todos, body: sql<string>`COALESCE(${notes.body}, ${mergeRequests.title})` })
    .from(todos)
    .innerJoin(mergeRequests, eq(mergeRequests.id, todos.targetId))
    .leftJoin(notes, eq(notes.id, todos.noteId))
    .where(and(eq(todos.userId, userId), eq(todos.targetType, 'MergeRequest'), inArray(todos.targetId, [...new Set(mergeRequestIds)])))
    .orderBy(asc(todos.id));
}
