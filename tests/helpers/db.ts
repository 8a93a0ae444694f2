// The database a test file runs on, as the global setup prepared it.
import { PGlite } from '@electric-sql/pglite';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import WebSocket from 'ws';
import { neonProvider, pgliteProvider, type DatabaseProvider } from '../../db/client.ts';

export interface TestDatabase {
  provider: DatabaseProvider;
  close(): Promise<void>;
}

export async function openTestDatabase(): Promise<TestDatabase> {
  const info = inject('database');
  if (info.kind === 'postgres') {
    return { provider: neonProvider({ url: info.url, wsProxy: info.wsProxy, httpEndpoint: info.httpEndpoint }, WebSocket), close: async () => {} };
  }
  const client = await PGlite.create({ loadDataDir: new Blob([readFileSync(info.template)]) });
  return { provider: pgliteProvider(client), close: () => client.close() };
}
