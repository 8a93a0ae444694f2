// `npm run bench:events`: the events listings over 1,000,000 events across 1,000 projects on the embedded database.
// Prints p50/p99 of page 1 for an ordinary user and for an administrator, a keyset page near the end, page=500 (offset
// 49,900 at per_page=100, under GitLab's 50,000 offset cap) and page=501 (past the cap: 405), with queries per request
// and the ratio against GET /api/v4/version in the same run. It prints figures; it never fails on time.
// Exported: measureEvents() (the figures) and report() (the printed table, for `npm run bench`).
import { sql } from 'drizzle-orm';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pgliteProvider } from '../../db/client.ts';
import { openEmbedded } from '../../db/local/embedded.ts';
import { rows } from '../../db/queries/lib/raw.ts';
import { insertPersonalAccessToken } from '../../db/queries/tokens.ts';
import { insertUserWithNamespace } from '../../db/queries/users.ts';
import { createApp } from '../../functions/app.ts';
import type { Env } from '../../functions/env.ts';
import { randomToken, sha256Hex } from '../../functions/lib/crypto.ts';
import { bootstrapRoot } from '../../functions/users/bootstrap.ts';

export interface EventsRow {
  name: string;
  status: number;
  p50: number;
  p99: number;
  /** Database time (Server-Timing), p50. */
  db: number;
  queries: number;
  /** p50 over the p50 of GET /version in the same run. */
  ratio: number;
}

export interface EventsFigures {
  events: number;
  projects: number;
  iterations: number;
  seedSeconds: number;
  rows: EventsRow[];
}

