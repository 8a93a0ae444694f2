import { describe, expect, it } from 'vitest';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createToken, createUser, unique } from '../../factories/users.ts';
import { api, TEST_PUBLIC_URL } from '../../helpers/app.ts';

const NOT_FOUND = { message: '404 Group Not Found' };

describe('GET /groups/:id', () => {
  it('by id and by URL-encoded full path, with the visible projects of the group (GroupDetail)', async () => {
    const { token } = await createUser();
    const parent = await createGroup(token, { visibility: 'public' });
    const child = await createGroup(token, { parentId: parent.id, visibility: 'public' });
    const older = await createProject(token, { namespaceId: child.id, visibility: 'public' });
    const newer = await createProject(token, { namespaceId: child.id, visibility: 'private' });
    await createProject(token, { namespaceId: parent.id, visibility: 'public' });

    const byId = await api.get(`/groups/${child.id}`, { token });
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ id: child.id, full_path: child.full_path, parent_id: parent.id, shared_projects: [], shared_with_groups: [] });
    expect(byId.body.projects.map((p: any) => p.id)).toEqual([newer.id, older.id]);
    expect(byId.body.projects[0]).toMatchObject({
      path_with_namespace: newer.path_with_namespace,
      namespace: { id: child.id, kind: 'group', full_path: child.full_path },
    });

    const byPath = await api.get(`/groups/${encodeURIComponent(child.full_path)}`, { token });
    expect(byPath.status).toBe(200);
    expect(byPath.body.id).toBe(child.id);

    // Anonymous callers see the public group with its public projects only.
    const anonymous = await api.get(`/groups/${child.id}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.projects.map((p: any) => p.id)).toEqual([older.id]);
  });

  it('with_projects=false answers the plain Group entity', async () => {
    const { token } = await createUser();
    const group = await createGroup(token);
    const res = await api.get(`/groups/${group.id}`, { token, query: { with_projects: false } });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('projects');
    expect(res.body.web_url).toBe(`${TEST_PUBLIC_URL}/groups/${group.full_path}`);
  });

  it('404 for a missing group, a private group of others, and a reference that names nothing', async () => {
    const { token } = await createUser();
    const { token: stranger } = await createUser();
    const hidden = await createGroup(token, { visibility: 'private' });
    for (const [ref, who] of [
      ['999999999', token],
      [String(hidden.id), stranger],
      [encodeURIComponent(hidden.full_path), stranger],
      ['0', token],
    ] as const) {
      const res = await api.get(`/groups/${ref}`, { token: who });
      expect(res.status, ref).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
    expect((await api.get(`/groups/${hidden.id}`)).status).toBe(404);
  });

  it('internal groups: signed-in users yes, anonymous and external users no', async () => {
    const { token } = await createUser();
    const { token: other } = await createUser();
    const { token: external } = await createUser({ external: true });
    const group = await createGroup(token, { visibility: 'internal' });
    expect((await api.get(`/groups/${group.id}`, { token: other })).status).toBe(200);
    expect((await api.get(`/groups/${group.id}`)).status).toBe(404);
    expect((await api.get(`/groups/${group.id}`, { token: external })).status).toBe(404);
  });

  it('a member of a subgroup (or of a project inside it) can see the private parent group', async () => {
    const { token } = await createUser();
    const { user: subMember, token: subToken } = await createUser();
    const { user: projectMember, token: projectToken } = await createUser();
    const parent = await createGroup(token, { visibility: 'private' });
    const child = await createGroup(token, { parentId: parent.id });
    const project = await createProject(token, { namespaceId: child.id });
    await addMember(token, 'groups', child.id, subMember.id, 10);
    await addMember(token, 'projects', project.id, projectMember.id, 10);
    expect((await api.get(`/groups/${parent.id}`, { token: subToken })).status).toBe(200);
    expect((await api.get(`/groups/${parent.id}`, { token: projectToken })).status).toBe(200);
    expect((await api.get(`/groups/${child.id}`, { token: projectToken })).status).toBe(200);
    // Seeing the parent does not show its other private content.
    const sibling = await createGroup(token, { parentId: parent.id });
    expect((await api.get(`/groups/${sibling.id}`, { token: subToken })).status).toBe(404);
  });

  it('a member of a parent group reads private subgroups and their projects', async () => {
    const { token } = await createUser();
    const { user: guest, token: guestToken } = await createUser();
    const parent = await createGroup(token);
    const child = await createGroup(token, { parentId: parent.id });
    const grandchild = await createGroup(token, { parentId: child.id });
    const project = await createProject(token, { namespaceId: grandchild.id });
    await addMember(token, 'groups', parent.id, guest.id, 10);
    expect((await api.get(`/groups/${grandchild.id}`, { token: guestToken })).status).toBe(200);
    const res = await api.get(`/projects/${project.id}`, { token: guestToken });
    expect(res.status).toBe(200);
    expect(res.body.permissions).toEqual({ project_access: null, group_access: { access_level: 10, notification_level: 3 } });
  });

  it('read_api tokens may read', async () => {
    const { user, token } = await createUser();
    const group = await createGroup(token);
    const readOnly = await createToken(user, ['read_api']);
    expect((await api.get(`/groups/${group.id}`, { token: readOnly })).status).toBe(200);
  });
});

describe('GET /groups', () => {
  it('anonymous callers list public groups only', async () => {
    const { token } = await createUser();
    const tag = unique('anon');
    const pub = await createGroup(token, { visibility: 'public', path: `${tag}-pub` });
    await createGroup(token, { visibility: 'internal', path: `${tag}-int` });
    await createGroup(token, { visibility: 'private', path: `${tag}-prv` });
    const res = await api.get('/groups', { query: { search: tag } });
    expect(res.status).toBe(200);
    expect(res.body.map((g: any) => g.id)).toEqual([pub.id]);
  });

  it("signed-in users get their groups' hierarchy by default, and every visible group with all_available=true", async () => {
    const { token: ownerToken } = await createUser();
    const { user, token } = await createUser();
    const tag = unique('mine');
    const mine = await createGroup(ownerToken, { visibility: 'private', path: `${tag}-a` });
    const below = await createGroup(ownerToken, { parentId: mine.id, path: `${tag}-b` });
    const other = await createGroup(ownerToken, { visibility: 'public', path: `${tag}-c` });
    await addMember(ownerToken, 'groups', mine.id, user.id, 20);
    const own = await api.get('/groups', { token, query: { search: tag } });
    expect(own.body.map((g: any) => g.id).sort()).toEqual([mine.id, below.id].sort());
    const all = await api.get('/groups', { token, query: { search: tag, all_available: true } });
    expect(all.body.map((g: any) => g.id).sort()).toEqual([mine.id, below.id, other.id].sort());
    const { token: admin } = await createAdmin();
    const adminList = await api.get('/groups', { token: admin, query: { search: tag } });
    expect(adminList.body).toHaveLength(3);
  });

  it('owned=true lists direct Owner memberships; min_access_level filters by effective level', async () => {
    const { token: ownerToken } = await createUser();
    const { user, token } = await createUser();
    const tag = unique('lvl');
    const owned = await createGroup(token, { path: `${tag}-own` });
    const dev = await createGroup(ownerToken, { path: `${tag}-dev` });
    const devChild = await createGroup(ownerToken, { parentId: dev.id, path: `${tag}-devchild` });
    const guest = await createGroup(ownerToken, { path: `${tag}-guest` });
    await addMember(ownerToken, 'groups', dev.id, user.id, 30);
    await addMember(ownerToken, 'groups', guest.id, user.id, 10);
    const ownedRes = await api.get('/groups', { token, query: { search: tag, owned: true } });
    expect(ownedRes.body.map((g: any) => g.id)).toEqual([owned.id]);
    const dev30 = await api.get('/groups', { token, query: { search: tag, min_access_level: 30 } });
    expect(dev30.body.map((g: any) => g.id).sort()).toEqual([owned.id, dev.id, devChild.id].sort());
    const bad = await api.get('/groups', { token, query: { min_access_level: 35 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'min_access_level does not have a valid value' });
    expect((await api.get('/groups', { query: { owned: true } })).body).toEqual([]);
  });

  it('orders by name (default), path or id, asc or desc; skips skip_groups[]; top_level_only', async () => {
    const { token } = await createUser();
    const tag = unique('ord');
    const b = await createGroup(token, { name: `${tag} B`, path: `${tag}-1` });
    const a = await createGroup(token, { name: `${tag} A`, path: `${tag}-2` });
    const c = await createGroup(token, { name: `${tag} C`, path: `${tag}-0`, parentId: b.id });
    const ids = async (query: Record<string, any>) => (await api.get('/groups', { token, query: { search: tag, ...query } })).body.map((g: any) => g.id);
    expect(await ids({})).toEqual([a.id, b.id, c.id]);
    expect(await ids({ sort: 'desc' })).toEqual([c.id, b.id, a.id]);
    expect(await ids({ order_by: 'path' })).toEqual([c.id, b.id, a.id]);
    expect(await ids({ order_by: 'id', sort: 'desc' })).toEqual([c.id, a.id, b.id]);
    expect(await ids({ 'skip_groups[]': [String(a.id), String(c.id)] })).toEqual([b.id]);
    expect(await ids({ top_level_only: true })).toEqual([a.id, b.id]);
    const bad = await api.get('/groups', { token, query: { order_by: 'size' } });
    expect(bad.body).toEqual({ error: 'order_by does not have a valid value' });
    expect((await api.get('/groups', { token, query: { 'skip_groups[]': ['x'] } })).body).toEqual({ error: 'skip_groups is invalid' });
  });

  it('paginates with GitLab headers', async () => {
    const { token } = await createUser();
    const tag = unique('page');
    for (let i = 0; i < 3; i++) await createGroup(token, { name: `${tag} ${i}`, path: `${tag}-${i}` });
    const res = await api.get('/groups', { token, query: { search: tag, per_page: 2, page: 2 } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.headers.get('x-total')).toBe('3');
    expect(res.headers.get('x-total-pages')).toBe('2');
    expect(res.headers.get('x-page')).toBe('2');
    expect(res.headers.get('x-per-page')).toBe('2');
    expect(res.headers.get('x-prev-page')).toBe('1');
    expect(res.headers.get('x-next-page')).toBe('');
    const link = res.headers.get('link')!;
    expect(link).toContain(`<${TEST_PUBLIC_URL}/api/v4/groups?search=${tag}&per_page=2&page=1>; rel="prev"`);
    expect(link).toContain('rel="first"');
    expect(link).toContain('rel="last"');
    expect((await api.get('/groups', { token, query: { per_page: 0 } })).body).toEqual({ error: 'per_page does not have a valid value' });
  });
});

describe('GET /groups/:id/subgroups', () => {
  it('lists direct children around the caller (all visible ones with all_available), paginated', async () => {
    const { token } = await createUser();
    const { token: stranger } = await createUser();
    const parent = await createGroup(token, { visibility: 'public' });
    const pub = await createGroup(token, { parentId: parent.id, visibility: 'public', name: 'A' });
    const prv = await createGroup(token, { parentId: parent.id, visibility: 'private', name: 'B' });
    await createGroup(token, { parentId: pub.id, visibility: 'public' }); // a grandchild is not a direct child
    const own = await api.get(`/groups/${parent.id}/subgroups`, { token });
    expect(own.status).toBe(200);
    expect(own.body.map((g: any) => g.id)).toEqual([pub.id, prv.id]);
    expect(own.headers.get('x-total')).toBe('2');
    // GitLab: a non-member sees no subgroups of a public group unless all_available=true; anonymous callers see public ones.
    expect((await api.get(`/groups/${parent.id}/subgroups`, { token: stranger })).body).toEqual([]);
    expect((await api.get(`/groups/${parent.id}/subgroups`, { token: stranger, query: { all_available: true } })).body.map((g: any) => g.id)).toEqual([pub.id]);
    expect((await api.get(`/groups/${parent.id}/subgroups`)).body.map((g: any) => g.id)).toEqual([pub.id]);
  });

  it('404 for a parent the caller cannot see', async () => {
    const { token } = await createUser();
    const { token: stranger } = await createUser();
    const hidden = await createGroup(token);
    const res = await api.get(`/groups/${hidden.id}/subgroups`, { token: stranger });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });
});
