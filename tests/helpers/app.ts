// The in-process client: requests go through the Hono app's fetch, exactly as HTTP would, with no server.
import { afterAll, beforeAll } from 'vitest';
import { createApp, type App } from '../../functions/app.ts';
import { MemoryResponseCache } from '../../functions/lib/response-cache.ts';
import type { Database, DbStats } from '../../db/client.ts';
import type { Env } from '../../functions/env.ts';
import { openTestDatabase, type TestDatabase } from './db.ts';

export const TEST_PUBLIC_URL = 'https://gitlab.example.test';
// A fixed test key (32 bytes, base64) for the secrets the service encrypts.
export const testEnv: Env = { PUBLIC_URL: TEST_PUBLIC_URL, INSTANCE_TIER: 'free', ENCRYPTION_KEY: 'dGVzdC1vbmx5LWtleS0wMTIzNDU2Nzg5YWJjZGVmMDE=' };

let database: TestDatabase | undefined;
let app: App | undefined;
let cache: MemoryResponseCache | undefined;

/** The app's response cache (the Workers cache's local stand-in), for tests that watch what it keeps. */
export function testCache(): MemoryResponseCache {
  if (!cache) throw new Error('test app not started');
  return cache;
}

/**
 * Opens the worker's database and app, once: the test files of a worker share them (README.md "Tests"), as the
 * PostgreSQL run shares one database between all files. Tests make unique names, so what earlier files stored is
 * only more rows. A response cache is per file.
 */
export async function startTestApp() {
  if (!database) database = await openTestDatabase();
  const provider = database.provider;
  cache = new MemoryResponseCache();
  const current = cache;
  app = createApp({ database: () => provider, cache: () => current });
}

async function stopTestApp() {
  await database?.close();
  database = undefined;
  app = undefined;
}

/**
 * For a file that needs a database of its own (`dataDir` puts PGlite's files on disk: see db.ts): opened before its
 * tests, closed after them, so the next file of the worker opens the shared one again.
 */
export function useOwnDatabase(options: { dataDir?: string } = {}) {
  beforeAll(async () => {
    await stopTestApp();
    database = await openTestDatabase(options);
    await startTestApp();
  });
  afterAll(stopTestApp);
}

/** A Drizzle handle on the test database, for factories (no HTTP; `stats`, when given, counts its statements). */
export function testDb(stats: DbStats = { queries: 0, ms: 0 }): Database {
  if (!database) throw new Error('test app not started');
  return database.provider.open(stats, () => undefined);
}

export interface RequestOptions {
  token?: string;
  /** JSON body (default) */
  body?: unknown;
  /** form-encoded body instead of JSON */
  form?: Record<string, string>;
  /** multipart/form-data body (files as Blob/File), instead of JSON */
  multipart?: FormData;
  query?: Record<string, string | number | boolean | string[]>;
  headers?: Record<string, string>;
  /** Configuration for this request only, merged over testEnv (e.g. `{ INSTANCE_TIER: 'premium' }`). */
  env?: Partial<Env>;
}

export interface TestResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

let clientIps = 0;
/**
 * Each request comes from an address of its own unless the test names one (`CF-Connecting-IP`): the per-IP limits
 * count only what a test means them to, and never what concurrently running test files send.
 */
const anotherClientIp = () => `198.18.${Math.floor(clientIps / 250) % 250}.${(clientIps++ % 250) + 1}-${process.pid}`;

