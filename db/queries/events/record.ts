// Events: the writes behind recordEvent (functions/events/record.ts). A push event and its payload go in one
// statement (a data-modifying CTE), so no event is ever without its payload.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { events, pushEventPayloads } from '../../schema/index.ts';

type NewEvent = Omit<typeof events.$inferInsert, 'id' | 'createdAt' | 'updatedAt'> & {
  push?: Omit<typeof pushEventPayloads.$inferInsert, 'eventId'> | undefined;
};

export async function insertEvent(db: Db, { push, ...event }: NewEvent): Promise<void> {
  if (!push) {
    await db.insert(events).values(event);
    return;
  }
  await insertPushEventStatement(db, { ...event, push });
}

/** A push event and its payload as ONE statement, for the batch that moves the ref (or for insertEvent). */
export function insertPushEventStatement(db: Db, { push, ...event }: NewEvent & { push: NonNullable<NewEvent['push']> }) {
  return db.execute(
    sql`WITH e AS (
          INSERT INTO events (project_id, group_id, author_id, action, target_type, target_id)
          VALUES (${event.projectId ?? null}, ${event.groupId ?? null}, ${event.authorId}, ${event.action}, ${event.targetType ?? null}, ${event.targetId ?? null})
          RETURNING id
        )
        INSERT INTO push_event_payloads (event_id, commit_count, action, ref_type, commit_from, commit_to, ref, commit_title, ref_count)
        SELECT e.id, ${push.commitCount}, ${push.action}, ${push.refType}, ${push.commitFrom ?? null}, ${push.commitTo ?? null}, ${push.ref ?? null},
          ${push.commitTitle ?? null}, ${push.refCount ?? null} FROM e`,
  );
}

/** An event without push payload as a statement for a batch; its target id may be SQL (a `currval` in the batch). */
export function insertEventStatement(db: Db, event: Omit<NewEvent, 'push' | 'targetId'> & { targetId: number | SQL | null }) {
  return db.insert(events).values(event as typeof events.$inferInsert);
}

/** Several events in one statement (the housekeeping job's `expired` events). Push events go through insertEvent. */
export async function insertEvents(db: Db, list: Omit<NewEvent, 'push'>[]): Promise<void> {
  if (list.length) await db.insert(events).values(list);
}

/** Events of a deleted target keep its type with a null id. */
export async function clearEventTargets(tx: Db, targetType: string, targetId: number) {
  await tx
    .update(events)
    .set({ targetId: null })
    .where(and(eq(events.targetType, targetType), eq(events.targetId, targetId)));
}
