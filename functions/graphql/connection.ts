// Relay connections over keyset pages: `first`/`last`/`after`/`before` become one query of at most limit+1 rows
// ordered by id, whatever the page; cursors are the opaque codec of lib/pagination.ts (base64 JSON of the ordering
// values, as GitLab's keyset connection). hasNextPage/hasPreviousPage follow GitLab's Keyset::Connection.
import { GraphQLError } from 'graphql';
import { decodeCursor, encodeCursor, type KeysetPage } from '../lib/pagination.ts';

export const MAX_PAGE_SIZE = 100;

export interface ConnectionArgs {
  after?: string | null | undefined;
  before?: string | null | undefined;
  first?: number | null | undefined;
  last?: number | null | undefined;
}

export interface Connection<T> {
  edges: Array<{ cursor: string; node: T }>;
  nodes: T[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

const cursorId = (cursor: string): number => {
  const id = Number(decodeCursor(cursor)?.id);
  // Ids the database can hold only: anything else is not one of our cursors (and must not reach Postgres).
  if (!Number.isInteger(id) || id < 0 || id > 2_147_483_647) throw new GraphQLError('Please provide a valid cursor');
  return id;
};

/** first/last: at most MAX_PAGE_SIZE (larger values are clamped, as graphql-ruby's max_page_size); negative is an error. */
function pageSize(args: ConnectionArgs) {
  for (const key of ['first', 'last'] as const) {
    const v = args[key];
    if (v != null && v < 0) throw new GraphQLError(`Argument '${key}' on Field has an invalid value (${v}). Expected type 'Int'.`);
  }
  return Math.min(args.first ?? MAX_PAGE_SIZE, args.last ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE);
}

/** One page of a connection ordered by id (`order`), fetched with one query. */
export async function keysetConnection<T>(
  args: ConnectionArgs,
  order: 'asc' | 'desc',
  idOf: (node: T) => number,
  fetch: (page: KeysetPage) => Promise<T[]>,
): Promise<Connection<T>> {
  const limit = pageSize(args);
  const reverse = args.last != null && args.first == null;
  const page: KeysetPage = {
    afterId: args.after ? cursorId(args.after) : undefined,
    beforeId: args.before ? cursorId(args.before) : undefined,
    limit: limit + 1,
    reverse,
    order,
  };
  const rows = limit === 0 ? [] : await fetch(page);
  const more = rows.length > limit;
  const slice = more ? rows.slice(0, limit) : rows;
  const nodes = reverse ? slice.reverse() : slice;
  return toConnection(nodes, idOf, {
    // GitLab: a cursor points at a record, so the other direction always has one.
    hasNextPage: args.before ? true : !reverse && more,
    hasPreviousPage: args.after ? true : reverse && more,
  });
}

/** A connection over nodes already loaded (a DataLoader's result), paged in memory by id in the list's order. */
export function arrayConnection<T>(all: readonly T[], args: ConnectionArgs, idOf: (node: T) => number): Connection<T> {
  const limit = pageSize(args);
  let start = 0;
  let end = all.length;
  if (args.after) {
    const id = cursorId(args.after);
    start = all.findIndex((n) => idOf(n) === id) + 1;
  }
  if (args.before) {
    const id = cursorId(args.before);
    const i = all.findIndex((n) => idOf(n) === id);
    if (i >= 0) end = i;
  }
  const window = all.slice(start, Math.max(start, end));
  const reverse = args.last != null && args.first == null;
  const nodes = reverse ? window.slice(Math.max(0, window.length - limit)) : window.slice(0, limit);
  return toConnection(nodes, idOf, {
    hasNextPage: args.before ? true : !reverse && window.length > limit,
    hasPreviousPage: args.after ? true : reverse && window.length > limit,
  });
}

function toConnection<T>(nodes: T[], idOf: (node: T) => number, flags: { hasNextPage: boolean; hasPreviousPage: boolean }): Connection<T> {
  const edges = nodes.map((node) => ({ cursor: encodeCursor({ id: String(idOf(node)) }), node }));
  return { edges, nodes, pageInfo: { ...flags, startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null } };
}
