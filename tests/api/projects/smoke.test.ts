import { describe, expect, it } from 'vitest';
import { api, queryCount } from '../../helpers/app.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';

describe('projects (smoke)', () => {
  it('creates, reads by id and by path, stars and deletes', async () => {
    const { user, token } = await createUser();
    const p = await createProject(token, { visibility: 'public' });
    expect(p.path_with_namespace).toBe(`${user.username}/${p.path}`);
    const byPath = await api.get(`/projects/${encodeURIComponent(p.path_with_namespace)}`, { token });
    expect(byPath.status).toBe(200);
    expect(byPath.body.id).toBe(p.id);
    expect(byPath.body.permissions).toEqual({ project_access: { access_level: 50, notification_level: 3 }, group_access: null });
    expect(queryCount(byPath)).toBeLessThanOrEqual(2);
    const star = await api.post(`/projects/${p.id}/star`, { token });
    expect(star.status).toBe(201);
    expect(star.body.star_count).toBe(1);
    const again = await api.post(`/projects/${p.id}/star`, { token });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const list = await api.get('/projects', { token, query: { per_page: 100, owned: true } });
    expect(list.status).toBe(200);
    expect(list.body.map((x: any) => x.id)).toContain(p.id);
    expect(queryCount(list)).toBeLessThanOrEqual(3);
    const del = await api.delete(`/projects/${p.id}`, { token });
    expect(del.status).toBe(202);
    expect(del.body).toEqual({ message: '202 Accepted' });
    expect((await api.get(`/projects/${p.id}`, { token })).status).toBe(404);
  });
});
