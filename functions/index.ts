// The Worker entry: the app (built once per isolate) for HTTP, and the cron trigger that runs the background jobs.
// Production reaches Neon over HTTP per statement and a per-request WebSocket Pool for transactions (db/client.ts);
// `wrangler dev` and the workerd tests point the same drivers at local stand-ins (NEON_WS_PROXY, NEON_HTTP_ENDPOINT).
import type { ExecutionContext } from 'hono';
import { neonProvider, type DatabaseProvider } from '../db/client.ts';
import { createApp } from './app.ts';
import { parseConfig, type Env } from './env.ts';
import { log } from './lib/log.ts';
import type { ResponseCache } from './lib/response-cache.ts';

/** The part of workerd's ScheduledController this entry uses. */
interface ScheduledEvent {
  cron: string;
  scheduledTime: number;
}

const MISSING_DATABASE_URL = 'DATABASE_URL is not set: add it with `wrangler secret put DATABASE_URL` (or .dev.vars locally)';

// A provider holds configuration only (the neon() HTTP function); connections are opened inside each request.
const providers = new Map<string, DatabaseProvider>();

function databaseFor(env: Env): DatabaseProvider {
  const url = env.DATABASE_URL;
  if (!url) throw new Error(MISSING_DATABASE_URL);
  const key = `${url}\n${env.NEON_WS_PROXY ?? ''}\n${env.NEON_HTTP_ENDPOINT ?? ''}`;
  let provider = providers.get(key);
  if (!provider) {
    provider = neonProvider({ url, wsProxy: env.NEON_WS_PROXY, httpEndpoint: env.NEON_HTTP_ENDPOINT });
    providers.set(key, provider);
  }
  return provider;
}

/** workerd's own cache, the Workers Cache API's `caches.default` (the DOM typings know only CacheStorage). */
const platformCache = () => (globalThis.caches as unknown as { default: ResponseCache }).default;

const app = createApp({ database: databaseFor, cache: platformCache });

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    if (!env.DATABASE_URL) {
      log('error', 'misconfigured worker', { reason: MISSING_DATABASE_URL, path: new URL(request.url).pathname });
      return Response.json({ message: '500 Internal Server Error' }, { status: 500 });
    }
    return app.fetch(request, env, ctx);
  },

  async scheduled(event: ScheduledEvent, env: Env, ctx: ExecutionContext): Promise<void> {
    if (!env.DATABASE_URL) {
      log('error', 'scheduled work skipped', { reason: MISSING_DATABASE_URL, cron: event.cron });
      return;
    }
    const database = databaseFor(env).open({ queries: 0, ms: 0 }, (p) => ctx.waitUntil(p));
    // Loaded here, not at the top: an isolate that only serves HTTP never evaluates the scheduled work (cold start).
    const { runScheduledWork } = await import('./background-jobs/scheduled.ts');
    // A failure is rethrown: the cron event is reported as failed (a job's own failure is retried, not rethrown).
    await runScheduledWork(database, event.cron, parseConfig(env));
  },
};
