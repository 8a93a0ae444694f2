import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { EVENT_ACTIONS, events, issues, milestones } from '../../../db/schema/index.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createMilestone } from '../../factories/milestones.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser, unique } from '../../factories/users.ts';
import { api, queryCount, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';

async function tree() {
  const owner = await createUser();
  const root = await createGroup(owner.token);
  const sub = await createGroup(owner.token, { parentId: root.id });
  const project = await createProject(owner.token, { namespaceId: sub.id });
  return { owner, root, sub, project };
}

const milestoneEvents = (projectId: number) =>
  testDb()
    .db.select({ action: events.action, targetType: events.targetType, targetId: events.targetId, authorId: events.authorId })
    .from(events)
    .where(and(eq(events.projectId, projectId), eq(events.targetType, 'Milestone')))
    .orderBy(events.id);

const rowsOf = (where: { projectId?: number; groupId?: number }) =>
  testDb()
    .db.select()
    .from(milestones)
    .where(where.projectId !== undefined ? eq(milestones.projectId, where.projectId) : eq(milestones.groupId, where.groupId!))
    .orderBy(milestones.id);

/**
 * Writes that record an event run in a transaction: on the PostgreSQL suite (Neon's WebSocket driver) BEGIN and
 * COMMIT are round trips of their own and are counted; the embedded database runs them inside its transaction call.
 */
const TX = process.env.TEST_DB === 'postgres' ? 2 : 0;

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

describe('project milestones', () => {
  it('creates (event "created"), reads by global id, updates, closes and reopens (events), deletes (event "destroyed")', async () => {
    const { owner, project } = await tree();
    const base = `/projects/${project.id}/milestones`;
    const created = await api.post(base, {
      token: owner.token,
      body: { title: ' v1.0 ', description: 'First', start_date: '2020-01-01', due_date: '2020-02-01' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      iid: 1,
      project_id: project.id,
      title: 'v1.0',
      description: 'First',
      state: 'active',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      due_date: '2020-02-01',
      start_date: '2020-01-01',
      expired: true,
      web_url: `${TEST_PUBLIC_URL}/${project.path_with_namespace}/-/milestones/1`,
    });
    expect(queryCount(created)).toBeLessThanOrEqual(4 + TX);
    const id = created.body.id;
    const read = await api.get(`${base}/${id}`, { token: owner.token });
    expect(read.body).toEqual(created.body);
    expect(queryCount(read)).toBeLessThanOrEqual(3);

    const updated = await api.put(`${base}/${id}`, { token: owner.token, body: { title: 'v1.1', due_date: tomorrow(), description: null } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, iid: 1, title: 'v1.1', due_date: tomorrow(), description: null, expired: false, state: 'active' });

    const closed = await api.put(`${base}/${id}`, { token: owner.token, form: { state_event: 'close' } });
    expect(closed.body.state).toBe('closed');
    expect(queryCount(closed)).toBeLessThanOrEqual(4 + TX);
    // Closing a closed milestone changes nothing and records nothing.
    expect((await api.put(`${base}/${id}`, { token: owner.token, body: { state_event: 'close' } })).body.state).toBe('closed');
    const reopened = await api.put(`${base}/${id}`, { token: owner.token, body: { state_event: 'activate' } });
    expect(reopened.body.state).toBe('active');

    const deleted = await api.delete(`${base}/${id}`, { token: owner.token });
    expect(deleted.status).toBe(204);
    // auth, source, delete, event, detaching the milestone's events
    expect(queryCount(deleted)).toBeLessThanOrEqual(5 + TX);
    expect((await api.get(`${base}/${id}`, { token: owner.token })).body).toEqual({ message: '404 Not found' });

    const a = EVENT_ACTIONS;
    expect(await milestoneEvents(project.id)).toEqual([
      // Deleting the milestone detaches its events (GitLab's log_destroy_event_for): the type stays, the id goes.
      { action: a.created, targetType: 'Milestone', targetId: null, authorId: owner.user.id },
      { action: a.closed, targetType: 'Milestone', targetId: null, authorId: owner.user.id },
      { action: a.reopened, targetType: 'Milestone', targetId: null, authorId: owner.user.id },
      { action: a.destroyed, targetType: 'Milestone', targetId: null, authorId: owner.user.id },
    ]);
    console.log(`milestones: create ${queryCount(created)}, get ${queryCount(read)}, close ${queryCount(closed)}, delete ${queryCount(deleted)} queries`);
  });

  it('lists newest first with filters: iids[], state, title, search; pagination headers', async () => {
    const { owner, project } = await tree();
    const m1 = await createMilestone(owner.token, 'projects', project.id, { title: 'alpha', description: 'the first' });
    const m2 = await createMilestone(owner.token, 'projects', project.id, { title: 'beta' });
    const m3 = await createMilestone(owner.token, 'projects', project.id, { title: 'gamma' });
    await api.put(`/projects/${project.id}/milestones/${m2.id}`, { token: owner.token, body: { state_event: 'close' } });
    const list = (query: Record<string, any>) => api.get(`/projects/${project.id}/milestones`, { token: owner.token, query });
    const all = await list({});
    expect(all.body.map((m: any) => m.iid)).toEqual([3, 2, 1]);
    expect(all.headers.get('x-total')).toBe('3');
    expect(queryCount(all)).toBeLessThanOrEqual(3);
    expect((await list({ 'iids[]': ['1', '3'] })).body.map((m: any) => m.id)).toEqual([m3.id, m1.id]);
    expect((await list({ iids: '2' })).body.map((m: any) => m.id)).toEqual([m2.id]);
    expect((await list({ state: 'closed' })).body.map((m: any) => m.id)).toEqual([m2.id]);
    expect((await list({ state: 'active' })).body.map((m: any) => m.id)).toEqual([m3.id, m1.id]);
    expect((await list({ title: 'gamma' })).body.map((m: any) => m.id)).toEqual([m3.id]);
    expect((await list({ search: 'first' })).body.map((m: any) => m.id)).toEqual([m1.id]);
    const page = await list({ per_page: 1, page: 2 });
    expect(page.body.map((m: any) => m.id)).toEqual([m2.id]);
    expect(page.headers.get('x-next-page')).toBe('3');
    expect(page.headers.get('x-total-pages')).toBe('3');
    expect((await list({ state: 'opened' })).body).toEqual({ error: 'state does not have a valid value' });
    expect((await list({ 'iids[]': ['x'] })).status).toBe(400);
  });

  it("include_parent_milestones adds the ancestor groups' milestones", async () => {
    const { owner, root, sub, project } = await tree();
    const g = await createMilestone(owner.token, 'groups', root.id, { title: 'root-ms' });
    const s = await createMilestone(owner.token, 'groups', sub.id, { title: 'sub-ms' });
    const p = await createMilestone(owner.token, 'projects', project.id, { title: 'project-ms' });
    const res = await api.get(`/projects/${project.id}/milestones`, { token: owner.token, query: { include_parent_milestones: true } });
    expect(res.body.map((m: any) => m.id)).toEqual([p.id, s.id, g.id]);
    expect(res.body[2]).toMatchObject({ group_id: root.id, web_url: `${TEST_PUBLIC_URL}/groups/${root.full_path}/-/milestones/1` });
    expect(res.body[2]).not.toHaveProperty('project_id');
  });

  it("bad inputs: 400 with GitLab's bodies, nothing written, no event", async () => {
    const { owner, sub, project } = await tree();
    await createMilestone(owner.token, 'projects', project.id, { title: 'taken' });
    await createMilestone(owner.token, 'groups', sub.id, { title: 'group-taken' });
    const before = await rowsOf({ projectId: project.id });
    const eventsBefore = await milestoneEvents(project.id);
    const cases: Array<[Record<string, unknown>, unknown]> = [
      [{}, { error: 'title is missing' }],
      [{ title: '' }, { message: 'Failed to create milestone {:title=>["can\'t be blank"]}' }],
      [{ title: '   ' }, { message: 'Failed to create milestone {:title=>["can\'t be blank"]}' }],
      [{ title: 'x'.repeat(256) }, { message: 'Failed to create milestone {:title=>["is too long (maximum is 255 characters)"]}' }],
      [{ title: 'nul\u0000' }, { error: 'title is invalid' }],
      [{ title: 'taken' }, { message: 'Failed to create milestone {:title=>["already being used for another group or project milestone."]}' }],
      [{ title: 'group-taken' }, { message: 'Failed to create milestone {:title=>["already being used for another group or project milestone."]}' }],
      [{ title: 'ok', due_date: '2020-13-01' }, { error: 'due_date is invalid' }],
      [{ title: 'ok', start_date: 'tomorrow' }, { error: 'start_date is invalid' }],
      [
        { title: 'ok', start_date: '2020-02-01', due_date: '2020-01-01' },
        { message: 'Failed to create milestone {:due_date=>["must be greater than start date"]}' },
      ],
      [
        { title: 'ok', start_date: '2020-02-01', due_date: '2020-02-01' },
        { message: 'Failed to create milestone {:due_date=>["must be greater than start date"]}' },
      ],
    ];
    for (const [body, expected] of cases) {
      const res = await api.post(`/projects/${project.id}/milestones`, { token: owner.token, body });
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body).toEqual(expected);
    }
    expect(await rowsOf({ projectId: project.id })).toEqual(before);
    expect(await milestoneEvents(project.id)).toEqual(eventsBefore);
    // The refused creates gave their iids back: the next one is 2.
    expect((await createMilestone(owner.token, 'projects', project.id)).iid).toBe(2);
  });

  it('update failures: nothing to change, taken title, dates, unknown id; no event', async () => {
    const { owner, project } = await tree();
    const m = await createMilestone(owner.token, 'projects', project.id, { title: 'one', start_date: '2020-01-10' });
    await createMilestone(owner.token, 'projects', project.id, { title: 'two' });
    const eventsBefore = await milestoneEvents(project.id);
    const put = (id: number | string, body: Record<string, unknown>) => api.put(`/projects/${project.id}/milestones/${id}`, { token: owner.token, body });
    const cases: Array<[number | string, Record<string, unknown>, number, unknown]> = [
      [m.id, {}, 400, { error: 'title, description, start_date, due_date, state_event are missing, at least one parameter must be provided' }],
      [
        m.id,
        { title: 'two', state_event: 'close' },
        400,
        { message: 'Failed to update milestone {:title=>["already being used for another group or project milestone."]}' },
      ],
      [m.id, { due_date: '2020-01-01', state_event: 'close' }, 400, { message: 'Failed to update milestone {:due_date=>["must be greater than start date"]}' }],
      [m.id, { state_event: 'reopen' }, 400, { error: 'state_event does not have a valid value' }],
      [999999999, { title: 'x' }, 404, { message: '404 Not found' }],
      ['abc', { title: 'x' }, 400, { error: 'milestone_id is invalid' }],
    ];
    for (const [id, body, status, expected] of cases) {
      const res = await put(id, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body).toEqual(expected);
    }
    const after = (await api.get(`/projects/${project.id}/milestones/${m.id}`, { token: owner.token })).body;
    expect(after).toMatchObject({ title: 'one', state: 'active', due_date: null, expired: false });
    expect(await milestoneEvents(project.id)).toEqual(eventsBefore);
    // Same title as its own: not a conflict.
    expect((await put(m.id, { title: 'one' })).status).toBe(200);
  });

  it('GET .../milestones/:id/issues: [] with pagination headers when no issue has it', async () => {
    const { owner, project } = await tree();
    const m = await createMilestone(owner.token, 'projects', project.id);
    const res = await api.get(`/projects/${project.id}/milestones/${m.id}/issues`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get('x-total')).toBe('0');
    expect((await api.get(`/projects/${project.id}/milestones/999999/issues`, { token: owner.token })).status).toBe(404);
  });

  it('GET .../milestones/:id/issues lists the issues that have it', async () => {
    const { owner, project } = await tree();
    const m = await createMilestone(owner.token, 'projects', project.id);
    const other = await createMilestone(owner.token, 'projects', project.id);
    await testDb()
      .db.insert(issues)
      .values([
        { projectId: project.id, iid: 1, title: 'with', milestoneId: m.id },
        { projectId: project.id, iid: 2, title: 'other', milestoneId: other.id },
        { projectId: project.id, iid: 3, title: 'none' },
      ]);
    const res = await api.get(`/projects/${project.id}/milestones/${m.id}/issues`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.map((i: any) => [i.iid, i.title, i.milestone?.id])).toEqual([[1, 'with', m.id]]);
    expect(res.headers.get('x-total')).toBe('1');
    console.log(`milestone issues: ${queryCount(res)} queries`);
  });

  it('10 parallel creates get iids 1..10', async () => {
    const { owner, project } = await tree();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => api.post(`/projects/${project.id}/milestones`, { token: owner.token, body: { title: `parallel ${i}` } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(results.map((r) => r.body.iid).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect((await milestoneEvents(project.id)).length).toBe(10);
  });

  it('parallel creates with one title: one 201, the rest 400', async () => {
    const { owner, project } = await tree();
    const results = await Promise.all([1, 2, 3].map(() => api.post(`/projects/${project.id}/milestones`, { token: owner.token, body: { title: 'same' } })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400]);
    expect((await rowsOf({ projectId: project.id })).length).toBe(1);
  });
});

describe('group milestones', () => {
  it('CRUD with group_id and the group web_url; no events recorded', async () => {
    const { owner, sub, project } = await tree();
    const base = `/groups/${sub.id}/milestones`;
    const created = await api.post(base, { token: owner.token, body: { title: 'g1', due_date: tomorrow() } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      iid: 1,
      group_id: sub.id,
      title: 'g1',
      state: 'active',
      expired: false,
      web_url: `${TEST_PUBLIC_URL}/groups/${sub.full_path}/-/milestones/1`,
    });
    expect(created.body).not.toHaveProperty('project_id');
    const id = created.body.id;
    expect((await api.get(`${base}/${id}`, { token: owner.token })).body.id).toBe(id);
    expect((await api.get(base, { token: owner.token, query: { 'iids[]': '1' } })).body.map((m: any) => m.id)).toEqual([id]);
    expect((await api.put(`${base}/${id}`, { token: owner.token, body: { state_event: 'close' } })).body.state).toBe('closed');
    // A project of the group may not reuse the title.
    expect((await api.post(`/projects/${project.id}/milestones`, { token: owner.token, body: { title: 'g1' } })).status).toBe(400);
    // A project milestone is not a group milestone.
    const pm = await createMilestone(owner.token, 'projects', project.id, { title: unique('pm') });
    expect((await api.get(`${base}/${pm.id}`, { token: owner.token })).status).toBe(404);
    expect((await api.delete(`${base}/${id}`, { token: owner.token })).status).toBe(204);
    expect(await rowsOf({ groupId: sub.id })).toEqual([]);
    const groupEvents = await testDb()
      .db.select()
      .from(events)
      .where(and(eq(events.targetType, 'Milestone'), eq(events.targetId, id)));
    expect(groupEvents).toEqual([]);
  });
});

describe('group milestone listings', () => {
  it("include_parent_milestones adds the ancestors' milestones; title and state filters apply", async () => {
    const { owner, root, sub } = await tree();
    const r = await createMilestone(owner.token, 'groups', root.id, { title: 'root-ms' });
    const s = await createMilestone(owner.token, 'groups', sub.id, { title: 'sub-ms' });
    const list = (query: Record<string, any>) => api.get(`/groups/${sub.id}/milestones`, { token: owner.token, query });
    expect((await list({})).body.map((m: any) => m.id)).toEqual([s.id]);
    expect((await list({ include_parent_milestones: true })).body.map((m: any) => m.id)).toEqual([s.id, r.id]);
    expect((await list({ include_parent_milestones: true, title: 'root-ms' })).body.map((m: any) => m.id)).toEqual([r.id]);
    expect((await list({ state: 'closed' })).body).toEqual([]);
  });
});

describe('roles', () => {
  it('reporters manage milestones; guests read them and get 403 on writes', async () => {
    const { owner, project } = await tree();
    const reporter = await createUser();
    const guest = await createUser();
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
    const m = await createMilestone(reporter.token, 'projects', project.id);
    expect((await api.get(`/projects/${project.id}/milestones/${m.id}`, { token: guest.token })).status).toBe(200);
    expect((await api.post(`/projects/${project.id}/milestones`, { token: guest.token, body: { title: 'g' } })).body).toEqual({ message: '403 Forbidden' });
    expect((await api.put(`/projects/${project.id}/milestones/${m.id}`, { token: guest.token, body: { state_event: 'close' } })).status).toBe(403);
    expect((await api.delete(`/projects/${project.id}/milestones/${m.id}`, { token: guest.token })).status).toBe(403);
    expect((await milestoneEvents(project.id)).length).toBe(1);
  });
});
