// The database's own settings (migration 0017): every session the app opens, through Neon's HTTP endpoint and its
// WebSocket pool alike, runs without JIT compilation. With JIT on, PostgreSQL compiled each listing whose
// visibility subqueries it over-estimated (GET /events: ~340 functions, about 2 s) to run it in milliseconds.
// PostgreSQL only: PGlite has no JIT provider (it reports `on` and compiles nothing).
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { rows } from '../../../db/queries/lib/raw.ts';
import { testDb } from '../../helpers/app.ts';

it.runIf(process.env.TEST_DB === 'postgres')('JIT is off for single statements, batches and transactions', async () => {
  const { db, batch, transaction } = testDb();
  const show = (d: typeof db) => rows<{ jit: string }>(d, sql`SHOW jit`);
  expect(await show(db)).toEqual([{ jit: 'off' }]);
  const [inBatch] = await batch((tx) => [tx.execute(sql`SHOW jit`)]);
  expect((inBatch as unknown as { rows: unknown[] }).rows).toEqual([{ jit: 'off' }]);
  expect(await transaction((tx) => show(tx))).toEqual([{ jit: 'off' }]);
});
