// Memberships of projects and groups (one table, source_type 'Project' | 'Namespace'), with their users.
// "Direct" members belong to the source itself; "all" members add those inherited from ancestor groups, each user
// once with their highest level (GitLab's MembersFinder).
import { and, asc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { AccessLevel, activeMembershipSql } from './lib/access.ts';
import type { Db } from '../client.ts';
import { containsPattern } from './lib/search.ts';
import { rowNumber, singleParentLimit, keysetSql, type KeysetPage } from './lib/window.ts';
import { accessRequests, members, namespaces, users } from '../schema/index.ts';

export interface MemberSource {
  type: 'Project' | 'Namespace';
  id: number;
  /** Groups whose members are inherited: a project's group and its ancestors, a group's ancestors (not itself). */
  ancestorGroupIds: number[];
}

export interface MemberFilter {
  query?: string | undefined;
  userIds?: number[] | undefined;
  /** Administrators match the primary email; everyone else the public email (as the users list). */
  searchPrivateEmail?: boolean;
}

/** GitLab's User.search: name or username contains the term, or the (visible) email is exactly it. */
function userSearch(f: MemberFilter): SQL | undefined {
  const pattern = f.query ? containsPattern(f.query) : undefined;
  return and(
    pattern
      ? or(
          ilike(users.name, pattern),
          ilike(users.username, pattern),
          f.searchPrivateEmail
            ? sql`lower(${users.email}) = lower(${f.query})`
            : sql`${users.publicEmail} <> '' AND lower(${users.publicEmail}) = lower(${f.query})`,
        )
      : undefined,
    f.userIds?.length ? inArray(users.id, f.userIds) : undefined,
  );
}

const ofSource = (s: { type: 'Project' | 'Namespace'; id: number }) => and(eq(members.sourceType, s.type), eq(members.sourceId, s.id));

export function listDirectMembers(db: Db, source: MemberSource, f: MemberFilter, limit: number, offset: number) {
  return db
    .select({ member: members, user: users })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(ofSource(source), activeMembershipSql, userSearch(f)))
    .orderBy(asc(members.id))
    .limit(limit)
    .offset(offset);
}

export async function countDirectMembers(db: Db, source: MemberSource, f: MemberFilter, limit: number) {
  const sub = db
    .select({ one: sql`1` })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(ofSource(source), activeMembershipSql, userSearch(f)))
    .limit(limit)
    .as('c');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sub);
  return Number(row?.n ?? 0);
}

/** The membership rows that count for `source`: its own and those of its ancestor groups. */
function inherited(source: MemberSource): SQL {
  const groupIds = source.type === 'Namespace' ? [...source.ancestorGroupIds, source.id] : source.ancestorGroupIds;
  const groups = groupIds.length
    ? sql`(${members.sourceType} = 'Namespace' AND ${members.sourceId} IN (${sql.join(
        groupIds.map((id) => sql`${id}`),
        sql`, `,
      )}))`
    : sql`false`;
  return source.type === 'Project' ? sql`((${members.sourceType} = 'Project' AND ${members.sourceId} = ${source.id}) OR ${groups})` : groups;
}

/** Each user's highest membership among the source and its ancestors (ties: the oldest membership). */
function bestMemberships(db: Db, source: MemberSource) {
  return db
    .selectDistinctOn([members.userId], { id: members.id })
    .from(members)
    .where(and(inherited(source), activeMembershipSql))
    .orderBy(members.userId, sql`${members.accessLevel} DESC`, asc(members.id));
}

export function listAllMembers(db: Db, source: MemberSource, f: MemberFilter, limit: number, offset: number) {
  return db
    .select({ member: members, user: users })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(inArray(members.id, bestMemberships(db, source)), userSearch(f)))
    .orderBy(asc(members.userId))
    .limit(limit)
    .offset(offset);
}

export async function countAllMembers(db: Db, source: MemberSource, f: MemberFilter, limit: number) {
  const sub = db
    .select({ one: sql`1` })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(inArray(members.id, bestMemberships(db, source)), userSearch(f)))
    .limit(limit)
    .as('c');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sub);
  return Number(row?.n ?? 0);
}

