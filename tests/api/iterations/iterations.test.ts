import { describe, expect, it } from 'vitest';
import { iterations } from '../../../db/schema/index.ts';
import { createGroup } from '../../factories/groups.ts';
import { createIteration, day, PREMIUM } from '../../factories/iterations.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';

async function tree(visibility: 'private' | 'public' = 'private') {
  const owner = await createUser();
  const group = await createGroup(owner.token, { visibility });
  const sub = await createGroup(owner.token, { parentId: group.id, visibility });
  const project = await createProject(owner.token, { namespaceId: sub.id, visibility });
  await createIteration(owner.token, group.full_path, { title: 'Root later', description: 'Later', startDate: day(20), dueDate: day(25) });
  await createIteration(owner.token, sub.full_path, { title: 'Sub soon', startDate: day(1), dueDate: day(5) });
  await testDb()
    .db.insert(iterations)
    .values([
      { groupId: sub.id, iid: 2, title: 'Sub now', startDate: day(-2), dueDate: day(0) },
      { groupId: sub.id, iid: 3, title: 'Sub past', startDate: day(-10), dueDate: day(-5) },
    ]);
  return { owner, group, sub, project };
}

const titles = (body: Array<{ title: string }>) => body.map((i) => i.title);

describe('GET /groups/:id/iterations and /projects/:id/iterations', () => {
  it('lists the entity of 13.6 (integer state), by due date, with pagination headers', async () => {
    const { owner, group, sub } = await tree();
    const res = await api.get(`/groups/${sub.id}/iterations`, { token: owner.token, env: PREMIUM, query: { per_page: 3 } });
    expect(res.status).toBe(200);
    expect(titles(res.body)).toEqual(['Sub past', 'Sub now', 'Sub soon']);
    expect(res.body.map((i: { state: number }) => i.state)).toEqual([3, 2, 1]);
    expect(res.headers.get('x-total')).toBe('4');
    expect(res.headers.get('x-next-page')).toBe('2');
    const page2 = await api.get(`/groups/${sub.id}/iterations`, { token: owner.token, env: PREMIUM, query: { per_page: 3, page: 2 } });
    const [root] = page2.body;
    expect(Object.keys(root)).toEqual([
      'id',
      'iid',
      'group_id',
      'title',
      'description',
      'state',
      'created_at',
      'updated_at',
      'start_date',
      'due_date',
      'web_url',
    ]);
    expect(root).toMatchObject({
      iid: 1,
      group_id: group.id,
      title: 'Root later',
      description: 'Later',
      state: 1,
      start_date: day(20),
      due_date: day(25),
      web_url: `${TEST_PUBLIC_URL}/groups/${group.full_path}/-/iterations/${root.id}`,
    });
    expect(root.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('filters by state, search and include_ancestors', async () => {
    const { owner, sub, project } = await tree();
    const list = async (path: string, query: Record<string, string>) => titles((await api.get(path, { token: owner.token, env: PREMIUM, query })).body);
    const base = `/groups/${sub.id}/iterations`;
    expect(await list(base, { state: 'opened' })).toEqual(['Sub now', 'Sub soon', 'Root later']);
    expect(await list(base, { state: 'upcoming' })).toEqual(['Sub soon', 'Root later']);
    expect(await list(base, { state: 'started' })).toEqual(['Sub now']);
    expect(await list(base, { state: 'closed' })).toEqual(['Sub past']);
    expect(await list(base, { state: 'all', search: 'SUB' })).toEqual(['Sub past', 'Sub now', 'Sub soon']);
    expect(await list(base, { search: '%' })).toEqual([]);
    expect(await list(base, { include_ancestors: 'false' })).toEqual(['Sub past', 'Sub now', 'Sub soon']);
    expect(await list(`/projects/${project.id}/iterations`, {})).toEqual(['Sub past', 'Sub now', 'Sub soon', 'Root later']);
    expect(await list(`/projects/${encodeURIComponent(project.path_with_namespace)}/iterations`, { include_ancestors: 'false' })).toEqual([]);
  });

  it('rejects bad parameters with 400', async () => {
    const { owner, sub } = await tree();
    for (const [query, error] of [
      [{ state: 'active' }, 'state does not have a valid value'],
      [{ include_ancestors: 'maybe' }, 'include_ancestors is invalid'],
    ] as const) {
      const res = await api.get(`/groups/${sub.id}/iterations`, { token: owner.token, env: PREMIUM, query });
      expect({ query, status: res.status, body: res.body }).toEqual({ query, status: 400, body: { error: error } });
    }
  });

  it('is 403 where iterations are not licensed, 404 for hidden or missing parents, open to anyone on public ones', async () => {
    const { owner, sub, project } = await tree();
    const stranger = await createUser();
    expect(await api.get(`/groups/${sub.id}/iterations`, { token: owner.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await api.get(`/projects/${project.id}/iterations`, { token: owner.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await api.get(`/groups/${sub.id}/iterations`, { token: stranger.token, env: PREMIUM })).toMatchObject({
      status: 404,
      body: { message: '404 Group Not Found' },
    });
    expect(await api.get(`/projects/${project.id}/iterations`, { env: PREMIUM })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await api.get(`/groups/999999999/iterations`, { token: owner.token, env: PREMIUM })).toMatchObject({
      status: 404,
      body: { message: '404 Group Not Found' },
    });
    const open = await tree('public');
    const anonymous = await api.get(`/groups/${open.sub.id}/iterations`, { env: PREMIUM });
    expect(anonymous.status).toBe(200);
    expect(titles(anonymous.body)).toHaveLength(4);
  });
});
