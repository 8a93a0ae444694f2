// Merge request time tracking, subscriptions, "mark as to-do", participants, and the mention and assignment to-dos
// of MR create/update (GitLab 13.6 TimeTrackingEndpoints, subscriptions.rb, todos.rb, TodoService).
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertNote } from '../../../db/queries/notes.ts';
import { subscriptions, timelogs, todos } from '../../../db/schema/index.ts';
import { addMember } from '../../factories/groups.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { mrProject, mrs, openMergeRequest } from './support.ts';

async function setup(body: Record<string, unknown> = {}) {
  const fx = await mrProject('mrtrack');
  const guest = await createUser();
  const stranger = await createUser();
  await addMember(fx.owner.token, 'projects', fx.project.id, guest.user.id, 10);
  const mr = await openMergeRequest(fx, body);
  const url = `${mrs(fx)}/${mr.iid}`;
  return { ...fx, guest, stranger, mr, url };
}

const timelogsOf = async (mrId: number) =>
  await testDb().db.select({ t: timelogs.timeSpent, issueId: timelogs.issueId }).from(timelogs).where(eq(timelogs.mergeRequestId, mrId)).orderBy(timelogs.id);
const todosOf = async (mrId: number) =>
  testDb()
    .db.select()
    .from(todos)
    .where(and(eq(todos.targetType, 'MergeRequest'), eq(todos.targetId, mrId)))
    .orderBy(todos.id);