/** The user's direct membership of the source (active or not: an expired row still occupies the place). */
export async function findDirectMember(
  db: Db,
  source: { type: 'Project' | 'Namespace'; id: number },
  userId: number,
  options: { lock?: boolean; activeOnly?: boolean } = {},
) {
  const query = db
    .select({ member: members, user: users })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(ofSource(source), eq(members.userId, userId), options.activeOnly ? activeMembershipSql : undefined))
    .limit(1);
  const [row] = await (options.lock ? query.for('update', { of: members }) : query);
  return row;
}

/** The user's highest active membership among the source and its ancestors. */
export async function findInheritedMember(db: Db, source: MemberSource, userId: number) {
  const [row] = await db
    .select({ member: members, user: users })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(inherited(source), activeMembershipSql, eq(members.userId, userId)))
    .orderBy(sql`${members.accessLevel} DESC`, asc(members.id))
    .limit(1);
  return row;
}

/** The user's highest active membership in the given groups, with that group's name (inherited-level rule). */
export async function findHighestGroupMembership(db: Db, groupIds: number[], userId: number) {
  if (!groupIds.length) return undefined;
  const [row] = await db
    .select({ accessLevel: members.accessLevel, groupName: namespaces.name })
    .from(members)
    .innerJoin(namespaces, eq(namespaces.id, members.sourceId))
    .where(and(eq(members.sourceType, 'Namespace'), inArray(members.sourceId, groupIds), eq(members.userId, userId), activeMembershipSql))
    .orderBy(sql`${members.accessLevel} DESC`)
    .limit(1);
  return row;
}

/** Up to two distinct users holding Owner over the group (directly or through an ancestor). */
export async function groupOwnerIds(db: Db, groupIds: number[]) {
  const rows = await db
    .selectDistinct({ userId: members.userId })
    .from(members)
    .where(and(eq(members.sourceType, 'Namespace'), inArray(members.sourceId, groupIds), eq(members.accessLevel, AccessLevel.OWNER), activeMembershipSql))
    .limit(2);
  return rows.map((r) => r.userId);
}

/** Serializes membership changes of one group hierarchy (last-owner checks must not race). */
export async function lockNamespace(tx: Db, id: number) {
  await tx.execute(sql`SELECT id FROM namespaces WHERE id = ${id} FOR UPDATE`);
}

export async function insertMember(tx: Db, values: typeof members.$inferInsert) {
  const [row] = await tx.insert(members).values(values).returning();
  return row!;
}

export async function updateMember(tx: Db, id: number, values: { accessLevel: number; expiresAt?: string | null | undefined }) {
  const [row] = await tx
    .update(members)
    .set({ accessLevel: values.accessLevel, ...(values.expiresAt !== undefined ? { expiresAt: values.expiresAt } : {}), updatedAt: sql`now()` })
    .where(eq(members.id, id))
    .returning();
  return row!;
}

export async function deleteMember(tx: Db, id: number) {
  await tx.delete(members).where(eq(members.id, id));
}

/** The memberships GitLab's MembersFinder relations take in: direct, inherited (from the ancestors), or both. */
function relationScope(source: MemberSource, relations: { direct: boolean; inherited: boolean }): MemberSource | null {
  if (relations.direct) return relations.inherited ? source : { ...source, ancestorGroupIds: [] };
  if (relations.inherited && source.ancestorGroupIds.length) {
    const ids = source.ancestorGroupIds;
    return { type: 'Namespace', id: ids.at(-1)!, ancestorGroupIds: ids.slice(0, -1) };
  }
  return null;
}

/**
 * A keyset page of members for each of several sources (GraphQL's projectMembers/groupMembers, alone or under a
 * list), in one statement: each source's direct memberships, those inherited from its ancestor groups, or both
 * (GitLab's MembersFinder relations), each user once with their highest level; numbered in the page's order over
 * members.id (one window per source, joined by UNION ALL), the first `page.limit` of each kept. One list per source,
 * in the order asked.
 */