export async function measureEvents(options: { events?: number; iterations?: number } = {}): Promise<EventsFigures> {
  const ITERATIONS = options.iterations ?? Number(process.env.BENCH_ITERATIONS ?? 100);
  const EVENTS = options.events ?? Number(process.env.BENCH_EVENTS ?? 1_000_000);
  const PROJECTS = 1000;
  const env: Env = { PUBLIC_URL: 'http://bench.local', INSTANCE_TIER: 'free' };

  const client = await openEmbedded();
  const provider = pgliteProvider(client);
  const app = createApp({ database: () => provider });
  const { db, transaction } = provider.open({ queries: 0, ms: 0 }, () => undefined);
  const root = (await bootstrapRoot(transaction))!;
  const rootId = (await rows<{ id: number }>(db, sql`SELECT id FROM users WHERE username = ${root.username}`))[0]!.id;

  // A regular (non-admin) reader, so the visibility filter is the one real callers pay.
  const reader = await transaction((tx) =>
    insertUserWithNamespace(tx, { username: 'bench-reader', name: 'Bench Reader', email: 'bench-reader@example.com', confirmedAt: new Date() }),
  );
  const token = randomToken('glpat-');
  await insertPersonalAccessToken(db, { userId: reader.id, name: 'bench', scopes: ['api'], tokenDigest: await sha256Hex(token) });
  const adminToken = randomToken('glpat-');
  await insertPersonalAccessToken(db, { userId: rootId, name: 'bench-admin', scopes: ['api'], tokenDigest: await sha256Hex(adminToken) });

  const t0 = performance.now();
  await db.execute(sql`INSERT INTO projects (namespace_id, creator_id, name, path, path_with_namespace, visibility_level)
    SELECT n.id, n.owner_id, 'bench-' || g, 'bench-' || g, n.full_path || '/bench-' || g, 20
    FROM namespaces n, generate_series(1, ${PROJECTS}) g WHERE n.kind = 'user' AND n.owner_id = ${rootId}`);
  await db.execute(sql`INSERT INTO events (project_id, author_id, action, created_at, updated_at)
    SELECT p.ids[1 + g % ${PROJECTS}], ${reader.id}, 1 + g % 11, now() - (${EVENTS} - g) * interval '1 second', now()
    FROM (SELECT array_agg(id ORDER BY id) AS ids FROM projects WHERE path LIKE 'bench-%') p, generate_series(1, ${EVENTS}) g`);
  await db.execute(sql`ANALYZE`);
  const min = Number((await rows<{ min: number }>(db, sql`SELECT min(id)::int AS min FROM events`))[0]!.min);
  const seedSeconds = (performance.now() - t0) / 1000;

  const call = (path: string, as = token) => app.fetch(new Request(`http://bench.local/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': as } }), env);

  async function measure(name: string, path: string, as = token) {
    const times: number[] = [];
    const dbTimes: number[] = [];
    let queries = 0;
    let status = 0;
    // A few untimed requests first: the first route measured would otherwise carry the JIT and cache warm-up in its
    // p99 (cold start is bench:startup's figure).
    for (let i = 0; i < 5; i++) await (await call(path, as)).arrayBuffer();
    for (let i = 0; i < ITERATIONS; i++) {
      const start = performance.now();
      const res = await call(path, as);
      await res.arrayBuffer();
      times.push(performance.now() - start);
      status = res.status;
      const timing = res.headers.get('server-timing') ?? '';
      queries = Number(/desc="(\d+)/.exec(timing)?.[1] ?? 0);
      dbTimes.push(Number(/dur=([\d.]+)/.exec(timing)?.[1] ?? 0));
    }
    times.sort((a, b) => a - b);
    dbTimes.sort((a, b) => a - b);
    return {
      name,
      status,
      p50: times[Math.floor(times.length / 2)]!,
      p99: times[Math.floor(times.length * 0.99)]!,
      db: dbTimes[Math.floor(dbTimes.length / 2)]!,
      queries,
    };
  }

  const version = await measure('GET /version (auth)', '/version');
  const projectId = ((await (await call('/events?per_page=1')).json()) as { project_id: number }[])[0]!.project_id;
  const results = [
    version,
    await measure('GET /events page 1 (user)', '/events?per_page=100'),
    await measure('GET /users/:id/events p1 (admin)', `/users/${reader.id}/events?per_page=100`, adminToken),
    await measure('GET /events keyset near end', `/events?pagination=keyset&per_page=100&id_before=${min + Math.floor(EVENTS / 10)}`),
    await measure('GET /events page=500 (100)', '/events?per_page=100&page=500'),
    await measure('GET /events page=501 (cap)', '/events?per_page=100&page=501'),
    await measure('GET /projects/:id/events p1', `/projects/${projectId}/events?per_page=100`),
    await measure('GET /events?scope=all p1', '/events?per_page=100&scope=all'),
  ];
  await client.close();
  return {
    events: EVENTS,
    projects: PROJECTS,
    iterations: ITERATIONS,
    seedSeconds,
    rows: results.map((r) => ({ ...r, ratio: r.p50 / version.p50 })),
  };
}

export function printFigures(f: EventsFigures): void {
  console.log(`seeded ${f.events} events across ${f.projects} projects in ${f.seedSeconds.toFixed(1)} s`);
  console.log(`\n${f.iterations} iterations each, in-process PGlite (Node ${process.version})\n`);
  console.log(
    'route'.padEnd(34),
    'status'.padStart(6),
    'p50 ms'.padStart(8),
    'p99 ms'.padStart(8),
    'db p50'.padStart(8),
    'queries'.padStart(8),
    'p50 / version'.padStart(14),
  );
  for (const r of f.rows) {
    console.log(
      r.name.padEnd(34),
      String(r.status).padStart(6),
      r.p50.toFixed(3).padStart(8),
      r.p99.toFixed(3).padStart(8),
      r.db.toFixed(1).padStart(8),
      String(r.queries).padStart(8),
      `${r.ratio.toFixed(1)}x`.padStart(14),
    );
  }
}

/** Measures and prints (what `npm run bench` calls). */
export async function report(): Promise<EventsFigures> {
  const figures = await measureEvents();
  printFigures(figures);
  return figures;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await report();
}
