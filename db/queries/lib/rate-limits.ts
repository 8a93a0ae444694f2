import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { rows } from './raw.ts';
import { rateLimits } from '../../schema/index.ts';

/** One event counted under `key`: the count in its window, when the window ends, and which window it was. */
export interface CountedEvent {
  key: string;
  count: number;
  resetAt: Date;
  /** window_start in microseconds since the epoch: the window uncountEventsSql takes the event back from. */
  window: string;
}

const windowStamp = sql<string>`floor(extract(epoch FROM ${rateLimits.windowStart}) * 1000000)::bigint::text`;

/**
 * Counts one event under each key in a fixed window of `windowSeconds`, atomically (one upsert, safe under
 * concurrency). Returns the count in the current window and when the window ends, per key.
 */
export async function countEvents(db: Db, keys: readonly string[], windowSeconds: number): Promise<CountedEvent[]> {
  const expired = sql`${rateLimits.windowStart} <= now() - make_interval(secs => ${windowSeconds})`;
  const counted = await db
    .insert(rateLimits)
    // Sorted, so concurrent upserts of overlapping keys lock their rows in one order.
    .values([...new Set(keys)].sort().map((key) => ({ key, count: 1, windowStart: sql`now()` })))
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`CASE WHEN ${expired} THEN 1 ELSE ${rateLimits.count} + 1 END`,
        windowStart: sql`CASE WHEN ${expired} THEN now() ELSE ${rateLimits.windowStart} END`,
      },
    })
    .returning({ key: rateLimits.key, count: rateLimits.count, windowStart: rateLimits.windowStart, window: windowStamp });
  return counted.map((r) => ({ key: r.key, count: r.count, resetAt: new Date(r.windowStart.getTime() + windowSeconds * 1000), window: r.window }));
}

export async function countEvent(db: Db, key: string, windowSeconds: number) {
  const [counted] = await countEvents(db, [key], windowSeconds);
  return counted!;
}

/**
 * The statement that takes counted events back, each from the window it was counted in (a window that has restarted
 * since is left alone), when `onlyIf` holds: also a data-modifying CTE of a statement that must not cost a round trip
 * of its own. Rows are locked in key order, as countEvents locks them, so the two never deadlock.
 */
export function uncountEventsSql(events: readonly CountedEvent[], onlyIf: SQL = sql`true`): SQL {
  const counted = sql.join(
    events.map((e) => sql`(${e.key}, ${e.window})`),
    sql`, `,
  );
  return sql`UPDATE rate_limits r SET count = r.count - 1
    FROM (SELECT key FROM rate_limits
          WHERE count > 0 AND (key, floor(extract(epoch FROM window_start) * 1000000)::bigint::text) IN (VALUES ${counted}) AND ${onlyIf}
          ORDER BY key FOR UPDATE) l
    WHERE r.key = l.key`;
}

export async function uncountEvents(db: Db, events: readonly CountedEvent[]) {
  if (events.length) await db.execute(uncountEventsSql(events));
}

export async function resetCount(db: Db, key: string) {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/**
 * Deletes counters whose window started before `olderThan` (their window is over: the next event starts a new one
 * anyway), at most `limit` a call, skipping rows a request holds. Returns how many went.
 */
export async function deleteStaleCounters(db: Db, olderThan: SQL, limit: number, leases: { prefix: string; olderThan: SQL }): Promise<number> {
  // Leases (lib/rate-limit.ts takeLease) hold for longer windows than the counters: they are kept until theirs is over.
  const stale = sql`${rateLimits.windowStart} < CASE WHEN starts_with(${rateLimits.key}, ${leases.prefix}) THEN ${leases.olderThan} ELSE ${olderThan} END`;
  const gone = await rows<{ key: string }>(
    db,
    sql`DELETE FROM ${rateLimits} WHERE ${rateLimits.key} IN (
      SELECT ${rateLimits.key} FROM ${rateLimits} WHERE ${stale} LIMIT ${limit} FOR UPDATE SKIP LOCKED) RETURNING ${rateLimits.key}`,
  );
  return gone.length;
}
