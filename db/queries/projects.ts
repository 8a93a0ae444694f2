// Project reads and writes. Reads return a "view": the project with its namespace, owner, fork source and the
// actor's access levels, in one statement, so a project endpoint costs one query after authentication.
import { and, asc, desc, eq, gt, ilike, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Actor } from '../../functions/lib/context.ts';
import { memberGroupIds, memberProjectIds, projectAccessLevelSql, visibleProjectsFilter } from '../../functions/lib/policy.ts';
import type { Db } from '../client.ts';
import { members, namespaces, projects, stars, users } from '../schema/index.ts';

const sourceProject = alias(projects, 'source_project');
const sourceNamespace = alias(namespaces, 'source_namespace');

const activeMembership = sql`(${members.expiresAt} IS NULL OR ${members.expiresAt} > current_date)`;

/** The actor's direct project membership level (null when none). */
const directAccessSql = (actor: Actor) =>
  actor.user
    ? sql<number | null>`(SELECT max(${members.accessLevel}) FROM ${members} WHERE ${members.userId} = ${actor.user.id} AND ${activeMembership} AND ${members.sourceType} = 'Project' AND ${members.sourceId} = ${projects.id})`.mapWith((v) => (v == null ? null : Number(v)))
    : sql<number | null>`NULL`.mapWith((v) => (v == null ? null : Number(v)));

/** The actor's level through the project's group and its ancestors (null when none). */
const groupAccessSql = (actor: Actor) =>
  actor.user
    ? sql<number | null>`(SELECT max(${members.accessLevel}) FROM ${members} WHERE ${members.userId} = ${actor.user.id} AND ${activeMembership} AND ${members.sourceType} = 'Namespace' AND ${members.sourceId} = ANY(${namespaces.traversalIds}) AND ${namespaces.kind} = 'group')`.mapWith((v) => (v == null ? null : Number(v)))
    : sql<number | null>`NULL`.mapWith((v) => (v == null ? null : Number(v)));

function viewColumns(actor: Actor) {
  return {
    project: projects,
    namespace: namespaces,
    owner: users,
    forkedFrom: sourceProject,
    forkedFromNamespace: sourceNamespace,
    directAccess: directAccessSql(actor),
    groupAccess: groupAccessSql(actor),
    forksCount: sql<number>`(SELECT count(*) FROM ${projects} f WHERE f.forked_from_id = ${projects.id} AND f.deleted_at IS NULL)`.mapWith(Number),
  };
}

function viewQuery(db: Db, actor: Actor) {
  return db
    .select(viewColumns(actor))
    .from(projects)
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .leftJoin(users, and(eq(namespaces.kind, 'user'), eq(users.id, namespaces.ownerId)))
    .leftJoin(sourceProject, eq(sourceProject.id, projects.forkedFromId))
    .leftJoin(sourceNamespace, eq(sourceNamespace.id, sourceProject.namespaceId))
    .$dynamic();
}

type ViewRow = Awaited<ReturnType<ReturnType<typeof viewQuery>['execute']>>[number];

/** Effective access = the higher of direct and inherited (two index lookups per row, combined here). */
const withAccess = (row: ViewRow) => Object.assign(row, { accessLevel: Math.max(row.directAccess ?? 0, row.groupAccess ?? 0) });

export type ProjectView = ReturnType<typeof withAccess>;

/** The live project named by id or full path (case-insensitive), with everything its entity and policy need. */
export async function findProjectView(db: Db, actor: Actor, ref: { id?: number | undefined; path?: string | undefined }) {
  const [row] = await viewQuery(db, actor)
    .where(
      and(
        ref.id !== undefined ? eq(projects.id, ref.id) : sql`lower(${projects.pathWithNamespace}) = lower(${ref.path!})`,
        isNull(projects.deletedAt),
        isNull(namespaces.deletedAt),
      ),
    )
    .limit(1);
  return row ? withAccess(row) : undefined;
}

export interface ProjectListFilter {
  owned?: boolean | undefined;
  starred?: boolean | undefined;
  membership?: boolean | undefined;
  search?: string | undefined;
  visibility?: number | undefined;
  archived?: boolean | undefined;
  minAccessLevel?: number | undefined;
  namespaceIds?: SQL | undefined;
  forkedFromId?: number | undefined;
  starredBy?: number | undefined;
  idAfter?: number | undefined;
  idBefore?: number | undefined;
}

const ORDER_COLUMNS = {
  id: projects.id,
  name: projects.name,
  path: projects.path,
  created_at: projects.createdAt,
  updated_at: projects.updatedAt,
  last_activity_at: projects.lastActivityAt,
};
export type ProjectOrder = { by: keyof typeof ORDER_COLUMNS; sort: 'asc' | 'desc' };

