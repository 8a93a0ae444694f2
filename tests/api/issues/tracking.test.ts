import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { timelogs, todos } from '../../../db/schema/index.ts';
import { parseDuration } from '../../../functions/issuables/duration.ts';
import { addMember } from '../../factories/groups.ts';
import { createIssue } from '../../factories/issues.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';

async function setup() {
  const owner = await createUser();
  const reporter = await createUser();
  const guest = await createUser();
  const stranger = await createUser();
  const project = await createProject(owner.token);
  await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
  await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
  const issue = await createIssue(owner.token, project.id);
  const url = `/projects/${project.id}/issues/${issue.iid}`;
  return { owner, reporter, guest, stranger, project, issue, url };
}

describe('duration strings (GitLab TimeTrackingFormatter)', () => {
  it('parses with 8h days, 5d weeks, 4w months; bare numbers are hours', () => {
    expect(parseDuration('3h30m')).toBe(12_600);
    expect(parseDuration('1w 2d')).toBe(201_600);
    expect(parseDuration('1mo')).toBe(576_000);
    expect(parseDuration('2')).toBe(7_200);
    expect(parseDuration('1 hour 30 minutes')).toBe(5_400);
    expect(parseDuration('-1h')).toBe(-3_600);
    for (const bad of ['', 'abc', '1h x', '1q', '\u0000']) expect(parseDuration(bad)).toBeNull();
  });
});

