import { describe, expect, it } from 'vitest';
import { addMember, createGroup, type MemberSource } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { members } from '../../../db/schema/index.ts';
import { api, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';

/** parent group (owner + developer) > subgroup (nested member) > project (project member). */
async function hierarchy() {
  const owner = await createUser();
  const developer = await createUser();
  const nested = await createUser();
  const projectUser = await createUser();
  const parent = await createGroup(owner.token, { visibility: 'private' });
  const child = await createGroup(owner.token, { parentId: parent.id });
  const project = await createProject(owner.token, { namespaceId: child.id });
  await addMember(owner.token, 'groups', parent.id, developer.user.id, 30);
  await addMember(owner.token, 'groups', child.id, nested.user.id, 30);
  // Also a direct, lower membership of the developer below: "all" keeps the highest.
  await addMember(owner.token, 'groups', child.id, developer.user.id, 40);
  await addMember(owner.token, 'projects', project.id, projectUser.user.id, 20);
  return { owner, developer, nested, projectUser, parent, child, project };
}

describe('GET /:source/:id/members', () => {
  it('direct members with the Member entity, paginated', async () => {
    const { owner, developer, parent } = await hierarchy();
    const res = await api.get(`/groups/${parent.id}/members`, { token: developer.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: owner.user.id,
        name: owner.user.name,
        username: owner.user.username,
        state: 'active',
        avatar_url: null,
        web_url: `${TEST_PUBLIC_URL}/${owner.user.username}`,
        access_level: 50,
        created_at: expect.stringMatching(/Z$/),
        expires_at: null,
      },
      expect.objectContaining({ id: developer.user.id, access_level: 30 }),
    ]);
    expect(res.headers.get('x-total')).toBe('2');
    expect(res.headers.get('x-page')).toBe('1');
    const paged = await api.get(`/groups/${parent.id}/members`, { token: developer.token, query: { per_page: 1, page: 2 } });
    expect(paged.body.map((m: any) => m.id)).toEqual([developer.user.id]);
    expect(paged.headers.get('x-total-pages')).toBe('2');
    expect(paged.headers.get('link')).toContain('rel="prev"');
  });

  it('query searches name and username; user_ids[] narrows', async () => {
    const { owner, developer, child, nested } = await hierarchy();
    const found = await api.get(`/groups/${child.id}/members`, { token: owner.token, query: { query: nested.user.username.toUpperCase() } });
    expect(found.body.map((m: any) => m.id)).toEqual([nested.user.id]);
    const empty = await api.get(`/groups/${child.id}/members`, { token: owner.token, query: { query: '' } });
    expect(empty.body).toHaveLength(3);
    const byIds = await api.get(`/groups/${child.id}/members`, { token: owner.token, query: { 'user_ids[]': [String(developer.user.id)] } });
    expect(byIds.body.map((m: any) => m.id)).toEqual([developer.user.id]);
  });

  it('project members: the project direct members only', async () => {
    const { projectUser, project, developer } = await hierarchy();
    const res = await api.get(`/projects/${project.id}/members`, { token: developer.token });
    expect(res.body.map((m: any) => [m.id, m.access_level])).toEqual([[projectUser.user.id, 20]]);
  });

  it('401 for anonymous callers even on public sources; 404 for sources the caller cannot see', async () => {
    const { token } = await createUser();
    const { token: stranger } = await createUser();
    const open = await createGroup(token, { visibility: 'public' });
    const hidden = await createGroup(token);
    const res = await api.get(`/groups/${open.id}/members`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
    expect((await api.get(`/groups/${open.id}/members`, { token: stranger })).status).toBe(200);
    const nope = await api.get(`/groups/${hidden.id}/members`, { token: stranger });
    expect(nope.status).toBe(404);
    expect(nope.body).toEqual({ message: '404 Group Not Found' });
    const project = await createProject(token);
    expect((await api.get(`/projects/${project.id}/members/all`, { token: stranger })).body).toEqual({ message: '404 Project Not Found' });
  });

  it('expired memberships are not listed', async () => {
    const { token } = await createUser();
    const { user } = await createUser();
    const group = await createGroup(token);
    await testDb().db.insert(members).values({ sourceType: 'Namespace', sourceId: group.id, userId: user.id, accessLevel: 30, expiresAt: '2000-01-01' });
    const res = await api.get(`/groups/${group.id}/members`, { token });
    expect(res.body).toHaveLength(1);
    expect((await api.get(`/groups/${group.id}/members/${user.id}`, { token })).status).toBe(404);
  });
});

describe('GET /:source/:id/members/all', () => {
  it('project: direct plus inherited from every ancestor group, each user once at their highest level', async () => {
    const { owner, developer, nested, projectUser, project } = await hierarchy();
    const res = await api.get(`/projects/${project.id}/members/all`, { token: projectUser.token });
    expect(res.status).toBe(200);
    const levels = Object.fromEntries(res.body.map((m: any) => [m.id, m.access_level]));
    expect(levels).toEqual({ [owner.user.id]: 50, [developer.user.id]: 40, [nested.user.id]: 30, [projectUser.user.id]: 20 });
    expect(res.headers.get('x-total')).toBe('4');
    const page = await api.get(`/projects/${project.id}/members/all`, { token: projectUser.token, query: { per_page: 3 } });
    expect(page.body).toHaveLength(3);
    expect(page.headers.get('x-next-page')).toBe('2');
  });

  it('group: its own and its ancestors members', async () => {
    const { owner, developer, nested, child, parent } = await hierarchy();
    const res = await api.get(`/groups/${child.id}/members/all`, { token: nested.token });
    expect(res.body.map((m: any) => m.id).sort()).toEqual([owner.user.id, developer.user.id, nested.user.id].sort());
    const top = await api.get(`/groups/${parent.id}/members/all`, { token: owner.token });
    expect(top.body.map((m: any) => m.id).sort()).toEqual([owner.user.id, developer.user.id].sort());
  });
});

describe('GET /:source/:id/members/:user_id and /members/all/:user_id', () => {
  for (const source of ['groups', 'projects'] as MemberSource[]) {
    it(`${source}: one member; 404 Not found otherwise`, async () => {
      const { owner, developer, projectUser, parent, child, project } = await hierarchy();
      const { user: inheritedOnly } = await createUser();
      await addMember(owner.token, 'groups', parent.id, inheritedOnly.id, 10);
      const id = source === 'groups' ? child.id : project.id;
      const direct = source === 'groups' ? developer : projectUser;
      const res = await api.get(`/${source}/${id}/members/${direct.user.id}`, { token: owner.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: direct.user.id, username: direct.user.username, access_level: source === 'groups' ? 40 : 20 });
      const missing = await api.get(`/${source}/${id}/members/${inheritedOnly.id}`, { token: owner.token });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 Not found' });
      const inherited = await api.get(`/${source}/${id}/members/all/${inheritedOnly.id}`, { token: owner.token });
      expect(inherited.status).toBe(200);
      expect(inherited.body).toMatchObject({ id: inheritedOnly.id, access_level: 10 });
      expect((await api.get(`/${source}/${id}/members/all/999999999`, { token: owner.token })).status).toBe(404);
      expect((await api.get(`/${source}/${id}/members/-3`, { token: owner.token })).status).toBe(404);
      const bad = await api.get(`/${source}/${id}/members/abc`, { token: owner.token });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'user_id is invalid' });
    });
  }
});
