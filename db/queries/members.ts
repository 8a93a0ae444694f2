// Memberships of projects and groups (one table, source_type 'Project' | 'Namespace'), with their users.
// "Direct" members belong to the source itself; "all" members add those inherited from ancestor groups, each user
// once with their highest level (GitLab's MembersFinder).
import { and, asc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { AccessLevel, activeMembershipSql } from '../../functions/lib/policy.ts';
import type { Db } from '../client.ts';
import { containsPattern } from './search.ts';
import { members, namespaces, users } from '../schema/index.ts';

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
          f.searchPrivateEmail ? sql`lower(${users.email}) = lower(${f.query})` : sql`${users.publicEmail} <> '' AND lower(${users.publicEmail}) = lower(${f.query})`,
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
  const sub = db.select({ one: sql`1` }).from(members).innerJoin(users, eq(users.id, members.userId)).where(and(ofSource(source), activeMembershipSql, userSearch(f))).limit(limit).as('c');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sub);
  return Number(row?.n ?? 0);
}

/** The membership rows that count for `source`: its own and those of its ancestor groups. */
function inherited(source: MemberSource): SQL {
  const groupIds = source.type === 'Namespace' ? [...source.ancestorGroupIds, source.id] : source.ancestorGroupIds;
  const groups = groupIds.length ? sql`(${members.sourceType} = 'Namespace' AND ${members.sourceId} IN (${sql.join(groupIds.map((id) => sql`${id}`), sql`, `)}))` : sql`false`;
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
export async function findDirectMember(db: Db, source: { type: 'Project' | 'Namespace'; id: number }, userId: number, options: { lock?: boolean; activeOnly?: boolean } = {}) {
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

/**
 * One keyset page of a source's members (GraphQL's projectMembers/groupMembers): its direct memberships, those
 * inherited from its ancestor groups, or both (GitLab's MembersFinder relations), each user once with their
 * highest level; `page` holds the id condition, order and limit over members.id.
 */
export async function listMembersPage(
  db: Db,
  source: MemberSource,
  relations: { direct: boolean; inherited: boolean },
  f: MemberFilter,
  page: { where: SQL | undefined; orderBy: SQL; limit: number },
) {
  let scope: MemberSource | null = null;
  if (relations.direct) scope = relations.inherited ? source : { ...source, ancestorGroupIds: [] };
  else if (relations.inherited && source.ancestorGroupIds.length) {
    const ids = source.ancestorGroupIds;
    scope = { type: 'Namespace', id: ids.at(-1)!, ancestorGroupIds: ids.slice(0, -1) };
  }
  if (!scope) return [];
  return db
    .select({ member: members, user: users })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(inArray(members.id, bestMemberships(db, scope)), userSearch(f), page.where))
    .orderBy(page.orderBy)
    .limit(page.limit);
}
