// `npm start` runs the Worker's scheduled work on a timer (functions/local-schedule.ts): on an embedded database of
// its own, as `npm start` has, a project and a group deleted through HTTP are purged by the timer's runs, and nothing
// runs once it is stopped. The timer itself (functions/lib/timer.ts) never overlaps a run with the next one.
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteProvider, type DatabaseProvider } from '../../../db/client.ts';
import { openEmbedded } from '../../../db/local/embedded.ts';
import { createApp } from '../../../functions/app.ts';
import { startLocalSchedule, SCHEDULE_INTERVAL_MS } from '../../../functions/local-schedule.ts';
import { startTimer } from '../../../functions/lib/timer.ts';
import { bootstrapRoot } from '../../../functions/users/bootstrap.ts';
import { testEnv } from '../../helpers/app.ts';

let client: PGlite;
let provider: DatabaseProvider;
let token: string;
let call: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

beforeAll(async () => {
  client = await openEmbedded();
  provider = pgliteProvider(client);
  const app = createApp({ database: () => provider });
  token = (await bootstrapRoot(provider.open({ queries: 0, ms: 0 }, () => undefined).transaction))!.token;
  call = async (method, path, body) => {
    const headers: Record<string, string> = { 'PRIVATE-TOKEN': token };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await app.fetch(
      new Request(`${testEnv.PUBLIC_URL}/api/v4${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
      testEnv,
      {
        waitUntil: () => undefined,
        passThroughOnException: () => undefined,
        props: {},
      },
    );
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
}, 60_000);

afterAll(async () => {
  await client?.close();
});

const rowsLeft = async (table: 'projects' | 'namespaces', ids: number[]) =>
  Number((await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE id = ANY($1)`, [ids])).rows[0]!.n);

async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the local schedule (npm start)', () => {
  it('runs every 15 minutes by default, first shortly after start', () => {
    expect(SCHEDULE_INTERVAL_MS).toBe(15 * 60_000);
  });

  it('purges what was deleted through HTTP, on its first run and on later ones; nothing once stopped', async () => {
    const group = await call('POST', '/groups', { name: 'Timer group', path: 'timer-group' });
    expect(group.status).toBe(201);
    const inGroup = await call('POST', '/projects', { path: 'in-group', namespace_id: group.body.id });
    const first = await call('POST', '/projects', { path: 'first' });
    expect([inGroup.status, first.status]).toEqual([201, 201]);
    expect((await call('DELETE', `/groups/${group.body.id}`)).status).toBe(202);
    expect((await call('DELETE', `/projects/${first.body.id}`)).status).toBe(202);

    const schedule = startLocalSchedule(provider, { firstDelayMs: 10, intervalMs: 200 });
    try {
      await eventually(
        async () => (await rowsLeft('projects', [inGroup.body.id, first.body.id])) === 0 && (await rowsLeft('namespaces', [group.body.id])) === 0,
      );
      // A later run purges what is deleted after the first.
      const second = await call('POST', '/projects', { path: 'second' });
      expect((await call('DELETE', `/projects/${second.body.id}`)).status).toBe(202);
      await eventually(async () => (await rowsLeft('projects', [second.body.id])) === 0);
    } finally {
      await schedule.stop();
    }
    const third = await call('POST', '/projects', { path: 'third' });
    expect((await call('DELETE', `/projects/${third.body.id}`)).status).toBe(202);
    await new Promise((r) => setTimeout(r, 600));
    expect(await rowsLeft('projects', [third.body.id])).toBe(1);
  });

  it("ends each run with the embedded database's ANALYZE (PGlite has no autovacuum)", async () => {
    const estimate = async () => Number((await client.query<{ n: number }>(`SELECT reltuples::int AS n FROM pg_class WHERE relname = 'projects'`)).rows[0]!.n);
    await call('POST', '/projects', { path: 'counted' });
    expect(await estimate()).toBeLessThanOrEqual(0); // never analyzed: -1 (unknown) or 0
    const schedule = startLocalSchedule(provider, { firstDelayMs: 10, intervalMs: 60_000, analyze: () => client.exec('ANALYZE') });
    try {
      await eventually(async () => (await estimate()) > 0);
    } finally {
      await schedule.stop();
    }
  });

  it('never overlaps runs: a run longer than the interval delays the next; stop() waits for the run in progress', async () => {
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    const timer = startTimer(
      async () => {
        runs++;
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise((r) => setTimeout(r, 60));
        active--;
      },
      { firstDelayMs: 0, intervalMs: 5, onError: () => undefined },
    );
    await eventually(async () => runs >= 3);
    await timer.stop();
    expect(active).toBe(0);
    expect(maxActive).toBe(1);
    const after = runs;
    await new Promise((r) => setTimeout(r, 150));
    expect(runs).toBe(after);
  });

  it('a failing run is reported and the next one still comes', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const timer = startTimer(
      async () => {
        runs++;
        if (runs === 1) throw new Error('boom');
      },
      { firstDelayMs: 0, intervalMs: 10, onError: (e) => errors.push(e) },
    );
    await eventually(async () => runs >= 2);
    await timer.stop();
    expect(errors).toEqual([new Error('boom')]);
  });
});