describe('merge request time tracking', () => {
  it('estimate, reset, add/subtract spent time, reset spent time, time_stats', async () => {
    const fx = await setup();
    let res = await api.post(`${fx.url}/time_estimate`, { token: fx.developer.token, body: { duration: '3h30m' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ time_estimate: 12_600, total_time_spent: 0, human_time_estimate: '3h 30m', human_total_time_spent: null });
    res = await api.post(`${fx.url}/add_spent_time`, { token: fx.developer.token, body: { duration: '1d' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ time_estimate: 12_600, total_time_spent: 28_800, human_time_estimate: '3h 30m', human_total_time_spent: '1d' });
    res = await api.post(`${fx.url}/add_spent_time`, { token: fx.developer.token, form: { duration: '-1h' } });
    expect(res.body.total_time_spent).toBe(25_200);
    res = await api.post(`${fx.url}/add_spent_time`, { token: fx.developer.token, body: { duration: '-1w' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { time_spent: ['Time to subtract exceeds the total time spent'] } });
    // time_stats is read_merge_request: reporters of the private project read it.
    res = await api.get(`${fx.url}/time_stats`, { token: fx.reporter.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ time_estimate: 12_600, total_time_spent: 25_200, human_time_estimate: '3h 30m', human_total_time_spent: '7h' });
    expect((await api.get(fx.url, { token: fx.owner.token })).body.time_stats).toEqual(res.body);
    res = await api.post(`${fx.url}/reset_spent_time`, { token: fx.developer.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ time_estimate: 12_600, total_time_spent: 0, human_time_estimate: '3h 30m', human_total_time_spent: null });
    res = await api.post(`${fx.url}/reset_time_estimate`, { token: fx.developer.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null });
    expect(await timelogsOf(fx.mr.id)).toEqual([
      { t: 28_800, issueId: null },
      { t: -3_600, issueId: null },
      { t: -25_200, issueId: null },
    ]);
  });

  it('bad durations 400; reporters 403 (admin_merge_request is developers and above); guests 403 to read; nothing written', async () => {
    const fx = await setup();
    expect(await api.post(`${fx.url}/time_estimate`, { token: fx.owner.token, body: {} })).toMatchObject({
      status: 400,
      body: { error: 'duration is missing' },
    });
    const bad = await api.post(`${fx.url}/time_estimate`, { token: fx.owner.token, body: { duration: 'soon' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: { time_estimate: ['has an invalid format'] } });
    const bad2 = await api.post(`${fx.url}/add_spent_time`, { token: fx.owner.token, body: { duration: 'later' } });
    expect(bad2.body).toEqual({ message: { time_spent: ['has an invalid format'] } });
    for (const action of ['time_estimate', 'add_spent_time']) {
      const res = await api.post(`${fx.url}/${action}`, { token: fx.reporter.token, body: { duration: '1h' } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
    }
    for (const action of ['reset_time_estimate', 'reset_spent_time'])
      expect((await api.post(`${fx.url}/${action}`, { token: fx.reporter.token })).status).toBe(403);
    // A guest of a private project may not read its merge requests (download_code).
    expect((await api.get(`${fx.url}/time_stats`, { token: fx.guest.token })).status).toBe(403);
    expect((await api.get(`${fx.url}/time_stats`, { token: fx.stranger.token })).body).toEqual({ message: '404 Project Not Found' });
    expect((await api.get(`${mrs(fx)}/999/time_stats`, { token: fx.owner.token })).body).toEqual({ message: '404 Not found' });
    expect(await timelogsOf(fx.mr.id)).toEqual([]);
    expect((await api.get(`${fx.url}/time_stats`, { token: fx.owner.token })).body).toEqual({
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    });
  });
});

describeAuthorization('POST /projects/:id/merge_requests/:iid/add_spent_time', {
  fixture: async () => {
    const fx = await setup();
    return { ...fx, allowed: fx.developer.token, nonMember: fx.stranger.token, insufficientRole: fx.reporter.token };
  },
  call: (fx, token) => api.post(`${fx.url}/add_spent_time`, { token, body: { duration: '1h' } }),
  success: 201,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
});

describe('merge request subscriptions', () => {
  it('201 with the MR when it changes, 304 when it does not; the author is subscribed by participation', async () => {
    const fx = await setup();
    expect((await api.post(`${fx.url}/subscribe`, { token: fx.owner.token })).status).toBe(304);
    const off = await api.post(`${fx.url}/unsubscribe`, { token: fx.owner.token });
    expect(off.status, off.text).toBe(201);
    expect(off.body).toMatchObject({ id: fx.mr.id, iid: fx.mr.iid, subscribed: false, user: { can_merge: true }, diff_refs: fx.mr.diff_refs });
    expect((await api.post(`${fx.url}/unsubscribe`, { token: fx.owner.token })).status).toBe(304);
    expect((await api.get(fx.url, { token: fx.owner.token })).body.subscribed).toBe(false);

    expect((await api.post(`${fx.url}/unsubscribe`, { token: fx.developer.token })).status).toBe(304);
    const on = await api.post(`${fx.url}/subscribe`, { token: fx.developer.token });
    expect(on.status).toBe(201);
    expect(on.body).toMatchObject({ iid: fx.mr.iid, subscribed: true });
    expect((await api.post(`${fx.url}/subscribe`, { token: fx.developer.token })).status).toBe(304);
    expect((await api.get(fx.url, { token: fx.developer.token })).body.subscribed).toBe(true);
  });

  it('needs update_merge_request (subscriptions.rb): reporters 403, guests 403, outsiders 404; nothing written', async () => {
    const fx = await setup();
    for (const who of [fx.reporter, fx.guest]) {
      const res = await api.post(`${fx.url}/subscribe`, { token: who.token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
    }
    expect((await api.post(`${fx.url}/subscribe`, { token: fx.stranger.token })).status).toBe(404);
    expect((await api.post(`${fx.url}/subscribe`)).status).toBe(401);
    const rows = await testDb()
      .db.select()
      .from(subscriptions)
      .where(and(eq(subscriptions.subscribableType, 'MergeRequest'), eq(subscriptions.subscribableId, fx.mr.id)));
    expect(rows).toEqual([]);
  });
});

describeAuthorization('POST /projects/:id/merge_requests/:iid/subscribe', {
  fixture: async () => {
    const fx = await setup();
    return { ...fx, allowed: fx.developer.token, nonMember: fx.stranger.token, insufficientRole: fx.reporter.token };
  },
  call: (fx, token) => api.post(`${fx.url}/subscribe`, { token }),
  success: 201,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
});

describe('POST .../merge_requests/:iid/todo', () => {
  it('201 with the to-do (target_type MergeRequest, the MR entity as target), then 304 while it is pending', async () => {
    const fx = await setup();
    const res = await api.post(`${fx.url}/todo`, { token: fx.reporter.token });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      project: { id: fx.project.id, path_with_namespace: fx.project.path_with_namespace },
      author: { id: fx.reporter.user.id },
      action_name: 'marked',
      target_type: 'MergeRequest',
      target: {
        id: fx.mr.id,
        iid: fx.mr.iid,
        title: 'Edit the list',
        source_branch: 'topic',
        diff_refs: fx.mr.diff_refs,
        subscribed: false,
        user: { can_merge: false },
      },
      target_url: `https://gitlab.example.test/${fx.project.path_with_namespace}/-/merge_requests/${fx.mr.iid}`,
      body: 'Edit the list',
      state: 'pending',
    });
    expect((await api.post(`${fx.url}/todo`, { token: fx.reporter.token })).status).toBe(304);
    expect((await todosOf(fx.mr.id)).map((t) => [t.userId, t.action])).toEqual([[fx.reporter.user.id, 4]]);

    // The to-do list renders it the same way.
    const list = await api.get('/todos', { token: fx.reporter.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ ...res.body }]);
    expect((await api.get('/todos', { token: fx.reporter.token, query: { type: 'MergeRequest' } })).body.map((t: { id: number }) => t.id)).toEqual([
      res.body.id,
    ]);
    expect((await api.get('/todos', { token: fx.reporter.token, query: { type: 'Issue' } })).body).toEqual([]);
  });

  it('guests 403, outsiders 404, anonymous 401; nothing written', async () => {
    const fx = await setup();
    expect((await api.post(`${fx.url}/todo`, { token: fx.guest.token })).status).toBe(403);
    expect((await api.post(`${fx.url}/todo`, { token: fx.stranger.token })).body).toEqual({ message: '404 Project Not Found' });
    expect((await api.post(`${fx.url}/todo`)).status).toBe(401);
    expect(await todosOf(fx.mr.id)).toEqual([]);
  });

  it('a to-do whose MR the user may no longer read leaves the list', async () => {
    const fx = await setup();
    const res = await api.post(`${fx.url}/todo`, { token: fx.reporter.token });
    expect(res.status).toBe(201);
    // Demoted to guest: a private project's MRs are for reporters and above.
    const member = await api.put(`/projects/${fx.project.id}/members/${fx.reporter.user.id}`, { token: fx.owner.token, body: { access_level: 10 } });
    expect(member.status, member.text).toBe(200);
    expect((await api.get('/todos', { token: fx.reporter.token })).body).toEqual([]);
    expect((await api.post(`/todos/${res.body.id}/mark_as_done`, { token: fx.reporter.token })).status).toBe(404);
  });
});

describeAuthorization('POST /projects/:id/merge_requests/:iid/todo', {
  fixture: async () => {
    const fx = await setup();
    return { ...fx, allowed: fx.reporter.token, nonMember: fx.stranger.token, insufficientRole: fx.guest.token };
  },
  call: (fx, token) => api.post(`${fx.url}/todo`, { token }),
  success: 201,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
});

describe('GET .../merge_requests/:iid/participants', () => {
  it('the author, the assignees and the note authors the caller may read, each once, paginated', async () => {
    const fx = await setup({ assignee_ids: [] });
    let res = await api.put(fx.url, { token: fx.owner.token, body: { assignee_ids: [fx.developer.user.id, fx.owner.user.id] } });
    expect(res.status, res.text).toBe(200);
    // Notes written directly (the MR notes API is another suite's): two of the reporter's, one of the owner's, and a
    // system note of the guest's, which makes no participant.
    const note = (authorId: number, system = false) =>
      insertNote(testDb().db, { noteableType: 'MergeRequest', noteableId: fx.mr.id, projectId: fx.project.id, authorId, body: 'Looks fine', system });
    await note(fx.reporter.user.id);
    await note(fx.owner.user.id);
    await note(fx.reporter.user.id);
    await note(fx.guest.user.id, true);
    res = await api.get(`${fx.url}/participants`, { token: fx.reporter.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((u: { id: number }) => u.id)).toEqual([fx.owner.user.id, fx.developer.user.id, fx.reporter.user.id]);
    expect(Object.keys(res.body[0]).sort()).toEqual(['avatar_url', 'id', 'name', 'state', 'username', 'web_url']);
    expect(res.headers.get('x-total')).toBe('3');
    const page = await api.get(`${fx.url}/participants`, { token: fx.reporter.token, query: { per_page: 1, page: 2 } });
    expect(page.body.map((u: { id: number }) => u.id)).toEqual([fx.developer.user.id]);
    expect((await api.get(`${fx.url}/participants`, { token: fx.guest.token })).status).toBe(403);
    expect((await api.get(`${fx.url}/participants`, { token: fx.stranger.token })).status).toBe(404);
  });
});

describe('to-dos from merge request create and update', () => {
  it('assignment and mention to-dos on create; new mentions only on update; users who may not read the MR get none', async () => {
    const fx = await setup();
    const maintainer = await createUser();
    await addMember(fx.owner.token, 'projects', fx.project.id, maintainer.user.id, 40);
    await api.post(`/projects/${fx.project.id}/repository/branches`, { token: fx.owner.token, body: { branch: 'topic2', ref: 'topic' } });
    const created = await api.post(mrs(fx), {
      token: fx.owner.token,
      body: {
        source_branch: 'topic2',
        target_branch: 'master',
        title: `Ask @${fx.reporter.user.username}`,
        description: `@${fx.developer.user.username} please look; cc @${fx.guest.user.username} @${fx.stranger.user.username}`,
        assignee_ids: [maintainer.user.id],
      },
    });
    expect(created.status, created.text).toBe(201);
    const mrId = created.body.id as number;
    const actions = async () => (await todosOf(mrId)).map((t) => [t.userId, t.action, t.authorId, t.projectId]).sort();
    // 1 assigned, 2 mentioned, 7 directly addressed; the guest and the stranger may not read the MR.
    expect(await actions()).toEqual(
      [
        [maintainer.user.id, 1, fx.owner.user.id, fx.project.id],
        [fx.reporter.user.id, 2, fx.owner.user.id, fx.project.id],
        [fx.developer.user.id, 7, fx.owner.user.id, fx.project.id],
      ].sort(),
    );
    const list = await api.get('/todos', { token: fx.developer.token });
    expect(list.body).toEqual([
      expect.objectContaining({
        action_name: 'directly_addressed',
        target_type: 'MergeRequest',
        target: expect.objectContaining({ id: mrId }),
        author: expect.objectContaining({ id: fx.owner.user.id }),
      }),
    ]);

    const third = await createUser();
    await addMember(fx.owner.token, 'projects', fx.project.id, third.user.id, 20);
    const updated = await api.put(`${mrs(fx)}/${created.body.iid}`, {
      token: fx.owner.token,
      body: { description: `@${fx.developer.user.username} please look; and @${third.user.username}` },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(await actions()).toEqual(
      [
        [maintainer.user.id, 1, fx.owner.user.id, fx.project.id],
        [fx.reporter.user.id, 2, fx.owner.user.id, fx.project.id],
        [fx.developer.user.id, 7, fx.owner.user.id, fx.project.id],
        [third.user.id, 2, fx.owner.user.id, fx.project.id],
      ].sort(),
    );
  });
});
