// Milestones of projects and groups. Writes are single statements (the iid allocation, the title rule and the
// date rule are folded into the insert/update), so a write costs one round trip plus its event.
import { and, desc, eq, getTableColumns, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { milestones, namespaces, projects, type MilestoneRow } from '../schema/index.ts';
import { fuzzySearch } from './lib/search.ts';
import { AccessLevel, featureAvailableSql, visibleProjectsFilter, type Viewer } from './lib/access.ts';
import { rows } from './lib/raw.ts';
import { byParent, rowNumber, singleParentLimit, keysetSql, type KeysetPage } from './lib/window.ts';

export type MilestoneSource = { kind: 'project'; projectId: number; parentGroupId: number | null } | { kind: 'group'; groupId: number };

/** The milestones a listing covers: these projects' and these groups'. */
export interface MilestoneScope {
  projectIds: readonly number[];
  groupIds: readonly number[];
}

export interface MilestoneFilter {
  state?: 'active' | 'closed' | 'all' | undefined;
  iids?: readonly number[] | undefined;
  title?: string | undefined;
  search?: string | undefined;
}

function listWhere(scope: MilestoneScope, f: MilestoneFilter): SQL | undefined {
  const sources = or(
    scope.projectIds.length ? inArray(milestones.projectId, [...scope.projectIds]) : undefined,
    scope.groupIds.length ? inArray(milestones.groupId, [...scope.groupIds]) : undefined,
  );
  return and(
    sources ?? sql`false`,
    f.state && f.state !== 'all' ? eq(milestones.state, f.state) : undefined,
    f.iids ? (f.iids.length ? inArray(milestones.iid, [...f.iids]) : sql`false`) : undefined,
    f.title !== undefined ? eq(milestones.title, f.title) : undefined,
    f.search ? fuzzySearch(f.search, [milestones.title, milestones.description]) : undefined,
  );
}

/** GitLab orders milestone listings by id, newest first. */
export function listMilestones(db: Db, scope: MilestoneScope, f: MilestoneFilter, limit: number, offset: number) {
  return db
    .select({ milestone: milestones, groupPath: namespaces.fullPath })
    .from(milestones)
    .leftJoin(namespaces, eq(namespaces.id, milestones.groupId))
    .where(listWhere(scope, f))
    .orderBy(desc(milestones.id))
    .limit(limit)
    .offset(offset);
}

export async function countMilestones(db: Db, scope: MilestoneScope, f: MilestoneFilter, limit: number): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${milestones} WHERE ${listWhere(scope, f)} LIMIT ${limit}) t`);
  return Number(row?.n ?? 0);
}

const ownedBy = (source: MilestoneSource) => (source.kind === 'project' ? eq(milestones.projectId, source.projectId) : eq(milestones.groupId, source.groupId));

/** `parent.milestones.find(id)`: the source's own milestone by its global id. */
export async function findMilestone(db: Db, source: MilestoneSource, id: number): Promise<MilestoneRow | undefined> {
  const [row] = await db
    .select()
    .from(milestones)
    .where(and(eq(milestones.id, id), ownedBy(source)))
    .limit(1);
  return row;
}

/**
 * Timebox#uniqueness_of_title: a project milestone's title may not be used by the project or its (direct) group; a
 * group milestone's by the group or any of its projects. As SQL over a candidate `m` (raw alias), excluding itself.
 */
function titleTakenSql(source: MilestoneSource, title: SQL, selfId: SQL) {
  const others =
    source.kind === 'project'
      ? sql`(o.project_id = ${source.projectId}${source.parentGroupId !== null ? sql` OR o.group_id = ${source.parentGroupId}` : sql``})`
      : sql`(o.group_id = ${source.groupId} OR o.project_id IN (SELECT p.id FROM ${projects} p WHERE p.namespace_id = ${source.groupId}))`;
  return sql`EXISTS (SELECT 1 FROM ${milestones} o WHERE ${others} AND o.title = ${title} AND o.id IS DISTINCT FROM ${selfId})`;
}

interface RawMilestone {
  id: number;
  iid: number;
  project_id: number | null;
  group_id: number | null;
  title: string;
  description: string | null;
  state: 'active' | 'closed';
  due_date: string | Date | null;
  start_date: string | Date | null;
  created_at: string | Date;
  updated_at: string | Date;
}

const dateOnly = (d: string | Date | null) => (d === null ? null : typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10));

function milestoneFromRaw(r: RawMilestone): MilestoneRow {
  return {
    id: Number(r.id),
    iid: Number(r.iid),
    projectId: r.project_id === null ? null : Number(r.project_id),
    groupId: r.group_id === null ? null : Number(r.group_id),
    title: r.title,
    description: r.description,
    state: r.state,
    dueDate: dateOnly(r.due_date),
    startDate: dateOnly(r.start_date),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

export interface NewMilestone {
  title: string;
  description: string | null;
  dueDate: string | null;
  startDate: string | null;
}

/**
 * Allocates the next iid (the same upsert as internal-ids.ts nextIid, inlined so the create is one round trip) and
 * inserts the milestone unless its title is taken: undefined then. Run it in the creating transaction: a refused
 * insert must roll the counter back.
 */
export async function insertMilestone(tx: Db, source: MilestoneSource, m: NewMilestone): Promise<MilestoneRow | undefined> {
  const counter =
    source.kind === 'project'
      ? sql`INSERT INTO internal_ids (usage, project_id, last_value) VALUES ('milestones', ${source.projectId}, 1)`
      : sql`INSERT INTO internal_ids (usage, namespace_id, last_value) VALUES ('milestones', ${source.groupId}, 1)`;
  const [row] = await rows<RawMilestone>(
    tx,
    sql`WITH iid AS (
        ${counter}
        ON CONFLICT ON CONSTRAINT internal_ids_usage_source_key DO UPDATE SET last_value = internal_ids.last_value + 1
        RETURNING last_value)
      INSERT INTO milestones (iid, project_id, group_id, title, description, due_date, start_date)
      SELECT iid.last_value, ${source.kind === 'project' ? source.projectId : null}::int, ${source.kind === 'group' ? source.groupId : null}::int,
        ${m.title}, ${m.description}, ${m.dueDate}::date, ${m.startDate}::date
      FROM iid
      WHERE NOT ${titleTakenSql(source, sql`${m.title}`, sql`NULL::int`)}
      RETURNING *`,
  );
  return row ? milestoneFromRaw(row) : undefined;
}

export interface MilestoneChanges {
  title?: string | undefined;
  description?: string | null | undefined;
  dueDate?: string | null | undefined;
  startDate?: string | null | undefined;
  state?: 'active' | 'closed' | undefined;
}

export type UpdateResult =
  | { status: 'not_found' }
  | { status: 'invalid'; titleTaken: boolean; datesInvalid: boolean }
  | { status: 'updated'; milestone: MilestoneRow; previousState: 'active' | 'closed' };

/**
 * One statement: locks the milestone, checks the title rule (when the title changes) and the date rule (on the
 * dates after the change), updates, and reports the state it had before (so the caller knows whether it closed or
 * reopened it).
 */
export async function updateMilestone(db: Db, source: MilestoneSource, id: number, c: MilestoneChanges): Promise<UpdateResult> {
  const newDue = c.dueDate !== undefined ? sql`${c.dueDate}::date` : sql`old.due_date`;
  const newStart = c.startDate !== undefined ? sql`${c.startDate}::date` : sql`old.start_date`;
  const titleTaken =
    c.title !== undefined ? sql`(${c.title} IS DISTINCT FROM old.title AND ${titleTakenSql(source, sql`${c.title}`, sql`old.id`)})` : sql`false`;
  const sets: SQL[] = [sql`updated_at = now()`];
  if (c.title !== undefined) sets.push(sql`title = ${c.title}`);
  if (c.description !== undefined) sets.push(sql`description = ${c.description}`);
  if (c.dueDate !== undefined) sets.push(sql`due_date = ${c.dueDate}::date`);
  if (c.startDate !== undefined) sets.push(sql`start_date = ${c.startDate}::date`);
  if (c.state !== undefined) sets.push(sql`state = ${c.state}`);
  const own = source.kind === 'project' ? sql`project_id = ${source.projectId}` : sql`group_id = ${source.groupId}`;
  const [row] = await rows<RawMilestone & { previous_state: 'active' | 'closed'; title_taken: boolean; dates_invalid: boolean; updated: boolean }>(
    db,
    sql`WITH old AS (SELECT * FROM milestones WHERE id = ${id} AND ${own} FOR UPDATE),
      checks AS (SELECT old.id, ${titleTaken} AS title_taken,
          (${newDue} IS NOT NULL AND ${newStart} IS NOT NULL AND ${newDue} <= ${newStart}) AS dates_invalid
        FROM old),
      upd AS (UPDATE milestones m SET ${sql.join(sets, sql`, `)}
        FROM checks WHERE m.id = checks.id AND NOT checks.title_taken AND NOT checks.dates_invalid
        RETURNING m.*)
      SELECT upd.*, old.state AS previous_state, checks.title_taken, checks.dates_invalid, upd.id IS NOT NULL AS updated
      FROM old JOIN checks ON checks.id = old.id LEFT JOIN upd ON true`,
  );
  if (!row) return { status: 'not_found' };
  if (!row.updated) return { status: 'invalid', titleTaken: row.title_taken, datesInvalid: row.dates_invalid };
  return { status: 'updated', milestone: milestoneFromRaw(row), previousState: row.previous_state };
}

export async function deleteMilestone(tx: Db, source: MilestoneSource, id: number): Promise<MilestoneRow | undefined> {
  const [row] = await tx
    .delete(milestones)
    .where(and(eq(milestones.id, id), ownedBy(source)))
    .returning();
  return row;
}

/**
 * A keyset page of own milestones (GraphQL's Project.milestones) for each of several projects, in one statement (one
 * list per project, in order).
 */
export async function listProjectMilestonesPages(db: Db, projectIds: readonly number[], keyset: KeysetPage): Promise<MilestoneRow[][]> {
  const page = keysetSql(milestones.id, keyset);
  if (!projectIds.length) return [];
  const w = singleParentLimit(
    db
      .select({ wid: sql<number>`${milestones.id}`.as('wid'), rn: rowNumber(milestones.projectId, page.orderBy) })
      .from(milestones)
      .where(and(inArray(milestones.projectId, [...projectIds]), page.where))
      .$dynamic(),
    projectIds.length === 1,
    page,
  ).as('w');
  const found = await db
    .select(getTableColumns(milestones))
    .from(milestones)
    .innerJoin(w, eq(w.wid, milestones.id))
    .where(sql`${w.rn} <= ${page.limit}`)
    .orderBy(milestones.projectId, w.rn);
  return byParent(projectIds, found, (m) => m.projectId!);
}

/**
 * The search API's milestones (SearchResults#milestones): project milestones that Milestone.search matches, of one
 * project, of a group's projects (subgroups included) or of every project, among those whose issues or merge requests
 * the actor may read (ids_with_issuables_available_for), newest updated first, with the capped total in the statement.
 */
export function searchProjectMilestones(
  db: Db,
  actor: Viewer,
  within: { projectId: number } | { groupId: number } | null,
  query: string,
  limit: number,
  offset: number,
  countLimit: number,
) {
  const where = and(
    within === null ? undefined : 'projectId' in within ? eq(projects.id, within.projectId) : sql`${within.groupId} = ANY(${namespaces.traversalIds})`,
    visibleProjectsFilter(actor),
    or(featureAvailableSql(actor, projects.issuesAccessLevel), featureAvailableSql(actor, projects.mergeRequestsAccessLevel, AccessLevel.REPORTER)),
    fuzzySearch(query, [milestones.title, milestones.description]),
  );
  const total = sql<number>`(SELECT count(*) FROM (SELECT 1 FROM ${milestones} JOIN ${projects} ON ${projects.id} = ${milestones.projectId}
    JOIN ${namespaces} ON ${namespaces.id} = ${projects.namespaceId} WHERE ${where} LIMIT ${countLimit}) c)`.mapWith(Number);
  return db
    .select({ milestone: milestones, projectPath: projects.pathWithNamespace, total })
    .from(milestones)
    .innerJoin(projects, eq(projects.id, milestones.projectId))
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .where(where)
    .orderBy(desc(milestones.updatedAt), desc(milestones.id))
    .limit(limit)
    .offset(offset);
}
