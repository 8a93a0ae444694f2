// Group reads and writes. A group "view" is the namespace row with what its entity and the policy need (the
// actor's effective access, descendant membership, and the human full name built from its ancestors' names), in
// one statement.
import { and, asc, desc, eq, gt, ilike, inArray, isNull, notInArray, or, sql, type SQL } from 'drizzle-orm';
import {
  AccessLevel,
  activeMembershipOf,
  activeMembershipSql,
  groupAccessLevelSql,
  groupDescendantAccessSql,
  memberGroupIds,
  visibleGroupsFilter,
  type Viewer,
} from './lib/access.ts';
import type { Db } from '../client.ts';
import { deletedSuffix, liveNamespaceByRef, type NamespaceLookup } from './groups/namespaces.ts';
import { fuzzySearch } from './lib/search.ts';
import { groupGroupLinks, members, namespaces, projects, users } from '../schema/index.ts';
import type { SharedWithGroup } from './projects.ts';

/** "Parent / Child": the names of the group and its ancestors, root first (GitLab's full_name). */
// Nested sql: in a single-table select drizzle drops table names from top-level columns, which would bind them to `a`.
const fullNameSql = sql<string>`(${sql`SELECT string_agg(a.name, ' / ' ORDER BY array_position(${namespaces.traversalIds}, a.id)) FROM ${namespaces} a WHERE a.id = ANY(${namespaces.traversalIds})`})`;

function viewColumns(actor: Viewer) {
  return {
    namespace: namespaces,
    accessLevel: groupAccessLevelSql(actor),
    hasDescendantAccess: groupDescendantAccessSql(actor),
    fullName: fullNameSql,
  };
}

/** A live group by id or full path (case-insensitive); visibility is the caller's business (policy). */
export async function findGroupView(db: Db, actor: Viewer, ref: NamespaceLookup) {
  const [row] = await db.select(viewColumns(actor)).from(namespaces).where(liveNamespaceByRef(ref, 'group')).limit(1);
  return row ? { ...row, fullName: row.fullName ?? row.namespace.name } : undefined;
}

export type GroupView = NonNullable<Awaited<ReturnType<typeof findGroupView>>>;

export interface GroupListFilter {
  /** Direct children of this group only. */
  parentId?: number | undefined;
  /**
   * GitLab's default for signed-in non-admins (all_available not set): only the groups around the user's
   * memberships (groups they belong to, their ancestors, their descendants).
   */
  membershipOnly?: boolean | undefined;
  /** Groups where the user is a direct Owner. */
  ownedBy?: number | undefined;
  /** The user's effective level is at least this (their groups at that level and everything below). */
  minAccessLevel?: number | undefined;
  search?: string | undefined;
  skipIds?: number[] | undefined;
  topLevelOnly?: boolean | undefined;
  /** Forces an empty result (e.g. `owned=true` for an anonymous caller). */
  none?: boolean | undefined;
}

const ORDER_COLUMNS = { name: namespaces.name, path: namespaces.path, id: namespaces.id };
export type GroupOrder = { by: keyof typeof ORDER_COLUMNS; sort: 'asc' | 'desc' };

function listWhere(actor: Viewer, f: GroupListFilter): SQL | undefined {
  if (f.none) return sql`false`;
  const userId = actor.user?.id ?? 0;
  return and(
    visibleGroupsFilter(actor),
    f.parentId !== undefined ? eq(namespaces.parentId, f.parentId) : undefined,
    f.membershipOnly && actor.user ? or(sql`${namespaces.traversalIds} && ${memberGroupIds(userId)}`, groupDescendantAccessSql(actor)) : undefined,
    f.ownedBy !== undefined
      ? sql`EXISTS (SELECT 1 FROM ${members} WHERE ${members.sourceType} = 'Namespace' AND ${members.sourceId} = ${namespaces.id} AND ${members.userId} = ${f.ownedBy} AND ${members.accessLevel} >= ${AccessLevel.OWNER} AND ${activeMembershipSql})`
      : undefined,
    // A level needs a membership in the hierarchy (or a share of it): the array test narrows the rows before the
    // per-row level is computed.
    f.minAccessLevel !== undefined ? sql`${namespaces.traversalIds} && ${memberGroupIds(userId)}` : undefined,
    f.minAccessLevel !== undefined ? sql`${groupAccessLevelSql(actor)} >= ${f.minAccessLevel}` : undefined,
    // Group.search (Namespace.search): fuzzy over name and path.
    f.search ? fuzzySearch(f.search, [namespaces.name, namespaces.path]) : undefined,
    f.skipIds?.length ? notInArray(namespaces.id, f.skipIds) : undefined,
    f.topLevelOnly ? isNull(namespaces.parentId) : undefined,
  );
}

