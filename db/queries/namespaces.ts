// The namespaces API's reads (GET /namespaces, /namespaces/:id): personal namespaces and groups alike, with what the
// policy and the entity need, one statement per page.
import { and, asc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { activeMembershipSql, groupDescendantAccessSql, isAdmin, type Viewer } from './lib/access.ts';
import { liveNamespaceByRef, namespaceAccessLevelSql, type NamespaceLookup } from './groups/namespaces.ts';
import { fuzzySearch } from './lib/search.ts';
import { members, namespaces } from '../schema/index.ts';

export interface NamespaceListFilter {
  /** Only the caller's own namespace and the groups it owns (else its namespace and every group it is a member of). */
  ownedOnly: boolean;
  search?: string | undefined;
}

function viewColumns(actor: Viewer) {
  return {
    namespace: namespaces,
    accessLevel: namespaceAccessLevelSql(actor),
    hasDescendantAccess: groupDescendantAccessSql(actor),
    // Namespace#users_with_descendants (groups): the distinct members of the group and of every group below it.
    // Nested sql: in a single-table select drizzle drops the table name from top-level columns (`id` would be d's).
    membersCountWithDescendants: sql<number>`(${sql`CASE WHEN ${namespaces.kind} = 'group' THEN (SELECT count(DISTINCT m.user_id) FROM ${members} m
      JOIN ${namespaces} d ON d.id = m.source_id WHERE m.source_type = 'Namespace' AND ${namespaces.id} = ANY(d.traversal_ids)
        AND d.deleted_at IS NULL AND (m.expires_at IS NULL OR m.expires_at > current_date)) ELSE 0 END`})`.mapWith(Number),
  };
}

/**
 * GitLab's GET /namespaces: administrators see every namespace; others their own and the groups they are members of
 * (User#namespaces: direct memberships). `owned_only`: their own and the groups they own.
 */
function listFilter(actor: Viewer, f: NamespaceListFilter): SQL {
  const conditions: (SQL | undefined)[] = [isNull(namespaces.deletedAt)];
  const userId = actor.user?.id ?? 0;
  if (!isAdmin(actor) || f.ownedOnly) {
    const memberOf = sql`${namespaces.id} IN (SELECT ${members.sourceId} FROM ${members} WHERE ${members.userId} = ${userId}
      AND ${members.sourceType} = 'Namespace' AND ${activeMembershipSql}${f.ownedOnly ? sql` AND ${members.accessLevel} >= 50` : sql``})`;
    conditions.push(or(and(eq(namespaces.kind, 'user'), eq(namespaces.ownerId, userId)), and(eq(namespaces.kind, 'group'), memberOf)));
  }
  if (f.search) conditions.push(fuzzySearch(f.search, [namespaces.name, namespaces.path]));
  return and(...conditions)!;
}

export function listNamespaceViews(db: Db, actor: Viewer, f: NamespaceListFilter, limit: number, offset: number) {
  return db.select(viewColumns(actor)).from(namespaces).where(listFilter(actor, f)).orderBy(asc(namespaces.id)).limit(limit).offset(offset);
}

export async function countNamespaces(db: Db, actor: Viewer, f: NamespaceListFilter, limit: number) {
  const sub = db
    .select({ one: sql`1` })
    .from(namespaces)
    .where(listFilter(actor, f))
    .limit(limit)
    .as('c');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sub);
  return Number(row?.n ?? 0);
}

/** A live namespace (personal or group) by id or full path, case-insensitive. */
export async function findNamespaceListView(db: Db, actor: Viewer, ref: NamespaceLookup) {
  const [row] = await db.select(viewColumns(actor)).from(namespaces).where(liveNamespaceByRef(ref)).limit(1);
  return row;
}

export type NamespaceListView = NonNullable<Awaited<ReturnType<typeof findNamespaceListView>>>;