describe('time tracking', () => {
  it('estimate, reset, add/subtract spent time, reset spent time, time_stats', async () => {
    const fx = await setup();
    let res = await api.post(`${fx.url}/time_estimate`, { token: fx.reporter.token, body: { duration: '3h30m' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ time_estimate: 12_600, total_time_spent: 0, human_time_estimate: '3h 30m', human_total_time_spent: null });
    res = await api.post(`${fx.url}/add_spent_time`, { token: fx.reporter.token, body: { duration: '1d' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ time_estimate: 12_600, total_time_spent: 28_800, human_time_estimate: '3h 30m', human_total_time_spent: '1d' });
    res = await api.post(`${fx.url}/add_spent_time`, { token: fx.reporter.token, form: { duration: '-1h' } });
    expect(res.body.total_time_spent).toBe(25_200);
    res = await api.post(`${fx.url}/add_spent_time`, { token: fx.reporter.token, body: { duration: '-1w' } });
    expect(res).toMatchObject({ status: 400, body: { message: { time_spent: ['Time to subtract exceeds the total time spent'] } } });
    expect((await api.get(`${fx.url}/time_stats`, { token: fx.guest.token })).body).toEqual({
      time_estimate: 12_600,
      total_time_spent: 25_200,
      human_time_estimate: '3h 30m',
      human_total_time_spent: '7h',
    });
    res = await api.post(`${fx.url}/reset_spent_time`, { token: fx.reporter.token });
    expect(res).toMatchObject({ status: 200, body: { total_time_spent: 0, human_total_time_spent: null } });
    res = await api.post(`${fx.url}/reset_time_estimate`, { token: fx.reporter.token });
    expect(res).toMatchObject({ status: 200, body: { time_estimate: 0, human_time_estimate: null } });
    const logs = await testDb().db.select({ t: timelogs.timeSpent }).from(timelogs).where(eq(timelogs.issueId, fx.issue.id)).orderBy(timelogs.id);
    expect(logs.map((l) => l.t)).toEqual([28_800, -3_600, -25_200]);
    expect((await api.get(fx.url, { token: fx.owner.token })).body.time_stats).toEqual({
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    });
  });

  it('bad durations 400; guests 403; outsiders 404; anonymous 401', async () => {
    const fx = await setup();
    expect(await api.post(`${fx.url}/time_estimate`, { token: fx.owner.token, body: {} })).toMatchObject({
      status: 400,
      body: { error: 'duration is missing' },
    });
    expect(await api.post(`${fx.url}/time_estimate`, { token: fx.owner.token, body: { duration: 'soon' } })).toMatchObject({
      status: 400,
      body: { message: { time_estimate: ['has an invalid format'] } },
    });
    expect(await api.post(`${fx.url}/add_spent_time`, { token: fx.owner.token, body: { duration: '1h\u0000' } })).toMatchObject({
      status: 400,
      body: { error: 'duration is invalid' },
    });
    expect(await api.post(`${fx.url}/time_estimate`, { token: fx.guest.token, body: { duration: '1h' } })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect(await api.post(`${fx.url}/time_estimate`, { token: fx.stranger.token, body: { duration: '1h' } })).toMatchObject({ status: 404 });
    expect(await api.post(`${fx.url}/time_estimate`, { body: { duration: '1h' } })).toMatchObject({ status: 401 });
    expect(await api.get(`/projects/${fx.project.id}/issues/404/time_stats`, { token: fx.owner.token })).toMatchObject({
      status: 404,
      body: { message: '404 Issue Not Found' },
    });
  });
});

describe('subscriptions', () => {
  it('201 when it changes, 304 when it does not; the author is subscribed by participation', async () => {
    const fx = await setup();
    expect((await api.post(`${fx.url}/subscribe`, { token: fx.owner.token })).status).toBe(304);
    const off = await api.post(`${fx.url}/unsubscribe`, { token: fx.owner.token });
    expect(off.status).toBe(201);
    expect(off.body).toMatchObject({ iid: fx.issue.iid, subscribed: false });
    expect((await api.post(`${fx.url}/unsubscribe`, { token: fx.owner.token })).status).toBe(304);
    expect((await api.get(fx.url, { token: fx.owner.token })).body.subscribed).toBe(false);

    expect((await api.post(`${fx.url}/unsubscribe`, { token: fx.guest.token })).status).toBe(304);
    const on = await api.post(`${fx.url}/subscribe`, { token: fx.guest.token });
    expect(on).toMatchObject({ status: 201, body: { subscribed: true } });
    expect((await api.post(`${fx.url}/subscribe`, { token: fx.guest.token })).status).toBe(304);
    expect((await api.get(fx.url, { token: fx.guest.token })).body.subscribed).toBe(true);
    expect((await api.post(`${fx.url}/subscribe`, { token: fx.stranger.token })).status).toBe(404);
    expect((await api.post(`${fx.url}/subscribe`)).status).toBe(401);
  });
});

describe('POST .../todo', () => {
  it('201 with the to-do, then 304 while it is pending', async () => {
    const fx = await setup();
    const res = await api.post(`${fx.url}/todo`, { token: fx.guest.token });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      project: { id: fx.project.id, path_with_namespace: fx.project.path_with_namespace },
      author: { id: fx.guest.user.id },
      action_name: 'marked',
      target_type: 'Issue',
      target: { id: fx.issue.id, iid: fx.issue.iid },
      body: fx.issue.title,
      state: 'pending',
    });
    expect(res.body.target).not.toHaveProperty('subscribed');
    expect((await api.post(`${fx.url}/todo`, { token: fx.guest.token })).status).toBe(304);
    const rows = await testDb()
      .db.select()
      .from(todos)
      .where(and(eq(todos.targetType, 'Issue'), eq(todos.targetId, fx.issue.id)));
    expect(rows).toHaveLength(1);
    expect((await api.post(`${fx.url}/todo`, { token: fx.stranger.token })).status).toBe(404);
  });
});

describe('assignment to-dos', () => {
  it('assigning on create and update gives each newly assigned user one pending "assigned" to-do', async () => {
    const fx = await setup();
    const issue = await createIssue(fx.owner.token, fx.project.id, { assignee_ids: [fx.reporter.user.id] });
    const url = `/projects/${fx.project.id}/issues/${issue.iid}`;
    await api.put(url, { token: fx.owner.token, body: { assignee_ids: [fx.reporter.user.id, fx.guest.user.id] } });
    await api.put(url, { token: fx.owner.token, body: { assignee_ids: [fx.guest.user.id, fx.reporter.user.id] } });
    const rows = await testDb()
      .db.select({ userId: todos.userId, authorId: todos.authorId, action: todos.action, state: todos.state, projectId: todos.projectId })
      .from(todos)
      .where(and(eq(todos.targetType, 'Issue'), eq(todos.targetId, issue.id)))
      .orderBy(todos.id);
    expect(rows).toEqual([
      { userId: fx.reporter.user.id, authorId: fx.owner.user.id, action: 1, state: 'pending', projectId: fx.project.id },
      { userId: fx.guest.user.id, authorId: fx.owner.user.id, action: 1, state: 'pending', projectId: fx.project.id },
    ]);
  });
});

describe('mention to-dos', () => {
  const mentionTodos = (issueId: number) =>
    testDb()
      .db.select({ userId: todos.userId, action: todos.action })
      .from(todos)
      .where(and(eq(todos.targetType, 'Issue'), eq(todos.targetId, issueId)))
      .orderBy(todos.id);

  it('readers mentioned get "mentioned" (2) or, at the start of a line, "directly addressed" (7); only new mentions on update', async () => {
    const fx = await setup();
    const issue = await createIssue(fx.reporter.token, fx.project.id, {
      description: `@${fx.guest.user.username.toUpperCase()} please look\nalso @${fx.owner.user.username} and @${fx.stranger.user.username}, not \`@${fx.reporter.user.username}\``,
    });
    expect((await mentionTodos(issue.id)).sort((a, b) => b.action - a.action)).toEqual([
      { userId: fx.guest.user.id, action: 7 },
      { userId: fx.owner.user.id, action: 2 },
    ]);
    await api.put(`/projects/${fx.project.id}/issues/${issue.iid}`, {
      token: fx.owner.token,
      body: { description: `@${fx.guest.user.username} again, and @${fx.reporter.user.username}` },
    });
    expect((await mentionTodos(issue.id)).slice(2)).toEqual([{ userId: fx.reporter.user.id, action: 2 }]);
  });

  it('a confidential issue gives no to-do to a mentioned guest', async () => {
    const fx = await setup();
    const issue = await createIssue(fx.owner.token, fx.project.id, {
      confidential: true,
      description: `@${fx.guest.user.username} @${fx.reporter.user.username}`,
    });
    expect(await mentionTodos(issue.id)).toEqual([{ userId: fx.reporter.user.id, action: 7 }]);
  });
});
