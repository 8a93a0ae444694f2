// Local stand-in for Neon's HTTP `/sql` endpoint (what `neon()` and drizzle-orm/neon-http call), backed by `pg`
// against a Postgres server on this machine. Test and dev support only; loopback databases only.
//
// Wire format (read from @neondatabase/serverless 1.2):
//   POST, headers Neon-Connection-String, Neon-Raw-Text-Output: true, Neon-Array-Mode: true, and for batches
//   optionally Neon-Batch-Isolation-Level / Neon-Batch-Read-Only / Neon-Batch-Deferrable.
//   Body {query, params} (autocommit) or {queries: [{query, params}, ...]} (one transaction).
//   200: {fields: [{name, dataTypeID, ...}], rows: [[text | null, ...]], command, rowCount, rowAsArray} or
//        {results: [that, ...]}; the driver parses the text values with its own type parsers.
//   400: {message, severity, code, detail, constraint, ...} (the fields of a Postgres error).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type * as PgTypes from 'pg';

// `pg` through require: under Vite with workerd conditions an ESM import may resolve the wrong build.
const pg = createRequire(import.meta.url)('pg') as typeof PgTypes;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Every value stays the text Postgres sent (null stays null), exactly as Neon's raw text output. */
const RAW_TEXT: PgTypes.CustomTypesConfig = { getTypeParser: (() => (value: string) => value) as PgTypes.CustomTypesConfig['getTypeParser'] };

const ERROR_FIELDS = [
  'severity',
  'code',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
] as const;

const ISOLATION: Record<string, string> = {
  ReadUncommitted: 'READ UNCOMMITTED',
  ReadCommitted: 'READ COMMITTED',
  RepeatableRead: 'REPEATABLE READ',
  Serializable: 'SERIALIZABLE',
};

interface QueryData {
  query: string;
  params?: unknown[];
}

export interface NeonHttpShimOptions {
  host?: string;
  /** 0 (default) lets the OS pick a free port. */
  port?: number;
  /** Connections per database (default 20). */
  maxConnections?: number;
}

export interface NeonHttpShim {
  port: number;
  /** `http://127.0.0.1:<port>/sql`: what NEON_HTTP_ENDPOINT expects. */
  url: string;
  stop(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function toResult(result: PgTypes.QueryResult<unknown[]> | PgTypes.QueryResult<unknown[]>[]) {
  // A parameterless query string with several statements yields several results: Neon answers the last.
  const r = Array.isArray(result) ? result[result.length - 1]! : result;
  return {
    fields: r.fields.map((f) => ({
      name: f.name,
      tableID: f.tableID,
      columnID: f.columnID,
      dataTypeID: f.dataTypeID,
      dataTypeSize: f.dataTypeSize,
      dataTypeModifier: f.dataTypeModifier,
      format: f.format,
    })),
    rows: r.rows,
    command: r.command,
    rowCount: r.rowCount,
    rowAsArray: true,
  };
}

function errorBody(error: unknown) {
  const e = error as Record<string, unknown> & Error;
  const body: Record<string, unknown> = { message: e.message };
  for (const key of ERROR_FIELDS) if (e[key] !== undefined) body[key] = e[key];
  return body;
}

function send(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export async function startNeonHttpShim({ host = '127.0.0.1', port = 0, maxConnections = 20 }: NeonHttpShimOptions = {}): Promise<NeonHttpShim> {
  const pools = new Map<string, PgTypes.Pool>();

  const poolFor = (connectionString: string | undefined) => {
    if (!connectionString) throw new HttpError(400, 'missing Neon-Connection-String header');
    let pool = pools.get(connectionString);
    if (!pool) {
      let target: URL;
      try {
        target = new URL(connectionString);
      } catch {
        throw new HttpError(400, 'invalid Neon-Connection-String');
      }
      if (!LOOPBACK.has(target.hostname)) throw new HttpError(400, 'only loopback databases are allowed');
      pool = new pg.Pool({ connectionString, max: maxConnections, idleTimeoutMillis: 10_000 });
      pool.on('error', () => undefined); // an idle client lost its server (database dropped): the pool replaces it
      pools.set(connectionString, pool);
    }
    return pool;
  };

  const run = (client: PgTypes.Pool | PgTypes.PoolClient, q: QueryData) =>
    client.query({ text: q.query, values: q.params ?? [], rowMode: 'array', types: RAW_TEXT }) as Promise<PgTypes.QueryResult<unknown[]>>;

  async function handle(req: IncomingMessage): Promise<unknown> {
    if (req.method !== 'POST') throw new HttpError(405, 'method not allowed');
    const pool = poolFor(req.headers['neon-connection-string'] as string | undefined);
    let body: { query?: string; params?: unknown[]; queries?: QueryData[] };
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      throw new HttpError(400, 'invalid JSON body');
    }
    if (!Array.isArray(body.queries)) {
      if (typeof body.query !== 'string') throw new HttpError(400, 'missing query');
      return toResult(await run(pool, { query: body.query, params: body.params ?? [] }));
    }

    const mode = [
      ISOLATION[String(req.headers['neon-batch-isolation-level'] ?? '')]
        ? `ISOLATION LEVEL ${ISOLATION[String(req.headers['neon-batch-isolation-level'])]}`
        : '',
      req.headers['neon-batch-read-only'] === 'true' ? 'READ ONLY' : '',
      req.headers['neon-batch-deferrable'] === 'true' ? 'DEFERRABLE' : '',
    ].filter(Boolean);
    const client = await pool.connect();
    let broken = false;
    try {
      await client.query(`BEGIN${mode.length ? ` ${mode.join(' ')}` : ''}`);
      try {
        const results = [];
        for (const q of body.queries) results.push(toResult(await run(client, q)));
        await client.query('COMMIT');
        return { results };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw error;
      }
    } finally {
      client.release(broken);
    }
  }

  const server = createServer((req, res) => {
    handle(req).then(
      (body) => send(res, 200, body),
      (error: unknown) => {
        if (error instanceof HttpError) send(res, error.status, { message: error.message });
        // Postgres errors (they carry a SQLSTATE) are 400 with their fields, as Neon answers.
        else if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string' && /^[0-9A-Z]{5}$/.test(error.code))
          send(res, 400, errorBody(error));
        else send(res, 500, { message: error instanceof Error ? error.message : String(error) });
      },
    );
  });
  // The client (undici under the Neon driver) closes its idle sockets after 4 s; a server that closed them first (at
  // 5 s) raced a request sent on a socket it was closing, and under load that request failed with "other side closed"
  // (seen once in a test:pg run). Idle sockets are therefore left for the client to close.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;

  return {
    port: actual,
    url: `http://127.0.0.1:${actual}/sql`,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...pools.values()].map((p) => p.end().catch(() => undefined)));
      pools.clear();
    },
  };
}
