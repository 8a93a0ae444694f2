// Broadcast messages: newest first (order_id_desc), the single row, and writes.
import { count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { broadcastMessages } from '../schema/index.ts';

export const listBroadcastMessages = (db: Db, limit: number, offset: number) =>
  db.select().from(broadcastMessages).orderBy(desc(broadcastMessages.id)).limit(limit).offset(offset);

export async function countBroadcastMessages(db: Db, limit: number) {
  const [row] = await db.select({ n: count() }).from(db.select({ id: broadcastMessages.id }).from(broadcastMessages).limit(limit).as('c'));
  return row?.n ?? 0;
}

export async function findBroadcastMessage(db: Db, id: number) {
  const [row] = await db.select().from(broadcastMessages).where(eq(broadcastMessages.id, id));
  return row;
}

export async function insertBroadcastMessage(db: Db, values: typeof broadcastMessages.$inferInsert) {
  const [row] = await db.insert(broadcastMessages).values(values).returning();
  return row!;
}

export async function updateBroadcastMessage(db: Db, id: number, values: Partial<typeof broadcastMessages.$inferInsert>) {
  const [row] = await db
    .update(broadcastMessages)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(broadcastMessages.id, id))
    .returning();
  return row;
}

export async function deleteBroadcastMessage(db: Db, id: number) {
  const rows = await db.delete(broadcastMessages).where(eq(broadcastMessages.id, id)).returning({ id: broadcastMessages.id });
  return rows.length > 0;
}
