import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, issues, notes } from '../../../db/schema/index.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createIssue } from '../../factories/issues.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { api, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';

const NOT_FOUND = { message: '404 Issue Not Found' };
const FORBIDDEN = { message: '403 Forbidden' };

const issueEvents = (issueId: number) =>
  testDb()
    .db.select({ action: events.action, authorId: events.authorId, projectId: events.projectId })
    .from(events)
    .where(and(eq(events.targetType, 'Issue'), eq(events.targetId, issueId)))
    .orderBy(events.id);

/** A private project with an owner, a reporter, a guest and an outsider. */
async function setup(visibility: 'private' | 'public' = 'private') {
  const owner = await createUser();
  const reporter = await createUser();
  const guest = await createUser();
  const stranger = await createUser();
  const project = await createProject(owner.token, { visibility });
  await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
  await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
  return { owner, reporter, guest, stranger, project };
}

describe('POST /projects/:id/issues', () => {
  it('201 with the Issue entity, labels created, assignees, milestone ignored when foreign, event recorded', async () => {
    const fx = await setup();
    const res = await api.post(`/projects/${fx.project.id}/issues`, {
      token: fx.owner.token,
      body: {
        title: 'First',
        description: '- [x] one\n- [ ] two',
        labels: 'bug, ux,bug',
        assignee_ids: [fx.reporter.user.id, 999999999, fx.stranger.user.id],
        due_date: '2030-01-02',
        milestone_id: 999999,
      },
    });
    expect(res.status, res.text).toBe(201);
    const base = `${TEST_PUBLIC_URL}/api/v4/projects/${fx.project.id}`;
    expect(res.body).toMatchObject({
      iid: 1,
      project_id: fx.project.id,
      title: 'First',
      description: '- [x] one\n- [ ] two',
      state: 'opened',
      closed_at: null,
      closed_by: null,
      labels: ['bug', 'ux'],
      milestone: null,
      assignees: [{ id: fx.reporter.user.id, username: fx.reporter.user.username, state: 'active' }],
      assignee: { id: fx.reporter.user.id },
      author: { id: fx.owner.user.id, username: fx.owner.user.username, web_url: `${TEST_PUBLIC_URL}/${fx.owner.user.username}` },
      user_notes_count: 0,
      merge_requests_count: 0,
      upvotes: 0,
      downvotes: 0,
      due_date: '2030-01-02',
      confidential: false,
      discussion_locked: null,
      web_url: `${TEST_PUBLIC_URL}/${fx.project.path_with_namespace}/-/issues/1`,
      time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
      task_completion_status: { count: 2, completed_count: 1 },
      has_tasks: true,
      _links: { self: `${base}/issues/1`, notes: `${base}/issues/1/notes`, award_emoji: `${base}/issues/1/award_emoji`, project: base },
      references: { short: '#1', relative: '#1', full: `${fx.project.path_with_namespace}#1` },
      moved_to_id: null,
      subscribed: true,
    });
    expect(Object.keys(res.body.assignees[0]).sort()).toEqual(['avatar_url', 'id', 'name', 'state', 'username', 'web_url']);
    expect(await issueEvents(res.body.id)).toEqual([{ action: 1, authorId: fx.owner.user.id, projectId: fx.project.id }]);
    const second = await createIssue(fx.guest.token, fx.project.id, { labels: 'bug', assignee_ids: [fx.reporter.user.id] });
    // A guest may open an issue but not set labels or assignees (GitLab's filter_params).
    expect(second).toMatchObject({ iid: 2, labels: [], assignees: [] });
  });

  it('400s and 404s write nothing', async () => {
    const fx = await setup();
    const post = (body: unknown, token = fx.owner.token) => api.post(`/projects/${fx.project.id}/issues`, { token, body });
    const cases: Array<[unknown, number, unknown]> = [
      [{}, 400, { error: 'title is missing' }],
      [{ title: 'a\u0000b' }, 400, { error: 'title is invalid' }],
      [{ title: '  ' }, 400, { message: { title: ["can't be blank"] } }],
      [{ title: 'x'.repeat(256) }, 400, { message: { title: ['is too long (maximum is 255 characters)'] } }],
      [{ title: 'ok', description: 'nul\u0000' }, 400, { error: 'description is invalid' }],
      [{ title: 'ok', due_date: '2030-02-31' }, 400, { error: 'due_date is invalid' }],
      [{ title: 'ok', assignee_ids: ['x'] }, 400, { error: 'assignee_ids[0] is invalid' }],
      [{ title: 'ok', confidential: 'maybe' }, 400, { error: 'confidential is invalid' }],
    ];
    for (const [body, status, expected] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body).toEqual(expected);
    }
    const big = await post({ title: 'big', description: 'x'.repeat(1024 * 1024 + 10) });
    expect([400, 413]).toContain(big.status);
    expect((await api.post(`/projects/999999999/issues`, { token: fx.owner.token, body: { title: 't' } })).body).toEqual({ message: '404 Project Not Found' });
    expect((await post({ title: 't' }, fx.stranger.token)).status).toBe(404);
    const rows = await testDb().db.select().from(issues).where(eq(issues.projectId, fx.project.id));
    expect(rows).toEqual([]);
  });

  it('20 parallel creates in one project get iids 1..20', async () => {
    const fx = await setup();
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => createIssue(fx.owner.token, fx.project.id, { title: `p${i}` })));
    expect(created.map((i) => i.iid).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });
});

