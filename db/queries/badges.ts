// Badges of projects and groups. A project shows its own and those of its group and the group's ancestors.
import { and, asc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { badges, gitRefs, repositories } from '../schema/index.ts';

/** Whose badges: a project (with its group and ancestors' ids) or a group. */
export type BadgeOwner = { kind: 'project'; id: number; groupIds: number[] } | { kind: 'group'; id: number };

const ofOwner = (o: BadgeOwner): SQL =>
  o.kind === 'group' ? eq(badges.groupId, o.id) : or(eq(badges.projectId, o.id), o.groupIds.length ? inArray(badges.groupId, o.groupIds) : undefined)!;

const nameFilter = (name: string | undefined) => (name ? ilike(badges.name, name.replace(/[\\%_]/g, '\\$&')) : undefined);

export function listBadges(db: Db, o: BadgeOwner, name: string | undefined, limit: number, offset: number) {
  return db
    .select()
    .from(badges)
    .where(and(ofOwner(o), nameFilter(name)))
    .orderBy(asc(badges.id))
    .limit(limit)
    .offset(offset);
}

export async function countBadges(db: Db, o: BadgeOwner, name: string | undefined, limit: number) {
  const sub = db
    .select({ one: sql`1` })
    .from(badges)
    .where(and(ofOwner(o), nameFilter(name)))
    .limit(limit)
    .as('c');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sub);
  return Number(row?.n ?? 0);
}

export async function findBadge(db: Db, o: BadgeOwner, id: number) {
  const [row] = await db
    .select()
    .from(badges)
    .where(and(ofOwner(o), eq(badges.id, id)));
  return row;
}

export async function insertBadge(db: Db, values: typeof badges.$inferInsert) {
  const [row] = await db.insert(badges).values(values).returning();
  return row!;
}

export async function updateBadge(db: Db, id: number, values: Partial<Pick<typeof badges.$inferInsert, 'name' | 'linkUrl' | 'imageUrl'>>) {
  const [row] = await db
    .update(badges)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(badges.id, id))
    .returning();
  return row;
}

export async function deleteBadge(db: Db, id: number) {
  await db.delete(badges).where(eq(badges.id, id));
}

/** The commit the project's default branch points at (hex), for %{commit_sha}; null while the repository is empty. */
export async function defaultBranchCommit(db: Db, projectId: number): Promise<string | null> {
  const [row] = await db
    .select({ sha: sql<string>`encode(${gitRefs.oid}, 'hex')` })
    .from(repositories)
    .innerJoin(gitRefs, and(eq(gitRefs.projectId, repositories.projectId), sql`${gitRefs.name} = 'refs/heads/' || ${repositories.defaultBranch}`))
    .where(eq(repositories.projectId, projectId));
  return row?.sha ?? null;
}
