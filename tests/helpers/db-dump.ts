// Which tables hold any of the given strings, searched by the database itself: each row as its text form (text and
// JSON columns as written, bytea as hex), so the search also finds a secret written into a binary column. Nothing is
// read back into the test: the PostgreSQL run shares one database between files, and once a suite has stored a
// 100 MB artifact, selecting every row would pass V8's string limit and the HTTP driver's response size.
import { getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import * as schema from '../../db/schema/index.ts';
import { testDb } from './app.ts';

export const allTables = (): PgTable[] => Object.values(schema as Record<string, unknown>).filter((v): v is PgTable => is(v, PgTable));

export async function tablesHolding(needles: readonly string[]): Promise<string[]> {
  const patterns = needles.flatMap((n) => [n, Buffer.from(n, 'utf8').toString('hex')]);
  const found: string[] = [];
  for (const table of allTables()) {
    const name = getTableName(table);
    const result = (await testDb().db.execute(
      sql`SELECT EXISTS (SELECT 1 FROM ${sql.identifier(name)} t, json_array_elements_text(${JSON.stringify(patterns)}::json) p WHERE strpos(t::text, p) > 0) AS hit`,
    )) as unknown as { rows: { hit: boolean }[] };
    if (result.rows[0]?.hit) found.push(name);
  }
  return found;
}
