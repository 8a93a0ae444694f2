// Every array response goes through here: offset pagination with GitLab's headers (X-Page, X-Per-Page,
// X-Next-Page, X-Prev-Page, X-Total, X-Total-Pages, Link), and keyset pagination (Link rel="next" only).
import type { Context } from 'hono';
import { CREDENTIAL_QUERY_PARAMS } from './auth.ts';
import type { AppEnv } from './context.ts';
import { unsupported } from './errors.ts';
import * as z from 'zod/mini';
import { int, oneOf } from './validate.ts';

/** A keyset page as the read verbs take it (GraphQL connections build it from their cursors). */
export type { KeysetPage } from '../../db/queries/lib/window.ts';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
/** Above this many rows GitLab stops counting: X-Total, X-Total-Pages and rel="last" are left out. */
export const COUNT_LIMIT = 10_000;

const positive = () => z.optional(z.pipe(int(), z.int().check(z.minimum(1))));

/** `page` and `per_page` (zero or negative: 400; over 100: clamped, as Kaminari does). */
export const paginationParams = () => ({
  page: positive(),
  per_page: positive(),
});

export interface PageRequest {
  page: number;
  perPage: number;
}

export function pageRequest(input: { page?: number | undefined; per_page?: number | undefined }): PageRequest {
  return { page: input.page ?? 1, perPage: Math.min(input.per_page ?? DEFAULT_PER_PAGE, MAX_PER_PAGE) };
}

/**
 * The request's URL on the public base, with `overrides` merged into its query (other parameters kept). Credentials
 * are left out, as GitLab does: a Link URL ends up in logs, histories and shared links.
 */
function pageUrl(c: Context<AppEnv>, overrides: Record<string, string>, remove: readonly string[] = []): string {
  const url = new URL(c.req.url);
  const query = new URLSearchParams(url.search);
  for (const key of [...CREDENTIAL_QUERY_PARAMS, ...remove]) query.delete(key);
  for (const [k, v] of Object.entries(overrides)) query.set(k, v);
  return `${c.var.ctx.config.publicUrl}${url.pathname}?${query.toString()}`;
}

/**
 * Offset pagination. `fetch(limit, offset)` is asked for one row more than the page to learn whether a next page
 * exists; `count(limit)` runs only when the total is not already known from the page itself, and is capped.
 */
export async function paginate<T>(
  c: Context<AppEnv>,
  { page, perPage }: PageRequest,
  fetch: (limit: number, offset: number) => Promise<T[]>,
  count: (limit: number) => Promise<number>,
): Promise<T[]> {
  const offset = (page - 1) * perPage;
  const rows = await fetch(perPage + 1, offset);
  const hasNext = rows.length > perPage;
  const items = hasNext ? rows.slice(0, perPage) : rows;
  // A short page (or an empty first page) tells the total without counting.
  const total = !hasNext && (items.length > 0 || page === 1) ? offset + items.length : await count(COUNT_LIMIT + 1);
  const counted = total <= COUNT_LIMIT;
  const totalPages = Math.max(Math.ceil(total / perPage), 1);

  const h = (name: string, value: string) => c.header(name, value);
  h('X-Page', String(page));
  h('X-Per-Page', String(perPage));
  h('X-Next-Page', hasNext ? String(page + 1) : '');
  // Kaminari's prev_page is nil on the first page and past the last one (out_of_range?).
  const hasPrev = page > 1 && (!counted || page <= totalPages);
  h('X-Prev-Page', hasPrev ? String(page - 1) : '');
  const pp = String(perPage);
  const links: string[] = [];
  if (hasPrev) links.push(`<${pageUrl(c, { page: String(page - 1), per_page: pp })}>; rel="prev"`);
  if (hasNext) links.push(`<${pageUrl(c, { page: String(page + 1), per_page: pp })}>; rel="next"`);
  links.push(`<${pageUrl(c, { page: '1', per_page: pp })}>; rel="first"`);
  if (counted) {
    links.push(`<${pageUrl(c, { page: String(totalPages), per_page: pp })}>; rel="last"`);
    h('X-Total', String(total));
    h('X-Total-Pages', String(totalPages));
  }
  h('Link', links.join(', '));
  return items;
}

/**
 * Offset pagination without counting (Kaminari's `without_count`, GitLab's search results): X-Total, X-Total-Pages and
 * rel="last" are left out; the next page is known from one row more than the page.
 */
