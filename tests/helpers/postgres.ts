// TEST_DB=postgres and the workerd suite: a fresh database on the PostgreSQL server (127.0.0.1:5432, trust auth;
// PGHOST/PGPORT/PGUSER override), migrated with drizzle's pg migrator, and the local stand-ins for Neon's WebSocket
// and HTTP endpoints in front of it, so the app reaches it through the production Neon drivers.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as PgTypes from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { MIGRATIONS_FOLDER } from '../../db/local/embedded.ts';
import { startNeonHttpShim } from '../../db/local/neon-http-shim.ts';
import { startWsProxy } from '../../db/local/ws-proxy.ts';

// `pg` through require: in the workers project Vite resolves packages with workerd conditions.
const pg = createRequire(import.meta.url)('pg') as typeof PgTypes;

export interface PostgresTestDatabase {
  url: string;
  wsProxy: string;
  httpEndpoint: string;
  stop(): Promise<void>;
}

function serverUrl(database: string) {
  const host = process.env.PGHOST ?? '127.0.0.1';
  const port = process.env.PGPORT ?? '5432';
  const user = process.env.PGUSER ?? 'postgres';
  return `postgresql://${encodeURIComponent(user)}@${host}:${port}/${database}`;
}

async function withClient<T>(database: string, fn: (client: PgTypes.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl(database) });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function startPostgresTestDatabase(): Promise<PostgresTestDatabase> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  try {
    await withClient('postgres', (c) => c.query(`CREATE DATABASE ${name}`));
  } catch (error) {
    throw new Error(`cannot create a test database on ${serverUrl('postgres')} (is PostgreSQL running? pg_isready -h 127.0.0.1): ${(error as Error).message}`);
  }
  // The run's database and the copies its workers made of it (workerDatabase below).
  const dropDatabase = () =>
    withClient('postgres', async (c) => {
      const { rows } = await c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $1 || '\_w%'`, [name]);
      for (const { datname } of rows) await c.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    });

  let proxy: Awaited<ReturnType<typeof startWsProxy>> | undefined;
  let shim: Awaited<ReturnType<typeof startNeonHttpShim>> | undefined;
  try {
    await withClient(name, (client) => migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_FOLDER }));
    const url = serverUrl(name);
    const target = new URL(url);
    proxy = await startWsProxy({ host: '127.0.0.1', port: 0, fallback: `${target.hostname}:${target.port}` });
    shim = await startNeonHttpShim({ host: '127.0.0.1', port: 0 });
    const [p, s] = [proxy, shim];
    return {
      url,
      wsProxy: p.url,
      httpEndpoint: s.url,
      async stop() {
        await Promise.allSettled([p.stop(), s.stop()]);
        await dropDatabase();
      },
    };
  } catch (error) {
    await Promise.allSettled([proxy?.stop(), shim?.stop()]);
    await dropDatabase().catch(() => undefined);
    throw error;
  }
}

/**
 * The database of this worker: a copy of the run's migrated database (`CREATE DATABASE … TEMPLATE`), made by the
 * worker's first file and used by every later one, as each PGlite worker has its own. Files that run at the same
 * time never see each other's instance-wide changes or rows, as on PGlite; the run's teardown drops the copies.
 */
export async function workerDatabase(runUrl: string): Promise<string> {
  const url = new URL(runUrl);
  const template = url.pathname.slice(1);
  const name = `${template}_w${process.env.VITEST_POOL_ID ?? process.pid}`;
  for (let attempt = 0; ; attempt++) {
    try {
      await withClient('postgres', (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
      break;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === '42P04') break; // duplicate_database: this worker made it already
      // object_in_use: another worker is copying the template at this moment.
      if (code !== '55006' || attempt >= 50) throw error;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  await copyDatabaseSettings(template, name);
  // A throwaway database: its commits need not wait for the disk (the server's other databases are not touched).
  await withClient('postgres', (c) => c.query(`ALTER DATABASE ${name} SET synchronous_commit = off`));
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * `CREATE DATABASE … TEMPLATE` copies the objects but not the settings a migration gave the database
 * (`ALTER DATABASE … SET`, pg_db_role_setting: migration 0017's `jit = off`): the copy gets them here, so the suites
 * run with the settings production's database has.
 */
async function copyDatabaseSettings(from: string, to: string): Promise<void> {
  await withClient('postgres', async (c) => {
    const { rows } = await c.query<{ setting: string }>(
      `SELECT unnest(s.setconfig) AS setting FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase WHERE d.datname = $1 AND s.setrole = 0`,
      [from],
    );
    for (const { setting } of rows) {
      const at = setting.indexOf('=');
      const [key, value] = [setting.slice(0, at), setting.slice(at + 1)];
      await c.query(`ALTER DATABASE ${c.escapeIdentifier(to)} SET ${c.escapeIdentifier(key)} = ${c.escapeLiteral(value)}`);
    }
  });
}
