import { and, asc, desc, eq, gte, ilike, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { AccessLevel, activeMembershipSql, Visibility } from './lib/access.ts';
import type { Db } from '../client.ts';
import { keysetSql, type KeysetPage } from './lib/window.ts';
import { fuzzyMatch } from './lib/search.ts';
import { emails, members, namespaces, projects, stars, users, type UserRow } from '../schema/index.ts';
import { markGroupDeleted } from './groups.ts';
import { hasIdentity } from './users/identities.ts';

// Authentication's lookup of a user (lib/auth.ts), the users domain's too.
export { findUserByRef } from './lib/auth.ts';

export interface UserListFilter {
  username?: string | undefined;
  search?: string | undefined;
  /** Administrators match the primary email exactly; everyone else the public email (GitLab's later fix). */
  searchPrivateEmail?: boolean;
  active?: boolean | undefined;
  blocked?: boolean | undefined;
  /** true: external users only; false: leave external users out (what non-administrators see in 13.x). */
  external?: boolean | undefined;
  createdAfter?: Date | undefined;
  createdBefore?: Date | undefined;
  /** The user holding this uid at this provider (UsersFinder#by_external_identity). */
  identity?: { provider: string; externUid: string } | undefined;
  /** Only users this condition (over the `users` row) holds for: a team or a group hierarchy's members. */
  within?: SQL | undefined;
}

export type UserOrder = { by: 'id' | 'name' | 'username' | 'created_at' | 'updated_at'; sort: 'asc' | 'desc' } | { by: 'search_relevance' };

/** User.search: the query (a leading @ dropped, lower-cased, squished) against name, username and email. */
const searchTerm = (search: string) => search.replace(/^@/, '').trim().replace(/\s+/g, ' ').toLowerCase();

function userListWhere(f: UserListFilter): SQL | undefined {
  const q = f.search !== undefined ? searchTerm(f.search) : undefined;
  return and(
    f.username ? sql`lower(${users.username}) = lower(${f.username})` : undefined,
    q === undefined || f.search!.trim() === ''
      ? undefined
      : q === ''
        ? sql`false`
        : or(
            fuzzyMatch(users.name, q, { lowerExact: true }),
            fuzzyMatch(users.username, q, { lowerExact: true }),
            f.searchPrivateEmail ? sql`lower(${users.email}) = ${q}` : sql`${users.publicEmail} <> '' AND lower(${users.publicEmail}) = ${q}`,
          ),
    f.active ? eq(users.state, 'active') : undefined,
    f.blocked ? eq(users.state, 'blocked') : undefined,
    f.external === true ? eq(users.external, true) : f.external === false ? eq(users.external, false) : undefined,
    f.createdAfter ? gte(users.createdAt, f.createdAfter) : undefined,
    f.createdBefore ? lte(users.createdAt, f.createdBefore) : undefined,
    f.within,
    f.identity ? hasIdentity(users.id, f.identity.provider, f.identity.externUid) : undefined,
  );
}

export function listUsers(db: Db, f: UserListFilter, order: UserOrder, limit: number, offset: number) {
  let orderBy: SQL[];
  if (order.by === 'search_relevance') {
    // User.search's order: exact name, then username, then email matches first, then by name.
    const q = searchTerm(f.search ?? '');
    orderBy = [
      sql`CASE WHEN ${users.name} = ${q} THEN 0 WHEN ${users.username} = ${q} THEN 1 WHEN ${users.email} = ${q} THEN 2 ELSE 3 END`,
      asc(users.name),
      desc(users.id),
    ];
  } else {
    const column = { id: users.id, name: users.name, username: users.username, created_at: users.createdAt, updated_at: users.updatedAt }[order.by];
    const dir = order.sort === 'asc' ? asc : desc;
    orderBy = [dir(column), dir(users.id)];
  }
  return db
    .select()
    .from(users)
    .where(userListWhere(f))
    .orderBy(...orderBy)
    .limit(limit)
    .offset(offset);
}

/** Users by id, in one query (GraphQL's user loader). */
export async function findUsersByIds(db: Db, ids: readonly number[]): Promise<UserRow[]> {
  const valid = [...new Set(ids)].filter((id) => id >= 1 && id <= 2_147_483_647);
  return valid.length ? db.select().from(users).where(inArray(users.id, valid)) : [];
}

/** A keyset page of users (GraphQL's `users`): the list filter plus ids/usernames, ordered by id. */
export function listUsersPage(
  db: Db,
  f: UserListFilter & { ids?: readonly number[] | undefined; usernames?: readonly string[] | undefined },
  keyset: KeysetPage,
) {
  const page = keysetSql(users.id, keyset);
  return db
    .select()
    .from(users)
    .where(
      and(
        userListWhere(f),
        f.ids ? inArray(users.id, f.ids.length ? [...f.ids] : [0]) : undefined,
        f.usernames ? inArray(sql`lower(${users.username})`, f.usernames.length ? f.usernames.map((u) => u.toLowerCase()) : ['']) : undefined,
        page.where,
      ),
    )
    .orderBy(page.orderBy)
    .limit(page.limit);
}

export async function countUsers(db: Db, f: UserListFilter, limit: number) {
  const sub = db
    .select({ one: sql`1` })
    .from(users)
    .where(userListWhere(f))
    .limit(limit)
    .as('c');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sub);
  return Number(row?.n ?? 0);
}

