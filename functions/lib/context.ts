// The per-request context every service verb receives as `ctx`: who is calling, the database, configuration.
import type { ResponseCache } from './response-cache.ts';
import type { Database, Db, DbStats } from '../../db/client.ts';
import type { UserRow } from '../../db/schema/index.ts';

/** How the caller authenticated. Sessions and OAuth tokens resolve to the same shape (see lib/auth.ts). */
export type AuthVia = 'personal_access_token' | 'oauth_token' | 'session' | 'job_token' | 'password';

export interface Actor {
  user: UserRow | null;
  scopes: readonly string[];
  via: AuthVia | null;
  /** The administrator behind a `sudo` request. */
  sudoFrom?: UserRow;
  tokenId?: number;
}

export const anonymous: Actor = { user: null, scopes: [], via: null };

/** The configuration every request sees, parsed once from the Worker's environment (functions/env.ts). */
export interface Config {
  publicUrl: string;
  instanceTier: 'free' | 'premium' | 'ultimate';
  /** ENCRYPTION_KEY (base64), when configured. */
  encryptionKey: string | undefined;
  /** OFFSET_PAGINATION_LIMIT: the largest page * per_page offset pagination serves where keyset is offered (0: none). */
  offsetPaginationLimit: number;
  /** MAX_FILE_SIZE: the largest file (bytes) a commit may write; unset: functions/repositories/writes/commit-limits.ts's default. */
  maxFileSize?: number | undefined;
  /** MAX_PUSH_SIZE: the largest pack (bytes) a git push may send; unset: functions/repositories/transport/routes.ts's default. */
  maxPushSize?: number | undefined;
  /** GIT_GC_AUTO: objects since the last repack that make a push start one; unset: repositories/housekeeping.ts's default. */
  gitGcAuto?: number | undefined;
}

export interface RequestContext {
  requestId: string;
  config: Config;
  /** Single statements (one round trip each on the production driver). */
  db: Db;
  /** Atomic writes known in full before they run: one round trip, no WebSocket (rule: db/client.ts header). */
  batch: Database['batch'];
  /** Interactive transactions (locks, read-your-write decisions): opens a WebSocket on the production driver. */
  transaction: Database['transaction'];
  actor: Actor;
  /**
   * GitLab's `caller_id` of the request (the metadata of the jobs it enqueues): the REST endpoint
   * (`DELETE /api/:version/projects/:id`) or `graphql:<operationName>`; unset elsewhere.
   */
  callerId?: string | undefined;
  stats: DbStats;
  waitUntil(promise: Promise<unknown>): void;
  /** Per-request memo (policy lookups, feature flags): never shared between requests. */
  memo: Map<string, unknown>;
  /** The platform's response cache (lib/response-cache.ts), when the runtime has one. */
  cache?: ResponseCache | undefined;
  /**
   * The queues this request enqueued jobs in (functions/background-jobs/enqueue.ts adds them): after the response,
   * the app runs those the catalog marks prompt, as Sidekiq would pick them up at once.
   */
  enqueued: Set<string>;
  /** Who sent the request (its User-Agent and IP): recorded as user agent details; unset for background jobs. */
  client?: { userAgent: string; ip: string } | undefined;
}

/**
 * The context a background job acts in as `actor` (the user who caused it): the job's own database handle, no
 * request, nothing memoized from elsewhere. What it enqueues runs with the queue's next run.
 */
export function jobContext(base: Pick<RequestContext, 'db' | 'batch' | 'transaction'>, config: Config, actor: Actor, requestId: string): RequestContext {
  return { ...base, requestId, config, actor, stats: { queries: 0, ms: 0 }, waitUntil: () => undefined, memo: new Map(), enqueued: new Set() };
}

/** Memoizes `load` under `key` for the rest of this request. */
export function memoize<T>(ctx: RequestContext, key: string, load: () => Promise<T>): Promise<T> {
  const hit = ctx.memo.get(key) as Promise<T> | undefined;
  if (hit) return hit;
  const value = load();
  ctx.memo.set(key, value);
  return value;
}

/**
 * Hono's generics for every router of the app. The Worker's bindings are read once, by app.ts through env.ts's
 * schema, so routers see only the request context.
 */
export interface AppEnv {
  Variables: { ctx: RequestContext };
}
