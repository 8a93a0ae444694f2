// createApp(): the one Hono app every runtime serves (Worker, `npm start`, tests). Middleware in order, one line
// per domain, and the error/not-found handlers that give GitLab's bodies.
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { matchedRoutes } from 'hono/route';
import { TrieRouter } from 'hono/router/trie-router';
import type { DatabaseProvider, DbStats } from '../db/client.ts';
import { enqueuedPrompt } from './background-jobs/queues.ts';
import { type Env, parseConfig } from './env.ts';
import { assertScopes, READ_METHODS, resolveActor } from './lib/auth.ts';
import { anonymous, type AppEnv, type Config, type RequestContext } from './lib/context.ts';
import { DomainError, unauthorized } from './lib/errors.ts';
import { log } from './lib/log.ts';
import type { ResponseCache } from './lib/response-cache.ts';
import { clientIp, withNormalPath } from './lib/request-path.ts';
import { restError } from './rest-errors.ts';
import { API_DOMAINS, APP_DOMAINS, type ApiDomain, type AppDomain } from './routes/domains.ts';
import { mountLazily } from './routes/mount.ts';

export interface AppDeps {
  /** The database for this environment (PGlite in-process, or Neon), chosen by the runtime's entry. */
  database: (env: Env) => DatabaseProvider;
  /** The platform's response cache (workerd's `caches.default`, or a local stand-in); none: nothing is cached. */
  cache?: (env: Env) => ResponseCache;
}

/** Whether a real endpoint (not only `use()` middleware or the catch-all) matches the request. */
const isEndpoint = (c: Context<AppEnv>) => matchedRoutes(c).some((r) => r.method !== 'ALL');
/**
 * Endpoints that authenticate with tokens of their own, never a user's: the runner API (runner and job tokens) and
 * the pipeline trigger (a trigger token). GitLab's authenticate_non_get! does not guard them.
 */
const OWN_TOKEN_ENDPOINTS = [
  /^\/api\/v4\/runners(\/verify)?$/,
  /^\/api\/v4\/jobs\/(request|\d+|\d+\/trace|\d+\/artifacts)$/,
  /^\/api\/v4\/projects\/[^/]+\/(ref\/.+\/)?trigger\/pipeline$/,
];
const ownTokenEndpoint = (path: string) => OWN_TOKEN_ENDPOINTS.some((re) => re.test(path));
/**
 * Artifact uploads (up to GitLab's max_artifacts_size, 100 MB) are streamed into storage and limited by their route
 * (runners/routes.ts): hono's bodyLimit would buffer a body sent without Content-Length. Everything else under /api
 * has the usual 1 MiB.
 */
const ARTIFACT_UPLOAD = /^\/api\/v4\/jobs\/\d+\/artifacts$/;
const PAGINATION_HEADERS = ['X-Page', 'X-Per-Page', 'X-Next-Page', 'X-Prev-Page', 'X-Total', 'X-Total-Pages', 'Link'];

/** `db;dur=3.1;desc="5 queries, 2 round trips, ws"`: database time, statements, round trips, a WebSocket opened. */
function serverTiming(stats: DbStats) {
  const rt = stats.roundTrips ?? 0;
  const desc = `${stats.queries} ${stats.queries === 1 ? 'query' : 'queries'}, ${rt} round ${rt === 1 ? 'trip' : 'trips'}${stats.ws ? ', ws' : ''}`;
  return `db;dur=${stats.ms.toFixed(1)};desc="${desc}"`;
}

