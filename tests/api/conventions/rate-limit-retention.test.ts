// Housekeeping (the cronjob:prune_rate_limits job) drops rate-limit counters whose window is long over (a counter per unknown login or client id would
// otherwise stay forever), and keeps the ones still counting.
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { rows } from '../../../db/queries/lib/raw.ts';
import { deleteStaleRateLimits } from '../../../functions/housekeeping/service.ts';
import { unique } from '../../factories/users.ts';
import { testDb } from '../../helpers/app.ts';

it('counters older than an hour go, current ones stay; a lease (a day at most) stays its day', async () => {
  const { db } = testDb();
  const stale = unique('stale');
  const fresh = unique('fresh');
  const lease = `lease:${unique('held')}`;
  const staleLease = `lease:${unique('over')}`;
  await db.execute(
    sql`INSERT INTO rate_limits (key, count, window_start) VALUES (${stale}, 9, now() - interval '2 hours'), (${fresh}, 3, now() - interval '5 minutes'),
      (${lease}, 1, now() - interval '20 hours'), (${staleLease}, 1, now() - interval '25 hours')`,
  );
  const dropped = await deleteStaleRateLimits({ ctx: testDb() });
  // Other test files share the database (and run the job) on PostgreSQL: at least ours went.
  expect(dropped).toBeGreaterThanOrEqual(0);
  const left = await rows<{ key: string; count: number }>(
    db,
    sql`SELECT key, count FROM rate_limits WHERE key IN (${stale}, ${fresh}, ${lease}, ${staleLease}) ORDER BY key COLLATE "C"`,
  );
  expect(left.map((r) => [r.key, Number(r.count)])).toEqual([
    [fresh, 3],
    [lease, 1],
  ]);
});
