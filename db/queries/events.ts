// Events: the insert behind recordEvent (functions/events/record.ts). A push event and its payload go in one
// statement (a data-modifying CTE), so no event is ever without its payload.
import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { events, pushEventPayloads } from '../schema/index.ts';

type NewEvent = Omit<typeof events.$inferInsert, 'id' | 'createdAt' | 'updatedAt'> & {
  push?: Omit<typeof pushEventPayloads.$inferInsert, 'eventId'> | undefined;
};

export async function insertEvent(db: Db, { push, ...event }: NewEvent): Promise<void> {
  if (!push) {
    await db.insert(events).values(event);
    return;
  }
  await db.execute(
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
