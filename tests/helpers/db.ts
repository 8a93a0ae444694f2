// The database a test file runs on, as the global setup prepared it.
import { PGlite } from '@electric-sql/pglite';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import WebSocket from 'ws';
import { neonProvider, pgliteProvider, type DatabaseProvider } from '../../db/client.ts';
import { workerDatabase } from './postgres.ts';

export interface TestDatabase {
  provider: DatabaseProvider;
  close(): Promise<void>;
}

/**
 * `dataDir` puts PGlite's files on disk instead of in memory (where they are ArrayBuffers of this process): for a
 * test that measures the process's memory while large files go into the database. PostgreSQL ignores it.
 */
export async function openTestDatabase(options: { dataDir?: string } = {}): Promise<TestDatabase> {
  const info = inject('database');
  if (info.kind === 'postgres') {
    const url = await workerDatabase(info.url);
    return { provider: neonProvider({ url, wsProxy: info.wsProxy, httpEndpoint: info.httpEndpoint }, WebSocket), close: async () => {} };
  }
  const client = await PGlite.create({ ...(options.dataDir ? { dataDir: options.dataDir } : {}), loadDataDir: new Blob([readFileSync(info.template)]) });
  // A test database in memory has nothing to make durable: commits do not wait for their WAL (about 7% of a run).
  await client.exec('SET synchronous_commit TO off');
  return { provider: pgliteProvider(client), close: () => client.close() };
}