function listWhere(actor: Actor, f: ProjectListFilter): SQL | undefined {
  const userId = actor.user?.id ?? 0;
  const pattern = f.search ? `%${f.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%` : undefined;
  return and(
    visibleProjectsFilter(actor),
    // owned: projects in the user's personal namespace (GitLab's `owned` = the user's namespace projects).
    f.owned ? and(eq(namespaces.kind, 'user'), eq(namespaces.ownerId, userId)) : undefined,
    f.starred ? sql`EXISTS (SELECT 1 FROM ${stars} WHERE ${stars.projectId} = ${projects.id} AND ${stars.userId} = ${userId})` : undefined,
    f.membership || f.minAccessLevel
      ? or(inArray(projects.id, memberProjectIds(userId)), sql`${namespaces.traversalIds} && ${memberGroupIds(userId)}`)
      : undefined,
    f.minAccessLevel ? sql`${projectAccessLevelSql(actor)} >= ${f.minAccessLevel}` : undefined,
    pattern ? or(ilike(projects.name, pattern), ilike(projects.path, pattern), ilike(projects.description, pattern)) : undefined,
    f.visibility !== undefined ? eq(projects.visibilityLevel, f.visibility) : undefined,
    f.archived !== undefined ? eq(projects.archived, f.archived) : undefined,
    f.namespaceIds ? sql`${projects.namespaceId} IN (${f.namespaceIds})` : undefined,
    f.forkedFromId !== undefined ? eq(projects.forkedFromId, f.forkedFromId) : undefined,
    f.idAfter !== undefined ? gt(projects.id, f.idAfter) : undefined,
    f.idBefore !== undefined ? lt(projects.id, f.idBefore) : undefined,
  );
}

export async function listProjectViews(db: Db, actor: Actor, f: ProjectListFilter, order: ProjectOrder, limit: number, offset = 0) {
  const dir = order.sort === 'asc' ? asc : desc;
  const rows = await viewQuery(db, actor)
    .where(listWhere(actor, f))
    .orderBy(dir(ORDER_COLUMNS[order.by]), dir(projects.id))
    .limit(limit)
    .offset(offset);
  return rows.map(withAccess);
}

/** Counts at most `limit` rows: past that the total is not reported (GitLab's 10,000 cap). */
export async function countProjects(db: Db, actor: Actor, f: ProjectListFilter, limit: number) {
  const sub = db
    .select({ one: sql`1` })
    .from(projects)
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .where(listWhere(actor, f))
    .limit(limit)
    .as('c');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sub);
  return Number(row?.n ?? 0);
}

export async function insertProject(tx: Db, values: typeof projects.$inferInsert) {
  const [row] = await tx.insert(projects).values(values).returning();
  return row!;
}

export async function updateProject(tx: Db, id: number, values: Partial<typeof projects.$inferInsert>) {
  const [row] = await tx.update(projects).set({ ...values, updatedAt: sql`now()` }).where(eq(projects.id, id)).returning();
  return row!;
}

/** Hides the project at once; the housekeeping job purges its rows later. */
export async function markProjectDeleted(db: Db, id: number) {
  await db.update(projects).set({ deletedAt: sql`now()` }).where(and(eq(projects.id, id), isNull(projects.deletedAt)));
}

export async function pathWithNamespaceTaken(db: Db, fullPath: string) {
  const rows = await db.select({ id: projects.id }).from(projects).where(sql`lower(${projects.pathWithNamespace}) = lower(${fullPath})`).limit(1);
  return rows.length > 0;
}

/** Adds a star; returns false when it was already there. The counter moves in the same statement batch. */
export async function addStar(tx: Db, userId: number, projectId: number) {
  const inserted = await tx.insert(stars).values({ userId, projectId }).onConflictDoNothing().returning();
  if (inserted.length === 0) return false;
  await tx.update(projects).set({ starCount: sql`${projects.starCount} + 1` }).where(eq(projects.id, projectId));
  return true;
}

export async function removeStar(tx: Db, userId: number, projectId: number) {
  const removed = await tx.delete(stars).where(and(eq(stars.userId, userId), eq(stars.projectId, projectId))).returning();
  if (removed.length === 0) return false;
  await tx.update(projects).set({ starCount: sql`greatest(${projects.starCount} - 1, 0)` }).where(eq(projects.id, projectId));
  return true;
}

export function listStarrers(db: Db, projectId: number, search: string | undefined, limit: number, offset: number) {
  const pattern = search ? `%${search.replace(/[\\%_]/g, (m) => `\\${m}`)}%` : undefined;
  return db
    .select({ starredSince: stars.createdAt, user: users })
    .from(stars)
    .innerJoin(users, eq(users.id, stars.userId))
    .where(and(eq(stars.projectId, projectId), pattern ? or(ilike(users.username, pattern), ilike(users.name, pattern)) : undefined))
    .orderBy(desc(stars.createdAt), desc(stars.userId))
    .limit(limit)
    .offset(offset);
}

export async function countStarrers(db: Db, projectId: number, search: string | undefined) {
  const pattern = search ? `%${search.replace(/[\\%_]/g, (m) => `\\${m}`)}%` : undefined;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(stars)
    .innerJoin(users, eq(users.id, stars.userId))
    .where(and(eq(stars.projectId, projectId), pattern ? or(ilike(users.username, pattern), ilike(users.name, pattern)) : undefined));
  return Number(row?.n ?? 0);
}

export async function addProjectMember(tx: Db, projectId: number, userId: number, accessLevel: number, createdById: number) {
  await tx.insert(members).values({ sourceType: 'Project', sourceId: projectId, userId, accessLevel, createdById });
}
