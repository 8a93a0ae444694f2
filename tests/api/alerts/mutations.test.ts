// The alert mutations (13.6, Mutations::AlertManagement::Base): updateAlertStatus, alertSetAssignees, alertTodoCreate
// and createAlertIssue. Developers and above change alerts; a missing, hidden or unchangeable alert is the top-level
// resource error with nothing written; the services' refusals come back in `errors` next to the alert as stored.
import { describe, expect, it } from 'vitest';
import { api, testDb, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { eq, sql } from 'drizzle-orm';
import { alerts } from '../../../db/schema/index.ts';
import { alertProject, createAlert, gql, RESOURCE_ERROR } from './support.ts';

const STATUS = `mutation($path: ID!, $iid: String!, $status: AlertManagementStatus!) {
  updateAlertStatus(input: { projectPath: $path, iid: $iid, status: $status, clientMutationId: "c1" }) {
    clientMutationId errors issue { iid } todo { id } alert { iid status endedAt notes { nodes { body system systemNoteIconName author { username } } } } } }`;

const ASSIGN = `mutation($path: ID!, $iid: String!, $names: [String!]!, $mode: MutationOperationMode) {
  alertSetAssignees(input: { projectPath: $path, iid: $iid, assigneeUsernames: $names, operationMode: $mode }) {
    errors alert { assignees { nodes { username } } notes { nodes { body } } } } }`;

const TODO = `mutation($path: ID!, $iid: String!) { alertTodoCreate(input: { projectPath: $path, iid: $iid }) {
  errors alert { iid } todo { action body state targetType project { fullPath } author { username } } } }`;

const ISSUE = `mutation($path: ID!, $iid: String!) { createAlertIssue(input: { projectPath: $path, iid: $iid }) {
  errors alert { iid issueIid notes { nodes { body } } } issue { iid title description type author { username } } } }`;

/** What an alert's rows hold now (status, ended_at, notes, to-dos, assignees): "nothing was written" checks. */
async function stored(alertId: number) {
  const count = (table: string, where: string) => sql<number>`(SELECT count(*) FROM ${sql.raw(table)} x WHERE ${sql.raw(where)} = ${alertId})`.mapWith(Number);
  const [row] = await testDb()
    .db.select({
      status: alerts.status,
      endedAt: alerts.endedAt,
      issueId: alerts.issueId,
      updatedAt: alerts.updatedAt,
      notes: count('notes', "x.noteable_type = 'AlertManagement::Alert' AND x.noteable_id"),
      todos: count('todos', "x.target_type = 'AlertManagement::Alert' AND x.target_id"),
      assignees: count('alert_management_alert_assignees', 'x.alert_id'),
    })
    .from(alerts)
    .where(eq(alerts.id, alertId));
  return row;
}

describe('updateAlertStatus', () => {
  it('changes the status with a system note; resolving sets endedAt and re-opening clears it', async () => {
    const fx = await alertProject();
    const a = await createAlert(fx.project.id);
    const ack = await gql(STATUS, fx.developer.token, { path: fx.path, iid: String(a.iid), status: 'ACKNOWLEDGED' });
    expect(ack.body.errors).toBeUndefined();
    expect(ack.body.data.updateAlertStatus).toEqual({
      clientMutationId: 'c1',
      errors: [],
      issue: null,
      todo: null,
      alert: {
        iid: String(a.iid),
        status: 'ACKNOWLEDGED',
        endedAt: null,
        notes: {
          nodes: [
            { body: 'changed the status to **Acknowledged**', system: true, systemNoteIconName: 'status', author: { username: fx.developer.user.username } },
          ],
        },
      },
    });
    const before = Date.now();
    const resolved = await gql(STATUS, fx.maintainer.token, { path: fx.path, iid: String(a.iid), status: 'RESOLVED' });
    const alert = resolved.body.data.updateAlertStatus.alert;
    expect(alert.status).toBe('RESOLVED');
    expect(Date.parse(alert.endedAt)).toBeGreaterThanOrEqual(before - 5000);
    expect(alert.notes.nodes.map((n: { body: string }) => n.body)).toEqual(['changed the status to **Acknowledged**', 'changed the status to **Resolved**']);
    const reopened = await gql(STATUS, fx.developer.token, { path: fx.path, iid: String(a.iid), status: 'TRIGGERED' });
    expect(reopened.body.data.updateAlertStatus.alert).toMatchObject({ status: 'TRIGGERED', endedAt: null });
    const ignored = await gql(STATUS, fx.developer.token, { path: fx.path, iid: String(a.iid), status: 'IGNORED' });
    expect(ignored.body.data.updateAlertStatus.alert.notes.nodes.at(-1).body).toBe('changed the status to **Ignored**');
  });

  it("resolving marks the actor's pending to-dos on the alert done", async () => {
    const fx = await alertProject();
    const a = await createAlert(fx.project.id);
    expect((await gql(TODO, fx.developer.token, { path: fx.path, iid: String(a.iid) })).body.data.alertTodoCreate.errors).toEqual([]);
    expect((await gql(TODO, fx.maintainer.token, { path: fx.path, iid: String(a.iid) })).body.data.alertTodoCreate.errors).toEqual([]);
    await gql(STATUS, fx.developer.token, { path: fx.path, iid: String(a.iid), status: 'RESOLVED' });
    const todos = async (token: string) =>
      (
        await gql(
          `query($path: ID!, $iid: String) { project(fullPath: $path) { alertManagementAlert(iid: $iid) { todos(state: [pending, done]) { nodes { state } } } } }`,
          token,
          { path: fx.path, iid: String(a.iid) },
        )
      ).body.data.project.alertManagementAlert.todos.nodes;
    expect(await todos(fx.developer.token)).toEqual([{ state: 'done' }]);
    expect(await todos(fx.maintainer.token)).toEqual([{ state: 'pending' }]);
  });

  it('refuses to re-open an alert whose fingerprint an open alert holds (errors, nothing written)', async () => {
    const fx = await alertProject();
    const old = await createAlert(fx.project.id, { fingerprint: 'f'.repeat(40), status: 'resolved' });
    const open = await createAlert(fx.project.id, { fingerprint: 'f'.repeat(40), status: 'triggered' });
    const message = `An <a href="/${fx.path}/-/alert_management/${open.iid}/details">alert</a> with the same fingerprint is already open. To change the status of this alert, resolve the linked alert.`;
    const before = await stored(old.id);
    for (const status of ['TRIGGERED', 'ACKNOWLEDGED', 'IGNORED']) {
      const res = await gql(STATUS, fx.developer.token, { path: fx.path, iid: String(old.iid), status });
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.updateAlertStatus).toMatchObject({ errors: [message], alert: { iid: String(old.iid), status: 'RESOLVED', notes: { nodes: [] } } });
    }
    expect(await stored(old.id)).toEqual(before);
    // Once the open one is resolved, the old one may open again.
    await gql(STATUS, fx.developer.token, { path: fx.path, iid: String(open.iid), status: 'RESOLVED' });
    const res = await gql(STATUS, fx.developer.token, { path: fx.path, iid: String(old.iid), status: 'TRIGGERED' });
    expect(res.body.data.updateAlertStatus).toMatchObject({ errors: [], alert: { status: 'TRIGGERED' } });
  });
});

