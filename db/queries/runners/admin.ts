// The runner administration API's queries (GET /runners, /runners/all, /runners/:id, /projects/:id/runners,
// /groups/:id/runners): the listings' scopes and filters, RunnerPolicy's facts and the SQL twin of its owned_runner,
// RunnerDetails' projects and groups, and the changes (update, delete, enable in a project, disable).
import { and, asc, count, eq, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { AccessLevel, activeMembershipOf, isAdmin, memberGroupIds, memberProjectIds, projectAccessLevelSql, type Viewer } from '../lib/access.ts';
import type { Db } from '../../client.ts';
import { ciRunnerNamespaces, ciRunnerProjects, ciRunners, members, namespaces, projects, type RunnerRow } from '../../schema/index.ts';
import { textArray } from '../lib/raw.ts';

/**
 * Which runners a listing covers: every one, those the actor owns, those a project may use (Ci::Runner
 * .owned_or_instance_wide: its own, its groups' and the instance's), or a group's and its ancestors' group runners
 * (Ci::Runner.belonging_to_group with include_ancestors).
 */
export type RunnerScope = { kind: 'all' } | { kind: 'owned'; actor: Viewer } | { kind: 'project'; projectId: number } | { kind: 'group'; groupId: number };

export interface RunnerFilter {
  type?: 'instance_type' | 'group_type' | 'project_type' | undefined;
  /** GitLab's statuses (and the deprecated `scope` values): active, paused, online, offline, specific, shared. */
  status?: 'active' | 'paused' | 'online' | 'offline' | 'specific' | 'shared' | undefined;
  tagList?: string[] | undefined;
}

const rp = alias(ciRunnerProjects, 'rp');
const rpProject = alias(projects, 'rp_project');
const rpNamespace = alias(namespaces, 'rp_namespace');

/** The actor's highest level over the runner's projects (a project runner's owners are its projects' maintainers). */
const runnerProjectLevelSql = (actor: Viewer) =>
  sql<number>`COALESCE((SELECT max(${projectAccessLevelSql(actor, rpProject, rpNamespace)}) FROM ${ciRunnerProjects} AS rp
    JOIN ${projects} AS rp_project ON ${rpProject.id} = ${rp.projectId} AND ${rpProject.deletedAt} IS NULL
    JOIN ${namespaces} AS rp_namespace ON ${rpNamespace.id} = ${rpProject.namespaceId}
    WHERE ${rp.runnerId} = ${ciRunners.id}), 0)`.mapWith(Number);

/**
 * The actor's own membership level over a group runner's group, in it or one of its ancestors (a group runner's
 * owners are the owners of its group and of the groups above it: User#ci_owned_runners takes the owned groups and
 * their descendants). Shares make no owner.
 */
const runnerGroupLevelSql = (actor: Viewer) =>
  actor.user
    ? sql<number>`COALESCE((SELECT max(m.access_level) FROM ${ciRunnerNamespaces} rn
        JOIN ${namespaces} rg ON rg.id = rn.namespace_id AND rg.deleted_at IS NULL
        JOIN ${members} m ON m.source_type = 'Namespace' AND m.source_id = ANY(rg.traversal_ids) AND m.user_id = ${actor.user.id} AND ${activeMembershipOf('m')}
        WHERE rn.runner_id = ${ciRunners.id}), 0)`.mapWith(Number)
    : sql<number>`0`.mapWith(Number);

/** What makes the actor an owner of the runner (RunnerFacts.ownerLevel): its group's level or its projects'. */
export const runnerOwnerLevelSql = (actor: Viewer) =>
  sql<number>`(CASE WHEN ${ciRunners.runnerType} = 'group_type' THEN ${runnerGroupLevelSql(actor)} ELSE ${runnerProjectLevelSql(actor)} END)`.mapWith(Number);

/** The SQL twin of RunnerPolicy's owned_runner (lib/policy.ts): group runners to Owners, the others to Maintainers. */
const ownedRunnerSql = (actor: Viewer) =>
  sql`(CASE WHEN ${ciRunners.runnerType} = 'group_type' THEN ${runnerGroupLevelSql(actor)} >= ${AccessLevel.OWNER}
    ELSE ${runnerProjectLevelSql(actor)} >= ${AccessLevel.MAINTAINER} END)`;

/** Online: contacted within the last hour (Ci::Runner::ONLINE_CONTACT_TIMEOUT). */
const online = sql`(${ciRunners.contactedAt} IS NOT NULL AND ${ciRunners.contactedAt} > now() - interval '1 hour')`;

function runnerWhere(scope: RunnerScope, f: RunnerFilter) {
  return and(
    scope.kind === 'owned'
      ? ownedRunnerSql(scope.actor)
      : scope.kind === 'project'
        ? or(
            eq(ciRunners.runnerType, 'instance_type'),
            sql`EXISTS (SELECT 1 FROM ${ciRunnerProjects} WHERE ${ciRunnerProjects.runnerId} = ${ciRunners.id} AND ${ciRunnerProjects.projectId} = ${scope.projectId})`,
            sql`EXISTS (SELECT 1 FROM ${ciRunnerNamespaces} rn, ${projects} lp JOIN ${namespaces} ln ON ln.id = lp.namespace_id
              WHERE lp.id = ${scope.projectId} AND rn.runner_id = ${ciRunners.id} AND rn.namespace_id = ANY(ln.traversal_ids))`,
          )
        : scope.kind === 'group'
          ? sql`EXISTS (SELECT 1 FROM ${ciRunnerNamespaces} rn, ${namespaces} lg
              WHERE lg.id = ${scope.groupId} AND rn.runner_id = ${ciRunners.id} AND rn.namespace_id = ANY(lg.traversal_ids))`
          : undefined,
    f.type ? eq(ciRunners.runnerType, f.type) : undefined,
    f.status === 'active' ? eq(ciRunners.active, true) : undefined,
    f.status === 'paused' ? eq(ciRunners.active, false) : undefined,
    f.status === 'online' ? online : undefined,
    f.status === 'offline' ? sql`NOT ${online}` : undefined,
    f.status === 'specific' ? sql`${ciRunners.runnerType} <> 'instance_type'` : undefined,
    f.status === 'shared' ? eq(ciRunners.runnerType, 'instance_type') : undefined,
    f.tagList?.length ? sql`${ciRunners.tagList} @> ${textArray(f.tagList)}` : undefined,
  );
}

export const listRunners = (db: Db, scope: RunnerScope, f: RunnerFilter, limit: number, offset: number): Promise<RunnerRow[]> =>
  db.select().from(ciRunners).where(runnerWhere(scope, f)).orderBy(asc(ciRunners.id)).limit(limit).offset(offset);

export async function countRunners(db: Db, scope: RunnerScope, f: RunnerFilter, limit: number) {
  const [row] = await db.select({ n: count() }).from(db.select({ id: ciRunners.id }).from(ciRunners).where(runnerWhere(scope, f)).limit(limit).as('c'));
  return row?.n ?? 0;
}

/** The runner with the actor's level over it (its projects' or its group's) and its number of projects (RunnerPolicy's facts). */
export async function findRunnerFacts(db: Db, actor: Viewer, id: number) {
  const [row] = await db
    // Nested in an outer sql`(...)`: drizzle strips table names from a single-table select's top-level columns, and
    // an unqualified "id" inside would be ambiguous.
    .select({
      runner: ciRunners,
      ownerLevel: sql<number>`(${runnerOwnerLevelSql(actor)})`.mapWith(Number),
      projectCount: sql<number>`(${sql`SELECT count(*) FROM ${ciRunnerProjects} WHERE ${ciRunnerProjects.runnerId} = ${ciRunners.id}`})`.mapWith(Number),
    })
    .from(ciRunners)
    .where(eq(ciRunners.id, id));
  return row;
}

/**
 * RunnerDetails' projects: the live projects the runner serves, those the actor is authorized in for anyone but an
 * administrator, with their forks count.
 */
export const runnerProjects = (db: Db, actor: Viewer, runnerId: number) =>
  db
    .select({
      project: projects,
      namespace: namespaces,
      forksCount: sql<number>`(SELECT count(*) FROM ${projects} f WHERE f.forked_from_id = ${projects.id} AND f.deleted_at IS NULL)`.mapWith(Number),
    })
    .from(ciRunnerProjects)
    .innerJoin(projects, and(eq(projects.id, ciRunnerProjects.projectId), isNull(projects.deletedAt)))
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .where(and(eq(ciRunnerProjects.runnerId, runnerId), isAdmin(actor) ? undefined : sql`${projectAccessLevelSql(actor)} > 0`))
    .orderBy(asc(ciRunnerProjects.id));

/**
 * RunnerDetails' groups: the runner's live group, for anyone but an administrator only when it is one of the actor's
 * authorized groups (User#authorized_groups: a member of it, directly or through a group it is shared with, or of a
 * project in it, directly, through a share, or inherited from a group above).
 */
export const runnerGroups = (db: Db, actor: Viewer, runnerId: number) =>
  db
    .select({ namespace: namespaces })
    .from(ciRunnerNamespaces)
    .innerJoin(namespaces, and(eq(namespaces.id, ciRunnerNamespaces.namespaceId), isNull(namespaces.deletedAt)))
    .where(and(eq(ciRunnerNamespaces.runnerId, runnerId), isAdmin(actor) ? undefined : authorizedGroupSql(actor)))
    .orderBy(asc(ciRunnerNamespaces.id));

function authorizedGroupSql(actor: Viewer) {
  if (!actor.user) return sql`false`;
  const groupIds = memberGroupIds(actor.user.id);
  return sql`(${namespaces.id} = ANY(${groupIds}) OR EXISTS (SELECT 1 FROM ${projects} ap WHERE ap.namespace_id = ${namespaces.id} AND ap.deleted_at IS NULL
    AND (${namespaces.traversalIds} && ${groupIds} OR ap.id IN ${memberProjectIds(actor.user.id)})))`;
}

export async function updateRunner(
  db: Db,
  id: number,
  values: Partial<Pick<RunnerRow, 'description' | 'active' | 'tagList' | 'runUntagged' | 'locked' | 'accessLevel' | 'maximumTimeout'>>,
) {
  const [row] = await db
    .update(ciRunners)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(ciRunners.id, id))
    .returning();
  return row;
}

export async function deleteRunner(db: Db, id: number) {
  await db.delete(ciRunners).where(eq(ciRunners.id, id));
}

/** Enables the runner in the project; false when it already was. */
export async function assignRunner(db: Db, runnerId: number, projectId: number) {
  const rows = await db.insert(ciRunnerProjects).values({ runnerId, projectId }).onConflictDoNothing().returning({ id: ciRunnerProjects.id });
  return rows.length > 0;
}

export async function unassignRunner(db: Db, runnerId: number, projectId: number) {
  const rows = await db
    .delete(ciRunnerProjects)
    .where(and(eq(ciRunnerProjects.runnerId, runnerId), eq(ciRunnerProjects.projectId, projectId)))
    .returning({ id: ciRunnerProjects.id });
  return rows.length > 0;
}

export async function projectHasRunner(db: Db, runnerId: number, projectId: number) {
  const [row] = await db
    .select({ id: ciRunnerProjects.id })
    .from(ciRunnerProjects)
    .where(and(eq(ciRunnerProjects.runnerId, runnerId), eq(ciRunnerProjects.projectId, projectId)));
  return row !== undefined;
}
