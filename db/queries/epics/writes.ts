// Epics' writes, inside the caller's transaction: insert, update, delete (children keep living without a parent).
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { epics, type EpicRow } from '../../schema/index.ts';
import { deleteLabelLinksOf } from '../labels/writes.ts';

export async function insertEpic(tx: Db, values: typeof epics.$inferInsert): Promise<EpicRow> {
  const [row] = await tx.insert(epics).values(values).returning();
  return row!;
}

export async function updateEpic(tx: Db, id: number, values: Partial<typeof epics.$inferInsert>): Promise<EpicRow | undefined> {
  const [row] = await tx
    .update(epics)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(epics.id, id))
    .returning();
  return row;
}

/** Deletes the epic; its children lose their parent (GitLab nullifies parent_id), its issue links and label links go. */
export async function deleteEpic(tx: Db, id: number): Promise<void> {
  await tx.update(epics).set({ parentId: null }).where(eq(epics.parentId, id));
  await deleteLabelLinksOf(tx, 'Epic', id);
  await tx.delete(epics).where(eq(epics.id, id));
}