export async function paginateWithoutCount<T>(
  c: Context<AppEnv>,
  { page, perPage }: PageRequest,
  fetch: (limit: number, offset: number) => Promise<T[]>,
): Promise<T[]> {
  const rows = await fetch(perPage + 1, (page - 1) * perPage);
  const hasNext = rows.length > perPage;
  const pp = String(perPage);
  const links: string[] = [];
  if (page > 1) links.push(`<${pageUrl(c, { page: String(page - 1), per_page: pp })}>; rel="prev"`);
  if (hasNext) links.push(`<${pageUrl(c, { page: String(page + 1), per_page: pp })}>; rel="next"`);
  links.push(`<${pageUrl(c, { page: '1', per_page: pp })}>; rel="first"`);
  c.header('X-Page', String(page));
  c.header('X-Per-Page', pp);
  c.header('X-Next-Page', hasNext ? String(page + 1) : '');
  c.header('X-Prev-Page', page > 1 ? String(page - 1) : '');
  c.header('Link', links.join(', '));
  return hasNext ? rows.slice(0, perPage) : rows;
}

/**
 * `paginate`'s two callbacks for a listing whose page statement carries its capped total (one statement per page):
 * `count` answers from the page just read and counts on its own only when that page told nothing (empty past the end).
 */
export function pagedWithTotal<T>(
  page: (limit: number, offset: number) => Promise<{ rows: T[]; total: number | undefined }>,
  count: (cap: number) => Promise<number>,
) {
  let total: number | undefined;
  return {
    fetch: async (limit: number, offset: number) => {
      const read = await page(limit, offset);
      total = read.total;
      return read.rows;
    },
    count: async (cap: number) => total ?? count(cap),
  };
}

/** A list already in memory, paginated with GitLab's headers (Kaminari.paginate_array). */
export const paginateArray = <T>(c: Context<AppEnv>, input: { page?: number | undefined; per_page?: number | undefined }, all: readonly T[]) =>
  paginate(
    c,
    pageRequest(input),
    async (limit, offset) => all.slice(offset, offset + limit),
    async () => all.length,
  );

// ---- Keyset ----

export const keysetParams = () => ({
  pagination: z.optional(oneOf(['offset', 'keyset'])),
});

/**
 * GitLab's offset cap (API::Helpers::PaginationStrategies#offset_paginator) on a listing that offers keyset
 * pagination: when `page * per_page` (the parameters as sent, per_page default 20, before the clamp to 100) exceeds
 * the limit (OFFSET_PAGINATION_LIMIT, GitLab's plan limit offset_pagination_limit, default 50,000; 0 turns it off),
 * 405 `{"error":"Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type
 * Project. Remaining records can be retrieved using keyset pagination."}`. `type` is the class GitLab names.
 */
export function assertOffsetWithinLimit(
  c: Context<AppEnv>,
  input: { page?: number | undefined; per_page?: number | undefined },
  type: 'Project' | 'Event',
): void {
  const limit = c.var.ctx.config.offsetPaginationLimit;
  if (limit > 0 && (input.page ?? 1) * (input.per_page ?? DEFAULT_PER_PAGE) > limit) {
    throw unsupported(
      `Offset pagination has a maximum allowed offset of ${limit} for requests that return objects of type ${type}. ` +
        'Remaining records can be retrieved using keyset pagination.',
    );
  }
}

/** 405 as GitLab answers for an ordering keyset pagination does not cover. */
export const keysetUnsupported = () => unsupported('Keyset pagination is not yet available for this type of request');

/**
 * Keyset pagination by id (GitLab's `pagination=keyset` on /projects): the page is fetched with one extra row, and
 * when more exist a `Link: <...&id_after=N>; rel="next"` (or `id_before` descending) points past the last row.
 */
export async function paginateKeyset<T>(
  c: Context<AppEnv>,
  perPage: number,
  sort: 'asc' | 'desc',
  fetch: (limit: number) => Promise<T[]>,
  idOf: (row: T) => number,
): Promise<T[]> {
  const rows = await fetch(perPage + 1);
  const hasNext = rows.length > perPage;
  const items = hasNext ? rows.slice(0, perPage) : rows;
  if (hasNext) {
    const last = idOf(items[items.length - 1]!);
    const key = sort === 'asc' ? 'id_after' : 'id_before';
    const url = pageUrl(c, { [key]: String(last), per_page: String(perPage) }, ['page', 'id_after', 'id_before']);
    c.header('Link', `<${url}>; rel="next"`);
  }
  return items;
}

// ---- Cursors (GraphQL connections) ----

/** An opaque cursor: base64 of the JSON of the ordering values (`{"id":"42"}`), as GitLab's keyset connection. */
export const encodeCursor = (values: Record<string, string>) => btoa(JSON.stringify(values));

/** The ordering values of a cursor, or null when it is not one of ours. */
export function decodeCursor(cursor: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(atob(cursor));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
