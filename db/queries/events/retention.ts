// Events' retention: the batched delete the housekeeping job loops over (functions/housekeeping/service.ts).
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { events } from '../../schema/index.ts';
import { rows } from '../lib/raw.ts';

/**
 * Deletes up to `batch` events created before `cutoff`, oldest first. SKIP LOCKED lets concurrent runs take disjoint
 * batches instead of waiting on each other; the caller loops until a batch comes back short.
 */
export async function deleteEventsBefore(db: Db, cutoff: SQL, batch: number): Promise<number> {
  const deleted = await rows<{ id: unknown }>(
    db,
    sql`DELETE FROM ${events} WHERE ${events.id} IN (
          SELECT e.id FROM ${events} e WHERE e.created_at < ${cutoff} ORDER BY e.id LIMIT ${batch} FOR UPDATE SKIP LOCKED
        ) RETURNING ${events.id}`,
  );
  return deleted.length;
}
