// Housekeeping for the scheduled job: purge what deletion only hid, and memberships that have run out.
import { and, eq, inArray, isNotNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { members, namespaces, projects } from '../schema/index.ts';
import { rows } from './lib/raw.ts';

/**
 * Groups whose deletion was accepted (`deleted_at` set), with every subgroup below them: a subgroup's
 * traversal_ids contain the ids of all its ancestors (GIN-indexed `&&`). `within`: only that group's subtree (a
 * group_destroy job); without it, every one (the periodic safety net).
 */
export async function findPurgeableGroupIds(db: Db, within?: number): Promise<number[]> {
  const deleted = sql`(SELECT coalesce(array_agg(${namespaces.id}), '{}'::integer[]) FROM ${namespaces} WHERE ${namespaces.kind} = 'group' AND ${namespaces.deletedAt} IS NOT NULL AND ${namespaces.deletedAt} <= now())`;
  const rows = await db
    .select({ id: namespaces.id })
    .from(namespaces)
    .where(
      and(
        eq(namespaces.kind, 'group'),
        or(and(isNotNull(namespaces.deletedAt), lte(namespaces.deletedAt, sql`now()`)), sql`${namespaces.traversalIds} && ${deleted}`),
        within === undefined ? undefined : sql`${within} = ANY(${namespaces.traversalIds})`,
      ),
    );
  return rows.map((r) => r.id);
}

/**
 * Projects deleted themselves, or living in one of `groupIds`. `scope.projectId`: that project alone (a
 * project_destroy job); `scope.groupsOnly`: only those living in `groupIds` (a group_destroy job).
 */
export async function findPurgeableProjectIds(db: Db, groupIds: number[], scope: { projectId?: number; groupsOnly?: boolean } = {}): Promise<number[]> {
  const inGroups = groupIds.length ? inArray(projects.namespaceId, groupIds) : undefined;
  const deletedItself = and(isNotNull(projects.deletedAt), lte(projects.deletedAt, sql`now()`));
  const rows = await db
    .select({ id: projects.id })
    .from(projects)
    .where(and(scope.groupsOnly ? inGroups : or(deletedItself, inGroups), scope.projectId === undefined ? undefined : eq(projects.id, scope.projectId)));
  return rows.map((r) => r.id);
}

/**
 * Deletes the projects and groups. Stars and other rows keyed by foreign key cascade; memberships are polymorphic
 * (source_type/source_id, no foreign key), so those of the purged sources are deleted here.
 */
export async function purgeProjectsAndGroups(tx: Db, projectIds: number[], groupIds: number[]) {
  if (projectIds.length) {
    await tx.delete(members).where(and(eq(members.sourceType, 'Project'), inArray(members.sourceId, projectIds)));
    await tx.delete(projects).where(inArray(projects.id, projectIds));
  }
  if (groupIds.length) {
    await tx.delete(members).where(and(eq(members.sourceType, 'Namespace'), inArray(members.sourceId, groupIds)));
    await tx.delete(namespaces).where(and(eq(namespaces.kind, 'group'), inArray(namespaces.id, groupIds)));
  }
}

/**
 * Memberships past their expiry date. A membership counts as active while `expires_at > current_date`
 * (lib/policy.ts, as GitLab), so on its expiry day it is already expired.
 */
export async function deleteExpiredMemberships(db: Db) {
  // One statement: the deleted rows, each with whether its project still exists (an `expired` event needs it).
  const deleted = await rows<{ source_type: string; source_id: unknown; user_id: unknown; project_exists: unknown }>(
    db,
    sql`WITH d AS (
          DELETE FROM ${members} WHERE ${members.expiresAt} <= current_date RETURNING source_type, source_id, user_id
        )
        SELECT d.source_type, d.source_id, d.user_id,
          (d.source_type = 'Project' AND EXISTS (SELECT 1 FROM ${projects} p WHERE p.id = d.source_id)) AS project_exists
        FROM d`,
  );
  return deleted.map((r) => ({
    sourceType: r.source_type as 'Project' | 'Namespace',
    sourceId: Number(r.source_id),
    userId: Number(r.user_id),
    projectExists: r.project_exists === true || r.project_exists === 't',
  }));
}
