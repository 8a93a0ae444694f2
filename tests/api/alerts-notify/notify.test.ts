// POST /<project>/alerts/notify(.json) and an HTTP integration's URL (GitLab 13.6 Projects::Alerting::NotifyService):
// a notification opens an alert with GitLab's reading of the payload and the alert bot's system note; a repeated
// fingerprint adds an event; `end_time` resolves the open alert; bad requests write nothing and answer GitLab's
// statuses with empty bodies (400 payload, 403 no active integration, 401 token, 404 project, 429 rate limit: per
// integration once its token opened it, per client IP for requests whose token opens nothing).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../../../db/schema/index.ts';
import { NOTIFY_FAILURE_KEY, NOTIFY_LIMIT, NOTIFY_RATE_KEY } from '../../../functions/alerts/notify.ts';
import { createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { dbTiming, queryCount, testDb } from '../../helpers/app.ts';
import { alertNotesOf, alertsOf, createIntegration, gql, integrationId, notify, setup, sha1 } from './support.ts';

const FULL = {
  title: 'Disk full on db-1',
  description: 'The data volume is at 99%',
  start_time: '2020-11-20T10:00:00Z',
  service: 'postgres',
  monitoring_tool: 'Zabbix',
  hosts: ['db-1', ['db-2']],
  severity: 'HIGH',
  fingerprint: 'disk-db-1',
  gitlab_environment_name: 'production',
  runbook: { url: 'https://runbooks.example/disk' },
};

describe('a new alert', () => {
  it("is created from the payload with the next iid and the alert bot's note (200, empty body)", async () => {
    const { project, integration } = await setup();
    const res = await notify(integration.path, { token: integration.token, body: FULL });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    const [alert, ...rest] = await alertsOf(project.id);
    expect(rest).toEqual([]);
    expect(alert).toMatchObject({
      iid: 1,
      title: 'Disk full on db-1',
      description: 'The data volume is at 99%',
      service: 'postgres',
      monitoringTool: 'Zabbix',
      hosts: ['db-1', 'db-2'],
      severity: 1,
      status: 0,
      fingerprint: await sha1('disk-db-1'),
      events: 1,
      startedAt: new Date('2020-11-20T10:00:00Z'),
      endedAt: null,
      environmentName: 'production',
      payload: FULL,
      issueId: null,
    });
    const notes = await alertNotesOf(alert!.id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ body: 'logged an alert from **Zabbix**', system: true, systemAction: 'new_alert_added', projectId: project.id });
    const [bot] = await testDb().db.select().from(schema.users).where(eq(schema.users.id, notes[0]!.authorId!));
    expect(bot).toMatchObject({ userType: 'alert_bot', name: 'GitLab Alert Bot', passwordHash: null });
    expect(bot!.username).toMatch(/^alert-bot\d*$/);
  });

  it('takes GitLab\'s defaults from an empty body: "New: Incident", critical, started now, the integration as source', async () => {
    const { project, integration } = await setup({ name: 'Uptime checks' });
    const before = Date.now();
    expect((await notify(integration.path, { token: integration.token })).status).toBe(200);
    const [alert] = await alertsOf(project.id);
    expect(alert).toMatchObject({
      title: 'New: Incident',
      description: null,
      service: null,
      monitoringTool: null,
      hosts: [],
      severity: 0,
      fingerprint: null,
      payload: {},
    });
    expect(alert!.startedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect((await alertNotesOf(alert!.id))[0]!.body).toBe('logged an alert from **Uptime checks**');
  });

  it('on the legacy URL names the "Generic Alert Endpoint" and opens with any active integration\'s token', async () => {
    const { project, path, integration } = await setup();
    for (const suffix of ['/alerts/notify.json', '/alerts/notify']) {
      expect((await notify(`/${path}${suffix}`, { token: integration.token, body: { title: suffix } })).status).toBe(200);
    }
    const alerts = await alertsOf(project.id);
    expect(alerts.map((a) => [a.iid, a.title])).toEqual([
      [1, '/alerts/notify.json'],
      [2, '/alerts/notify'],
    ]);
    expect((await alertNotesOf(alerts[0]!.id))[0]!.body).toBe('logged an alert from **Generic Alert Endpoint**');
  });

  it('reads values as GitLab does: truncation, hosts, severity, unparseable times, non-text values', async () => {
    const { project, integration } = await setup();
    const body = {
      title: 't'.repeat(250),
      description: 'd'.repeat(1001),
      service: ' ',
      monitoring_tool: 'm'.repeat(101),
      hosts: 'only-host',
      severity: 'bogus',
      start_time: 'not a time',
      gitlab_environment_name: '',
    };
    expect((await notify(integration.path, { token: integration.token, body })).status).toBe(200);
    const [alert] = await alertsOf(project.id);
    expect(alert).toMatchObject({
      title: `${'t'.repeat(197)}...`,
      description: `${'d'.repeat(997)}...`,
      service: null,
      monitoringTool: `${'m'.repeat(97)}...`,
      hosts: ['only-host'],
      severity: 0,
      environmentName: null,
    });
    expect(Math.abs(alert!.startedAt.getTime() - Date.now())).toBeLessThan(60_000);

    expect(
      (await notify(integration.path, { token: integration.token, body: { title: 42, severity: 'Low', hosts: ['a'.repeat(200), 'b'.repeat(100), 'c'] } }))
        .status,
    ).toBe(200);
    const [, second] = await alertsOf(project.id);
    expect(second).toMatchObject({ title: '42', severity: 3, hosts: ['a'.repeat(200), 'b'.repeat(55)] });
  });

  it('serves projects of nested groups (any number of segments before /alerts/notify)', async () => {
    const owner = await createUser();
    const top = await createGroup(owner.token);
    const sub = await createGroup(owner.token, { parentId: top.id });
    const project = await createProject(owner.token, { namespaceId: sub.id });
    const integration = await createIntegration(owner.token, project.path_with_namespace);
    expect(integration.path).toBe(`/${top.path}/${sub.path}/${project.path}/alerts/notify/monitor/${integration.path.split('/').at(-1)}`);
    expect((await notify(integration.path, { token: integration.token, body: { title: 'nested' } })).status).toBe(200);
    expect((await notify(`/${project.path_with_namespace.toUpperCase()}/alerts/notify.json`, { token: integration.token })).status).toBe(200);
    expect((await alertsOf(project.id)).map((a) => a.title)).toEqual(['nested', 'New: Incident']);
  });
});

describe('deduplication by fingerprint', () => {
  it('adds an event to the open alert (no new alert, note or iid), in at most 3 queries', async () => {
    // Once the alert bot exists (the instance's first alert creates it, one statement more).
    const warm = await setup();
    expect((await notify(warm.integration.path, { token: warm.integration.token })).status).toBe(200);
    const { project, integration } = await setup();
    const first = await notify(integration.path, { token: integration.token, body: { title: 'first', fingerprint: ['a', ['b']] } });
    expect(queryCount(first)).toBeLessThanOrEqual(3);
    const again = await notify(integration.path, { token: integration.token, body: { title: 'changed', fingerprint: ['a', ['b']] } });
    expect(again.status).toBe(200);
    expect(queryCount(again)).toBeLessThanOrEqual(3);
    // The read, then one batch: two round trips and no WebSocket.
    expect(dbTiming(again).roundTrips).toBeLessThanOrEqual(2);
    expect(dbTiming(again).ws).toBe(false);
    const [alert, ...rest] = await alertsOf(project.id);
    expect(rest).toEqual([]);
    expect(alert).toMatchObject({ iid: 1, title: 'first', events: 2, fingerprint: await sha1('ab') });
    expect(await alertNotesOf(alert!.id)).toHaveLength(1);
    // The next new alert takes iid 2: the deduplicated event spent none.
    const other = await notify(integration.path, { token: integration.token, body: { fingerprint: 'other' } });
    expect(queryCount(other)).toBeLessThanOrEqual(3);
    expect((await alertsOf(project.id)).map((a) => a.iid)).toEqual([1, 2]);
  });

  it('resolves the open alert at end_time (no event); the fingerprint then opens a new alert', async () => {
    const { project, integration } = await setup();
    await notify(integration.path, { token: integration.token, body: { fingerprint: 'f', title: 'down' } });
    const resolved = await notify(integration.path, { token: integration.token, body: { fingerprint: 'f', end_time: '2020-11-21T08:30:00Z' } });
    expect(resolved.status).toBe(200);
    expect(await alertsOf(project.id)).toMatchObject([{ iid: 1, status: 2, endedAt: new Date('2020-11-21T08:30:00Z'), events: 1 }]);
    await notify(integration.path, { token: integration.token, body: { fingerprint: 'f', title: 'down again' } });
    expect(await alertsOf(project.id)).toMatchObject([
      { iid: 1, status: 2 },
      { iid: 2, status: 0, title: 'down again', events: 1, endedAt: null },
    ]);
  });

  it('with end_time and no open alert opens one, triggered, without an end', async () => {
    const { project, integration } = await setup();
    await notify(integration.path, { token: integration.token, body: { fingerprint: 'late', end_time: '2020-11-21T08:30:00Z' } });
    expect(await alertsOf(project.id)).toMatchObject([{ iid: 1, status: 0, endedAt: null, events: 1 }]);
  });

  it('fingerprints identical payloads on Premium (start_time, end_time and hosts aside), not on a free instance', async () => {
    const premium = await setup({ tier: 'premium' });
    for (const [start, hosts] of [
      ['2020-01-01T00:00:00Z', 'h1'],
      ['2020-01-02T00:00:00Z', 'h2'],
    ]) {
      await notify(premium.integration.path, { token: premium.integration.token, body: { title: 'same', start_time: start, hosts }, tier: 'premium' });
    }
    const [alert, ...rest] = await alertsOf(premium.project.id);
    expect(rest).toEqual([]);
    expect(alert).toMatchObject({ events: 2, fingerprint: await sha1('{"title"=>"same"}') });

    const free = await setup({ tier: 'free' });
    for (let i = 0; i < 2; i++) await notify(free.integration.path, { token: free.integration.token, body: { title: 'same' }, tier: 'free' });
    expect((await alertsOf(free.project.id)).map((a) => [a.iid, a.fingerprint, a.events])).toEqual([
      [1, null, 1],
      [2, null, 1],
    ]);
  });

  it('keeps one alert under 100 concurrent notifications with one fingerprint (eventCount 100)', async () => {
    const { project, integration } = await setup();
    const responses = await Promise.all(
      Array.from({ length: 100 }, () => notify(integration.path, { token: integration.token, body: { fingerprint: 'storm' } })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(100).fill(200));
    const alerts = await alertsOf(project.id);
    expect(alerts.map((a) => [a.iid, a.events])).toEqual([[1, 100]]);
    expect(await alertNotesOf(alerts[0]!.id)).toHaveLength(1);
    await notify(integration.path, { token: integration.token, body: { fingerprint: 'after the storm' } });
    expect((await alertsOf(project.id)).map((a) => a.iid)).toEqual([1, 2]);
  }, 60_000);
});

describe('refused notifications write nothing', () => {
  it.each([
    ['no token', { token: null }, 401],
    ['a wrong token', { token: 'f'.repeat(32) }, 401],
    ['the token as PRIVATE-TOKEN', { token: null, privateToken: true }, 401],
    ['invalid JSON', { body: '{"title":' }, 400],
    ['a JSON array', { body: '[{"title":"x"}]' }, 400],
    ['a JSON string', { body: '"x"' }, 400],
    ['JSON over 100 levels deep', { body: `${'{"a":'.repeat(101)}1${'}'.repeat(101)}` }, 400],
    ['a body over 1 MB', { body: JSON.stringify({ title: 'x'.repeat(1024 * 1024) }) }, 400],
  ] as const)('%s: %i', async (_name, o, status) => {
    const { project, integration } = await setup();
    const res = await notify(integration.path, {
      token: 'token' in o ? o.token : integration.token,
      body: 'body' in o ? o.body : { title: 'x' },
      headers: 'privateToken' in o ? { 'PRIVATE-TOKEN': integration.token } : {},
    });
    expect(res.status).toBe(status);
    expect(res.text).toBe('');
    expect(await alertsOf(project.id)).toEqual([]);
  });

  it('403 for an inactive integration, an unknown endpoint identifier, or a project without integrations (token or not)', async () => {
    const { owner, project, path, integration } = await setup();
    const off = await gql(`mutation($id: AlertManagementHttpIntegrationID!) { httpIntegrationUpdate(input: { id: $id, active: false }) { errors } }`, {
      token: owner.token,
      variables: { id: integration.id },
    });
    expect(off.body.data.httpIntegrationUpdate.errors).toEqual([]);
    for (const url of [integration.path, `/${path}/alerts/notify.json`, `/${path}/alerts/notify/monitor/0123456789abcdef.json`]) {
      const res = await notify(url, { token: integration.token, body: { title: 'x' } });
      expect([url, res.status, res.text]).toEqual([url, 403, '']);
    }
    const bare = await createProject(owner.token);
    expect((await notify(`/${bare.path_with_namespace}/alerts/notify.json`, { token: 'x', body: {} })).status).toBe(403);
    expect(await alertsOf(project.id)).toEqual([]);
    expect(await alertsOf(bare.id)).toEqual([]);
  });

  it('404 for a project that does not exist', async () => {
    const res = await notify('/nobody/nothing-here/alerts/notify.json', { token: 'x', body: {} });
    expect(res.status).toBe(404);
  });

  it('429 "Retry later" past the integration\'s hourly limit, with Retry-After; the project\'s other integrations go on', async () => {
    const { owner, project, path, integration } = await setup();
    await testDb()
      .db.insert(schema.rateLimits)
      .values({ key: `${NOTIFY_RATE_KEY}${integrationId(integration)}`, count: NOTIFY_LIMIT, windowStart: new Date() });
    const res = await notify(integration.path, { token: integration.token, body: { title: 'x' } });
    expect(res.status).toBe(429);
    expect(res.text).toBe('Retry later\n');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3500);
    // The legacy URL opened with the same token counts against the same integration.
    expect((await notify(`/${path}/alerts/notify.json`, { token: integration.token, body: { title: 'x' } })).status).toBe(429);
    expect(await alertsOf(project.id)).toEqual([]);
    const second = await createIntegration(owner.token, path, { name: 'Second' });
    expect((await notify(second.path, { token: second.token, body: { title: 'x' } })).status).toBe(200);
  });
});

describe('the rate limit after authentication (issue 28, item 5)', () => {
  const ATTACKER = '203.0.113.66';
  const fromAttacker = (ip: string) => ({ 'cf-connecting-ip': ip });
  const attackerIp = () => `${ATTACKER}-${Math.random().toString(36).slice(2, 10)}`;

  it("requests whose token opens nothing never spend the integration's limit: its real alerts go on", async () => {
    const { project, path, integration } = await setup();
    // One notification left in the integration's window.
    await testDb()
      .db.insert(schema.rateLimits)
      .values({ key: `${NOTIFY_RATE_KEY}${integrationId(integration)}`, count: NOTIFY_LIMIT - 1, windowStart: new Date() });
    const ip = attackerIp();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const url = i % 2 ? integration.path : `/${path}/alerts/notify.json`;
      statuses.push(
        (await notify(url, { token: i % 3 ? `${i}`.padStart(32, 'f') : null, body: { title: 'forged' }, headers: fromAttacker(i < 15 ? ip : attackerIp()) }))
          .status,
      );
    }
    expect(statuses).toEqual(Array(30).fill(401));
    expect((await notify(integration.path, { token: integration.token, body: { title: 'real' } })).status).toBe(200);
    // Its own traffic is what the limit counts.
    expect((await notify(integration.path, { token: integration.token, body: { title: 'one too many' } })).status).toBe(429);
    expect((await alertsOf(project.id)).map((a) => a.title)).toEqual(['real']);
  });

  it("failures count per client IP: past the limit that IP's failures get 429 uncounted, never its right token, nor another IP", async () => {
    const { project, integration } = await setup();
    const ip = attackerIp();
    expect((await notify(integration.path, { token: null, body: {}, headers: fromAttacker(ip) })).status).toBe(401);
    const failures = () =>
      testDb()
        .db.select()
        .from(schema.rateLimits)
        .where(eq(schema.rateLimits.key, `${NOTIFY_FAILURE_KEY}${ip}`));
    expect((await failures()).map((r) => r.count)).toEqual([1]);
    await testDb()
      .db.update(schema.rateLimits)
      .set({ count: NOTIFY_LIMIT })
      .where(eq(schema.rateLimits.key, `${NOTIFY_FAILURE_KEY}${ip}`));
    for (const token of [null, 'f'.repeat(32)]) {
      const res = await notify(integration.path, { token, body: { title: 'x' }, headers: fromAttacker(ip) });
      expect([res.status, res.text]).toEqual([429, 'Retry later\n']);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3500);
    }
    expect((await failures()).map((r) => r.count)).toEqual([NOTIFY_LIMIT]);
    expect((await notify(integration.path, { token: 'f'.repeat(32), body: { title: 'x' }, headers: fromAttacker(attackerIp()) })).status).toBe(401);
    expect((await notify(integration.path, { token: integration.token, body: { title: 'real' }, headers: fromAttacker(ip) })).status).toBe(200);
    expect((await alertsOf(project.id)).map((a) => a.title)).toEqual(['real']);
  });
});
