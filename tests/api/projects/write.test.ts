import { describe, expect, it } from 'vitest';
import { api, testDb } from '../../helpers/app.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';
import { createProject } from '../../factories/projects.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { projects } from '../../../db/schema/index.ts';
import { eq } from 'drizzle-orm';

describe('PUT /projects/:id', () => {
  it('updates name, path, description and visibility', async () => {
    const { user, token } = await createUser();
    const p = await createProject(token);
    const path = unique('renamed');
    const res = await api.put(`/projects/${p.id}`, { token, body: { name: 'New name', path, description: 'd', visibility: 'public' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: p.id,
      name: 'New name',
      path,
      path_with_namespace: `${user.username}/${path}`,
      description: 'd',
      visibility: 'public',
    });
    expect((await api.get(`/projects/${encodeURIComponent(`${user.username}/${path}`)}`)).status).toBe(200);
  });

  it('400 when renaming onto a taken path; nothing changes', async () => {
    const { token } = await createUser();
    const a = await createProject(token);
    const b = await createProject(token);
    const res = await api.put(`/projects/${b.id}`, { token, body: { path: a.path, description: 'changed' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { path: ['has already been taken'] } });
    const [row] = await testDb().db.select().from(projects).where(eq(projects.id, b.id));
    expect(row!.description).toBe('');
    expect(row!.path).toBe(b.path);
  });

  describeAuthorization('PUT /projects/:id', {
    fixture: async () => {
      const owner = await createUser();
      const p = await createProject(owner.token, { visibility: 'public' });
      return { allowed: owner.token, id: p.id, nonMember: (await createUser()).token };
    },
    call: (fx, token) => api.put(`/projects/${fx.id}`, { token, body: { description: 'x' } }),
    success: 200,
    nonMember: { status: 403, body: { message: '403 Forbidden' } },
  });

  describeAuthorization('PUT /projects/:id (private project)', {
    fixture: async () => {
      const owner = await createUser();
      const p = await createProject(owner.token, { visibility: 'private' });
      return { allowed: owner.token, id: p.id, otherUser: (await createUser()).token };
    },
    call: (fx, token) => api.put(`/projects/${fx.id}`, { token, body: { description: 'x' } }),
    success: 200,
    otherUser: { status: 404, body: { message: '404 Project Not Found' } },
  });
});

describe('DELETE /projects/:id', () => {
  it('202 Accepted; the project disappears from reads and lists at once', async () => {
    const { token } = await createUser();
    const p = await createProject(token, { visibility: 'public' });
    const res = await api.delete(`/projects/${p.id}`, { token });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: '202 Accepted' });
    expect((await api.get(`/projects/${p.id}`, { token })).status).toBe(404);
    expect((await api.get('/projects', { token, query: { search: p.name } })).body).toEqual([]);
    expect((await api.delete(`/projects/${p.id}`, { token })).status).toBe(404);
  });

  it('administrators may delete any project', async () => {
    const { token } = await createUser();
    const p = await createProject(token);
    expect((await api.delete(`/projects/${p.id}`, { token: (await createAdmin()).token })).status).toBe(202);
  });

  describeAuthorization('DELETE /projects/:id', {
    fixture: async () => {
      const owner = await createUser();
      const p = await createProject(owner.token, { visibility: 'internal' });
      return { allowed: owner.token, id: p.id, nonMember: (await createUser()).token };
    },
    call: (fx, token) => api.delete(`/projects/${fx.id}`, { token }),
    success: 202,
    nonMember: { status: 403, body: { message: '403 Forbidden' } },
  });
});

describe('star / unstar / starrers', () => {
  it('201 with the project when it changes, 304 with no body when it does not', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token, { visibility: 'public' });
    const { user, token } = await createUser();
    const star = await api.post(`/projects/${p.id}/star`, { token });
    expect(star.status).toBe(201);
    expect(star.body).toMatchObject({ id: p.id, star_count: 1 });
    const again = await api.post(`/projects/${p.id}/star`, { token });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const starrers = await api.get(`/projects/${p.id}/starrers`, { token });
    expect(starrers.status).toBe(200);
    expect(starrers.headers.get('x-total')).toBe('1');
    expect(starrers.body).toEqual([{ starred_since: expect.stringMatching(/Z$/), user: expect.objectContaining({ id: user.id, username: user.username }) }]);
    const unstar = await api.post(`/projects/${p.id}/unstar`, { token });
    expect(unstar.status).toBe(201);
    expect(unstar.body.star_count).toBe(0);
    expect((await api.post(`/projects/${p.id}/unstar`, { token })).status).toBe(304);
  });

  it('the v3 DELETE /projects/:id/star is gone', async () => {
    const { token } = await createUser();
    const p = await createProject(token);
    expect(await api.delete(`/projects/${p.id}/star`, { token })).toMatchObject({ status: 404, body: { error: '404 Not Found' } });
  });

  it('concurrent stars by one user count once', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token, { visibility: 'public' });
    const { token } = await createUser();
    const results = await Promise.all(Array.from({ length: 6 }, () => api.post(`/projects/${p.id}/star`, { token })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 304)).toHaveLength(5);
    expect((await api.get(`/projects/${p.id}`)).body.star_count).toBe(1);
  });

  describeAuthorization('POST /projects/:id/star', {
    fixture: async () => {
      const owner = await createUser();
      const p = await createProject(owner.token, { visibility: 'private' });
      return { allowed: owner.token, id: p.id, otherUser: (await createUser()).token };
    },
    call: (fx, token) => api.post(`/projects/${fx.id}/star`, { token }),
    success: 201,
    otherUser: { status: 404, body: { message: '404 Project Not Found' } },
  });
});

describe('fork', () => {
  it('201 with forked_from_project; listed under forks; v3 route gone', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token, { visibility: 'public' });
    const { user, token } = await createUser();
    const fork = await api.post(`/projects/${p.id}/fork`, { token });
    expect(fork.status).toBe(201);
    expect(fork.body).toMatchObject({
      name: p.name,
      path_with_namespace: `${user.username}/${p.path}`,
      visibility: 'public',
      forked_from_project: { id: p.id, path_with_namespace: p.path_with_namespace },
    });
    const forks = await api.get(`/projects/${p.id}/forks`, { token });
    expect(forks.status).toBe(200);
    expect(forks.body.map((f: any) => f.id)).toEqual([fork.body.id]);
    expect(forks.headers.get('x-total')).toBe('1');
    expect((await api.get(`/projects/${p.id}`)).body.forks_count).toBe(1);
    expect((await api.post(`/projects/fork/${p.id}`, { token })).status).toBe(404);
  });

  it('409 when the fork would clash; 404 Target Namespace for a namespace the caller cannot use', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token, { visibility: 'public' });
    const { token } = await createUser();
    expect((await api.post(`/projects/${p.id}/fork`, { token })).status).toBe(201);
    const clash = await api.post(`/projects/${p.id}/fork`, { token });
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({ message: { path: ['has already been taken'] } });
    for (const body of [{ namespace: owner.user.username }, { namespace_id: '99999999999' }, { namespace_path: 'no/such' }]) {
      const elsewhere = await api.post(`/projects/${p.id}/fork`, { token, body });
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.body).toEqual({ message: '404 Target Namespace Not Found' });
    }
  });

  it('a fork is never more visible than its source', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token, { visibility: 'internal' });
    const { token } = await createUser();
    const fork = await api.post(`/projects/${p.id}/fork`, { token, body: { visibility: 'public', path: unique('f') } });
    expect(fork.status).toBe(201);
    expect(fork.body.visibility).toBe('internal');
  });
});
