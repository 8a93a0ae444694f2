// The two helpers raw-SQL queries share (data-modifying CTEs, which Drizzle's builder cannot express).
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client.ts';

/** Rows of `db.execute`, whichever driver ran it (neon-http and PGlite answer differently shaped results). */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result: any = await db.execute(query);
  return (Array.isArray(result) ? result : result.rows) as T[];
}

/** The rows of a raw statement's result in a batch (neon-http and PGlite shape them differently). */
export const batchRows = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

/** A text[] parameter, bound as one array literal (every driver binds it the same way). */
export const textArray = (values: readonly string[]) => sql`${`{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::text[]`;

/** An int[] parameter, bound as one array literal (the ids must be integers). */
export const intArray = (values: readonly number[]) => sql`${`{${values.map((v) => Math.trunc(Number(v))).join(',')}}`}::int[]`;