export async function listMembersPages(
  db: Db,
  sources: readonly MemberSource[],
  relations: { direct: boolean; inherited: boolean },
  f: MemberFilter,
  keyset: KeysetPage,
) {
  const page = keysetSql(members.id, keyset);
  const branches = sources.flatMap((source, i) => {
    const scope = relationScope(source, relations);
    if (!scope) return [];
    const branch = db
      .select({ parent: sql<number>`${i}::int`.as('parent'), wid: sql<number>`${members.id}`.as('wid'), rn: rowNumber(undefined, page.orderBy) })
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .where(and(inArray(members.id, bestMemberships(db, scope)), userSearch(f), page.where))
      .$dynamic();
    return [singleParentLimit(branch, true, page)];
  });
  const [first, ...rest] = branches;
  if (!first) return sources.map(() => []);
  let all = first;
  for (const b of rest) all = all.unionAll(b) as typeof first;
  const w = all.as('w');
  const found = await db
    .select({ parent: w.parent, member: members, user: users })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .innerJoin(w, eq(w.wid, members.id))
    .where(sql`${w.rn} <= ${page.limit}`)
    .orderBy(w.parent, w.rn);
  const lists = sources.map((): Array<{ member: typeof members.$inferSelect; user: typeof users.$inferSelect }> => []);
  for (const { parent, ...row } of found) lists[Number(parent)]!.push(row);
  return lists;
}

export async function addProjectMember(tx: Db, projectId: number, userId: number, accessLevel: number, createdById: number) {
  await tx.insert(members).values({ sourceType: 'Project', sourceId: projectId, userId, accessLevel, createdById });
}

/** Pending access requests of the source, with their users, oldest first. */
export function listAccessRequests(db: Db, source: { type: 'Project' | 'Namespace'; id: number }, limit: number, offset: number) {
  return db
    .select({ request: accessRequests, user: users })
    .from(accessRequests)
    .innerJoin(users, eq(users.id, accessRequests.userId))
    .where(and(eq(accessRequests.sourceType, source.type), eq(accessRequests.sourceId, source.id)))
    .orderBy(asc(accessRequests.requestedAt), asc(accessRequests.id))
    .limit(limit)
    .offset(offset);
}

export async function countAccessRequests(db: Db, source: { type: 'Project' | 'Namespace'; id: number }, limit: number) {
  const sub = db
    .select({ one: sql`1` })
    .from(accessRequests)
    .where(and(eq(accessRequests.sourceType, source.type), eq(accessRequests.sourceId, source.id)))
    .limit(limit)
    .as('c');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sub);
  return Number(row?.n ?? 0);
}

export async function insertAccessRequest(tx: Db, source: { type: 'Project' | 'Namespace'; id: number }, userId: number) {
  const [row] = await tx.insert(accessRequests).values({ sourceType: source.type, sourceId: source.id, userId }).returning();
  return row!;
}

/** Removes the user's pending request; the removed row with its user, or undefined when there was none. */
export async function deleteAccessRequest(tx: Db, source: { type: 'Project' | 'Namespace'; id: number }, userId: number) {
  const [row] = await tx
    .delete(accessRequests)
    .where(and(eq(accessRequests.sourceType, source.type), eq(accessRequests.sourceId, source.id), eq(accessRequests.userId, userId)))
    .returning();
  return row;
}

export async function findAccessRequest(db: Db, source: { type: 'Project' | 'Namespace'; id: number }, userId: number) {
  const [row] = await db
    .select({ request: accessRequests, user: users })
    .from(accessRequests)
    .innerJoin(users, eq(users.id, accessRequests.userId))
    .where(and(eq(accessRequests.sourceType, source.type), eq(accessRequests.sourceId, source.id), eq(accessRequests.userId, userId)));
  return row;
}

/** A user's memberships with their source's name (GET /users/:id/memberships), by membership id. */
function membershipsWhere(userId: number, type: 'Project' | 'Namespace' | undefined) {
  return and(eq(members.userId, userId), type ? eq(members.sourceType, type) : undefined);
}

export function listUserMemberships(db: Db, userId: number, type: 'Project' | 'Namespace' | undefined, limit: number, offset: number) {
  return db
    .select({
      sourceId: members.sourceId,
      sourceType: members.sourceType,
      accessLevel: members.accessLevel,
      sourceName: sql<string>`CASE WHEN ${members.sourceType} = 'Project' THEN (SELECT p.name FROM projects p WHERE p.id = ${members.sourceId}) ELSE (SELECT n.name FROM namespaces n WHERE n.id = ${members.sourceId}) END`,
    })
    .from(members)
    .where(membershipsWhere(userId, type))
    .orderBy(asc(members.id))
    .limit(limit)
    .offset(offset);
}

export async function countUserMemberships(db: Db, userId: number, type: 'Project' | 'Namespace' | undefined, limit: number) {
  const sub = db
    .select({ one: sql`1` })
    .from(members)
    .where(membershipsWhere(userId, type))
    .limit(limit)
    .as('c');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sub);
  return Number(row?.n ?? 0);
}
