// Runs once per `vitest run`: prepares the database every test file starts from.
//  - default: an embedded PGlite, migrated once and dumped; each file loads its own copy (fast, isolated);
//  - TEST_DB=postgres: a fresh database on the PostgreSQL server, reached through the production Neon drivers
//    via local stand-ins for Neon's endpoints; dropped at the end.
import type { TestProject } from 'vitest/node';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbedded } from '../../db/local/embedded.ts';
import { startPostgresTestDatabase, type PostgresTestDatabase } from './postgres.ts';

export default async function setup(project: TestProject) {
  if (process.env.TEST_DB === 'postgres') {
    const pg = await startPostgresTestDatabase();
    project.provide('database', { kind: 'postgres', url: pg.url, wsProxy: pg.wsProxy, httpEndpoint: pg.httpEndpoint });
    return () => pg.stop();
  }
  const dir = mkdtempSync(join(tmpdir(), 'pglite-template-'));
  const client = await openEmbedded();
  const dump = await client.dumpDataDir('none');
  await client.close();
  const file = join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('database', { kind: 'pglite', template: file });
  return () => rmSync(dir, { recursive: true, force: true });
}

export type TestDatabaseInfo = { kind: 'pglite'; template: string } | { kind: 'postgres'; url: string; wsProxy: string; httpEndpoint: string };

declare module 'vitest' {
  export interface ProvidedContext {
    database: TestDatabaseInfo;
  }
}
export type { PostgresTestDatabase };
