import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { boards, lists } from '../../../db/schema/index.ts';
import { createLabel } from '../../factories/labels.ts';
import { createMilestone } from '../../factories/milestones.ts';
import { api, queryCount, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';
import { boardParent, createBoard, PREMIUM } from './fixtures.ts';

const listRows = (boardId: number) => testDb().db.select().from(lists).where(eq(lists.boardId, boardId)).orderBy(lists.listType, lists.position);

describe('project boards', () => {
  it('creates a board with its backlog and closed lists, shown without them (free: no scope keys)', async () => {
    const fx = await boardParent('projects');
    const res = await api.post(`/projects/${fx.id}/boards`, { token: fx.reporter.token, body: { name: 'Dev' } });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body)).toEqual(['id', 'name', 'project', 'lists', 'group']);
    expect(res.body).toMatchObject({ name: 'Dev', lists: [], group: null, project: { id: fx.id, path_with_namespace: fx.project.path_with_namespace } });
    const rows = await listRows(res.body.id);
    expect(rows.map((r) => [r.listType, r.position])).toEqual([
      [0, null],
      [2, null],
    ]);
  });

  it('premium shows the scope keys; PUT sets name, milestone and weight there, drops them on free', async () => {
    const fx = await boardParent('projects');
    const board = await createBoard(fx.owner.token, 'projects', fx.id, 'One');
    expect(board).toMatchObject({ milestone: null, assignee: null, labels: [], weight: null });
    const m = await createMilestone(fx.owner.token, 'projects', fx.id);
    const free = await api.put(`/projects/${fx.id}/boards/${board.id}`, { token: fx.reporter.token, body: { name: 'Two', milestone_id: m.id, weight: 3 } });
    expect(free.status).toBe(200);
    expect(free.body.name).toBe('Two');
    expect(free.body).not.toHaveProperty('milestone');
    const [row] = await testDb().db.select().from(boards).where(eq(boards.id, board.id));
    expect([row!.milestoneId, row!.weight]).toEqual([null, null]);
    const premium = await api.put(`/projects/${fx.id}/boards/${board.id}`, { token: fx.reporter.token, body: { milestone_id: m.id, weight: 3 }, env: PREMIUM });
    expect(premium.body).toMatchObject({ name: 'Two', weight: 3, milestone: { id: m.id, title: m.title } });
    const started = await api.put(`/projects/${fx.id}/boards/${board.id}`, { token: fx.reporter.token, body: { milestone_id: -3 }, env: PREMIUM });
    expect(started.body.milestone).toEqual({ id: -3, title: 'Started' });
    const unknown = await api.put(`/projects/${fx.id}/boards/${board.id}`, { token: fx.reporter.token, body: { milestone_id: 999999 }, env: PREMIUM });
    expect(unknown.body.milestone).toBeNull();
  });

  it('lists boards with pagination headers and gets one; unknown ids are 404', async () => {
    const fx = await boardParent('projects');
    expect((await api.get(`/projects/${fx.id}/boards`, { token: fx.guest.token })).body).toEqual([]);
    const a = await createBoard(fx.owner.token, 'projects', fx.id, 'b');
    const b = await createBoard(fx.owner.token, 'projects', fx.id, 'a');
    const res = await api.get(`/projects/${fx.id}/boards`, { token: fx.guest.token, query: { per_page: 1 } });
    expect(res.status).toBe(200);
    expect(res.body.map((x: { id: number }) => x.id)).toEqual([a.id]);
    expect(res.headers.get('x-total')).toBe('2');
    expect(res.headers.get('x-next-page')).toBe('2');
    expect((await api.get(`/projects/${fx.id}/boards/${b.id}`, { token: fx.guest.token })).body.name).toBe('a');
    expect(await api.get(`/projects/${fx.id}/boards/999999`, { token: fx.guest.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    const other = await boardParent('projects');
    expect((await api.get(`/projects/${other.id}/boards/${a.id}`, { token: other.owner.token })).status).toBe(404);
  });

  it('a board listing costs at most 3 queries, whatever the number of boards and lists', async () => {
    const fx = await boardParent('projects');
    for (let i = 0; i < 3; i++) {
      const board = await createBoard(fx.owner.token, 'projects', fx.id);
      const label = await createLabel(fx.owner.token, 'projects', fx.id);
      await api.post(`/projects/${fx.id}/boards/${board.id}/lists`, { token: fx.owner.token, body: { label_id: label.id } });
    }
    await api.get('/user', { token: fx.guest.token }); // first use records last_used_at
    const res = await api.get(`/projects/${fx.id}/boards`, { token: fx.guest.token });
    expect(res.body.length).toBe(3);
    expect(res.body.map((b: any) => b.lists.length)).toEqual([1, 1, 1]);
    expect(queryCount(res)).toBeLessThanOrEqual(3);
  });

  it('DELETE removes a board but silently keeps the last one', async () => {
    const fx = await boardParent('projects');
    const a = await createBoard(fx.owner.token, 'projects', fx.id);
    const b = await createBoard(fx.owner.token, 'projects', fx.id);
    expect((await api.delete(`/projects/${fx.id}/boards/${a.id}`, { token: fx.reporter.token })).status).toBe(204);
    expect((await api.delete(`/projects/${fx.id}/boards/${b.id}`, { token: fx.reporter.token })).status).toBe(204);
    const left = await testDb().db.select().from(boards).where(eq(boards.projectId, fx.id));
    expect(left.map((r) => r.id)).toEqual([b.id]);
    expect(await listRows(a.id)).toEqual([]);
  });

  it('refuses bad input and writes nothing', async () => {
    const fx = await boardParent('projects');
    const board = await createBoard(fx.owner.token, 'projects', fx.id, 'Keep');
    const cases: Array<[string, string, unknown, number, unknown]> = [
      ['post', `/projects/${fx.id}/boards`, {}, 400, { error: 'name is missing' }],
      ['post', `/projects/${fx.id}/boards`, { name: '  ' }, 400, { message: { name: ["can't be blank"] } }],
      ['put', `/projects/${fx.id}/boards/${board.id}`, { name: '' }, 400, { message: '400 Bad request - Failed to save board {:name=>["can\'t be blank"]}' }],
      ['put', `/projects/${fx.id}/boards/abc`, { name: 'x' }, 400, { error: 'board_id is invalid' }],
      [
        'post',
        `/projects/${fx.id}/boards/${board.id}/lists`,
        {},
        400,
        { error: 'label_id, milestone_id, assignee_id are missing, exactly one parameter must be provided' },
      ],
      [
        'post',
        `/projects/${fx.id}/boards/${board.id}/lists`,
        { label_id: 1, milestone_id: 2 },
        400,
        { error: 'label_id, milestone_id are mutually exclusive' },
      ],
      ['post', `/projects/${fx.id}/boards/${board.id}/lists`, { label_id: 'x' }, 400, { error: 'label_id is invalid' }],
      ['post', `/projects/${fx.id}/boards/${board.id}/lists`, { label_id: 999999 }, 400, { message: { error: 'Label not found!' } }],
      ['post', `/projects/${fx.id}/boards/${board.id}/lists`, { milestone_id: 999999 }, 400, { message: { error: 'Milestone not found!' } }],
      ['post', `/projects/${fx.id}/boards/${board.id}/lists`, { assignee_id: fx.stranger.user.id }, 400, { message: { error: 'User not found!' } }],
    ];
    for (const [method, path, body, status, expected] of cases) {
      const res = await (api as any)[method](path, { token: fx.owner.token, body });
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}: ${res.text}`).toBe(status);
      expect(res.body).toEqual(expected);
    }
    const [row] = await testDb().db.select().from(boards).where(eq(boards.projectId, fx.id));
    expect(row!.name).toBe('Keep');
    expect((await listRows(board.id)).length).toBe(2);
  });
});

describe('board lists', () => {
  it('creates label lists at the end, moves and deletes them keeping positions contiguous', async () => {
    const fx = await boardParent('projects');
    const board = await createBoard(fx.owner.token, 'projects', fx.id);
    const labels = [];
    for (const name of ['a', 'b', 'c']) labels.push(await createLabel(fx.owner.token, 'projects', fx.id, { name }));
    // A group label is available to the group's projects.
    const groupLabel = await createLabel(fx.owner.token, 'groups', fx.group.id, { name: 'g' });
    const created = [];
    for (const l of [...labels, groupLabel]) {
      const res = await api.post(`/projects/${fx.id}/boards/${board.id}/lists`, { token: fx.reporter.token, body: { label_id: l.id } });
      expect(res.status, res.text).toBe(201);
      created.push(res.body);
    }
    expect(created.map((l) => l.position)).toEqual([0, 1, 2, 3]);
    expect(created[0]).toEqual({
      id: created[0].id,
      label: { id: labels[0]!.id, name: 'a', color: '#428BCA', description: null, description_html: '', text_color: '#FFFFFF' },
      position: 0,
    });
    const dup = await api.post(`/projects/${fx.id}/boards/${board.id}/lists`, { token: fx.reporter.token, body: { label_id: labels[0]!.id } });
    expect(dup).toMatchObject({ status: 400, body: { message: { label_id: ['has already been taken'] } } });

    const moved = await api.put(`/projects/${fx.id}/boards/${board.id}/lists/${created[0].id}`, { token: fx.reporter.token, body: { position: 2 } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.position).toBe(2);
    const order = async () => (await api.get(`/projects/${fx.id}/boards/${board.id}/lists`, { token: fx.guest.token })).body.map((l: any) => l.label.name);
    expect(await order()).toEqual(['b', 'c', 'a', 'g']);
    for (const position of [2, -1, 4]) {
      const bad = await api.put(`/projects/${fx.id}/boards/${board.id}/lists/${created[0].id}`, { token: fx.reporter.token, body: { position } });
      expect(bad).toMatchObject({ status: 400, body: { message: { error: 'List could not be moved!' } } });
    }
    expect(await order()).toEqual(['b', 'c', 'a', 'g']);

    expect((await api.delete(`/projects/${fx.id}/boards/${board.id}/lists/${created[1].id}`, { token: fx.reporter.token })).status).toBe(204);
    const after = (await api.get(`/projects/${fx.id}/boards/${board.id}/lists`, { token: fx.guest.token })).body;
    expect(after.map((l: any) => [l.label.name, l.position])).toEqual([
      ['c', 0],
      ['a', 1],
      ['g', 2],
    ]);
    // The board entity shows the same lists.
    expect((await api.get(`/projects/${fx.id}/boards/${board.id}`, { token: fx.guest.token })).body.lists).toEqual(after);
  });

  it('backlog and closed lists are not reachable through REST (404)', async () => {
    const fx = await boardParent('projects');
    const board = await createBoard(fx.owner.token, 'projects', fx.id);
    for (const row of await listRows(board.id)) {
      expect(await api.get(`/projects/${fx.id}/boards/${board.id}/lists/${row.id}`, { token: fx.owner.token })).toMatchObject({
        status: 404,
        body: { message: '404 Not found' },
      });
      expect((await api.delete(`/projects/${fx.id}/boards/${board.id}/lists/${row.id}`, { token: fx.owner.token })).status).toBe(404);
    }
  });

  it('milestone and assignee lists: premium only (the license error on free), with their keys and WIP limits', async () => {
    const fx = await boardParent('projects');
    const board = await createBoard(fx.owner.token, 'projects', fx.id);
    const m = await createMilestone(fx.owner.token, 'projects', fx.id);
    const url = `/projects/${fx.id}/boards/${board.id}/lists`;
    const free = await api.post(url, { token: fx.owner.token, body: { milestone_id: m.id } });
    expect(free).toMatchObject({ status: 400, body: { message: { list_type: ['Milestone lists not available with your current license'] } } });
    const freeUser = await api.post(url, { token: fx.owner.token, body: { assignee_id: fx.guest.user.id } });
    expect(freeUser).toMatchObject({ status: 400, body: { message: { list_type: ['Assignee lists not available with your current license'] } } });
    expect((await listRows(board.id)).length).toBe(2);

    const milestoneList = await api.post(url, { token: fx.owner.token, body: { milestone_id: m.id }, env: PREMIUM });
    expect(milestoneList.status, milestoneList.text).toBe(201);
    expect(Object.keys(milestoneList.body)).toEqual(['id', 'label', 'position', 'milestone', 'max_issue_count', 'max_issue_weight', 'limit_metric']);
    expect(milestoneList.body).toMatchObject({
      label: null,
      position: 0,
      milestone: { id: m.id, title: m.title, web_url: `${TEST_PUBLIC_URL}/${fx.project.path_with_namespace}/-/milestones/${m.iid}` },
      max_issue_count: 0,
    });
    // A group member is a board user of the group's projects.
    const userList = await api.post(url, { token: fx.owner.token, body: { assignee_id: fx.owner.user.id }, env: PREMIUM });
    expect(userList.body).toMatchObject({ position: 1, assignee: { id: fx.owner.user.id, username: fx.owner.user.username, name: fx.owner.user.name } });
    const dup = await api.post(url, { token: fx.owner.token, body: { assignee_id: fx.owner.user.id }, env: PREMIUM });
    expect(dup.body).toEqual({ message: { user_id: ['has already been taken'] } });
    // On free the premium lists are hidden.
    expect((await api.get(url, { token: fx.owner.token })).body).toEqual([]);
    // GitLab's order: list_type (assignee lists before milestone lists), then position.
    expect((await api.get(url, { token: fx.owner.token, env: PREMIUM })).body.map((l: any) => l.id)).toEqual([userList.body.id, milestoneList.body.id]);
  });
});

describe('group boards', () => {
  it('free: the first board is allowed, a second one and DELETE are 403; premium allows both', async () => {
    const fx = await boardParent('groups');
    const first = await api.post(`/groups/${fx.id}/boards`, { token: fx.reporter.token, body: { name: 'First' } });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ project: null, group: { id: fx.id, name: fx.group.name, web_url: `${TEST_PUBLIC_URL}/groups/${fx.group.full_path}` } });
    const second = await api.post(`/groups/${fx.id}/boards`, { token: fx.reporter.token, body: { name: 'Second' } });
    expect(second).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await api.delete(`/groups/${fx.id}/boards/${first.body.id}`, { token: fx.reporter.token })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    const premium = await api.post(`/groups/${fx.id}/boards`, { token: fx.reporter.token, body: { name: 'Second' }, env: PREMIUM });
    expect(premium.status).toBe(201);
    expect((await api.delete(`/groups/${fx.id}/boards/${first.body.id}`, { token: fx.reporter.token, env: PREMIUM })).status).toBe(204);
    const left = await testDb()
      .db.select()
      .from(boards)
      .where(inArray(boards.groupId, [fx.id]));
    expect(left.map((b) => b.name)).toEqual(['Second']);
  });

  it('group label lists take the group labels, not a project label', async () => {
    const fx = await boardParent('groups');
    const board = await createBoard(fx.owner.token, 'groups', fx.id);
    const label = await createLabel(fx.owner.token, 'groups', fx.id);
    const projectLabel = await createLabel(fx.owner.token, 'projects', fx.project.id);
    const ok = await api.post(`/groups/${fx.id}/boards/${board.id}/lists`, { token: fx.reporter.token, body: { label_id: label.id } });
    expect(ok.status).toBe(201);
    const bad = await api.post(`/groups/${fx.id}/boards/${board.id}/lists`, { token: fx.reporter.token, body: { label_id: projectLabel.id } });
    expect(bad.body).toEqual({ message: { error: 'Label not found!' } });
  });
});