describe('alertSetAssignees', () => {
  it('REPLACE, APPEND and REMOVE, one assignee kept (13.6), with system notes and an assigned to-do', async () => {
    const fx = await alertProject();
    const a = await createAlert(fx.project.id);
    const assign = (names: string[], mode?: string) => gql(ASSIGN, fx.developer.token, { path: fx.path, iid: String(a.iid), names, mode });
    const dev = fx.developer.user.username;
    const rep = fx.reporter.user.username;
    const one = await assign([rep.toUpperCase(), 'no-such-user', dev]);
    expect(one.body.errors).toBeUndefined();
    expect(one.body.data.alertSetAssignees).toEqual({
      errors: [],
      alert: { assignees: { nodes: [{ username: rep }] }, notes: { nodes: [{ body: `assigned to @${rep}` }] } },
    });
    // APPEND keeps the current first assignee.
    const appended = await assign([dev], 'APPEND');
    expect(appended.body.data.alertSetAssignees.alert.assignees.nodes).toEqual([{ username: rep }]);
    expect(appended.body.data.alertSetAssignees.alert.notes.nodes).toHaveLength(1);
    const replaced = await assign([dev], 'REPLACE');
    expect(replaced.body.data.alertSetAssignees.alert).toEqual({
      assignees: { nodes: [{ username: dev }] },
      notes: { nodes: [{ body: `assigned to @${rep}` }, { body: `assigned to @${dev} and unassigned @${rep}` }] },
    });
    const removed = await assign([dev, rep], 'REMOVE');
    expect(removed.body.data.alertSetAssignees.alert).toMatchObject({ assignees: { nodes: [] } });
    expect(removed.body.data.alertSetAssignees.alert.notes.nodes.at(-1)).toEqual({ body: `unassigned @${dev}` });
    // The reporter's assigned to-do (by the developer), in the to-dos API too.
    const todos = await api.get('/todos', { token: fx.reporter.token });
    expect(todos.status).toBe(200);
    expect(todos.body).toHaveLength(1);
    expect(todos.body[0]).toMatchObject({
      action_name: 'assigned',
      target_type: 'AlertManagement::Alert',
      target: { iid: a.iid, title: a.title },
      target_url: `${TEST_PUBLIC_URL}/${fx.path}/-/alert_management/${a.iid}/details`,
      body: a.title,
      state: 'pending',
      project: { id: fx.project.id, path_with_namespace: fx.path },
      author: { username: dev },
    });
  });

  it('refuses an assignee who cannot read alerts (a guest), writing nothing', async () => {
    const fx = await alertProject();
    const a = await createAlert(fx.project.id);
    const before = await stored(a.id);
    for (const names of [[fx.guest.user.username], [fx.outsider.user.username]]) {
      const res = await gql(ASSIGN, fx.developer.token, { path: fx.path, iid: String(a.iid), names });
      expect(res.body.data.alertSetAssignees).toEqual({ errors: ['Assignee has no permissions'], alert: { assignees: { nodes: [] }, notes: { nodes: [] } } });
    }
    expect(await stored(a.id)).toEqual(before);
  });
});

