// createDb: one Drizzle API over the runtime's driver. Domain code sees `db` (single statements), `batch(build)`
// (atomic multi-statement writes in ONE round trip) and `transaction(fn)` (interactive transactions), and never knows
// which driver is underneath:
//  - production (Workers): neon-http for statements and batches (a batch is Neon's HTTP transaction,
//    `sql.transaction([...])` behind drizzle's `db.batch`: one HTTP request, atomic), and a @neondatabase/serverless
//    WebSocket Pool opened lazily inside the request for interactive transactions (closed through waitUntil);
//  - embedded (npm start, tests): one in-process PGlite; a batch runs its statements in one transaction on it.
//
// THE RULE, per verb: a write whose statements are all known before the first one runs (no lock, no decision taken
// from what an earlier statement of the write returned) goes through `ctx.batch` (or one statement with
// data-modifying CTEs through `ctx.db`); reads that decide the write (policy facts, validation) run first, outside.
// Only a write that must lock rows or branch on what it has written so far (FOR UPDATE, compare-and-swap loops,
// read-your-write decisions) uses `ctx.transaction(fn)`, which on Workers opens a WebSocket (a TCP + TLS +
// Postgres handshake, then one round trip per statement including BEGIN and COMMIT).
//
// Every driver is wrapped so the request can report its queries, round trips, database time and whether a WebSocket
// was opened (Server-Timing: `db;dur=3.1;desc="5 queries, 2 round trips, ws"`). A round trip is one call into the
// driver that waits for the database: an HTTP request (a statement or a whole batch), a statement on the WebSocket
// session, opening that session (counted as one, though it is several network round trips); on PGlite the same
// model (a statement or a batch is one; an interactive transaction adds its BEGIN and COMMIT), so the budgets read
// the same on both.
import type { PGlite } from '@electric-sql/pglite';
import { neon, neonConfig, Pool } from '@neondatabase/serverless';
import type { BatchItem, BatchResponse } from 'drizzle-orm/batch';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNeonHttp } from 'drizzle-orm/neon-http';
import { drizzle as drizzleNeonWs } from 'drizzle-orm/neon-serverless';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';

export type Db = PgDatabase<PgQueryResultHKT>;

/** Per-request database figures, reported in Server-Timing. */
export interface DbStats {
  queries: number;
  ms: number;
  /** Calls that waited for the database (see the header); optional so callers that do not report may omit it. */
  roundTrips?: number;
  /** A WebSocket session was opened (an interactive transaction on the production driver). */
  ws?: boolean;
}

/** Statements of a batch: drizzle query builders (`db.insert(...)`, `db.execute(sql)`...), built on the `db` given. */
export type BatchStatements = readonly BatchItem<'pg'>[];

export interface Database {
  db: Db;
  /**
   * Runs the statements `build` returns as one atomic batch in ONE round trip (Neon's HTTP transaction; one
   * transaction on PGlite), and resolves to their results in order. `build` only builds (no awaiting): it must not
   * need anything the batch itself returns. See the rule in this file's header.
   */
  batch<const T extends BatchStatements>(build: (db: Db) => T): Promise<BatchResponse<T>>;
  /** Runs `fn` in one interactive transaction (a WebSocket session on Workers); a thrown error rolls everything back. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
}

export interface DatabaseProvider {
  open(stats: DbStats, waitUntil: (promise: Promise<unknown>) => void): Database;
}

/** Counts one round trip (not a query) against `stats`. */
const roundTrip = (stats: DbStats, n = 1) => {
  stats.roundTrips = (stats.roundTrips ?? 0) + n;
};

function timed<A extends unknown[], R>(stats: DbStats, fn: (...args: A) => Promise<R>, count = (..._: A) => 1, trips = 1) {
  return async (...args: A): Promise<R> => {
    const start = performance.now();
    stats.queries += count(...args);
    roundTrip(stats, trips);
    try {
      return await fn(...args);
    } finally {
      stats.ms += performance.now() - start;
    }
  };
}

/**
 * A proxy whose `query` is timed; other members are bound to the target (PGlite uses private fields). `trips` is
 * the round trips one query costs (0 inside a batch, which counts its one round trip itself).
 */
function withTimedQuery<T extends object>(target: T, stats: DbStats, extra: Record<string, unknown> = {}, trips = 1): T {
  return new Proxy(target, {
    get(t, prop, _receiver) {
      if (prop in extra) return extra[prop as string];
      const value = Reflect.get(t, prop, t);
      if (typeof value !== 'function') return value;
      const bound = value.bind(t);
      return prop === 'query' ? timed(stats, bound, undefined, trips) : bound;
    },
  });
}

/** The embedded database: one PGlite shared by every request of the process. */
export function pgliteProvider(client: PGlite): DatabaseProvider {
  return {
    open(stats) {
      // An interactive transaction costs its BEGIN and COMMIT as round trips (as on the production driver); a batch
      // is one transaction whose statements share one round trip.
      let inBatch = false;
      const instrumented = withTimedQuery(client, stats, {
        transaction: <T>(fn: (tx: unknown) => Promise<T>) => {
          const batch = inBatch;
          inBatch = false;
          roundTrip(stats, batch ? 1 : 2);
          return client.transaction((tx) => fn(withTimedQuery(tx, stats, {}, batch ? 0 : 1)));
        },
      });
      const db = drizzlePglite(instrumented as PGlite) as unknown as Db;
      return {
        db,
        batch: (build) => {
          inBatch = true;
          return db.transaction(async (tx) => {
            const results: unknown[] = [];
            for (const statement of build(tx as unknown as Db)) results.push(await statement);
            return results;
          }) as never;
        },
        transaction: (fn) => db.transaction((tx) => fn(tx as unknown as Db)),
      };
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
      const httpDb = drizzleNeonHttp({ client: client as unknown as typeof http });
      const db = httpDb as unknown as Db;
      return {
        db,
        // drizzle's batch on neon-http is `client.transaction(queries)`: one HTTP request, timed above.
        batch: (build) => httpDb.batch(build(db) as never) as never,
        async transaction(fn) {
          // Interactive transactions need a session: a WebSocket Pool opened for this request only (no client is
          // kept in module scope on Workers) and closed after the response through waitUntil.
          const pool = new Pool({ connectionString: options.url });
          pool.on('error', (e: Error) => console.warn(JSON.stringify({ level: 'warn', msg: 'pg pool error', error: e.message })));
          const instrumented = withTimedQuery(pool, stats, {
            connect: async () => {
              stats.ws = true;
              roundTrip(stats);
              return withTimedQuery(await pool.connect(), stats);
            },
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