/** A user and the personal namespace every user has (path = username), written together. */
export async function insertUserWithNamespace(tx: Db, values: typeof users.$inferInsert) {
  const [user] = await tx.insert(users).values(values).returning();
  const [ns] = await tx
    .insert(namespaces)
    .values({ kind: 'user', name: user!.name, path: user!.username, fullPath: user!.username, ownerId: user!.id, visibilityLevel: Visibility.public })
    .returning();
  await tx
    .update(namespaces)
    .set({ traversalIds: [ns!.id] })
    .where(eq(namespaces.id, ns!.id));
  return user!;
}

export async function updateUser(tx: Db, id: number, values: Partial<typeof users.$inferInsert>) {
  const [row] = await tx
    .update(users)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  if (values.username !== undefined || values.name !== undefined) {
    // The personal namespace follows the username (its projects' full paths are rewritten with it).
    const [ns] = await tx
      .select()
      .from(namespaces)
      .where(and(eq(namespaces.ownerId, id), eq(namespaces.kind, 'user')))
      .limit(1);
    if (ns && values.username !== undefined && ns.path !== values.username) {
      await tx.execute(
        sql`UPDATE projects SET path_with_namespace = ${values.username} || substr(path_with_namespace, ${ns.path.length + 1}), updated_at = now() WHERE namespace_id = ${ns.id}`,
      );
    }
    if (ns)
      await tx
        .update(namespaces)
        .set({ name: row!.name, path: row!.username, fullPath: row!.username, updatedAt: sql`now()` })
        .where(eq(namespaces.id, ns.id));
  }
  return row!;
}

/**
 * Removes a user, in the caller's transaction: the personal namespace (and so its projects) goes with them;
 * memberships, stars and tokens cascade. The projects they starred lose that star first (star_count is a counter
 * kept beside the stars). `groupIds` (the groups they alone owned, on a hard delete) are marked deleted with
 * everything below them, for the housekeeping job to purge.
 */
export async function deleteUser(tx: Db, id: number, groupIds: readonly number[] = []) {
  for (const groupId of groupIds) await markGroupDeleted(tx, groupId);
  await tx
    .update(projects)
    .set({ starCount: sql`greatest(${projects.starCount} - 1, 0)` })
    .from(stars)
    .where(and(eq(stars.projectId, projects.id), eq(stars.userId, id)));
  await tx.delete(namespaces).where(and(eq(namespaces.ownerId, id), eq(namespaces.kind, 'user')));
  await tx.delete(members).where(eq(members.userId, id));
  await tx.delete(users).where(eq(users.id, id));
}

/**
 * Live groups in which the user is the only owner (GitLab's solo_owned_groups): their own Owner membership and
 * every other one counted only while active (lib/policy.ts activeMembershipSql).
 */
export async function soleOwnedGroupIds(db: Db, userId: number): Promise<number[]> {
  const rows = await db
    .select({ id: namespaces.id })
    .from(namespaces)
    .innerJoin(
      members,
      and(
        eq(members.sourceType, 'Namespace'),
        eq(members.sourceId, namespaces.id),
        eq(members.userId, userId),
        eq(members.accessLevel, AccessLevel.OWNER),
        activeMembershipSql,
      ),
    )
    .where(
      and(
        eq(namespaces.kind, 'group'),
        isNull(namespaces.deletedAt),
        // Another active owner. The subquery's own `members` hides the joined one, so the shared rule applies to it.
        sql`NOT EXISTS (SELECT 1 FROM ${members} WHERE ${members.sourceType} = 'Namespace' AND ${members.sourceId} = ${namespaces.id} AND ${members.accessLevel} = ${AccessLevel.OWNER} AND ${members.userId} <> ${userId} AND ${activeMembershipSql})`,
      ),
    );
  return rows.map((r) => r.id);
}

/** The highest access level the user holds anywhere (0 without active memberships): UserDetailsWithAdmin#highest_role. */
export async function highestRole(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ level: sql<number>`coalesce(max(${members.accessLevel}), 0)::int` })
    .from(members)
    .where(and(eq(members.userId, userId), activeMembershipSql));
  return Number(row?.level ?? 0);
}

/** Whether `email` is the user's primary email or one of their confirmed secondary emails (public_email rule). */
export async function ownsEmail(db: Db, userId: number, email: string) {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), sql`lower(${users.email}) = lower(${email})`))
    .union(
      db
        .select({ id: emails.userId })
        .from(emails)
        .where(and(eq(emails.userId, userId), sql`${emails.confirmedAt} IS NOT NULL`, sql`lower(${emails.email}) = lower(${email})`)),
    )
    .limit(1);
  return rows.length > 0;
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
    .where(
      and(
        sql`lower(${namespaces.fullPath}) = lower(${path})`,
        exceptNamespaceOwner ? sql`${namespaces.ownerId} IS DISTINCT FROM ${exceptNamespaceOwner}` : undefined,
      ),
    )
    .limit(1);
  return rows.length > 0;
}
