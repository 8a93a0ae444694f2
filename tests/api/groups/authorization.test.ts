// Reads of private groups through the shared authorization suite, and what stops granting visibility once deleted.
import { describe, expect, it } from 'vitest';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser, unique } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';

const NOT_FOUND = { status: 404, body: { message: '404 Group Not Found' } };

/** A private group with a subgroup and a project, a guest member and a stranger. */
async function privateGroup() {
  const owner = await createUser();
  const guest = await createUser();
  const stranger = await createUser();
  const group = await createGroup(owner.token, { visibility: 'private' });
  await createGroup(owner.token, { parentId: group.id });
  await createProject(owner.token, { namespaceId: group.id });
  await addMember(owner.token, 'groups', group.id, guest.user.id, 10);
  return { group, allowed: guest.token, nonMember: stranger.token };
}

for (const suffix of ['', '/subgroups', '/projects']) {
  describeAuthorization(`GET /groups/:id${suffix} (private group)`, {
    fixture: privateGroup,
    call: (fx, token) => api.get(`/groups/${fx.group.id}${suffix}`, { token }),
    success: 200,
    // Reads need no authentication, so an anonymous caller is one more user who cannot see the group.
    anonymous: NOT_FOUND,
    nonMember: NOT_FOUND,
  });
}

describe('deleted descendants grant nothing', () => {
  async function visibleTo(token: string, tag: string) {
    const list = await api.get('/groups', { token, query: { search: tag } });
    expect(list.status).toBe(200);
    return list.body.map((g: { id: number }) => g.id).sort();
  }

  it("a deleted subgroup no longer makes its private parent visible to the subgroup's members", async () => {
    const { token: owner } = await createUser();
    const { user: member, token } = await createUser();
    const tag = unique('delsub');
    const parent = await createGroup(owner, { path: `${tag}-parent` });
    const child = await createGroup(owner, { parentId: parent.id, path: `${tag}-child` });
    await addMember(owner, 'groups', child.id, member.id, 10);
    expect((await api.get(`/groups/${parent.id}`, { token })).status).toBe(200);
    expect(await visibleTo(token, tag)).toEqual([parent.id, child.id].sort());

    const deleted = await api.delete(`/groups/${child.id}`, { token: owner });
    expect(deleted.status).toBe(202);
    const res = await api.get(`/groups/${parent.id}`, { token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 Group Not Found' });
    expect(await visibleTo(token, tag)).toEqual([]);
    expect((await api.get('/groups', { token, query: { search: tag, all_available: true } })).body).toEqual([]);
  });

  it("a deleted project no longer makes its private group (nor the group's ancestors) visible to the project's members", async () => {
    const { token: owner } = await createUser();
    const { user: member, token } = await createUser();
    const tag = unique('delprj');
    const top = await createGroup(owner, { path: `${tag}-top` });
    const group = await createGroup(owner, { parentId: top.id, path: `${tag}-group` });
    const project = await createProject(owner, { namespaceId: group.id });
    await addMember(owner, 'projects', project.id, member.id, 10);
    for (const id of [top.id, group.id]) expect((await api.get(`/groups/${id}`, { token })).status).toBe(200);
    expect(await visibleTo(token, tag)).toEqual([top.id, group.id].sort());

    const deleted = await api.delete(`/projects/${project.id}`, { token: owner });
    expect(deleted.status).toBe(202);
    for (const id of [top.id, group.id]) {
      const res = await api.get(`/groups/${id}`, { token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Group Not Found' });
    }
    expect(await visibleTo(token, tag)).toEqual([]);
  });
});
