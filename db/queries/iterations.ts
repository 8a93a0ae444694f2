// Iterations (GitLab's sprints) of groups and projects: listings with the state computed from today's date, and the
// create that serializes with the other creates of its hierarchy (overlap and title rules, iid) under a row lock.
import { and, asc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { iterations, namespaces, projects, type IterationRow } from '../schema/index.ts';
import { rows } from './lib/raw.ts';

/** The state GitLab's daily IterationsUpdateStatusWorker would have set by today (UTC). */
export type IterationState = 'upcoming' | 'started' | 'closed';
const today = sql`(now() AT TIME ZONE 'UTC')::date`;
export const iterationStateSql = sql<IterationState>`CASE WHEN ${iterations.dueDate} < ${today} THEN 'closed' WHEN ${iterations.startDate} <= ${today} THEN 'started' ELSE 'upcoming' END`;

/** The iterations a listing covers: these projects' and these groups'. */
export interface IterationScope {
  projectIds: readonly number[];
  groupIds: readonly number[];
}

export interface IterationFilter {
  /** `opened`: upcoming or started (IterationsFinder#filter_by_state). */
  state?: 'opened' | 'upcoming' | 'started' | 'closed' | 'all' | undefined;
  search?: string | undefined;
  ids?: readonly number[] | undefined;
  iids?: readonly number[] | undefined;
  /** Iterations overlapping [start, end] (the finder's within_timeframe). */
  timeframe?: { start: string; end: string } | undefined;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function stateWhere(state: IterationFilter['state']): SQL | undefined {
  if (!state || state === 'all') return undefined;
  if (state === 'opened') return sql`${iterations.dueDate} >= ${today}`;
  return sql`${iterationStateSql} = ${state}`;
}

function listWhere(scope: IterationScope, f: IterationFilter): SQL {
  const sources = or(
    scope.projectIds.length ? inArray(iterations.projectId, [...scope.projectIds]) : undefined,
    scope.groupIds.length ? inArray(iterations.groupId, [...scope.groupIds]) : undefined,
  );
  return and(
    sources ?? sql`false`,
    stateWhere(f.state),
    f.search ? ilike(iterations.title, `%${escapeLike(f.search)}%`) : undefined,
    f.ids ? (f.ids.length ? inArray(iterations.id, [...f.ids]) : sql`false`) : undefined,
    f.iids ? (f.iids.length ? inArray(iterations.iid, [...f.iids]) : sql`false`) : undefined,
    f.timeframe ? sql`${iterations.startDate} <= ${f.timeframe.end}::date AND ${iterations.dueDate} >= ${f.timeframe.start}::date` : undefined,
  )!;
}

const viewColumns = {
  iteration: iterations,
  state: iterationStateSql,
  groupPath: namespaces.fullPath,
  projectPath: sql<string | null>`(SELECT p.path_with_namespace FROM ${projects} p WHERE p.id = ${iterations.projectId})`,
};
export type IterationView = { iteration: IterationRow; state: IterationState; groupPath: string | null; projectPath: string | null };

/** IterationsFinder's order: due date, then title (then id, for stable pages). */
export function listIterations(db: Db, scope: IterationScope, f: IterationFilter, limit: number, offset: number): Promise<IterationView[]> {
  return db
    .select(viewColumns)
    .from(iterations)
    .leftJoin(namespaces, eq(namespaces.id, iterations.groupId))
    .where(listWhere(scope, f))
    .orderBy(asc(iterations.dueDate), asc(iterations.title), asc(iterations.id))
    .limit(limit)
    .offset(offset);
}

export async function countIterations(db: Db, scope: IterationScope, f: IterationFilter, limit: number): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${iterations} WHERE ${listWhere(scope, f)} LIMIT ${limit}) t`);
  return Number(row?.n ?? 0);
}

export async function findIterationViewsByIds(db: Db, ids: readonly number[]): Promise<IterationView[]> {
  if (!ids.length) return [];
  return db
    .select(viewColumns)
    .from(iterations)
    .leftJoin(namespaces, eq(namespaces.id, iterations.groupId))
    .where(inArray(iterations.id, [...ids]));
}

/**
 * Serializes iteration writes of one hierarchy: a lock on its root group's row (the overlap rule spans ancestors,
 * so groups of one tree must not check concurrently).
 */
export async function lockHierarchy(tx: Db, rootGroupId: number) {
  await tx.execute(sql`SELECT 1 FROM ${namespaces} WHERE ${namespaces.id} = ${rootGroupId} FOR UPDATE`);
}

/** Whether an iteration of these groups shares a day with [start, due] (GitLab's dates_do_not_overlap, inclusive). */
export async function overlapsIteration(tx: Db, groupIds: readonly number[], start: string, due: string, excludeId?: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: iterations.id })
    .from(iterations)
    .where(
      and(
        inArray(iterations.groupId, [...groupIds]),
        sql`${iterations.startDate} <= ${due}::date AND ${iterations.dueDate} >= ${start}::date`,
        excludeId !== undefined ? ne(iterations.id, excludeId) : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function groupTitleTaken(tx: Db, groupId: number, title: string, excludeId?: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: iterations.id })
    .from(iterations)
    .where(and(eq(iterations.groupId, groupId), eq(iterations.title, title), excludeId !== undefined ? ne(iterations.id, excludeId) : undefined))
    .limit(1);
  return row !== undefined;
}

/** Iterations::UpdateService's save: the given attributes, and updated_at. */
export async function updateIteration(tx: Db, id: number, v: { title: string; description: string | null; startDate: string; dueDate: string }) {
  await tx
    .update(iterations)
    .set({ ...v, updatedAt: new Date() })
    .where(eq(iterations.id, id));
}

/** Inserts a group iteration with the group's next iid (the hierarchy lock is held). */
export async function insertGroupIteration(tx: Db, groupId: number, v: { title: string; description: string | null; startDate: string; dueDate: string }) {
  const [row] = await tx
    .insert(iterations)
    .values({ ...v, groupId, iid: sql`(SELECT coalesce(max(${iterations.iid}), 0) + 1 FROM ${iterations} WHERE ${iterations.groupId} = ${groupId})` })
    .returning({ id: iterations.id });
  return row!.id;
}
