// Alert reads and writes for what users do with an alert once it exists (GitLab 13.6's AlertManagement::AlertsFinder,
// Alerts::UpdateService, CreateAlertIssueService). A page is one statement: the alerts with their issue's iid and the
// number of their user notes (correlated subqueries), so a list of 100 costs one query whatever it shows.
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { alertAssignees, alerts, issues, notes, users, type AlertRow } from '../schema/index.ts';
import { fuzzySearch } from './lib/search.ts';
import type { KeysetPage, PageSql } from './lib/window.ts';

export interface AlertFilter {
  iid?: number | null;
  /** Stored status numbers (empty: any). */
  statuses?: number[];
  /** title, description, monitoring_tool, service (the model's `search` scope: fuzzy_search on those four). */
  search?: string;
  /** Alerts assigned to the user with this username (case-insensitive). */
  assigneeUsername?: string;
}

/**
 * The model's sort_by_attribute: a column and a direction; SEVERITY and STATUS sort the stored integer the other way
 * round (critical is 0, triggered is 0), ended_at puts alerts that have not ended where PostgreSQL puts NULLs
 * (last ascending, first descending), so the cursor comparison can use one expression. Ties go by id, same way.
 */
export type AlertOrder = { by: 'id' | 'started_at' | 'ended_at' | 'created_at' | 'updated_at' | 'events' | 'severity' | 'status'; direction: 'asc' | 'desc' };

const sortExpression = (by: AlertOrder['by'], alias: string): SQL => {
  const c = (name: string) => sql.raw(`"${alias}"."${name}"`);
  switch (by) {
    case 'ended_at':
      return sql`COALESCE(${c('ended_at')}, 'infinity'::timestamptz)`;
    case 'id':
      return c('id');
    default:
      return c(by);
  }
};

/** A keyset page in `order`: cursors stay ids, compared through the cursor row's sort value (a vanished row matches nothing). */
function alertPageSql(order: AlertOrder, page: KeysetPage): PageSql {
  const key = sql`(${sortExpression(order.by, 'alert_management_alerts')}, "alert_management_alerts"."id")`;
  const at = (id: number) => sql`(SELECT ${sortExpression(order.by, 'c')}, c.id FROM ${alerts} c WHERE c.id = ${id})`;
  const ascending = order.direction === 'asc';
  const [after, before] = ascending ? [sql`>`, sql`<`] : [sql`<`, sql`>`];
  const forward = ascending !== page.reverse;
  const dir = sql.raw(forward ? 'ASC' : 'DESC');
  return {
    where: and(
      page.afterId !== undefined ? sql`${key} ${after} ${at(page.afterId)}` : undefined,
      page.beforeId !== undefined ? sql`${key} ${before} ${at(page.beforeId)}` : undefined,
    ),
    orderBy: sql`${sortExpression(order.by, 'alert_management_alerts')} ${dir}, "alert_management_alerts"."id" ${dir}`,
    limit: page.limit,
  };
}

const viewColumns = {
  alert: alerts,
  issueIid: sql<number | null>`(SELECT i.iid FROM ${issues} i WHERE i.id = "alert_management_alerts"."issue_id")`.mapWith((v) =>
    v == null ? null : Number(v),
  ),
};

const viewQuery = (db: Db) => db.select(viewColumns).from(alerts).$dynamic();
export type AlertView = { alert: AlertRow; issueIid: number | null };

function filterWhere(projectId: number, f: AlertFilter): SQL | undefined {
  return and(
    eq(alerts.projectId, projectId),
    f.iid === null ? sql`false` : f.iid !== undefined ? eq(alerts.iid, f.iid) : undefined,
    f.statuses?.length ? inArray(alerts.status, f.statuses) : undefined,
    f.search ? fuzzySearch(f.search, [alerts.title, alerts.description, alerts.monitoringTool, alerts.service]) : undefined,
    f.assigneeUsername !== undefined
      ? sql`EXISTS (SELECT 1 FROM ${alertAssignees} aa JOIN ${users} u ON u.id = aa.user_id WHERE aa.alert_id = "alert_management_alerts"."id" AND lower(u.username) = ${f.assigneeUsername.toLowerCase()})`
      : undefined,
  );
}