describe('alertTodoCreate', () => {
  it('marks a to-do for the current user, once', async () => {
    const fx = await alertProject();
    const a = await createAlert(fx.project.id, { title: 'Queue backlog' });
    const res = await gql(TODO, fx.developer.token, { path: fx.path, iid: String(a.iid) });
    expect(res.body.data.alertTodoCreate).toEqual({
      errors: [],
      alert: { iid: String(a.iid) },
      todo: {
        action: 'marked',
        body: 'Queue backlog',
        state: 'pending',
        targetType: 'ALERT',
        project: { fullPath: fx.path },
        author: { username: fx.developer.user.username },
      },
    });
    const again = await gql(TODO, fx.developer.token, { path: fx.path, iid: String(a.iid) });
    expect(again.body.data.alertTodoCreate).toEqual({ errors: ['You already have pending todo for this alert'], alert: { iid: String(a.iid) }, todo: null });
    expect((await stored(a.id))!.todos).toBe(1);
  });
});

describe('createAlertIssue', () => {
  it('opens an incident from the alert, links it and notes it; a second one is refused', async () => {
    const fx = await alertProject();
    const a = await createAlert(fx.project.id, {
      title: 'Checkout failing',
      description: 'HTTP 500 on /pay',
      service: 'shop',
      monitoringTool: 'Nagios',
      hosts: ['pay-1', 'pay-2'],
      severity: 'high',
      startedAt: new Date('2026-11-05T20:07:00Z'),
    });
    const res = await gql(ISSUE, fx.developer.token, { path: fx.path, iid: String(a.iid) });
    expect(res.body.errors).toBeUndefined();
    const payload = res.body.data.createAlertIssue;
    expect(payload.errors).toEqual([]);
    expect(payload.issue).toEqual({
      iid: expect.any(String),
      title: 'Checkout failing',
      type: 'INCIDENT',
      author: { username: fx.developer.user.username },
      description: [
        '**Start time:** 05 November 2026, 8:07PM (UTC)',
        '**Severity:** high',
        '**Service:** shop',
        '**Monitoring tool:** Nagios',
        '**Hosts:** pay-1 pay-2',
        '**Description:** HTTP 500 on /pay',
        `**GitLab alert:** ${TEST_PUBLIC_URL}/${fx.path}/-/alert_management/${a.iid}/details`,
      ].join('  \n'),
    });
    expect(payload.alert).toEqual({
      iid: String(a.iid),
      issueIid: payload.issue.iid,
      notes: { nodes: [{ body: `created issue #${payload.issue.iid} for this alert` }] },
    });
    // The issues domain's own create: the issue is in the project's list with its `created` event.
    const issue = await api.get(`/projects/${fx.project.id}/issues/${payload.issue.iid}`, { token: fx.developer.token });
    expect(issue.status).toBe(200);
    expect(issue.body).toMatchObject({ title: 'Checkout failing', author: { username: fx.developer.user.username } });
    const again = await gql(ISSUE, fx.developer.token, { path: fx.path, iid: String(a.iid) });
    expect(again.body.data.createAlertIssue).toMatchObject({ errors: ['An issue already exists'], issue: null, alert: { issueIid: payload.issue.iid } });
    const issues = await api.get(`/projects/${fx.project.id}/issues`, { token: fx.developer.token });
    expect(issues.body).toHaveLength(1);
  });
});

