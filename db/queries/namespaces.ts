// Namespace (group or personal) lookups with the actor's access facts, for policy checks.
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { groupAccessLevelSql, groupDescendantAccessSql, type Viewer } from './access.ts';
import type { Db } from '../client.ts';
import { namespaces, projects } from '../schema/index.ts';

export type NamespaceLookup = { id?: number | undefined; path?: string | undefined };

/**
 * THE predicate for "the live group (or namespace of `kind`, or any namespace) this ref names": by id, or by full
 * path without regard to case, not deleted. The twin of projects' liveProjectByRef.
 */
export const liveNamespaceByRef = (ref: NamespaceLookup, kind?: 'group' | 'user'): SQL =>
  and(
    ref.id !== undefined ? eq(namespaces.id, ref.id) : sql`lower(${namespaces.fullPath}) = lower(${ref.path!})`,
    kind ? eq(namespaces.kind, kind) : undefined,
    isNull(namespaces.deletedAt),
  )!;

/** A live namespace by id or full path, with the actor's access (a personal namespace's owner holds Owner). */
export async function findNamespaceView(db: Db, actor: Viewer, ref: NamespaceLookup, kind?: 'group' | 'user') {
  const userId = actor.user?.id ?? 0;
  const [row] = await db
    .select({
      namespace: namespaces,
      accessLevel: sql<number>`CASE WHEN ${namespaces.kind} = 'user' THEN (CASE WHEN ${namespaces.ownerId} = ${userId} THEN 50 ELSE 0 END) ELSE ${groupAccessLevelSql(actor)} END`.mapWith(Number),
      hasDescendantAccess: groupDescendantAccessSql(actor),
    })
    .from(namespaces)
    .where(liveNamespaceByRef(ref, kind))
    .limit(1);
  return row;
}

export type NamespaceView = NonNullable<Awaited<ReturnType<typeof findNamespaceView>>>;

export async function findPersonalNamespace(db: Db, userId: number) {
  const [row] = await db.select().from(namespaces).where(and(eq(namespaces.ownerId, userId), eq(namespaces.kind, 'user'))).limit(1);
  return row;
}

/**
 * Serializes every writer of one full path (project or group) until the end of the transaction: with the check in
 * fullPathTaken behind it, two creates racing for `group/x` cannot both succeed, whichever tables they write.
 */
export async function lockFullPath(tx: Db, fullPath: string) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(lower(${fullPath})))`);
}

/** Whether a group or a project already uses this full path (they share one path space, as in GitLab's routes). */
export async function fullPathTaken(db: Db, fullPath: string, except: { namespaceId?: number; projectId?: number } = {}) {
  const rows = await db
    .select({ id: namespaces.id })
    .from(namespaces)
    .where(and(sql`lower(${namespaces.fullPath}) = lower(${fullPath})`, except.namespaceId ? sql`${namespaces.id} <> ${except.namespaceId}` : undefined))
    .union(
      db
        .select({ id: projects.id })
        .from(projects)
        .where(and(sql`lower(${projects.pathWithNamespace}) = lower(${fullPath})`, except.projectId ? sql`${projects.id} <> ${except.projectId}` : undefined)),
    )
    .limit(1);
  return rows.length > 0;
}