/** One keyset page of a project's alerts under the filter, in `order`. */
export async function listAlertViews(db: Db, projectId: number, f: AlertFilter, order: AlertOrder, page: KeysetPage): Promise<AlertView[]> {
  const k = alertPageSql(order, page);
  return viewQuery(db)
    .where(and(filterWhere(projectId, f), k.where))
    .orderBy(k.orderBy)
    .limit(k.limit);
}

/** The project's alerts under the filter (iid and statuses aside), counted by stored status. */
export async function countAlertsByStatus(db: Db, projectId: number, f: Pick<AlertFilter, 'search' | 'assigneeUsername'>): Promise<Map<number, number>> {
  const rows = await db
    .select({ status: alerts.status, n: sql<number>`count(*)`.mapWith(Number) })
    .from(alerts)
    .where(filterWhere(projectId, f))
    .groupBy(alerts.status);
  return new Map(rows.map((r) => [r.status, r.n]));
}

export async function findAlertView(db: Db, projectId: number, iid: number): Promise<AlertView | undefined> {
  const [row] = await viewQuery(db).where(and(eq(alerts.projectId, projectId), eq(alerts.iid, iid)));
  return row;
}

/** Alerts by id with their projects' ids (NoteableID and to-do targets); the caller decides readability. */
export async function findAlertViewsByIds(db: Db, ids: readonly number[]): Promise<AlertView[]> {
  if (!ids.length) return [];
  return viewQuery(db).where(inArray(alerts.id, [...new Set(ids)]));
}

/** The assignees of each alert (by alert id), in assignment order. */
export async function findAssigneesOfAlerts(db: Db, alertIds: readonly number[]) {
  if (!alertIds.length) return [];
  return db
    .select({ alertId: alertAssignees.alertId, user: users })
    .from(alertAssignees)
    .innerJoin(users, eq(users.id, alertAssignees.userId))
    .where(inArray(alertAssignees.alertId, [...new Set(alertIds)]))
    .orderBy(asc(alertAssignees.id));
}

/** Active users by username (case-insensitive), as UsersFinder(username:) finds them; unknown names are skipped. */
export async function findUsersByUsernames(db: Db, usernames: readonly string[]) {
  if (!usernames.length) return [];
  return db
    .select()
    .from(users)
    .where(inArray(sql`lower(${users.username})`, [...new Set(usernames.map((u) => u.toLowerCase()))].slice(0, 100)));
}

/**
 * Another alert of the project with this fingerprint that is not resolved (the unique index's set): what a
 * re-opened alert would collide with.
 */
export async function findOtherUnresolvedAlert(db: Db, alert: Pick<AlertRow, 'id' | 'projectId' | 'fingerprint'>) {
  if (!alert.fingerprint) return undefined;
  const [row] = await db
    .select({ id: alerts.id, iid: alerts.iid })
    .from(alerts)
    .where(and(eq(alerts.projectId, alert.projectId), eq(alerts.fingerprint, alert.fingerprint), sql`${alerts.status} <> 2`, sql`${alerts.id} <> ${alert.id}`))
    .limit(1);
  return row;
}

// ---- Writes ----

/** The alert's new status (ended_at set on resolve, cleared otherwise), as a statement for a batch. */
export const updateAlertStatusStatement = (db: Db, alertId: number, status: number, resolved: boolean) =>
  db
    .update(alerts)
    .set({ status, endedAt: resolved ? sql`now()` : null, updatedAt: sql`now()` })
    .where(eq(alerts.id, alertId));

/** The alert's assignees replaced by `userIds` (in order) and the alert touched, as statements for a batch. */
export const replaceAlertAssigneesStatements = (db: Db, alertId: number, userIds: readonly number[]) => [
  db.delete(alertAssignees).where(eq(alertAssignees.alertId, alertId)),
  ...(userIds.length ? [db.insert(alertAssignees).values(userIds.map((userId) => ({ alertId, userId })))] : []),
  db
    .update(alerts)
    .set({ updatedAt: sql`now()` })
    .where(eq(alerts.id, alertId)),
];

/** Links the issue to the alert unless it already has one (a concurrent createAlertIssue): whether it was linked. */
export async function linkAlertIssue(tx: Db, alertId: number, issueId: number): Promise<boolean> {
  const rows = await tx
    .update(alerts)
    .set({ issueId, updatedAt: sql`now()` })
    .where(and(eq(alerts.id, alertId), sql`${alerts.issueId} IS NULL`))
    .returning({ id: alerts.id });
  return rows.length > 0;
}
