import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { activePersonalAccessTokenSql } from './lib/auth.ts';
import { personalAccessTokens } from '../schema/index.ts';

export async function insertPersonalAccessToken(db: Db, values: typeof personalAccessTokens.$inferInsert) {
  const [row] = await db.insert(personalAccessTokens).values(values).returning();
  return row!;
}

export interface TokenFilter {
  userId?: number | undefined;
  /** Only impersonation tokens (true) or only personal ones (false); both when absent. */
  impersonation?: boolean | undefined;
  /** Active: neither revoked nor expired; inactive: either. */
  state?: 'active' | 'inactive' | undefined;
}

const tokenWhere = (f: TokenFilter) => {
  const active = activePersonalAccessTokenSql;
  return and(
    f.userId ? eq(personalAccessTokens.userId, f.userId) : undefined,
    f.impersonation !== undefined ? eq(personalAccessTokens.impersonation, f.impersonation) : undefined,
    f.state === 'active' ? active : f.state === 'inactive' ? sql`NOT ${active}` : undefined,
  );
};

export function listPersonalAccessTokens(db: Db, where: TokenFilter, limit: number, offset: number) {
  return db.select().from(personalAccessTokens).where(tokenWhere(where)).orderBy(asc(personalAccessTokens.id)).limit(limit).offset(offset);
}

/** Counts at most `limit` rows (pagination stops counting past its limit). */
export async function countPersonalAccessTokens(db: Db, where: TokenFilter, limit: number) {
  const sub = db
    .select({ one: sql`1` })
    .from(personalAccessTokens)
    .where(tokenWhere(where))
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
