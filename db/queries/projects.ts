// Project reads and writes. Reads return a "view": the project with its namespace, owner, fork source and the
// actor's access levels, in one statement, so a project endpoint costs one query after authentication.
import { and, asc, desc, eq, gt, ilike, inArray, isNull, lt, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  AccessLevel,
  activeLinkOf,
  activeMembershipOf,
  directProjectAccessSql,
  effectiveLevel,
  inheritedAccessSql,
  memberGroupIds,
  memberProjectIds,
  ownedGroupIds,
  projectAccessLevelSql,
  sharedProjectAccessSql,
  visibleProfilesFilter,
  visibleProjectsFilter,
  type Viewer,
} from './lib/access.ts';
import type { Db } from '../client.ts';
import { deletedSuffix } from './groups/namespaces.ts';
import { containsPattern, fuzzySearch } from './lib/search.ts';
import { rowNumber, singleParentLimit, keysetSql, type KeysetPage } from './lib/window.ts';
import {
  containerExpirationPolicies,
  gitCommits,
  projectComplianceFrameworkSettings,
  projectGroupLinks,
  gitRefs,
  gitTreeEntries,
  issues,
  members,
  namespaces,
  projects,
  redirectRoutes,
  repositories,
  stars,
  users,
} from '../schema/index.ts';

const sourceProject = alias(projects, 'source_project');
const sourceNamespace = alias(namespaces, 'source_namespace');

/** One entry of a project's or group's shared_with_groups (Entities::SharedGroup). */
export interface SharedWithGroup {
  group_id: number;
  group_name: string;
  group_full_path: string;
  group_access_level: number;
  expires_at: string | null;
}

function viewColumns(actor: Viewer) {
  return {
    project: projects,
    namespace: namespaces,
    owner: users,
    forkedFrom: sourceProject,
    forkedFromNamespace: sourceNamespace,
    directAccess: directProjectAccessSql(actor, projects.id),
    groupAccess: inheritedAccessSql(actor, namespaces.traversalIds),
    sharedAccess: sharedProjectAccessSql(actor, projects.id),
    // Whether the actor may read the fork's source (project:read's SQL twin, live rows only): a source it may not
    // read is left out of the entity. CASE skips the subqueries on every row that is no fork.
    forkedFromReadable:
      sql<boolean>`CASE WHEN ${sourceProject.id} IS NULL THEN false ELSE COALESCE(${visibleProjectsFilter(actor, sourceProject, sourceNamespace) ?? sql`true`}, false) END`.mapWith(
        Boolean,
      ),
    forksCount: sql<number>`(SELECT count(*) FROM ${projects} f WHERE f.forked_from_id = ${projects.id} AND f.deleted_at IS NULL)`.mapWith(Number),
    repository: repositoryFactsColumns(),
    containerExpirationPolicy: containerExpirationPolicies,
    complianceFramework: projectComplianceFrameworkSettings.framework,
    // Entities::Project's shared_with_groups: the links, oldest first.
    sharedWithGroups: sql<SharedWithGroup[]>`(SELECT COALESCE(json_agg(json_build_object('group_id', g.id, 'group_name', g.name, 'group_full_path', g.full_path,
      'group_access_level', pl.group_access, 'expires_at', pl.expires_at) ORDER BY pl.id), '[]'::json)
      FROM ${projectGroupLinks} pl JOIN ${namespaces} g ON g.id = pl.group_id AND g.deleted_at IS NULL WHERE pl.project_id = ${projects.id})`,
  };
}

/**
 * What the project entity says about its repository, as GitLab 13.6 computes it: `default_branch` is the
 * repository's HEAD (Project#default_branch reads repository.root_ref, nil while it is empty), `empty_repo` is "no
 * branch" (Repository#has_visible_content?), and the README is the root of the default branch's first blob named
 * README* (Gitlab::FileDetector's readme pattern), one with a markup extension first (Tree#readme prefers
 * previewable ones). Three small subqueries per row, each on a primary key.
 */
