// createDb: one Drizzle API over the runtime's driver. Domain code sees `db` (single statements) and
// `transaction(fn)` (atomic multi-row writes) and never knows which driver is underneath:
//  - production (Workers): neon-http for statements, a @neondatabase/serverless WebSocket Pool opened lazily
//    inside the request for transactions (closed through waitUntil);
//  - embedded (npm start, tests): one in-process PGlite, both on the same connection.
// Every driver is wrapped so the request can report its query count and database time (Server-Timing).
import type { PGlite } from '@electric-sql/pglite';
import { neon, neonConfig, Pool } from '@neondatabase/serverless';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNeonHttp } from 'drizzle-orm/neon-http';
import { drizzle as drizzleNeonWs } from 'drizzle-orm/neon-serverless';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';

export type Db = PgDatabase<PgQueryResultHKT>;

/** Per-request database figures, reported in Server-Timing. */
export interface DbStats {
  queries: number;
  ms: number;
}

export interface Database {
  db: Db;
  /** Runs `fn` in one transaction; a thrown error rolls everything back. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
}

export interface DatabaseProvider {
  open(stats: DbStats, waitUntil: (promise: Promise<unknown>) => void): Database;
}

function timed<A extends unknown[], R>(stats: DbStats, fn: (...args: A) => Promise<R>, count = (..._: A) => 1) {
  return async (...args: A): Promise<R> => {
    const start = performance.now();
    stats.queries += count(...args);
    try {
      return await fn(...args);
    } finally {
      stats.ms += performance.now() - start;
    }
  };
}

/** A proxy whose `query` is timed; other members are bound to the target (PGlite uses private fields). */
function withTimedQuery<T extends object>(target: T, stats: DbStats, extra: Record<string, unknown> = {}): T {
  return new Proxy(target, {
    get(t, prop, _receiver) {
      if (prop in extra) return extra[prop as string];
      const value = Reflect.get(t, prop, t);
      if (typeof value !== 'function') return value;
      const bound = value.bind(t);
      return prop === 'query' ? timed(stats, bound) : bound;
    },
  });
}

/** The embedded database: one PGlite shared by every request of the process. */
export function pgliteProvider(client: PGlite): DatabaseProvider {
  return {
    open(stats) {
      const instrumented = withTimedQuery(client, stats, {
        transaction: <T>(fn: (tx: unknown) => Promise<T>) =>
          client.transaction((tx) => fn(withTimedQuery(tx, stats))),
      });
      const db = drizzlePglite(instrumented as PGlite) as unknown as Db;
      return { db, transaction: (fn) => db.transaction((tx) => fn(tx as unknown as Db)) };
    },
  };
}

export interface NeonOptions {
  url: string;
  /** Local stand-ins for Neon's endpoints (tests and `npm run dev` only): `host:port` of the WebSocket proxy. */
  wsProxy?: string | undefined;
  /** Local stand-in for Neon's HTTP `/sql` endpoint. */
  httpEndpoint?: string | undefined;
}

/** Points the Neon driver at local stand-ins; production (no overrides) keeps Neon's defaults. */
export function configureNeonForLocal({ wsProxy, httpEndpoint }: NeonOptions) {
  if (wsProxy) {
    neonConfig.wsProxy = (host, port) => `${wsProxy}/v1?address=${host}:${port}`;
    neonConfig.useSecureWebSocket = false;
    // The local proxy and PostgreSQL do not speak Neon's pipelined startup.
    neonConfig.pipelineConnect = false;
    neonConfig.pipelineTLS = false;
    neonConfig.forceDisablePgSSL = true;
  }
  if (httpEndpoint) neonConfig.fetchEndpoint = () => httpEndpoint;
}

/** Production: Neon over HTTP per statement, a WebSocket Pool per request for transactions. */
export function neonProvider(options: NeonOptions, webSocket?: unknown): DatabaseProvider {
  configureNeonForLocal(options);
  if (webSocket) neonConfig.webSocketConstructor = webSocket as typeof WebSocket;
  const http = neon(options.url);
  return {
    open(stats, waitUntil) {
      const client = {
        // `query` must hand back Neon's lazy NeonQueryPromise itself: drizzle's `batch` passes these objects to
        // `transaction()` (which checks `instanceof` and reads their queryData) instead of awaiting them. Only
        // its `execute` (what awaiting runs) is timed, so a query counts once whether awaited or batched.
        query: (...args: Parameters<typeof http.query>) => {
          const q = http.query(...args);
          q.execute = timed(stats, q.execute);
          return q;
        },
        transaction: timed(stats, http.transaction.bind(http) as (q: unknown[], ...rest: unknown[]) => Promise<unknown>, (q) => q.length),
      };
      const db = drizzleNeonHttp({ client: client as unknown as typeof http }) as unknown as Db;
      return {
        db,
        async transaction(fn) {
          // Interactive transactions need a session: a WebSocket Pool opened for this request only (no client is
          // kept in module scope on Workers) and closed after the response through waitUntil.
          const pool = new Pool({ connectionString: options.url });
          pool.on('error', (e: Error) => console.warn(JSON.stringify({ level: 'warn', msg: 'pg pool error', error: e.message })));
          const instrumented = withTimedQuery(pool, stats, {
            connect: async () => withTimedQuery(await pool.connect(), stats),
          });
          try {
            return await drizzleNeonWs({ client: instrumented as Pool }).transaction((t) => fn(t as unknown as Db));
          } finally {
            waitUntil(pool.end());
          }
        },
      };
    },
  };
}
