// `npm run bench`: in-process figures for the hot REST paths on the embedded database. It prints medians, p99s,
// queries per request and ratios against a bare Hono handler (the floor any route pays); it never fails on time.
import { Hono } from 'hono';
import { pgliteProvider } from '../../db/client.ts';
import { openEmbedded } from '../../db/local/embedded.ts';
import { createApp } from '../../functions/app.ts';
import type { Env } from '../../functions/env.ts';
import { bootstrapRoot } from '../../functions/users/bootstrap.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const env: Env = { PUBLIC_URL: 'http://bench.local', INSTANCE_TIER: 'free' };

const client = await openEmbedded();
const provider = pgliteProvider(client);
const app = createApp({ database: () => provider });
const root = (await bootstrapRoot(provider.open({ queries: 0, ms: 0 }, () => undefined).transaction))!;
const headers = { 'PRIVATE-TOKEN': root.token, 'content-type': 'application/json' };

const call = (method: string, path: string, body?: unknown) =>
  app.fetch(new Request(`http://bench.local/api/v4${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined }), env);

// Seed: 150 projects (two pages of 100 minus some) in the admin's namespace.
let firstId = 0;
for (let i = 0; i < 150; i++) {
  const res = await call('POST', '/projects', { name: `bench-${i}`, visibility: i % 3 ? 'public' : 'private' });
  if (i === 0) firstId = ((await res.json()) as { id: number }).id;
}

const bare = new Hono().get('/api/v4/version', (c) => c.json({ version: '13.6.0', revision: 'edge' }));

async function measure(name: string, run: () => Response | Promise<Response>) {
  const times: number[] = [];
  const dbTimes: number[] = [];
  let queries = 0;
  for (let i = 0; i < ITERATIONS; i++) {
    const start = performance.now();
    const res = await run();
    await res.arrayBuffer();
    times.push(performance.now() - start);
    const timing = res.headers.get('server-timing') ?? '';
    queries = Number(/desc="(\d+)/.exec(timing)?.[1] ?? 0);
    dbTimes.push(Number(/dur=([\d.]+)/.exec(timing)?.[1] ?? 0));
  }
  times.sort((a, b) => a - b);
  dbTimes.sort((a, b) => a - b);
  return { name, p50: times[Math.floor(times.length / 2)]!, p99: times[Math.floor(times.length * 0.99)]!, db: dbTimes[Math.floor(dbTimes.length / 2)]!, queries };
}

const floor = await measure('bare Hono GET /version', () => bare.fetch(new Request('http://bench.local/api/v4/version')));
const rows = [
  floor,
  await measure('GET /version (auth)', () => call('GET', '/version')),
  await measure('GET /user', () => call('GET', '/user')),
  await measure('GET /projects/:id', () => call('GET', `/projects/${firstId}`)),
  await measure('GET /projects?per_page=20', () => call('GET', '/projects?per_page=20')),
  await measure('GET /projects?per_page=100', () => call('GET', '/projects?per_page=100')),
  await measure('GET /projects keyset 100', () => call('GET', '/projects?pagination=keyset&order_by=id&per_page=100')),
];

console.log(`\n${ITERATIONS} iterations each, in-process PGlite (Node ${process.version})\n`);
console.log('route'.padEnd(32), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'db p50'.padStart(8), 'queries'.padStart(8), 'p50 / bare'.padStart(11));
for (const r of rows) {
  console.log(r.name.padEnd(32), r.p50.toFixed(3).padStart(8), r.p99.toFixed(3).padStart(8), r.db.toFixed(1).padStart(8), String(r.queries).padStart(8), `${(r.p50 / floor.p50).toFixed(1)}x`.padStart(11));
}
await client.close();
