import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { namespaces, projects } from '../../../db/schema/index.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser, unique } from '../../factories/users.ts';
import { api, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';

/** An owner, a maintainer member and a stranger around one private group. */
async function ownedGroup(visibility: 'private' | 'public' = 'private') {
  const owner = await createUser();
  const maintainer = await createUser();
  const stranger = await createUser();
  const group = await createGroup(owner.token, { visibility });
  await addMember(owner.token, 'groups', group.id, maintainer.user.id, 40);
  return { allowed: owner.token, insufficientRole: maintainer.token, nonMember: stranger.token, group };
}

describe('PUT /groups/:id', () => {
  it('updates name, description and visibility; answers GroupDetail', async () => {
    const { allowed: token, group } = await ownedGroup();
    const res = await api.put(`/groups/${group.id}`, { token, body: { name: 'Renamed', description: 'New', visibility: 'internal' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: group.id,
      name: 'Renamed',
      full_name: 'Renamed',
      description: 'New',
      visibility: 'internal',
      path: group.path,
      projects: [],
    });
  });

  it('a new path rewrites the full paths of subgroups and the paths of their projects, atomically', async () => {
    const { allowed: token, group } = await ownedGroup();
    const child = await createGroup(token, { parentId: group.id });
    const grandchild = await createGroup(token, { parentId: child.id });
    const top = await createProject(token, { namespaceId: group.id });
    const deep = await createProject(token, { namespaceId: grandchild.id });
    const path = unique('moved');
    const res = await api.put(`/groups/${encodeURIComponent(group.full_path)}`, { token, form: { path } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ path, full_path: path, web_url: `${TEST_PUBLIC_URL}/groups/${path}` });
    expect((await api.get(`/groups/${grandchild.id}`, { token })).body.full_path).toBe(`${path}/${child.path}/${grandchild.path}`);
    expect((await api.get(`/groups/${encodeURIComponent(`${path}/${child.path}`)}`, { token })).body.id).toBe(child.id);
    expect((await api.get(`/projects/${top.id}`, { token })).body.path_with_namespace).toBe(`${path}/${top.path}`);
    expect((await api.get(`/projects/${encodeURIComponent(`${path}/${child.path}/${grandchild.path}/${deep.path}`)}`, { token })).body.id).toBe(deep.id);
    expect((await api.get(`/groups/${encodeURIComponent(group.full_path)}`, { token })).status).toBe(404);
  });

  it('400 when the new path is taken, and nothing changes (not even the other fields)', async () => {
    const { allowed: token, group } = await ownedGroup();
    const child = await createGroup(token, { parentId: group.id });
    const other = await createGroup(token);
    const res = await api.put(`/groups/${group.id}`, { token, body: { name: 'Should not stick', path: other.path } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { path: ['has already been taken'] } });
    const [row] = await testDb().db.select().from(namespaces).where(eq(namespaces.id, group.id));
    expect(row).toMatchObject({ name: group.name, path: group.path, fullPath: group.full_path });
    const [childRow] = await testDb().db.select().from(namespaces).where(eq(namespaces.id, child.id));
    expect(childRow!.fullPath).toBe(`${group.full_path}/${child.path}`);
    // Changing only the case of its own path is allowed.
    const upper = await api.put(`/groups/${group.id}`, { token, body: { path: group.path.toUpperCase() } });
    expect(upper.status).toBe(200);
  });

  it("visibility may not exceed the parent's nor drop below a project's or a subgroup's", async () => {
    const { allowed: token, group } = await ownedGroup('public');
    const child = await createGroup(token, { parentId: group.id, visibility: 'internal' });
    await createProject(token, { namespaceId: group.id, visibility: 'public' });
    const down = await api.put(`/groups/${group.id}`, { token, body: { visibility: 'private' } });
    expect(down.status).toBe(400);
    expect(down.body).toEqual({
      message: {
        visibility_level: [
          'private is not allowed since this group contains projects with higher visibility.',
          'private is not allowed since there are sub-groups with higher visibility.',
        ],
      },
    });
    const up = await api.put(`/groups/${child.id}`, { token, body: { visibility: 'public' } });
    expect(up.status).toBe(200);
    const { allowed: t2, group: privateParent } = await ownedGroup('private');
    const sub = await createGroup(t2, { parentId: privateParent.id });
    const tooOpen = await api.put(`/groups/${sub.id}`, { token: t2, body: { visibility: 'internal' } });
    expect(tooOpen.body).toEqual({ message: { visibility_level: ['internal is not allowed since the parent group has a private visibility.'] } });
  });

  it('400 for bad values', async () => {
    const { allowed: token, group } = await ownedGroup();
    expect((await api.put(`/groups/${group.id}`, { token, body: { visibility: 'secret' } })).body).toEqual({ error: 'visibility does not have a valid value' });
    expect((await api.put(`/groups/${group.id}`, { token, body: { path: 'a.git' } })).status).toBe(400);
  });

  describeAuthorization('PUT /groups/:id', {
    fixture: () => ownedGroup(),
    call: (fx, token) => api.put(`/groups/${fx.group.id}`, { token, body: { description: 'authz' } }),
    success: 200,
    nonMember: { status: 404, body: { message: '404 Group Not Found' } },
    insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
  });

  describeAuthorization('PUT /groups/:id (public group)', {
    fixture: () => ownedGroup('public'),
    call: (fx, token) => api.put(`/groups/${fx.group.id}`, { token, body: { description: 'authz' } }),
    success: 200,
    nonMember: { status: 403, body: { message: '403 Forbidden' } },
  });
});

describe('DELETE /groups/:id', () => {
  it('202, and the group, its subgroups and all their projects disappear from every read at once', async () => {
    const { allowed: token, group } = await ownedGroup('public');
    const child = await createGroup(token, { parentId: group.id, visibility: 'public' });
    const grandchild = await createGroup(token, { parentId: child.id, visibility: 'public' });
    const p1 = await createProject(token, { namespaceId: group.id, visibility: 'public' });
    const p2 = await createProject(token, { namespaceId: grandchild.id, visibility: 'public' });
    const res = await api.delete(`/groups/${group.id}`, { token });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: '202 Accepted' });
    for (const id of [group.id, child.id, grandchild.id]) expect((await api.get(`/groups/${id}`, { token })).status).toBe(404);
    for (const id of [p1.id, p2.id]) expect((await api.get(`/projects/${id}`, { token })).status).toBe(404);
    const listed = await api.get('/groups', { token, query: { search: group.path } });
    expect(listed.body).toEqual([]);
    const projectList = await api.get('/projects', { query: { search: p2.name } });
    expect(projectList.body).toEqual([]);
    const rows = await testDb()
      .db.select()
      .from(projects)
      .where(inArray(projects.id, [p1.id, p2.id]));
    expect(rows.every((r) => r.deletedAt !== null)).toBe(true);
    expect((await api.delete(`/groups/${group.id}`, { token })).status).toBe(404);
  });

  describeAuthorization('DELETE /groups/:id', {
    fixture: () => ownedGroup(),
    call: (fx, token) => api.delete(`/groups/${fx.group.id}`, { token }),
    success: 202,
    nonMember: { status: 404, body: { message: '404 Group Not Found' } },
    insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
  });
});