export async function listGroupViews(db: Db, actor: Viewer, f: GroupListFilter, order: GroupOrder, limit: number, offset: number) {
  const dir = order.sort === 'asc' ? asc : desc;
  const rows = await db
    .select(viewColumns(actor))
    .from(namespaces)
    .where(listWhere(actor, f))
    // GitLab adds `id asc` after the requested ordering.
    .orderBy(dir(ORDER_COLUMNS[order.by]), asc(namespaces.id))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({ ...r, fullName: r.fullName ?? r.namespace.name }));
}

export async function countGroups(db: Db, actor: Viewer, f: GroupListFilter, limit: number) {
  const sub = db
    .select({ one: sql`1` })
    .from(namespaces)
    .where(listWhere(actor, f))
    .limit(limit)
    .as('c');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sub);
  return Number(row?.n ?? 0);
}

/** A full path is taken by a namespace (group or user) or, below a group, by a project with that path. */
export interface NewGroup {
  name: string;
  path: string;
  description: string;
  visibilityLevel: number;
  settings: Record<string, unknown>;
  parent: { id: number; fullPath: string; traversalIds: number[] } | null;
}

/** Inserts the group, sets its traversal ids (ancestors' plus its own) and makes `ownerId` its Owner. */
export async function insertGroup(tx: Db, g: NewGroup, ownerId: number) {
  const [row] = await tx
    .insert(namespaces)
    .values({
      kind: 'group',
      name: g.name,
      path: g.path,
      fullPath: g.parent ? `${g.parent.fullPath}/${g.path}` : g.path,
      parentId: g.parent?.id ?? null,
      visibilityLevel: g.visibilityLevel,
      description: g.description,
      settings: g.settings,
    })
    .returning({ id: namespaces.id });
  const id = row!.id;
  await tx
    .update(namespaces)
    .set({ traversalIds: [...(g.parent?.traversalIds ?? []), id] })
    .where(eq(namespaces.id, id));
  await tx.insert(members).values({ sourceType: 'Namespace', sourceId: id, userId: ownerId, accessLevel: AccessLevel.OWNER, createdById: ownerId });
  return id;
}

/** Updates the group's columns; `settings` are merged key by key into the stored ones (one statement, no lost update). */
export async function updateGroup(
  tx: Db,
  id: number,
  values: Partial<Pick<typeof namespaces.$inferInsert, 'name' | 'description' | 'visibilityLevel'>>,
  settings: Record<string, unknown> = {},
) {
  const merged = Object.keys(settings).length > 0 ? { settings: sql`${namespaces.settings} || ${JSON.stringify(settings)}::jsonb` } : {};
  await tx
    .update(namespaces)
    .set({ ...values, ...merged, updatedAt: sql`now()` })
    .where(eq(namespaces.id, id));
}

/**
 * A new path for the group: its full path, the full paths of every group below it and the paths of every project
 * in them are rewritten (prefix replaced), in the caller's transaction.
 */
export async function renameGroupPath(tx: Db, id: number, oldFullPath: string, path: string, newFullPath: string) {
  const keep = oldFullPath.length + 1; // substr() is 1-based: keep what follows the old prefix
  await tx
    .update(namespaces)
    .set({ path, fullPath: newFullPath, updatedAt: sql`now()` })
    .where(eq(namespaces.id, id));
  await tx.execute(
    sql`UPDATE namespaces SET full_path = ${newFullPath} || substr(full_path, ${keep}), updated_at = now() WHERE ${id} = ANY(traversal_ids) AND id <> ${id}`,
  );
  await tx.execute(
    sql`UPDATE projects SET path_with_namespace = ${newFullPath} || substr(path_with_namespace, ${keep}), updated_at = now() WHERE namespace_id IN (SELECT id FROM namespaces WHERE ${id} = ANY(traversal_ids))`,
  );
}

/**
 * Hides the group with every subgroup and project below it at once (the visibility filters look at each row's own
 * deleted_at) and frees their paths: the group's path takes deletedSuffix and every full path below it moves with
 * that prefix (rows deleted earlier too); the housekeeping job purges them later. Namespaces first: their UPDATE waits
 * for creates in progress in any of them (lockLiveNamespace), so the projects statement, with its own snapshot, moves
 * what those creates committed. Nothing to do when the group's deletion was already accepted.
 */
