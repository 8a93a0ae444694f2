// Namespace (group or personal) lookups with the actor's access facts, for policy checks.
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { groupAccessLevelSql, groupDescendantAccessSql, type Viewer } from '../lib/access.ts';
import type { Db } from '../../client.ts';
import { namespaces, projects } from '../../schema/index.ts';

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

/** The actor's level on the namespace row in scope: a personal namespace's owner holds Owner; a group's, its membership. */
export const namespaceAccessLevelSql = (actor: Viewer): SQL<number> =>
  sql<number>`CASE WHEN ${namespaces.kind} = 'user' THEN (CASE WHEN ${namespaces.ownerId} = ${actor.user?.id ?? 0} THEN 50 ELSE 0 END) ELSE ${groupAccessLevelSql(actor)} END`.mapWith(
    Number,
  );

/** A live namespace by id or full path, with the actor's access (a personal namespace's owner holds Owner). */
export async function findNamespaceView(db: Db, actor: Viewer, ref: NamespaceLookup, kind?: 'group' | 'user') {
  const [row] = await db
    .select({ namespace: namespaces, accessLevel: namespaceAccessLevelSql(actor), hasDescendantAccess: groupDescendantAccessSql(actor) })
    .from(namespaces)
    .where(liveNamespaceByRef(ref, kind))
    .limit(1);
  return row;
}

export type NamespaceView = NonNullable<Awaited<ReturnType<typeof findNamespaceView>>>;

export async function findPersonalNamespace(db: Db, userId: number) {
  const [row] = await db
    .select()
    .from(namespaces)
    .where(and(eq(namespaces.ownerId, userId), eq(namespaces.kind, 'user')))
    .limit(1);
  return row;
}

/**
 * What a row's path (and a project's name) takes when its deletion is accepted, as GitLab's delayed deletion renames
 * the pending row (`<path>-deleted-<id>`), so that the path is free at once while the row waits for the purge. '~'
 * never appears in a path someone can ask for (usernames, group and project paths: letters, digits, '_', '-', '.')
 * nor in a project name, so the renamed row never takes a real path or name; the row's id keeps it unique. A
 * group's descendants keep their place below it (their full paths move with its prefix).
 */
export const deletedSuffix = (id: number) => `~deleted-${id}`;

/**
 * Locks the namespace a project or subgroup is being created in until the end of the transaction and returns its
 * full path as of now (undefined when its deletion was accepted meanwhile). FOR SHARE: creates in one namespace do
 * not wait for each other, but a deletion or rename of the namespace (an UPDATE of its row) waits for the create to
 * commit and then moves or hides what it created, or the create waits for it and sees the new state. Without it, a
 * project created in a group being deleted would keep the group's old path: hidden with its group, yet taken.
 */
export async function lockLiveNamespace(tx: Db, id: number): Promise<string | undefined> {
  const [row] = await tx
    .select({ fullPath: namespaces.fullPath })
    .from(namespaces)
    .where(and(eq(namespaces.id, id), isNull(namespaces.deletedAt)))
    .for('share');
  return row?.fullPath;
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
