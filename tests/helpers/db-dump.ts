// Which tables hold any of the given strings, searched by the database itself: text and JSON columns as their text,
// bytea columns as bytes (a secret written into a binary column is found too). Nothing is read back into the test:
// once a suite has stored a 100 MB artifact, selecting every row would pass V8's string limit and the HTTP driver's
// response size, and the search stays on the server.
import { getTableColumns, getTableName, is, sql, type SQL } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import * as schema from '../../db/schema/index.ts';
import { testDb } from './app.ts';

export const allTables = (): PgTable[] => Object.values(schema as Record<string, unknown>).filter((v): v is PgTable => is(v, PgTable));

export async function tablesHolding(needles: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const table of allTables()) {
    const name = getTableName(table);
    const matches: SQL[] = Object.values(getTableColumns(table)).map((column) =>
      column.getSQLType() === 'bytea'
        ? sql`position(convert_to(p, 'UTF8') in t.${sql.identifier(column.name)}) > 0`
        : sql`strpos(t.${sql.identifier(column.name)}::text, p) > 0`,
    );
    const result = (await testDb().db.execute(
      sql`SELECT EXISTS (SELECT 1 FROM ${sql.identifier(name)} t, json_array_elements_text(${JSON.stringify(needles)}::json) p WHERE ${sql.join(matches, sql` OR `)}) AS hit`,
    )) as unknown as { rows: { hit: boolean }[] };
    if (result.rows[0]?.hit) found.push(name);
  }
  return found;
}
