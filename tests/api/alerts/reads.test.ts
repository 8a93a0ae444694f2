// GraphQL reads of alerts (13.6): Project.alertManagementAlert(s) with iid, statuses, search, assigneeUsername and
// every AlertManagementAlertSort value, the alert's fields, status counts, who sees alerts (reporters and above;
// others an empty list and nulls), and the budget: a list of 100 alerts with assignees and notes costs
// the same number of queries as a list of one.
import { describe, expect, it } from 'vitest';
import { queryCount, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { alertProject, createAlert, gql } from './support.ts';

const LIST = `query($path: ID!, $statuses: [AlertManagementStatus!], $search: String, $assignee: String, $sort: AlertManagementAlertSort, $iid: String, $first: Int, $after: String) {
  project(fullPath: $path) { alertManagementAlerts(statuses: $statuses, search: $search, assigneeUsername: $assignee, sort: $sort, iid: $iid, first: $first, after: $after) {
    nodes { iid } pageInfo { hasNextPage endCursor } } } }`;

const iids = (res: { body: any }) => res.body.data.project.alertManagementAlerts.nodes.map((n: { iid: string }) => Number(n.iid));

describe('Project.alertManagementAlerts', () => {
  it('answers every field of an alert', async () => {
    const fx = await alertProject();
    const a = await createAlert(fx.project.id, {
      title: 'CPU high',
      description: 'load above 9',
      service: 'api',
      monitoringTool: 'Grafana',
      hosts: ['web-1', 'web-2'],
      severity: 'high',
      status: 'acknowledged',
      events: 3,
      payload: { title: 'CPU high', runbook: 'https://runbooks.example/cpu', labels: { team: 'core', tier: { name: 'gold' } } },
      assigneeIds: [fx.developer.user.id],
    });
    const res = await gql(
      `query($path: ID!, $iid: String) { project(fullPath: $path) { alertManagementAlert(iid: $iid) {
        iid title description service monitoringTool hosts severity status eventCount details detailsUrl runbook metricsDashboardUrl metricsAlert { id }
        startedAt endedAt createdAt updatedAt issueIid assignees { nodes { username } } notes { nodes { body } } discussions { nodes { id } } todos { nodes { id } } } } }`,
      fx.reporter.token,
      { path: fx.path, iid: String(a.iid) },
    );
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.project.alertManagementAlert).toEqual({
      iid: String(a.iid),
      title: 'CPU high',
      description: 'load above 9',
      service: 'api',
      monitoringTool: 'Grafana',
      hosts: ['web-1', 'web-2'],
      severity: 'HIGH',
      status: 'ACKNOWLEDGED',
      eventCount: 3,
      details: { title: 'CPU high', runbook: 'https://runbooks.example/cpu', 'labels.team': 'core', 'labels.tier.name': 'gold' },
      detailsUrl: `${TEST_PUBLIC_URL}/${fx.path}/-/alert_management/${a.iid}/details`,
      runbook: 'https://runbooks.example/cpu',
      metricsDashboardUrl: null,
      metricsAlert: null,
      startedAt: '2026-11-20T08:03:00.000Z',
      endedAt: null,
      createdAt: a.createdAt.toISOString(),
      updatedAt: a.updatedAt.toISOString(),
      issueIid: null,
      assignees: { nodes: [{ username: fx.developer.user.username }] },
      notes: { nodes: [] },
      discussions: { nodes: [] },
      todos: { nodes: [] },
    });
  });

  it('filters by iid, statuses, search and assignee username', async () => {
    const fx = await alertProject();
    const a1 = await createAlert(fx.project.id, { title: 'Disk full', status: 'triggered', assigneeIds: [fx.developer.user.id] });
    const a2 = await createAlert(fx.project.id, { title: 'Latency', description: 'p99 over the disk budget', status: 'acknowledged' });
    const a3 = await createAlert(fx.project.id, { title: 'Errors', service: 'billing', status: 'resolved' });
    const a4 = await createAlert(fx.project.id, { title: 'Memory', monitoringTool: 'Diskwatch', status: 'ignored', assigneeIds: [fx.maintainer.user.id] });
    const list = (variables: Record<string, unknown>) => gql(LIST, fx.reporter.token, { path: fx.path, ...variables });
    expect(iids(await list({}))).toEqual([a4.iid, a3.iid, a2.iid, a1.iid]);
    expect(iids(await list({ iid: String(a2.iid) }))).toEqual([a2.iid]);
    expect(iids(await list({ iid: 'abc' }))).toEqual([]);
    expect(iids(await list({ statuses: ['TRIGGERED', 'RESOLVED'] }))).toEqual([a3.iid, a1.iid]);
    expect(iids(await list({ statuses: [] }))).toEqual([a4.iid, a3.iid, a2.iid, a1.iid]);
    // title, description, monitoring tool (and service), case-insensitive
    expect(iids(await list({ search: 'DISK' }))).toEqual([a4.iid, a2.iid, a1.iid]);
    expect(iids(await list({ search: 'billing' }))).toEqual([a3.iid]);
    expect(iids(await list({ assignee: fx.developer.user.username.toUpperCase() }))).toEqual([a1.iid]);
    expect(iids(await list({ assignee: 'nobody-at-all' }))).toEqual([]);
    const counts = await gql(
      `query($path: ID!, $search: String, $assignee: String) { project(fullPath: $path) {
        all: alertManagementAlertStatusCounts { all open triggered acknowledged resolved ignored }
        some: alertManagementAlertStatusCounts(search: $search) { all open triggered acknowledged resolved ignored }
        mine: alertManagementAlertStatusCounts(assigneeUsername: $assignee) { all open triggered } } }`,
      fx.reporter.token,
      { path: fx.path, search: 'disk', assignee: fx.maintainer.user.username },
    );
    expect(counts.body.data.project).toEqual({
      all: { all: 4, open: 2, triggered: 1, acknowledged: 1, resolved: 1, ignored: 1 },
      some: { all: 3, open: 2, triggered: 1, acknowledged: 1, resolved: 0, ignored: 1 },
      mine: { all: 1, open: 0, triggered: 0 },
    });
  });

  it('sorts by every AlertManagementAlertSort value, ties by id, and pages through with cursors', async () => {
    const fx = await alertProject();
    const t = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 0, minutes));
    // iid 1..4: started, ended, created, updated, events, severity, status all differ in different orders.
    const a = await createAlert(fx.project.id, {
      startedAt: t(3),
      endedAt: null,
      createdAt: t(1),
      updatedAt: t(4),
      events: 5,
      severity: 'low',
      status: 'acknowledged',
    });
    const b = await createAlert(fx.project.id, {
      startedAt: t(1),
      endedAt: t(20),
      createdAt: t(2),
      updatedAt: t(1),
      events: 1,
      severity: 'critical',
      status: 'resolved',
    });
    const c = await createAlert(fx.project.id, {
      startedAt: t(4),
      endedAt: t(10),
      createdAt: t(3),
      updatedAt: t(2),
      events: 9,
      severity: 'info',
      status: 'ignored',
    });
    const d = await createAlert(fx.project.id, {
      startedAt: t(2),
      endedAt: null,
      createdAt: t(4),
      updatedAt: t(3),
      events: 5,
      severity: 'high',
      status: 'triggered',
    });
    const [A, B, C, D] = [a.iid, b.iid, c.iid, d.iid];
    const expected: Record<string, number[]> = {
      STARTED_AT_ASC: [B, D, A, C],
      STARTED_AT_DESC: [C, A, D, B],
      // Not ended: last ascending, first descending (PostgreSQL's NULL order), ties by id.
      ENDED_AT_ASC: [C, B, A, D],
      ENDED_AT_DESC: [D, A, B, C],
      CREATED_TIME_ASC: [A, B, C, D],
      CREATED_TIME_DESC: [D, C, B, A],
      CREATED_ASC: [A, B, C, D],
      CREATED_DESC: [D, C, B, A],
      created_asc: [A, B, C, D],
      created_desc: [D, C, B, A],
      UPDATED_TIME_ASC: [B, C, D, A],
      UPDATED_TIME_DESC: [A, D, C, B],
      UPDATED_ASC: [B, C, D, A],
      UPDATED_DESC: [A, D, C, B],
      updated_asc: [B, C, D, A],
      updated_desc: [A, D, C, B],
      EVENT_COUNT_ASC: [B, A, D, C],
      EVENT_COUNT_DESC: [C, D, A, B],
      // less critical first: info, low, high, critical
      SEVERITY_ASC: [C, A, D, B],
      SEVERITY_DESC: [B, D, A, C],
      // Ignored > Resolved > Acknowledged > Triggered
      STATUS_ASC: [C, B, A, D],
      STATUS_DESC: [D, A, B, C],
    };
    for (const [sort, order] of Object.entries(expected)) {
      const all = await gql(LIST, fx.reporter.token, { path: fx.path, sort });
      expect(all.body.errors, sort).toBeUndefined();
      expect(iids(all), sort).toEqual(order);
      // The same order two at a time through the cursors.
      const first = await gql(LIST, fx.reporter.token, { path: fx.path, sort, first: 2 });
      const page = first.body.data.project.alertManagementAlerts;
      expect(page.pageInfo.hasNextPage, sort).toBe(true);
      const second = await gql(LIST, fx.reporter.token, { path: fx.path, sort, first: 2, after: page.pageInfo.endCursor });
      expect([...iids(first), ...iids(second)], sort).toEqual(order);
      expect(second.body.data.project.alertManagementAlerts.pageInfo.hasNextPage, sort).toBe(false);
    }
  });

  it('shows alerts to reporters and above only: others get an empty list and null', async () => {
    const fx = await alertProject();
    const a = await createAlert(fx.project.id);
    const q = `query($path: ID!, $iid: String) { project(fullPath: $path) { id
      alertManagementAlerts { nodes { iid } } alertManagementAlert(iid: $iid) { iid }
      alertManagementAlertStatusCounts { all open triggered } } }`;
    for (const [who, token] of [
      ['reporter', fx.reporter.token],
      ['developer', fx.developer.token],
      ['owner', fx.owner.token],
    ] as const) {
      const res = await gql(q, token, { path: fx.path, iid: String(a.iid) });
      expect(res.body.data.project.alertManagementAlerts.nodes, who).toEqual([{ iid: String(a.iid) }]);
      expect(res.body.data.project.alertManagementAlert, who).toEqual({ iid: String(a.iid) });
      expect(res.body.data.project.alertManagementAlertStatusCounts, who).toEqual({ all: 1, open: 1, triggered: 1 });
    }
    const guest = await gql(q, fx.guest.token, { path: fx.path, iid: String(a.iid) });
    expect(guest.body.errors).toBeUndefined();
    expect(guest.body.data.project).toMatchObject({
      alertManagementAlerts: { nodes: [] },
      alertManagementAlert: null,
      alertManagementAlertStatusCounts: null,
    });
    // A private project is not there for outsiders and anonymous callers.
    for (const token of [fx.outsider.token, undefined]) {
      const res = await gql(q, token, { path: fx.path, iid: String(a.iid) });
      expect(res.body.data.project).toBeNull();
    }
  });

  it('lists 100 alerts with their assignees, notes and to-dos in as many queries as one alert', async () => {
    const fx = await alertProject();
    const q = `query($path: ID!) { project(fullPath: $path) { alertManagementAlerts(first: 100) { nodes {
      iid status issueIid assignees { nodes { username } } notes { nodes { body author { username } } } discussions { nodes { id } } todos { nodes { action } } } } } }`;
    const first = await createAlert(fx.project.id, { assigneeIds: [fx.developer.user.id] });
    const note = `mutation($id: ID!) { createNote(input: { noteableId: $id, body: "looking" }) { errors } }`;
    expect((await gql(note, fx.developer.token, { id: `gid://gitlab/AlertManagement::Alert/${first.id}` })).body.data.createNote.errors).toEqual([]);
    await gql(q, fx.developer.token, { path: fx.path });
    const one = await gql(q, fx.developer.token, { path: fx.path });
    expect(one.body.errors).toBeUndefined();
    expect(one.body.data.project.alertManagementAlerts.nodes).toHaveLength(1);
    for (let i = 0; i < 99; i++) await createAlert(fx.project.id, { assigneeIds: [i % 2 ? fx.developer.user.id : fx.maintainer.user.id] });
    const hundred = await gql(q, fx.developer.token, { path: fx.path });
    expect(hundred.body.errors).toBeUndefined();
    const nodes = hundred.body.data.project.alertManagementAlerts.nodes;
    expect(nodes).toHaveLength(100);
    expect(nodes.at(-1).notes.nodes).toEqual([{ body: 'looking', author: { username: fx.developer.user.username } }]);
    expect(queryCount(hundred)).toBeLessThanOrEqual(queryCount(one));
    // The budget: the caller, the project, the page of alerts (with their issues' iids), their assignees, their notes
    // (with authors), the caller's to-dos on them: six queries, whatever the page's size.
    expect(queryCount(hundred)).toBeLessThanOrEqual(6);
  });
});
