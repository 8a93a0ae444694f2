import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { personalAccessTokens, users } from '../schema/index.ts';

/** The token with this digest and its user, in one round trip. */
export async function findPersonalAccessTokenByDigest(db: Db, digest: string) {
  const [row] = await db
    .select({ token: personalAccessTokens, user: users })
    .from(personalAccessTokens)
    .innerJoin(users, eq(users.id, personalAccessTokens.userId))
    .where(eq(personalAccessTokens.tokenDigest, digest))
    .limit(1);
  return row;
}

/** Records use at most every 10 minutes (GitLab's throttle), so a busy token does not write on every request. */
export async function touchPersonalAccessToken(db: Db, id: number) {
  await db
    .update(personalAccessTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(and(eq(personalAccessTokens.id, id), sql`(${personalAccessTokens.lastUsedAt} IS NULL OR ${personalAccessTokens.lastUsedAt} < now() - interval '10 minutes')`));
}

export async function insertPersonalAccessToken(db: Db, values: typeof personalAccessTokens.$inferInsert) {
  const [row] = await db.insert(personalAccessTokens).values(values).returning();
  return row!;
}

export function listPersonalAccessTokens(db: Db, where: { userId?: number | undefined }, limit: number, offset: number) {
  return db
    .select()
    .from(personalAccessTokens)
    .where(where.userId ? eq(personalAccessTokens.userId, where.userId) : undefined)
    .orderBy(asc(personalAccessTokens.id))
    .limit(limit)
    .offset(offset);
}

/** Counts at most `limit` rows (pagination stops counting past its limit). */
export async function countPersonalAccessTokens(db: Db, where: { userId?: number | undefined }, limit: number) {
  const sub = db
    .select({ one: sql`1` })
    .from(personalAccessTokens)
    .where(where.userId ? eq(personalAccessTokens.userId, where.userId) : undefined)
    .limit(limit)
    .as('c');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sub);
  return Number(row?.n ?? 0);
}

export async function findPersonalAccessToken(db: Db, id: number) {
  const [row] = await db.select().from(personalAccessTokens).where(eq(personalAccessTokens.id, id)).limit(1);
  return row;
}

export async function revokePersonalAccessToken(db: Db, id: number) {
  await db.update(personalAccessTokens).set({ revoked: true, updatedAt: sql`now()` }).where(eq(personalAccessTokens.id, id));
}
