// `npm start`: the whole API on Node with the embedded database persisted under .data/ (the same createApp()
// the Worker serves). Prints how to sign in on the first start.
import { serve } from '@hono/node-server';
import { pgliteProvider } from '../db/client.ts';
import { openEmbedded } from '../db/local/embedded.ts';
import { localEncryptionKey } from '../db/local/encryption-key.ts';
import { createApp } from './app.ts';
import { MemoryResponseCache } from './lib/response-cache.ts';
import { startLocalSchedule } from './local-schedule.ts';
import { withExplorerAssets } from './web/explorer/node-assets.ts';
import { parseConfig, type Env } from './env.ts';
import { bootstrapRoot } from './users/bootstrap.ts';
import { instanceRunnersToken } from './runners/registration-token.ts';

const port = Number(process.env.PORT ?? 8080);
const dataDir = process.env.PGLITE_DIR ?? '.data/pglite';
const env: Env = {
  ...process.env,
  PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${port}`,
  ENCRYPTION_KEY: process.env.ENCRYPTION_KEY ?? localEncryptionKey(dataDir),
} as Env;
const config = parseConfig(env);

const client = await openEmbedded(dataDir);
const provider = pgliteProvider(client);
// The Workers cache's local stand-in (archives are kept there), bounded in memory.
const cache = new MemoryResponseCache();
const app = createApp({ database: () => provider, cache: () => cache });
// The explorer's GraphiQL files, which the Worker serves as static assets (wrangler.toml [assets]).
const fetch = withExplorerAssets((req) => app.fetch(req, env));

const root = await bootstrapRoot(provider.open({ queries: 0, ms: 0 }, () => undefined).transaction);
// The Worker's cron trigger, locally: purges, retention and membership expiry; and the statistics autovacuum would keep.
const schedule = startLocalSchedule(provider, { config, analyze: () => client.exec('ANALYZE') });

// Derived from ENCRYPTION_KEY, never stored (functions/runners/registration-token.ts): the same on every start.
const runnersToken = await instanceRunnersToken(config.encryptionKey);

const server = serve({ fetch, port, hostname: process.env.HOST ?? '127.0.0.1' }, (info) => {
  console.log(`API listening on ${config.publicUrl}/api/v4 (port ${info.port}, data in ${dataDir})`);
  console.log(`GraphQL at ${config.publicUrl}/api/graphql, explorer at ${config.publicUrl}/-/graphql-explorer`);
  if (runnersToken)
    console.log(`Instance runner registration token: ${runnersToken}   (gitlab-runner register --url ${config.publicUrl} --registration-token ...)`);
  if (root) {
    console.log('\nFirst start: created the administrator. These are shown once:');
    console.log(`  username:              ${root.username}`);
    console.log(`  password:              ${root.password}`);
    console.log(`  personal access token: ${root.token}   (scope api)`);
    console.log(`\nTry: curl -H "PRIVATE-TOKEN: ${root.token}" ${config.publicUrl}/api/v4/user\n`);
  }
});

const stop = async () => {
  server.close();
  // A run in progress finishes before the database closes under it.
  await schedule.stop();
  await client.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
