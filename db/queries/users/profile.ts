// A user's secondary emails and status (the profile parts with routes of their own).
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { emails, users, userStatuses } from '../../schema/index.ts';

export const listEmails = (db: Db, userId: number, limit: number, offset: number) =>
  db.select().from(emails).where(eq(emails.userId, userId)).orderBy(asc(emails.id)).limit(limit).offset(offset);

export async function countEmails(db: Db, userId: number, limit: number) {
  const [row] = await db.select({ n: count() }).from(db.select({ id: emails.id }).from(emails).where(eq(emails.userId, userId)).limit(limit).as('c'));
  return row?.n ?? 0;
}

export async function findEmail(db: Db, userId: number, id: number) {
  const [row] = await db
    .select()
    .from(emails)
    .where(and(eq(emails.userId, userId), eq(emails.id, id)));
  return row;
}

/** Inserts the email; undefined when another row has it (the unique index on its lower case decides). */
export async function insertEmail(db: Db, userId: number, email: string, confirmed: boolean) {
  const [row] = await db
    .insert(emails)
    .values({ userId, email, confirmedAt: confirmed ? sql`now()` : null })
    .onConflictDoNothing()
    .returning();
  return row;
}

export async function deleteEmail(db: Db, userId: number, id: number) {
  const rows = await db
    .delete(emails)
    .where(and(eq(emails.userId, userId), eq(emails.id, id)))
    .returning({ id: emails.id });
  return rows.length > 0;
}

export async function findStatus(db: Db, userId: number) {
  const [row] = await db.select().from(userStatuses).where(eq(userStatuses.userId, userId));
  return row;
}

export async function upsertStatus(db: Db, userId: number, emoji: string, message: string | null) {
  const [row] = await db
    .insert(userStatuses)
    .values({ userId, emoji, message })
    .onConflictDoUpdate({ target: userStatuses.userId, set: { emoji, message, updatedAt: sql`now()` } })
    .returning();
  return row!;
}

export async function deleteStatus(db: Db, userId: number) {
  await db.delete(userStatuses).where(eq(userStatuses.userId, userId));
}

/** Users active on or after `from` (a day), least recent first (GET /user/activities). */
const activeSince = (from: string) => sql`${users.lastActivityOn} >= ${from}::date`;

export const listActivities = (db: Db, from: string, limit: number, offset: number) =>
  db
    .select({ username: users.username, lastActivityOn: users.lastActivityOn })
    .from(users)
    .where(activeSince(from))
    .orderBy(asc(users.lastActivityOn), asc(users.id))
    .limit(limit)
    .offset(offset);

export async function countActivities(db: Db, from: string, limit: number) {
  const [row] = await db.select({ n: count() }).from(db.select({ id: users.id }).from(users).where(activeSince(from)).limit(limit).as('c'));
  return row?.n ?? 0;
}