/** One request through the app; `body` is the parsed JSON (or null when empty / not JSON). */
export async function request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
  if (!app) throw new Error('test app not started');
  const url = new URL(path, TEST_PUBLIC_URL);
  for (const [k, v] of Object.entries(options.query ?? {})) {
    if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, item);
    else url.searchParams.set(k, String(v));
  }
  const headers = new Headers(options.headers);
  if (!headers.has('cf-connecting-ip')) headers.set('cf-connecting-ip', anotherClientIp());
  if (options.token) headers.set('PRIVATE-TOKEN', options.token);
  let body: string | FormData | undefined;
  if (options.multipart) {
    body = options.multipart; // Request sets the multipart Content-Type with its boundary
  } else if (options.form) {
    headers.set('content-type', 'application/x-www-form-urlencoded');
    body = new URLSearchParams(options.form).toString();
  } else if (options.body !== undefined) {
    headers.set('content-type', 'application/json');
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  // Work the app hands to waitUntil (e.g. recording a token's last use) finishes before the next request, as it
  // would be ordered on one connection; otherwise query counts of consecutive requests would race.
  const pending: Promise<unknown>[] = [];
  const executionCtx = { waitUntil: (p: Promise<unknown>) => void pending.push(p), passThroughOnException() {}, props: {} };
  const res = await app.fetch(new Request(url, { method, headers, body }), options.env ? { ...testEnv, ...options.env } : testEnv, executionCtx);
  const text = await res.text();
  await Promise.allSettled(pending);
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: res.status, body: parsed as T, text, headers: res.headers };
}

export const api = {
  get: <T = any>(path: string, o?: RequestOptions) => request<T>('GET', `/api/v4${path}`, o),
  post: <T = any>(path: string, o?: RequestOptions) => request<T>('POST', `/api/v4${path}`, o),
  put: <T = any>(path: string, o?: RequestOptions) => request<T>('PUT', `/api/v4${path}`, o),
  delete: <T = any>(path: string, o?: RequestOptions) => request<T>('DELETE', `/api/v4${path}`, o),
};

/** Number of queries a response reports in Server-Timing (`db;dur=..;desc="N queries, R round trips[, ws]"`). */
export function queryCount(res: TestResponse): number {
  const m = /desc="(\d+) quer/.exec(res.headers.get('server-timing') ?? '');
  if (!m) throw new Error(`no Server-Timing db entry: ${res.headers.get('server-timing')}`);
  return Number(m[1]);
}

/**
 * Serves the test app over real HTTP on a loopback port (for real API clients). Its PUBLIC_URL is the served
 * address, so the Link headers clients follow lead back to it.
 */
export async function serveTestApp(options: { explorerAssets?: boolean; env?: Partial<Env> } = {}): Promise<{ url: string; close(): Promise<void> }> {
  if (!app) throw new Error('test app not started');
  const { serve } = await import('@hono/node-server');
  const served = app;
  const env: Env = { ...testEnv, ...options.env };
  const appFetch = (req: Request) => served.fetch(req, env);
  const fetch = options.explorerAssets ? (await import('../../functions/web/explorer/node-assets.ts')).withExplorerAssets(appFetch) : appFetch;
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      env.PUBLIC_URL = `http://127.0.0.1:${info.port}`;
      resolve({ url: env.PUBLIC_URL, close: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
}

/**
 * A `fetch` that calls the in-process app (for oauth4webapi's `customFetch`): same Request semantics as the
 * network, no server. Work handed to waitUntil finishes before the response is returned.
 */
export async function appFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  if (!app) throw new Error('test app not started');
  const pending: Promise<unknown>[] = [];
  const executionCtx = { waitUntil: (p: Promise<unknown>) => void pending.push(p), passThroughOnException() {}, props: {} };
  const req = new Request(input, init);
  if (!req.headers.has('cf-connecting-ip')) req.headers.set('cf-connecting-ip', anotherClientIp());
  const res = await app.fetch(req, testEnv, executionCtx);
  await Promise.allSettled(pending);
  return res;
}

/**
 * The database figures a response reports in Server-Timing (`db;dur=3.1;desc="5 queries, 2 round trips, ws"`):
 * statements, round trips (an HTTP request or a whole batch, a statement on a WebSocket session, opening it) and
 * whether a WebSocket session was opened.
 */
export function dbTiming(res: TestResponse): { queries: number; roundTrips: number; ws: boolean; ms: number } {
  const header = res.headers.get('server-timing') ?? '';
  const m = /db;dur=([\d.]+);desc="(\d+) quer(?:y|ies), (\d+) round trips?(, ws)?"/.exec(header);
  if (!m) throw new Error(`no Server-Timing db entry: ${header}`);
  return { ms: Number(m[1]), queries: Number(m[2]), roundTrips: Number(m[3]), ws: Boolean(m[4]) };
}
