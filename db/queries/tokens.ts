import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { personalAccessTokens } from '../schema/index.ts';

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
  await db
    .update(personalAccessTokens)
    .set({ revoked: true, updatedAt: sql`now()` })
    .where(eq(personalAccessTokens.id, id));
}