describe('GET /projects/:id/issues/:issue_iid', () => {
  it('200 for readers, 404 for unknown, 400 for a non-numeric iid', async () => {
    const fx = await setup();
    const issue = await createIssue(fx.owner.token, fx.project.id);
    const res = await api.get(`/projects/${fx.project.id}/issues/${issue.iid}`, { token: fx.guest.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: issue.id, iid: issue.iid, subscribed: false });
    expect(
      (await api.get(`/projects/${encodeURIComponent(fx.project.path_with_namespace)}/issues/${issue.iid}`, { token: fx.owner.token })).body.subscribed,
    ).toBe(true);
    expect(await api.get(`/projects/${fx.project.id}/issues/999`, { token: fx.owner.token })).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await api.get(`/projects/${fx.project.id}/issues/99999999999`, { token: fx.owner.token })).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await api.get(`/projects/${fx.project.id}/issues/abc`, { token: fx.owner.token })).toMatchObject({
      status: 400,
      body: { error: 'issue_iid is invalid' },
    });
    expect(await api.get(`/projects/${fx.project.id}/issues/${issue.iid}`, { token: fx.stranger.token })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
  });

  it('confidential issues: reporters, the author and assignees see them; guests and others get 404', async () => {
    const fx = await setup('public');
    const assignee = await createUser();
    await addMember(fx.owner.token, 'projects', fx.project.id, assignee.user.id, 10);
    const author = await createUser();
    await addMember(fx.owner.token, 'projects', fx.project.id, author.user.id, 10);
    const issue = await createIssue(author.token, fx.project.id, { confidential: true });
    await api.put(`/projects/${fx.project.id}/issues/${issue.iid}`, { token: fx.owner.token, body: { assignee_ids: [assignee.user.id] } });
    const url = `/projects/${fx.project.id}/issues/${issue.iid}`;
    for (const token of [fx.owner.token, fx.reporter.token, author.token, assignee.token, (await createAdmin()).token]) {
      expect((await api.get(url, { token })).status).toBe(200);
    }
    for (const token of [fx.guest.token, fx.stranger.token, undefined]) {
      expect(await api.get(url, { token })).toMatchObject({ status: 404, body: NOT_FOUND });
    }
    // A plain issue of a public project is readable anonymously (never subscribed).
    const plain = await createIssue(fx.owner.token, fx.project.id);
    expect(await api.get(`/projects/${fx.project.id}/issues/${plain.iid}`)).toMatchObject({ status: 200, body: { id: plain.id, subscribed: false } });
    // Writes to an invisible issue are 404 too.
    expect(await api.put(url, { token: fx.guest.token, body: { title: 'x' } })).toMatchObject({ status: 404, body: NOT_FOUND });
  });
});

describe('PUT /projects/:id/issues/:issue_iid', () => {
  it('updates fields, labels (set/add/remove), assignees; close and reopen record events', async () => {
    const fx = await setup();
    const issue = await createIssue(fx.owner.token, fx.project.id, { labels: 'a,b' });
    const url = `/projects/${fx.project.id}/issues/${issue.iid}`;
    let res = await api.put(url, {
      token: fx.reporter.token,
      body: { title: 'New', description: 'D', add_labels: 'c', remove_labels: 'a', assignee_ids: [fx.guest.user.id], discussion_locked: true },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      title: 'New',
      description: 'D',
      labels: ['b', 'c'],
      assignees: [{ id: fx.guest.user.id }],
      discussion_locked: true,
      subscribed: false,
    });
    res = await api.put(url, { token: fx.reporter.token, form: { labels: 'z', assignee_ids: '' } });
    expect(res.body).toMatchObject({ labels: ['z'], assignees: [], assignee: null });

    res = await api.put(url, { token: fx.reporter.token, body: { state_event: 'close' } });
    expect(res.body).toMatchObject({ state: 'closed', closed_by: { id: fx.reporter.user.id } });
    expect(res.body.closed_at).toEqual(expect.any(String));
    // Closing a closed issue changes nothing and records nothing.
    await api.put(url, { token: fx.reporter.token, body: { state_event: 'close' } });
    res = await api.put(url, { token: fx.owner.token, body: { state_event: 'reopen' } });
    expect(res.body).toMatchObject({ state: 'opened', closed_at: null, closed_by: null });
    const systemNotes = await testDb()
      .db.select({ body: notes.body, system: notes.system, action: notes.systemAction, authorId: notes.authorId })
      .from(notes)
      .where(and(eq(notes.noteableType, 'Issue'), eq(notes.noteableId, issue.id)))
      .orderBy(notes.id);
    expect(systemNotes).toEqual([
      { body: 'closed', system: true, action: 'closed', authorId: fx.reporter.user.id },
      { body: 'reopened', system: true, action: 'opened', authorId: fx.owner.user.id },
    ]);
    // System notes are not user notes.
    expect(res.body.user_notes_count).toBe(0);
    expect((await issueEvents(issue.id)).map((e) => [e.action, e.authorId])).toEqual([
      [1, fx.owner.user.id],
      [3, fx.reporter.user.id],
      [4, fx.owner.user.id],
    ]);
  });

  it('400 without parameters or with bad ones; 403 for a guest who is not the author; events untouched', async () => {
    const fx = await setup();
    const issue = await createIssue(fx.owner.token, fx.project.id);
    const url = `/projects/${fx.project.id}/issues/${issue.iid}`;
    expect(await api.put(url, { token: fx.owner.token, body: {} })).toMatchObject({
      status: 400,
      body: {
        error:
          'assignee_id, assignee_ids, confidential, created_at, description, discussion_locked, due_date, labels, add_labels, remove_labels, milestone_id, state_event, title are missing, at least one parameter must be provided',
      },
    });
    expect(await api.put(url, { token: fx.owner.token, body: { state_event: 'shut' } })).toMatchObject({
      status: 400,
      body: { error: 'state_event does not have a valid value' },
    });
    expect(await api.put(url, { token: fx.guest.token, body: { state_event: 'close' } })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await api.put(`/projects/${fx.project.id}/issues/77`, { token: fx.owner.token, body: { title: 'x' } })).toMatchObject({
      status: 404,
      body: NOT_FOUND,
    });
    expect((await issueEvents(issue.id)).map((e) => e.action)).toEqual([1]);
    // The author may edit their own issue even as a guest.
    const own = await createIssue(fx.guest.token, fx.project.id);
    expect((await api.put(`/projects/${fx.project.id}/issues/${own.iid}`, { token: fx.guest.token, body: { state_event: 'close' } })).body.state).toBe(
      'closed',
    );
  });
});