const repositoryFactsColumns = () => ({
  defaultBranch: sql<string | null>`(SELECT r.default_branch FROM ${repositories} r WHERE r.project_id = ${projects.id})`,
  empty: sql<boolean>`NOT EXISTS (SELECT 1 FROM ${gitRefs} g WHERE g.project_id = ${projects.id} AND left(g.name, 11) = 'refs/heads/')`.mapWith(Boolean),
  readmePath: sql<string | null>`(SELECT encode(e.name, 'escape') FROM ${repositories} r
    JOIN ${gitRefs} g ON g.project_id = r.project_id AND g.name = 'refs/heads/' || r.default_branch
    JOIN ${gitCommits} c ON c.pool_id = r.pool_id AND c.oid = g.oid
    JOIN ${gitTreeEntries} e ON e.pool_id = r.pool_id AND e.tree_oid = c.tree_oid
    WHERE r.project_id = ${projects.id} AND ltrim(e.mode, '0') NOT IN ('40000', '160000')
      AND encode(e.name, 'escape') ~* '^readme'
    ORDER BY encode(e.name, 'escape') !~* '[.](md|markdown|mdown|mkd|mkdn|rdoc|adoc|asciidoc|ad|textile|rst|org|creole|wiki|mediawiki|pod|rmd)$', e.name LIMIT 1)`,
});

function viewQuery(db: Db, actor: Viewer) {
  return (
    db
      .select(viewColumns(actor))
      .from(projects)
      .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
      .leftJoin(users, and(eq(namespaces.kind, 'user'), eq(users.id, namespaces.ownerId)))
      .leftJoin(sourceProject, eq(sourceProject.id, projects.forkedFromId))
      .leftJoin(sourceNamespace, eq(sourceNamespace.id, sourceProject.namespaceId))
      // The project's container expiration policy (null until first changed: the defaults apply).
      .leftJoin(containerExpirationPolicies, eq(containerExpirationPolicies.projectId, projects.id))
      .leftJoin(projectComplianceFrameworkSettings, eq(projectComplianceFrameworkSettings.projectId, projects.id))
      .$dynamic()
  );
}

type ViewRow = Awaited<ReturnType<ReturnType<typeof viewQuery>['execute']>>[number];

/** Adds the effective access level; drops the fork source the actor may not read. */
function toView(row: ViewRow) {
  const { forkedFromReadable, ...rest } = row;
  return {
    ...rest,
    forkedFrom: forkedFromReadable ? row.forkedFrom : null,
    forkedFromNamespace: forkedFromReadable ? row.forkedFromNamespace : null,
    accessLevel: effectiveLevel(row.directAccess, row.groupAccess, row.sharedAccess),
  };
}

export type ProjectView = ReturnType<typeof toView>;

export type ProjectLookup = { id?: number | undefined; path?: string | undefined };

/**
 * THE predicate for "the live project this ref names": by id, or by full path without regard to case, neither it
 * nor its namespace deleted. Needs `projects` joined with `namespaces`.
 */
export const liveProjectByRef = (ref: ProjectLookup): SQL =>
  and(
    ref.id !== undefined ? eq(projects.id, ref.id) : sql`lower(${projects.pathWithNamespace}) = lower(${ref.path!})`,
    isNull(projects.deletedAt),
    isNull(namespaces.deletedAt),
  )!;

/** The live project named by id or full path (case-insensitive), with everything its entity and policy need. */
export async function findProjectView(db: Db, actor: Viewer, ref: ProjectLookup) {
  const [row] = await projectViewQuery(db, actor, ref);
  return row ? toView(row) : undefined;
}

/** findProjectView as a statement for a batch (`ctx.batch`); its rows go through `toProjectView`. */
export const projectViewQuery = (db: Db, actor: Viewer, ref: ProjectLookup) => viewQuery(db, actor).where(liveProjectByRef(ref)).limit(1);
export const toProjectView = (row: ViewRow) => toView(row);

