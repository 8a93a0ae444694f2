// Pipeline triggers (Ci::Trigger): a project's triggers with their owners, one statement per page with its capped
// total, and the lookup a trigger call makes by the token's digest (the token itself is never stored).
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { ciTriggers, users, type TriggerRow, type UserRow } from '../schema/index.ts';

export interface TriggerWithOwner {
  trigger: TriggerRow;
  owner: UserRow | null;
}

const withOwner = (db: Db) => db.select({ trigger: ciTriggers, owner: users }).from(ciTriggers).leftJoin(users, eq(users.id, ciTriggers.ownerId));

/** A page of the project's triggers in id order (GitLab's paginate orders by id), the capped total inside. */
export async function triggerPage(db: Db, projectId: number, o: { limit: number; offset: number; countCap: number }) {
  const list = await db
    .select({
      trigger: ciTriggers,
      owner: users,
      total: sql<number>`(SELECT count(*) FROM (SELECT 1 FROM ${ciTriggers} WHERE ${ciTriggers.projectId} = ${projectId} LIMIT ${o.countCap + 1}) c)`.mapWith(
        Number,
      ),
    })
    .from(ciTriggers)
    .leftJoin(users, eq(users.id, ciTriggers.ownerId))
    .where(eq(ciTriggers.projectId, projectId))
    .orderBy(asc(ciTriggers.id))
    .limit(o.limit)
    .offset(o.offset);
  return { rows: list.map((r): TriggerWithOwner => ({ trigger: r.trigger, owner: r.owner })), total: list[0]?.total };
}

export async function countTriggers(db: Db, projectId: number, cap: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(db.select({ id: ciTriggers.id }).from(ciTriggers).where(eq(ciTriggers.projectId, projectId)).limit(cap).as('capped'));
  return row?.n ?? 0;
}

export async function findTrigger(db: Db, projectId: number, id: number): Promise<TriggerWithOwner | undefined> {
  const [row] = await withOwner(db).where(and(eq(ciTriggers.projectId, projectId), eq(ciTriggers.id, id)));
  return row;
}

/** The trigger whose token has this SHA-256 digest, with its owner. */
export async function findTriggerByDigest(db: Db, tokenDigest: string): Promise<TriggerWithOwner | undefined> {
  const [row] = await withOwner(db).where(eq(ciTriggers.tokenDigest, tokenDigest));
  return row;
}

export async function insertTrigger(
  db: Db,
  values: { projectId: number; ownerId: number; description: string; tokenDigest: string; tokenPrefix: string },
): Promise<TriggerRow> {
  const [row] = await db.insert(ciTriggers).values(values).returning();
  return row!;
}

export async function updateTriggerDescription(db: Db, id: number, description: string): Promise<TriggerRow | undefined> {
  const [row] = await db
    .update(ciTriggers)
    .set({ description, updatedAt: sql`now()` })
    .where(eq(ciTriggers.id, id))
    .returning();
  return row;
}

export async function deleteTrigger(db: Db, id: number): Promise<boolean> {
  const deleted = await db.delete(ciTriggers).where(eq(ciTriggers.id, id)).returning({ id: ciTriggers.id });
  return deleted.length > 0;
}

/** Ci::Trigger#last_used: when it last made a pipeline (GitLab reads its last trigger request's created_at). */
export async function touchTrigger(db: Db, id: number, at: Date): Promise<void> {
  await db.update(ciTriggers).set({ lastUsedAt: at }).where(eq(ciTriggers.id, id));
}
