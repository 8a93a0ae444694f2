import { eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { rateLimits } from '../schema/index.ts';

/**
 * Counts one event under `key` in a fixed window of `windowSeconds`, atomically (one upsert, safe under concurrency).
 * Returns the count in the current window and when the window ends.
 */
export async function countEvent(db: Db, key: string, windowSeconds: number) {
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, windowStart: sql`now()` })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`CASE WHEN ${rateLimits.windowStart} <= now() - make_interval(secs => ${windowSeconds}) THEN 1 ELSE ${rateLimits.count} + 1 END`,
        windowStart: sql`CASE WHEN ${rateLimits.windowStart} <= now() - make_interval(secs => ${windowSeconds}) THEN now() ELSE ${rateLimits.windowStart} END`,
      },
    })
    .returning({ count: rateLimits.count, windowStart: rateLimits.windowStart });
  return { count: row!.count, resetAt: new Date(row!.windowStart.getTime() + windowSeconds * 1000) };
}

export async function resetCount(db: Db, key: string) {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}