describe('who may change alerts', () => {
  const MUTATIONS = [
    ['updateAlertStatus', STATUS, { status: 'ACKNOWLEDGED' }],
    ['alertSetAssignees', ASSIGN, { names: [] }],
    ['alertTodoCreate', TODO, {}],
    ['createAlertIssue', ISSUE, {}],
  ] as const;

  it('is the top-level resource error for reporters, guests, outsiders, anonymous callers, unknown alerts and projects; nothing written', async () => {
    const fx = await alertProject();
    const a = await createAlert(fx.project.id);
    const before = await stored(a.id);
    const cases: Array<[string, string | undefined, Record<string, unknown>]> = [
      ['reporter', fx.reporter.token, { path: fx.path, iid: String(a.iid) }],
      ['guest', fx.guest.token, { path: fx.path, iid: String(a.iid) }],
      ['outsider', fx.outsider.token, { path: fx.path, iid: String(a.iid) }],
      ['anonymous', undefined, { path: fx.path, iid: String(a.iid) }],
      ['unknown iid', fx.developer.token, { path: fx.path, iid: String(a.iid + 100) }],
      ['iid not a number', fx.developer.token, { path: fx.path, iid: '1; DROP' }],
      ['iid too large', fx.developer.token, { path: fx.path, iid: '99999999999' }],
      ['unknown project', fx.developer.token, { path: `${fx.path}-nope`, iid: String(a.iid) }],
    ];
    for (const [field, query, extra] of MUTATIONS) {
      for (const [who, token, variables] of cases) {
        const res = await gql(query, token, { ...variables, ...extra });
        expect(res.status, `${field} ${who}`).toBe(200);
        expect(res.body.data, `${field} ${who}`).toEqual({ [field]: null });
        expect(
          res.body.errors?.map((e: { message: string }) => e.message),
          `${field} ${who}`,
        ).toEqual([RESOURCE_ERROR]);
      }
    }
    expect(await stored(a.id)).toEqual(before);
  });
});