describe('concurrent state changes', () => {
  it('10 parallel closes record one closed event', async () => {
    const fx = await setup();
    const issue = await createIssue(fx.owner.token, fx.project.id);
    const url = `/projects/${fx.project.id}/issues/${issue.iid}`;
    const results = await Promise.all(Array.from({ length: 10 }, () => api.put(url, { token: fx.owner.token, body: { state_event: 'close' } })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect((await issueEvents(issue.id)).map((e) => e.action)).toEqual([1, 3]);
  });
});

describe('DELETE /projects/:id/issues/:issue_iid', () => {
  it('204 for owners and admins, 403 for others', async () => {
    const fx = await setup();
    const issue = await createIssue(fx.owner.token, fx.project.id);
    const url = `/projects/${fx.project.id}/issues/${issue.iid}`;
    expect(await api.delete(url, { token: fx.reporter.token })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect((await api.delete(url, { token: fx.owner.token })).status).toBe(204);
    expect(await api.get(url, { token: fx.owner.token })).toMatchObject({ status: 404, body: NOT_FOUND });
    const other = await createIssue(fx.owner.token, fx.project.id);
    const { token: admin } = await createAdmin();
    expect((await api.delete(`/projects/${fx.project.id}/issues/${other.iid}`, { token: admin })).status).toBe(204);
  });
});

describeAuthorization('PUT /projects/:id/issues/:issue_iid', {
  fixture: async () => {
    const fx = await setup();
    const issue = await createIssue(fx.owner.token, fx.project.id);
    return { ...fx, issue, allowed: fx.reporter.token, nonMember: fx.stranger.token, insufficientRole: fx.guest.token };
  },
  call: (fx, token) => api.put(`/projects/${fx.project.id}/issues/${fx.issue.iid}`, { token, body: { title: 'changed' } }),
  success: 200,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 403, body: FORBIDDEN },
});

describeAuthorization('POST /projects/:id/issues', {
  fixture: async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const group = await createGroup(owner.token);
    const project = await createProject(owner.token, { namespaceId: group.id });
    return { project, allowed: owner.token, nonMember: stranger.token };
  },
  call: (fx, token) => api.post(`/projects/${fx.project.id}/issues`, { token, body: { title: 'auth' } }),
  success: 201,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
});

describeAuthorization('DELETE /projects/:id/issues/:issue_iid', {
  fixture: async () => {
    const fx = await setup();
    const issue = await createIssue(fx.owner.token, fx.project.id);
    return { ...fx, issue, allowed: fx.owner.token, nonMember: fx.stranger.token, insufficientRole: fx.reporter.token };
  },
  call: (fx, token) => api.delete(`/projects/${fx.project.id}/issues/${fx.issue.iid}`, { token }),
  success: 204,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 403, body: FORBIDDEN },
});

describeAuthorization('GET /projects/:id/issues (private project)', {
  fixture: async () => {
    const fx = await setup();
    return { ...fx, allowed: fx.guest.token, nonMember: fx.stranger.token };
  },
  call: (fx, token) => api.get(`/projects/${fx.project.id}/issues`, { token }),
  success: 200,
  anonymous: { status: 404, body: { message: '404 Project Not Found' } },
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
});
