// Per-parent keyset pages in one statement (GraphQL connections nested under a list: one query for all parents).
// A page is what a single-parent page query takes: the keyset condition, its ORDER BY and limit (+1); the batched
// query keeps the first `limit` rows of each parent with row_number() over the parent's rows in that order.
import { and, asc, desc, gt, lt, sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * What a keyset page asks for, whatever the transport (GraphQL connections build it from cursors): rows strictly
 * after/before the given ids, `limit` of them, read from the end (`reverse`) when paging backwards.
 */
export interface KeysetPage {
  afterId: number | undefined;
  beforeId: number | undefined;
  limit: number;
  /** Read from the end (`last`): the query orders the other way and the rows are turned back. */
  reverse: boolean;
  order: 'asc' | 'desc';
}

export interface PageSql {
  where: SQL | undefined;
  orderBy: SQL;
  limit: number;
}

/** row_number() of a row within its parent (`partition`; none: the whole query is one parent), in the page's order. */
export const rowNumber = (partition: AnyColumn | SQL | undefined, orderBy: SQL) =>
  (partition === undefined
    ? sql<number>`row_number() OVER (ORDER BY ${orderBy})`
    : sql<number>`row_number() OVER (PARTITION BY ${partition} ORDER BY ${orderBy})`
  )
    .mapWith(Number)
    .as('rn');

/**
 * The window's own ORDER BY and LIMIT when it holds one parent only (a connection asked alone, or one branch of a
 * UNION ALL): the first rows by the index, without numbering every row of the parent.
 */
export const singleParentLimit = <Q extends { orderBy(o: SQL): Q; limit(n: number): Q }>(q: Q, single: boolean, page: PageSql): Q =>
  single ? q.orderBy(page.orderBy).limit(page.limit) : q;

/** Rows grouped by parent, in the order asked (an empty list for parents without rows). */
export function byParent<T>(parents: readonly number[], rows: readonly T[], parentOf: (row: T) => number): T[][] {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const k = parentOf(row);
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  return parents.map((p) => groups.get(p) ?? []);
}

/** A keyset page over an id column as SQL: the id condition, the ORDER BY (reversed when reading from the end), the limit. */
export function keysetSql(column: AnyColumn, page: KeysetPage): PageSql {
  const [after, before] = page.order === 'asc' ? [gt, lt] : [lt, gt];
  return {
    where: and(page.afterId !== undefined ? after(column, page.afterId) : undefined, page.beforeId !== undefined ? before(column, page.beforeId) : undefined),
    orderBy: (page.order === 'asc') !== page.reverse ? asc(column) : desc(column),
    limit: page.limit,
  };
}