export interface ProjectListFilter {
  owned?: boolean | undefined;
  starred?: boolean | undefined;
  membership?: boolean | undefined;
  search?: string | undefined;
  visibility?: number | undefined;
  archived?: boolean | undefined;
  minAccessLevel?: number | undefined;
  namespaceIds?: SQL | undefined;
  /** Projects shared with this group (project_group_links): alone, or besides `namespaceIds` (GitLab's with_shared). */
  sharedWithGroupId?: number | undefined;
  forkedFromId?: number | undefined;
  /** Projects this user starred (GET /users/:id/starred_projects). */
  starredBy?: number | undefined;
  /** Projects in this user's personal namespace (GET /users/:id/projects). */
  personalOf?: number | undefined;
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

function listWhere(actor: Viewer, f: ProjectListFilter): SQL | undefined {
  const userId = actor.user?.id ?? 0;
  return and(
    visibleProjectsFilter(actor),
    // owned: GitLab's User#owned_projects, the personal namespace's projects and those the user holds as Owner.
    // Array tests, not the access level of every visible row (a per-row subquery over every public project).
    f.owned ? or(and(eq(namespaces.kind, 'user'), eq(namespaces.ownerId, userId)), sql`${namespaces.traversalIds} && ${ownedGroupIds(userId)}`) : undefined,
    f.starred ? sql`EXISTS (SELECT 1 FROM ${stars} WHERE ${stars.projectId} = ${projects.id} AND ${stars.userId} = ${userId})` : undefined,
    f.starredBy !== undefined ? sql`EXISTS (SELECT 1 FROM ${stars} WHERE ${stars.projectId} = ${projects.id} AND ${stars.userId} = ${f.starredBy})` : undefined,
    f.personalOf !== undefined ? and(eq(namespaces.kind, 'user'), eq(namespaces.ownerId, f.personalOf)) : undefined,
    f.membership || f.minAccessLevel
      ? or(inArray(projects.id, memberProjectIds(userId)), sql`${namespaces.traversalIds} && ${memberGroupIds(userId)}`)
      : undefined,
    f.minAccessLevel ? sql`${projectAccessLevelSql(actor)} >= ${f.minAccessLevel}` : undefined,
    // Project.search: fuzzy over path, name and description.
    f.search ? fuzzySearch(f.search, [projects.path, projects.name, projects.description]) : undefined,
    f.visibility !== undefined ? eq(projects.visibilityLevel, f.visibility) : undefined,
    f.archived !== undefined ? eq(projects.archived, f.archived) : undefined,
    or(
      f.namespaceIds ? sql`${projects.namespaceId} IN (${f.namespaceIds})` : undefined,
      f.sharedWithGroupId !== undefined
        ? sql`${projects.id} IN (SELECT ${projectGroupLinks.projectId} FROM ${projectGroupLinks} WHERE ${projectGroupLinks.groupId} = ${f.sharedWithGroupId})`
        : undefined,
    ),
    f.forkedFromId !== undefined ? eq(projects.forkedFromId, f.forkedFromId) : undefined,
    f.idAfter !== undefined ? gt(projects.id, f.idAfter) : undefined,
    f.idBefore !== undefined ? lt(projects.id, f.idBefore) : undefined,
  );
}

export async function listProjectViews(db: Db, actor: Viewer, f: ProjectListFilter, order: ProjectOrder, limit: number, offset = 0) {
  const dir = order.sort === 'asc' ? asc : desc;
  const rows = await viewQuery(db, actor).where(listWhere(actor, f)).orderBy(dir(ORDER_COLUMNS[order.by]), dir(projects.id)).limit(limit).offset(offset);
  return rows.map((row) => toView(row));
}

/** Counts at most `limit` rows: past that the total is not reported (GitLab's 10,000 cap). */
export async function countProjects(db: Db, actor: Viewer, f: ProjectListFilter, limit: number) {
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

/**
 * The live project a former full path redirects to (redirect_routes, kept by triggers on projects), matched as
 * paths are: case-insensitively.
 */
export async function findRedirectedProjectId(db: Db, path: string): Promise<number | null> {
  const [row] = await db
    .select({ id: redirectRoutes.projectId })
    .from(redirectRoutes)
    .innerJoin(projects, and(eq(projects.id, redirectRoutes.projectId), isNull(projects.deletedAt)))
    .where(sql`lower(${redirectRoutes.path}) = lower(${path})`);
  return row?.id ?? null;
}

/** Marks the project a fork of `sourceId` unless it already is one; false when it was. */
export async function linkFork(db: Db, projectId: number, sourceId: number) {
  const rows = await db
    .update(projects)
    .set({ forkedFromId: sourceId, updatedAt: sql`now()` })
    .where(and(eq(projects.id, projectId), isNull(projects.forkedFromId)))
    .returning({ id: projects.id });
  return rows.length > 0;
}

/** Removes the project's fork relation; false when it had none. */
export async function unlinkFork(db: Db, projectId: number) {
  const rows = await db
    .update(projects)
    .set({ forkedFromId: null, updatedAt: sql`now()` })
    .where(and(eq(projects.id, projectId), sql`${projects.forkedFromId} IS NOT NULL`))
    .returning({ id: projects.id });
  return rows.length > 0;
}

/** Whether a live project of the namespace has this path or name (case-insensitively). */
export async function projectNamedIn(db: Db, namespaceId: number, path: string, name: string) {
  const [row] = await db
    .select({ id: projects.id })
    .from(projects)
    .where(
      and(
        eq(projects.namespaceId, namespaceId),
        isNull(projects.deletedAt),
        or(sql`lower(${projects.path}) = lower(${path})`, sql`lower(${projects.name}) = lower(${name})`),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function insertProject(tx: Db, values: typeof projects.$inferInsert) {
  const [row] = await tx.insert(projects).values(values).returning();
  return row!;
}

/** Updates the project's columns; `settings` are merged key by key into the stored ones (one statement, no lost update). */
export async function updateProject(tx: Db, id: number, values: Partial<typeof projects.$inferInsert>, settings: Record<string, unknown> = {}) {
  const { settings: _whole, ...columns } = values;
  const merged = Object.keys(settings).length > 0 ? { settings: sql`${projects.settings} || ${JSON.stringify(settings)}::jsonb` } : {};
  const [row] = await tx
    .update(projects)
    .set({ ...columns, ...merged, updatedAt: sql`now()` })
    .where(eq(projects.id, id))
    .returning();
  return row!;
}

/**
 * Hides the project at once and frees its path and name (renamed with deletedSuffix, in the same statement); its
 * project_destroy job purges its rows later. A statement, for the batch that enqueues that job.
 */
export function markProjectDeleted(db: Db, id: number) {
  const suffix = deletedSuffix(id);
  return db
    .update(projects)
    .set({
      deletedAt: sql`now()`,
      path: sql`${projects.path} || ${suffix}`,
      name: sql`${projects.name} || ${suffix}`,
      pathWithNamespace: sql`${projects.pathWithNamespace} || ${suffix}`,
    })
    .where(and(eq(projects.id, id), isNull(projects.deletedAt)));
}

/** Adds a star; returns false when it was already there. The counter moves in the same statement batch. */
export async function addStar(tx: Db, userId: number, projectId: number) {
  const inserted = await tx.insert(stars).values({ userId, projectId }).onConflictDoNothing().returning();
  if (inserted.length === 0) return false;
  await tx
    .update(projects)
    .set({ starCount: sql`${projects.starCount} + 1` })
    .where(eq(projects.id, projectId));
  return true;
}

export async function removeStar(tx: Db, userId: number, projectId: number) {
  const removed = await tx
    .delete(stars)
    .where(and(eq(stars.userId, userId), eq(stars.projectId, projectId)))
    .returning();
  if (removed.length === 0) return false;
  await tx
    .update(projects)
    .set({ starCount: sql`greatest(${projects.starCount} - 1, 0)` })
    .where(eq(projects.id, projectId));
  return true;
}

function starrersWhere(actor: Viewer, projectId: number, search: string | undefined) {
  const pattern = search ? containsPattern(search) : undefined;
  // GitLab's UsersStarProjectsFinder: only starrers whose profile the caller may see.
  return and(
    eq(stars.projectId, projectId),
    visibleProfilesFilter(actor),
    pattern ? or(ilike(users.username, pattern), ilike(users.name, pattern)) : undefined,
  );
}

export function listStarrers(db: Db, actor: Viewer, projectId: number, search: string | undefined, limit: number, offset: number) {
  return db
    .select({ starredSince: stars.createdAt, user: users })
    .from(stars)
    .innerJoin(users, eq(users.id, stars.userId))
    .where(starrersWhere(actor, projectId, search))
    .orderBy(desc(stars.createdAt), desc(stars.userId))
    .limit(limit)
    .offset(offset);
}

export async function countStarrers(db: Db, actor: Viewer, projectId: number, search: string | undefined, limit: number) {
  const sub = db
    .select({ one: sql`1` })
    .from(stars)
    .innerJoin(users, eq(users.id, stars.userId))
    .where(starrersWhere(actor, projectId, search))
    .limit(limit)
    .as('c');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sub);
  return Number(row?.n ?? 0);
}

/**
 * Whether the `users` row in scope is on the project's team (ProjectTeam#members): a membership of the project, of one
 * of its groups, or of a group it is shared with (direct or inherited there), not expired.
 */
export function teamMemberSql(project: { id: number; traversalIds: number[] }): SQL {
  const groups = project.traversalIds.length
    ? sql`${sql.join(
        project.traversalIds.map((id) => sql`${id}`),
        sql`, `,
      )}`
    : sql`NULL`;
  return sql`EXISTS (SELECT 1 FROM ${members} m WHERE m.user_id = ${users.id} AND ${activeMembershipOf('m')} AND (
      (m.source_type = 'Project' AND m.source_id = ${project.id})
      OR (m.source_type = 'Namespace' AND m.source_id IN (${groups}))
      OR (m.source_type = 'Namespace' AND m.source_id IN (SELECT unnest(g.traversal_ids) FROM ${projectGroupLinks} pl JOIN ${namespaces} g ON g.id = pl.group_id
        WHERE pl.project_id = ${project.id} AND ${activeLinkOf('pl')})))
    )`;
}

/** The project's team (ProjectTeam#users): its active members (teamMemberSql). */
function teamWhere(project: { id: number; traversalIds: number[] }, f: { search?: string | undefined; skip?: number[] | undefined }) {
  const pattern = f.search ? containsPattern(f.search) : undefined;
  return and(
    eq(users.state, 'active'),
    teamMemberSql(project),
    pattern ? or(ilike(users.username, pattern), ilike(users.name, pattern)) : undefined,
    f.skip?.length ? notInArray(users.id, f.skip) : undefined,
  );
}

export function listTeamUsers(
  db: Db,
  project: { id: number; traversalIds: number[] },
  f: { search?: string | undefined; skip?: number[] | undefined },
  limit: number,
  offset: number,
) {
  return db.select().from(users).where(teamWhere(project, f)).orderBy(asc(users.id)).limit(limit).offset(offset);
}

export async function countTeamUsers(
  db: Db,
  project: { id: number; traversalIds: number[] },
  f: { search?: string | undefined; skip?: number[] | undefined },
  limit: number,
) {
  const sub = db
    .select({ one: sql`1` })
    .from(users)
    .where(teamWhere(project, f))
    .limit(limit)
    .as('c');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sub);
  return Number(row?.n ?? 0);
}

/**
 * One keyset page of the projects the actor may read (GraphQL connections): the list filters, the page's id
 * condition and order, in one statement. `searchNamespaces` widens `search` to the namespace's path and name
 * (GitLab's `Project.search(include_namespace: true)`); `ids` narrows to those projects.
 */
export async function listProjectViewsPage(
  db: Db,
  actor: Viewer,
  f: ProjectListFilter & { ids?: number[] | undefined; searchNamespaces?: boolean | undefined },
  keyset: KeysetPage,
) {
  const page = keysetSql(projects.id, keyset);
  const { ids, searchNamespaces, ...filter } = f;
  // Project.search(include_namespace: true): the route's path and name stand for path and name.
  const withNamespace = searchNamespaces && filter.search ? filter.search : undefined;
  const rows = await viewQuery(db, actor)
    .where(
      and(
        listWhere(actor, withNamespace ? { ...filter, search: undefined } : filter),
        ids ? (ids.length ? inArray(projects.id, ids) : sql`false`) : undefined,
        withNamespace
          ? fuzzySearch(withNamespace, [projects.pathWithNamespace, sql`${namespaces.name} || ' / ' || ${projects.name}`, projects.description])
          : undefined,
        page.where,
      ),
    )
    .orderBy(page.orderBy)
    .limit(page.limit);
  return rows.map((row) => toView(row));
}

/**
 * The same keyset page for each of several filters (Group.projects under a list of groups: one filter per group), in
 * one statement: each filter's readable projects numbered in the page's order (one window per filter, joined by
 * UNION ALL), the first `page.limit` of each kept. One list per filter, in the order asked.
 */
export async function listProjectViewsPages(db: Db, actor: Viewer, filters: readonly ProjectListFilter[], keyset: KeysetPage): Promise<ProjectView[][]> {
  const page = keysetSql(projects.id, keyset);
  const branches = filters.map((f, i) =>
    singleParentLimit(
      db
        .select({ parent: sql<number>`${i}::int`.as('parent'), wid: sql<number>`${projects.id}`.as('wid'), rn: rowNumber(undefined, page.orderBy) })
        .from(projects)
        .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
        .where(and(listWhere(actor, f), page.where))
        .$dynamic(),
      true,
      page,
    ),
  );
  const [first, ...rest] = branches;
  if (!first) return [];
  let all = first;
  for (const b of rest) all = all.unionAll(b) as typeof first;
  const w = all.as('w');
  // viewQuery's joins, with the window's parent beside the view's columns.
  const found = await db
    .select({ ...viewColumns(actor), parent: w.parent })
    .from(projects)
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .leftJoin(users, and(eq(namespaces.kind, 'user'), eq(users.id, namespaces.ownerId)))
    .leftJoin(sourceProject, eq(sourceProject.id, projects.forkedFromId))
    .leftJoin(sourceNamespace, eq(sourceNamespace.id, sourceProject.namespaceId))
    .leftJoin(containerExpirationPolicies, eq(containerExpirationPolicies.projectId, projects.id))
    .leftJoin(projectComplianceFrameworkSettings, eq(projectComplianceFrameworkSettings.projectId, projects.id))
    .innerJoin(w, eq(w.wid, projects.id))
    .where(sql`${w.rn} <= ${page.limit}`)
    .orderBy(w.parent, w.rn);
  const lists = filters.map((): ProjectView[] => []);
  for (const { parent, ...row } of found) lists[Number(parent)]!.push(toView(row));
  return lists;
}

/** Open issues of each project, all of them and the non-confidential ones (GitLab's OpenIssuesCountService). */
export async function openIssuesCounts(db: Db, projectIds: readonly number[]) {
  if (!projectIds.length) return [];
  return db
    .select({
      id: issues.projectId,
      all: sql<number>`count(*)::int`.mapWith(Number),
      public: sql<number>`(count(*) FILTER (WHERE NOT ${issues.confidential}))::int`.mapWith(Number),
    })
    .from(issues)
    .where(and(inArray(issues.projectId, [...projectIds]), eq(issues.state, 'opened')))
    .groupBy(issues.projectId);
}

/** The projects the actor may read among `ids` (GraphQL loads a member's or an issue's project in one query). */
export async function findProjectViewsByIds(db: Db, actor: Viewer, ids: readonly number[]) {
  if (!ids.length) return [];
  const rows = await viewQuery(db, actor).where(and(visibleProjectsFilter(actor), inArray(projects.id, [...ids])));
  return rows.map((row) => toView(row));
}