describe('GET /groups/:id/projects', () => {
  it("lists the group's visible projects (with include_subgroups, those below too), newest first, paginated", async () => {
    const { allowed: token, group, nonMember } = await ownedGroup('public');
    const child = await createGroup(token, { parentId: group.id, visibility: 'public' });
    const p1 = await createProject(token, { namespaceId: group.id, visibility: 'public' });
    const p2 = await createProject(token, { namespaceId: group.id, visibility: 'private' });
    const p3 = await createProject(token, { namespaceId: child.id, visibility: 'public' });
    const own = await api.get(`/groups/${group.id}/projects`, { token });
    expect(own.status).toBe(200);
    expect(own.body.map((p: any) => p.id)).toEqual([p2.id, p1.id]);
    expect(own.body[0]).toHaveProperty('_links');
    expect(own.headers.get('x-total')).toBe('2');
    const deep = await api.get(`/groups/${group.id}/projects`, { token, query: { include_subgroups: true, per_page: 2 } });
    expect(deep.body.map((p: any) => p.id)).toEqual([p3.id, p2.id]);
    expect(deep.headers.get('x-total')).toBe('3');
    expect(deep.headers.get('x-next-page')).toBe('2');
    const stranger = await api.get(`/groups/${group.id}/projects`, { token: nonMember, query: { simple: true } });
    expect(stranger.body.map((p: any) => p.id)).toEqual([p1.id]);
    expect(stranger.body[0]).not.toHaveProperty('_links');
    const anonymous = await api.get(`/groups/${group.id}/projects`, { query: { order_by: 'id', sort: 'asc' } });
    expect(anonymous.body.map((p: any) => p.id)).toEqual([p1.id]);
  });

  it('404 for a group the caller cannot see; 400 for bad filters', async () => {
    const { allowed: token, group, nonMember } = await ownedGroup();
    expect((await api.get(`/groups/${group.id}/projects`, { token: nonMember })).body).toEqual({ message: '404 Group Not Found' });
    expect((await api.get(`/groups/${group.id}/projects`, { token, query: { visibility: 'secret' } })).body).toEqual({
      error: 'visibility does not have a valid value',
    });
  });
});
