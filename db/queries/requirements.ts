// Requirement reads and writes (GitLab's RequirementsManagement::RequirementsFinder and services). A page is one
// statement: the requirements with their latest test report's state (a correlated subquery), so a page costs one
// query whatever its size.
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { requirements, requirementTestReports, users } from '../schema/index.ts';
import { fuzzySearch } from './lib/search.ts';
import { keysetSql, type KeysetPage, type PageSql } from './lib/window.ts';

export type RequirementState = 'opened' | 'archived';
export type TestReportState = 'passed' | 'failed';

export interface RequirementFilter {
  iids?: number[];
  state?: RequirementState;
  /** Authors by username (case-insensitive); unknown ones match nothing. */
  authorUsernames?: string[];
  /** Title only (GitLab's `fuzzy_search(query, [:title])`). */
  search?: string;
}

/** The latest test report of a requirement: its state, and whether it was created by hand (no pipeline). */
// The outer row's id is spelled out: a column interpolated into a select field renders unqualified (it would name tr.id).
const latestReport = (column: SQL) =>
  sql`(SELECT ${column} FROM ${requirementTestReports} tr WHERE tr.requirement_id = "requirements"."id" ORDER BY tr.id DESC LIMIT 1)`;

const viewColumns = {
  requirement: requirements,
  lastTestReportState: latestReport(sql`tr.state`).mapWith(String) as SQL<TestReportState | null>,
  lastTestReportManuallyCreated: latestReport(sql`tr.pipeline_id IS NULL`).mapWith(Boolean) as SQL<boolean | null>,
};

const viewQuery = (db: Db) => db.select(viewColumns).from(requirements);
export type RequirementView = Awaited<ReturnType<ReturnType<typeof viewQuery>['execute']>>[number];

function filterWhere(projectId: number, f: RequirementFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(requirements.projectId, projectId)];
  if (f.iids) conditions.push(f.iids.length ? inArray(requirements.iid, f.iids) : sql`false`);
  if (f.state) conditions.push(eq(requirements.state, f.state));
  if (f.authorUsernames)
    conditions.push(
      sql`${requirements.authorId} IN (SELECT u.id FROM ${users} u WHERE lower(u.username) IN (${sql.join(
        f.authorUsernames.map((n) => sql`${n.toLowerCase()}`),
        sql`, `,
      )}))`,
    );
  if (f.search) conditions.push(fuzzySearch(f.search, [requirements.title]));
  return and(...conditions);
}

/**
 * A keyset page ordered by (updated_at, id): the cursors stay ids, compared through the cursor row's values (a
 * cursor whose row is gone matches nothing).
 */
function updatedAtPage(page: KeysetPage): PageSql {
  const key = sql`(${requirements.updatedAt}, ${requirements.id})`;
  const at = (id: number) => sql`(SELECT r.updated_at, r.id FROM ${requirements} r WHERE r.id = ${id})`;
  const [after, before] = page.order === 'asc' ? [sql`>`, sql`<`] : [sql`<`, sql`>`];
  const ascending = (page.order === 'asc') !== page.reverse;
  return {
    where: and(
      page.afterId !== undefined ? sql`${key} ${after} ${at(page.afterId)}` : undefined,
      page.beforeId !== undefined ? sql`${key} ${before} ${at(page.beforeId)}` : undefined,
    ),
    orderBy: ascending ? sql`${requirements.updatedAt} ASC, ${requirements.id} ASC` : sql`${requirements.updatedAt} DESC, ${requirements.id} DESC`,
    limit: page.limit,
  };
}

/** One keyset page of a project's requirements, by id (creation order) or by last update, in `page.order`. */
export async function listRequirementViews(
  db: Db,
  projectId: number,
  f: RequirementFilter,
  page: KeysetPage,
  by: 'id' | 'updated_at' = 'id',
): Promise<RequirementView[]> {
  if (f.authorUsernames && !f.authorUsernames.length) return [];
  const k = by === 'updated_at' ? updatedAtPage(page) : keysetSql(requirements.id, page);
  return viewQuery(db)
    .where(and(filterWhere(projectId, f), k.where))
    .orderBy(k.orderBy)
    .limit(k.limit);
}

/** The project's requirements counted by state (GitLab's `counts_by_state`). */
export async function countRequirementsByState(db: Db, projectId: number): Promise<Record<RequirementState, number>> {
  const rows = await db
    .select({ state: requirements.state, n: sql<number>`count(*)`.mapWith(Number) })
    .from(requirements)
    .where(eq(requirements.projectId, projectId))
    .groupBy(requirements.state);
  const counts = { opened: 0, archived: 0 };
  for (const r of rows) counts[r.state] = r.n;
  return counts;
}

export async function findRequirementView(db: Db, projectId: number, iid: number): Promise<RequirementView | undefined> {
  const [row] = await viewQuery(db).where(and(eq(requirements.projectId, projectId), eq(requirements.iid, iid)));
  return row;
}

// ---- Writes ----

/** The insert, for the batch that allocated the iid (`iid`: the counter's value read in that batch). */
export function insertRequirementStatement(db: Db, values: Omit<typeof requirements.$inferInsert, 'iid'> & { iid: SQL<number> }) {
  return db
    .insert(requirements)
    .values(values as unknown as typeof requirements.$inferInsert)
    .returning({ id: requirements.id });
}

/** A requirement's new values and, when given, a test report created by hand: one batch. */
export function updateRequirementStatements(
  db: Db,
  id: number,
  values: Partial<Pick<typeof requirements.$inferInsert, 'title' | 'description' | 'state'>>,
  report: { state: TestReportState; authorId: number } | null,
) {
  return [
    // Nothing changed (a test report only): the row keeps its updated_at, as ActiveRecord's save without changes.
    ...(Object.keys(values).length
      ? [
          db
            .update(requirements)
            .set({ ...values, updatedAt: sql`now()` })
            .where(eq(requirements.id, id)),
        ]
      : []),
    ...(report ? [db.insert(requirementTestReports).values({ requirementId: id, state: report.state, authorId: report.authorId })] : []),
  ];
}

/** The test reports of each requirement (by id), in `order` of id. */
export async function findTestReportsOfRequirements(db: Db, requirementIds: readonly number[], order: 'asc' | 'desc') {
  if (!requirementIds.length) return [];
  return db
    .select()
    .from(requirementTestReports)
    .where(inArray(requirementTestReports.requirementId, [...requirementIds]))
    .orderBy(order === 'asc' ? asc(requirementTestReports.id) : desc(requirementTestReports.id));
}

/** The requirement the same batch just inserted, as a page row. */
export const lastInsertedRequirementViewQuery = (db: Db) =>
  viewQuery(db).where(sql`${requirements.id} = currval(pg_get_serial_sequence('requirements', 'id'))`);

/** One requirement as a page row, for the batch that just changed it. */
export const requirementViewByIdQuery = (db: Db, id: number) => viewQuery(db).where(eq(requirements.id, id));
