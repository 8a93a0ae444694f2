import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { sessions, users } from '../../schema/index.ts';

export async function insertSession(db: Db, values: typeof sessions.$inferInsert) {
  await db.insert(sessions).values(values);
}

/** The live session with this digest and its user. */
export async function findSessionByDigest(db: Db, digest: string) {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.digest, digest), gt(sessions.expiresAt, sql`now()`)))
    .limit(1);
  return row;
}

export async function deleteSessionByDigest(db: Db, digest: string) {
  await db.delete(sessions).where(eq(sessions.digest, digest));
}

/** Signs a user out of every browser. */
export async function deleteSessionsOfUser(db: Db, userId: number) {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}
