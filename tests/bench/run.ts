// `npm run bench`: the one performance report. In one run, on the embedded database (in-process PGlite): the hot REST
// reads, the OAuth token endpoint, the GraphQL issue page and the writes, each with p50/p99, queries and round trips
// per request (read from Server-Timing) and the ratio to GET /api/v4/version; then the Worker's cold start against a
// hello Worker and the bundle size (tests/bench/startup.ts, when present) and the events listings at scale
// (tests/bench/events.ts; BENCH_EVENTS shrinks them). It prints figures; it never fails on time.
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { pgliteProvider } from '../../db/client.ts';
import { openEmbedded } from '../../db/local/embedded.ts';
import { createApp } from '../../functions/app.ts';
import type { Env } from '../../functions/env.ts';
import { bootstrapRoot } from '../../functions/users/bootstrap.ts';
import { measure as measureRequests, printRows, type Row } from './measure.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const env: Env = { PUBLIC_URL: 'http://bench.local', INSTANCE_TIER: 'free' };

const client = await openEmbedded();
const provider = pgliteProvider(client);
const app = createApp({ database: () => provider });
const root = (await bootstrapRoot(provider.open({ queries: 0, ms: 0 }, () => undefined).transaction))!;
const auth = { 'PRIVATE-TOKEN': root.token };

const request = (method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) =>
  app.fetch(new Request(`http://bench.local${path}`, { method, headers: { ...auth, ...init.headers }, body: init.body }), env);
const call = (method: string, path: string, body?: unknown) =>
  request(method, `/api/v4${path}`, body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
const json = async <T>(res: Response | Promise<Response>) => (await (await res).json()) as T;

// ---- Seed: 150 projects (two pages of 100 minus some), issues with notes and award emoji in the first ----
let firstId = 0;
for (let i = 0; i < 150; i++) {
  const created = await json<{ id: number }>(call('POST', '/projects', { name: `bench-${i}`, visibility: i % 3 ? 'public' : 'private' }));
  if (i === 0) firstId = created.id;
}
const project = await json<{ path_with_namespace: string }>(call('GET', `/projects/${firstId}`));
for (let i = 0; i < 100; i++) {
  const issue = await json<{ iid: number }>(call('POST', `/projects/${firstId}/issues`, { title: `issue ${i}`, labels: 'bench' }));
  await call('POST', `/projects/${firstId}/issues/${issue.iid}/award_emoji`, { name: 'thumbsup' });
}

// An OAuth application and a token pair to refresh (the password grant once; each refresh rotates).
const application = await json<{ application_id: string; secret: string }>(
  call('POST', '/applications', { name: 'bench', redirect_uri: 'https://bench.example/cb', scopes: 'api' }),
);
const basic = `Basic ${btoa(`${application.application_id}:${application.secret}`)}`;
const form = (fields: Record<string, string>) => ({
  body: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic, 'CF-Connecting-IP': '203.0.113.7' },
});
let refreshToken = (
  await json<{ refresh_token: string }>(
    request('POST', '/oauth/token', form({ grant_type: 'password', username: root.username, password: root.password, scope: 'api' })),
  )
).refresh_token;
const refresh = async () => {
  const res = await request('POST', '/oauth/token', form({ grant_type: 'refresh_token', refresh_token: refreshToken }));
  const body = await res.clone().json();
  refreshToken = (body as { refresh_token: string }).refresh_token;
  return res;
};

const issuePage = JSON.stringify({
  query: `{ project(fullPath: "${project.path_with_namespace}") { issues(first: 100) { nodes { iid title author { username } awardEmoji { nodes { name user { username } } } } } } }`,
});

// ---- Measuring (tests/bench/measure.ts) ----
const measure = (name: string, run: () => Response | Promise<Response>, iterations = ITERATIONS) => measureRequests(name, run, iterations);

const version = await measure('GET /version', () => call('GET', '/version'));
const writes = Math.min(ITERATIONS, 100);
let n = 0;
let awarded = 0;
const rows: Row[] = [
  version,
  await measure('GET /user', () => call('GET', '/user')),
  await measure('GET /projects/:id', () => call('GET', `/projects/${firstId}`)),
  await measure('GET /projects?per_page=20', () => call('GET', '/projects?per_page=20')),
  await measure('GET /projects?per_page=100', () => call('GET', '/projects?per_page=100')),
  await measure('GET /projects keyset 100', () => call('GET', '/projects?pagination=keyset&order_by=id&per_page=100')),
  await measure('GET /projects/:id/issues 100', () => call('GET', `/projects/${firstId}/issues?per_page=100`)),
  await measure('POST /oauth/token (refresh)', refresh, writes),
  await measure('GraphQL issue page (100)', () => request('POST', '/api/graphql', { body: issuePage, headers: { 'content-type': 'application/json' } })),
  await measure('POST issue', () => call('POST', `/projects/${firstId}/issues`, { title: `w ${n++}` }), writes),
  await measure('POST note', () => call('POST', `/projects/${firstId}/issues/1/notes`, { body: `note ${n++}` }), writes),
  // One award a seeded issue (a name is unique per user and awardable).
  await measure(
    'POST award emoji',
    () => call('POST', `/projects/${firstId}/issues/${1 + (awarded++ % 100)}/award_emoji`, { name: 'tada' }),
    Math.min(writes, 100),
  ),
  await measure('POST label', () => call('POST', `/projects/${firstId}/labels`, { name: `l-${n++}`, color: '#ff0000' }), writes),
];
await client.close();

console.log(`\nnpm run bench — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`);
console.log(`${ITERATIONS} iterations a read (${writes} a write), in-process PGlite\n`);
printRows('path', rows);

// ---- Cold start and bundle (workerd), and the events listings at scale: their own modules, run after ----
const here = new URL('.', import.meta.url);
for (const [file, title] of [
  ['startup.ts', 'cold start and bundle'],
  ['events.ts', 'events listings'],
] as const) {
  const url = new URL(file, here);
  // Only modules that export their report (importing a plain script would run it).
  if (!existsSync(url) || !/export (async )?function report\b/.test(readFileSync(url, 'utf8'))) continue;
  const mod = (await import(url.href)) as { report?: () => Promise<void> };
  if (typeof mod.report !== 'function') continue;
  console.log(`\n${title}:`);
  await mod.report();
}