export async function markGroupDeleted(tx: Db, id: number) {
  const suffix = deletedSuffix(id);
  const [group] = await tx
    .update(namespaces)
    .set({ deletedAt: sql`now()`, path: sql`${namespaces.path} || ${suffix}`, fullPath: sql`${namespaces.fullPath} || ${suffix}`, updatedAt: sql`now()` })
    .where(and(eq(namespaces.id, id), isNull(namespaces.deletedAt)))
    .returning({ fullPath: namespaces.fullPath });
  if (!group) return;
  const newPrefix = group.fullPath;
  const keep = newPrefix.length - suffix.length + 1; // substr() is 1-based: keep what follows the old prefix
  await tx.execute(
    sql`UPDATE namespaces SET deleted_at = coalesce(deleted_at, now()), full_path = ${newPrefix} || substr(full_path, ${keep}), updated_at = now()
        WHERE ${id} = ANY(traversal_ids) AND id <> ${id}`,
  );
  await tx.execute(
    sql`UPDATE projects SET deleted_at = coalesce(deleted_at, now()), path_with_namespace = ${newPrefix} || substr(path_with_namespace, ${keep}), updated_at = now()
        WHERE namespace_id IN (SELECT id FROM namespaces WHERE ${id} = ANY(traversal_ids))`,
  );
}

/** The group's own row, live or not (for a parent's visibility). */
export async function findNamespaceRow(db: Db, id: number) {
  const [row] = await db.select().from(namespaces).where(eq(namespaces.id, id)).limit(1);
  return row;
}

/** Whether a live project directly in the group is more visible than `level`. */
export async function hasProjectsAbove(db: Db, groupId: number, level: number) {
  const rows = await db
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.namespaceId, groupId), gt(projects.visibilityLevel, level), isNull(projects.deletedAt)))
    .limit(1);
  return rows.length > 0;
}

/** Whether a live direct subgroup is more visible than `level`. */
export async function hasSubgroupsAbove(db: Db, groupId: number, level: number) {
  const rows = await db
    .select({ id: namespaces.id })
    .from(namespaces)
    .where(and(eq(namespaces.parentId, groupId), gt(namespaces.visibilityLevel, level), isNull(namespaces.deletedAt)))
    .limit(1);
  return rows.length > 0;
}

/** Ids of the group and every live group below it. */
export const selfAndDescendantIds = (groupId: number) =>
  sql`SELECT ${namespaces.id} FROM ${namespaces} WHERE ${groupId} = ANY(${namespaces.traversalIds}) AND ${namespaces.deletedAt} IS NULL`;

/** The namespaces a project list looks in: the group alone, or with every live group below it. */
export const namespaceScope = (groupId: number, withSubgroups: boolean): SQL => (withSubgroups ? selfAndDescendantIds(groupId) : sql`${groupId}`);

/** Live groups by id, with what their entity and the policy need (GraphQL loads parents and projects' groups in one query). */
export async function findGroupViewsByIds(db: Db, actor: Viewer, ids: readonly number[]) {
  if (!ids.length) return [];
  const rows = await db
    .select(viewColumns(actor))
    .from(namespaces)
    .where(and(inArray(namespaces.id, [...ids]), eq(namespaces.kind, 'group'), isNull(namespaces.deletedAt)));
  return rows.map((r) => ({ ...r, fullName: r.fullName ?? r.namespace.name }));
}

/** The full names ("Parent / Child") of namespaces by id. */
export async function namespaceFullNames(db: Db, ids: readonly number[]) {
  if (!ids.length) return [];
  const rows = await db
    .select({ id: namespaces.id, name: namespaces.name, fullName: fullNameSql })
    .from(namespaces)
    .where(inArray(namespaces.id, [...ids]));
  return rows.map((r) => ({ id: r.id, fullName: r.fullName ?? r.name }));
}

/** GroupDetail's shared_with_groups: the groups this group is shared with, oldest link first. */
export function groupSharedWith(db: Db, groupId: number): Promise<SharedWithGroup[]> {
  return db
    .select({
      group_id: namespaces.id,
      group_name: namespaces.name,
      group_full_path: namespaces.fullPath,
      group_access_level: groupGroupLinks.groupAccess,
      expires_at: groupGroupLinks.expiresAt,
    })
    .from(groupGroupLinks)
    .innerJoin(namespaces, and(eq(namespaces.id, groupGroupLinks.sharedWithGroupId), isNull(namespaces.deletedAt)))
    .where(eq(groupGroupLinks.sharedGroupId, groupId))
    .orderBy(asc(groupGroupLinks.id));
}

/**
 * Whether the `users` row in scope is a member of a group of this group's hierarchy (ancestors, itself, descendants)
 * that the actor may read: GroupSearchResults#users (non-invite, not expired).
 */
export function hierarchyMemberSql(actor: Viewer, group: { id: number; traversalIds: readonly number[] }): SQL {
  const ancestors = sql.join(
    group.traversalIds.map((id) => sql`${id}`),
    sql`, `,
  );
  return sql`EXISTS (SELECT 1 FROM ${members} m WHERE m.user_id = ${users.id} AND m.source_type = 'Namespace' AND ${activeMembershipOf('m')}
    AND m.source_id IN (SELECT ${namespaces.id} FROM ${namespaces} WHERE (${namespaces.id} IN (${ancestors}) OR ${group.id} = ANY(${namespaces.traversalIds}))
      AND ${visibleGroupsFilter(actor) ?? sql`true`}))`;
}