export function createApp(deps: AppDeps) {
  // TrieRouter, not Hono's default SmartRouter: our routes are ones RegExpRouter refuses (SmartRouter would build it
  // on the first request, see it fail and fall back to TrieRouter: about 2 ms of every isolate's first request).
  const app = new Hono<AppEnv>({ router: new TrieRouter() });
  let cached: { env: Env; config: Config } | undefined;
  const configFor = (env: Env) => {
    if (cached?.env !== env) cached = { env, config: parseConfig(env) };
    return cached.config;
  };

  // Request id, security headers, Server-Timing; the per-request context.
  app.use('*', async (c, next) => {
    const requestId = c.req.header('x-request-id')?.match(/^[\w-]{1,64}$/)?.[0] ?? crypto.randomUUID();
    const stats: DbStats = { queries: 0, ms: 0, roundTrips: 0, ws: false };
    const env = (c.env ?? {}) as Env;
    const config = configFor(env);
    const waitUntil = (p: Promise<unknown>) => {
      try {
        c.executionCtx.waitUntil(p);
      } catch {
        void p; // no execution context (Node, tests): the promise runs on its own
      }
    };
    const database = deps.database(env).open(stats, waitUntil);
    const ctx: RequestContext = {
      requestId,
      config,
      db: database.db,
      batch: database.batch,
      transaction: database.transaction,
      actor: anonymous,
      stats,
      waitUntil,
      memo: new Map(),
      cache: deps.cache?.(env),
      enqueued: new Set(),
      client: { userAgent: c.req.header('user-agent') ?? '', ip: clientIp(c) },
    };
    c.set('ctx', ctx);
    await next();
    // Follow-up work this request enqueued in a prompt queue runs after the response, on a database handle of its
    // own (its statements are not the request's), loaded only when there is some.
    // The run takes every prompt queue: a job's own follow-ups (a merge's branch update) run in it too.
    if (enqueuedPrompt(ctx.enqueued)) {
      const jobs = deps.database(env).open({ queries: 0, ms: 0 }, waitUntil);
      waitUntil(import('./background-jobs/prompt.ts').then(({ runPromptly }) => runPromptly({ ctx: jobs, config }, requestId)));
    }
    c.res.headers.set('X-Request-Id', requestId);
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    // GitLab's API default; the web pages set DENY themselves (and keep it).
    if (!c.res.headers.has('X-Frame-Options')) c.res.headers.set('X-Frame-Options', 'SAMEORIGIN');
    c.res.headers.set('Server-Timing', serverTiming(stats));
  });

  // SPAs on other origins call the API with bearer tokens; cookies are never sent cross-origin (no credentials).
  app.use(
    '/api/*',
    cors({
      origin: '*',
      allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Authorization', 'Content-Type', 'PRIVATE-TOKEN', 'Sudo', 'X-Request-Id'],
      exposeHeaders: [...PAGINATION_HEADERS, 'X-Request-Id', 'Server-Timing'],
      maxAge: 7200,
    }),
  );
  const apiBodyLimit = bodyLimit({ maxSize: 1024 * 1024, onError: (c) => c.json({ message: '413 Request Entity Too Large' }, 413) });
  app.use('/api/*', (c, next) => (ARTIFACT_UPLOAD.test(c.req.path) && c.req.method === 'POST' ? next() : apiBodyLimit(c, next)));

  app.all('/api/v3/*', (c) => c.json({ error: 'API V3 is no longer supported. Use API V4 instead.' }, 410));

  // The REST API registers straight into the app's router (basePath shares it): a mounted sub-app would insert every
  // route twice (its own router, then the app's), a cost every isolate pays at start.
  const api = app.basePath('/api/v4');
  api.use('*', async (c, next) => {
    const ctx = c.var.ctx;
    ctx.actor = await resolveActor(c, ctx, 'rest');
    // GitLab's `authenticate_non_get!`: a write to an endpoint needs a signed-in caller before anything else is
    // looked at (an unknown route stays a 404).
    if (!ctx.actor.user && !READ_METHODS.has(c.req.method) && isEndpoint(c) && !ownTokenEndpoint(c.req.path)) throw unauthorized();
    assertScopes(ctx.actor, c.req.method, c.req.path);
    const endpoint = matchedRoutes(c).find((r) => r.method !== 'ALL');
    if (endpoint) ctx.callerId = `${c.req.method} ${endpoint.path.replace(/^\/api\/v4\//, '/api/:version/')}`;
    await next();
  });
  // Every REST domain, loaded by the first request that reaches one of its routes (routes/mount.ts).
  mountLazily(api, Object.keys(API_DOMAINS) as ApiDomain[]);
  api.all('*', (c) => c.json({ error: '404 Not Found' }, 404));
  // GraphQL's endpoint, uploads, the explorer page, OAuth and the web pages, loaded on first use the same way.
  mountLazily(app, Object.keys(APP_DOMAINS) as AppDomain[]);

  app.notFound((c) => (c.req.path.startsWith('/api/') ? c.json({ error: '404 Not Found' }, 404) : c.text('404 Not Found', 404)));

  app.onError((error, c) => {
    if (error instanceof DomainError) {
      const { status, body, text, headers } = restError(error);
      for (const [k, v] of Object.entries(headers ?? {})) c.header(k, v);
      if (status === 304) return c.body(null, 304);
      if (text !== undefined) return c.text(text, status);
      return c.json(body, status);
    }
    const requestId = c.var.ctx?.requestId;
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
    log('error', 'unhandled error', { requestId, path: c.req.path, error: error instanceof Error ? (error.stack ?? error.message) : String(error), cause });
    if (c.req.path.startsWith('/oauth/')) c.header('Cache-Control', 'no-store');
    return c.json({ message: '500 Internal Server Error' }, 500);
  });

  // Every runtime enters through fetch (app.request too): the path is made normal before the router sees it.
  const route = app.fetch;
  app.fetch = (request, env, executionCtx) => route(withNormalPath(request), env, executionCtx);
  return app;
}

export type App = ReturnType<typeof createApp>;
