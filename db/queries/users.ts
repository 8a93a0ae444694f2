import { and, asc, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { emails, namespaces, users, type UserRow } from '../schema/index.ts';

/** By numeric id, or by username without regard to case. */
export async function findUserByRef(db: Db, ref: string | number): Promise<UserRow | undefined> {
  const byId = typeof ref === 'number' || /^\d+$/.test(ref);
  const [row] = await db
    .select()
    .from(users)
    .where(byId ? eq(users.id, Number(ref)) : sql`lower(${users.username}) = lower(${ref})`)
    .limit(1);
  return row;
}

export interface UserListFilter {
  username?: string | undefined;
  search?: string | undefined;
  /** Admins may search by email too. */
  searchEmail?: boolean;
  active?: boolean | undefined;
  blocked?: boolean | undefined;
  external?: boolean | undefined;
}

function userListWhere(f: UserListFilter): SQL | undefined {
  const pattern = f.search ? `%${f.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%` : undefined;
  return and(
    f.username ? sql`lower(${users.username}) = lower(${f.username})` : undefined,
    pattern
      ? or(ilike(users.username, pattern), ilike(users.name, pattern), f.searchEmail ? ilike(users.email, pattern) : sql`lower(${users.publicEmail}) = lower(${f.search})`)
      : undefined,
    f.active ? eq(users.state, 'active') : undefined,
    f.blocked ? eq(users.state, 'blocked') : undefined,
    f.external ? eq(users.external, true) : undefined,
  );
}

export function listUsers(db: Db, f: UserListFilter, order: { by: 'id' | 'name' | 'username' | 'created_at' | 'updated_at'; sort: 'asc' | 'desc' }, limit: number, offset: number) {
  const column = { id: users.id, name: users.name, username: users.username, created_at: users.createdAt, updated_at: users.updatedAt }[order.by];
  const dir = order.sort === 'asc' ? asc : desc;
  return db
    .select()
    .from(users)
    .where(userListWhere(f))
    .orderBy(dir(column), dir(users.id))
    .limit(limit)
    .offset(offset);
}

export async function countUsers(db: Db, f: UserListFilter, limit: number) {
  const sub = db.select({ one: sql`1` }).from(users).where(userListWhere(f)).limit(limit).as('c');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sub);
  return Number(row?.n ?? 0);
}

/** A user and the personal namespace every user has (path = username), written together. */
export async function insertUserWithNamespace(tx: Db, values: typeof users.$inferInsert) {
  const [user] = await tx.insert(users).values(values).returning();
  const [ns] = await tx
    .insert(namespaces)
    .values({ kind: 'user', name: user!.name, path: user!.username, fullPath: user!.username, ownerId: user!.id, visibilityLevel: 20 })
    .returning();
  await tx.update(namespaces).set({ traversalIds: [ns!.id] }).where(eq(namespaces.id, ns!.id));
  return user!;
}

export async function updateUser(tx: Db, id: number, values: Partial<typeof users.$inferInsert>) {
  const [row] = await tx.update(users).set({ ...values, updatedAt: sql`now()` }).where(eq(users.id, id)).returning();
  if (values.username !== undefined || values.name !== undefined) {
    // The personal namespace follows the username (its projects' full paths are rewritten with it).
    const [ns] = await tx.select().from(namespaces).where(and(eq(namespaces.ownerId, id), eq(namespaces.kind, 'user'))).limit(1);
    if (ns && values.username !== undefined && ns.path !== values.username) {
      await tx.execute(
        sql`UPDATE projects SET path_with_namespace = ${values.username} || substr(path_with_namespace, ${ns.path.length + 1}), updated_at = now() WHERE namespace_id = ${ns.id}`,
      );
    }
    if (ns) await tx.update(namespaces).set({ name: row!.name, path: row!.username, fullPath: row!.username, updatedAt: sql`now()` }).where(eq(namespaces.id, ns.id));
  }
  return row!;
}

export async function deleteUser(tx: Db, id: number) {
  // Personal namespace (and so its projects) go with the user; memberships and tokens cascade.
  await tx.delete(namespaces).where(and(eq(namespaces.ownerId, id), eq(namespaces.kind, 'user')));
  await tx.execute(sql`DELETE FROM members WHERE user_id = ${id}`);
  await tx.delete(users).where(eq(users.id, id));
}

export async function emailTaken(db: Db, email: string, exceptUserId?: number) {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${email})`, exceptUserId ? sql`${users.id} <> ${exceptUserId}` : undefined))
    .union(
      db
        .select({ id: emails.userId })
        .from(emails)
        .where(and(sql`lower(${emails.email}) = lower(${email})`, exceptUserId ? sql`${emails.userId} <> ${exceptUserId}` : undefined)),
    )
    .limit(1);
  return rows.length > 0;
}

/** Usernames share the namespace path space with groups (GitLab: one path, one owner). */
export async function namespacePathTaken(db: Db, path: string, exceptNamespaceOwner?: number) {
  const rows = await db
    .select({ id: namespaces.id })
    .from(namespaces)
    .where(and(sql`lower(${namespaces.fullPath}) = lower(${path})`, exceptNamespaceOwner ? sql`${namespaces.ownerId} IS DISTINCT FROM ${exceptNamespaceOwner}` : undefined))
    .limit(1);
  return rows.length > 0;
}
