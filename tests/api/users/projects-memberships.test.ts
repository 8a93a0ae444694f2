// GET /users/:user_id/projects (personal projects), /users/:user_id/starred_projects and, for administrators,
// /users/:user_id/memberships (GitLab 13.6), each filtered by what the reader may see.
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';

const ids = (body: { id: number }[]) => body.map((p) => p.id);

describe("a user's projects, starred projects and memberships", () => {
  it('personal projects the reader may see, by id or username; not group projects', async () => {
    const owner = await createUser();
    const pub = await createProject(owner.token, { visibility: 'public' });
    const priv = await createProject(owner.token, { visibility: 'private' });
    const group = await createGroup(owner.token);
    await createProject(owner.token, { namespaceId: group.id, visibility: 'private' });
    const anonymous = await api.get(`/users/${owner.user.id}/projects`);
    expect([anonymous.status, ids(anonymous.body), anonymous.headers.get('x-total')]).toEqual([200, [pub.id], '1']);
    expect(ids((await api.get(`/users/${owner.user.username}/projects`, { token: owner.token })).body).sort()).toEqual([pub.id, priv.id].sort());
    expect(ids((await api.get(`/users/${owner.user.id}/projects`, { token: owner.token, query: { visibility: 'private' } })).body)).toEqual([priv.id]);
    expect((await api.get('/users/nobody-here-at-all/projects')).body).toEqual({ message: '404 User Not Found' });
  });

  it("starred projects the reader may see; none for a private profile's reader", async () => {
    const fan = await createUser();
    const owner = await createUser();
    const pub = await createProject(owner.token, { visibility: 'public' });
    const priv = await createProject(owner.token, { visibility: 'private' });
    await addMember(owner.token, 'projects', priv.id, fan.user.id, 10);
    for (const p of [pub, priv]) expect((await api.post(`/projects/${p.id}/star`, { token: fan.token })).status).toBe(201);
    expect(ids((await api.get(`/users/${fan.user.id}/starred_projects`, { token: fan.token })).body).sort()).toEqual([pub.id, priv.id].sort());
    expect(ids((await api.get(`/users/${fan.user.id}/starred_projects`)).body)).toEqual([pub.id]);
    const admin = await createAdmin();
    expect((await api.put(`/users/${fan.user.id}`, { token: admin.token, body: { private_profile: true } })).status).toBe(200);
    expect((await api.get(`/users/${fan.user.id}/starred_projects`)).body).toEqual([]);
    expect(ids((await api.get(`/users/${fan.user.id}/starred_projects`, { token: fan.token })).body).sort()).toEqual([pub.id, priv.id].sort());
  });

  it('memberships: administrators only, every source with its name and level, filtered by type', async () => {
    const owner = await createUser();
    const member = await createUser();
    const project = await createProject(owner.token);
    const group = await createGroup(owner.token);
    await addMember(owner.token, 'projects', project.id, member.user.id, 30);
    await addMember(owner.token, 'groups', group.id, member.user.id, 20);
    const admin = await createAdmin();
    const all = await api.get(`/users/${member.user.id}/memberships`, { token: admin.token });
    expect(all.status).toBe(200);
    expect(all.body).toEqual([
      { source_id: project.id, source_name: project.name, source_type: 'Project', access_level: 30 },
      { source_id: group.id, source_name: group.name, source_type: 'Namespace', access_level: 20 },
    ]);
    expect(all.headers.get('x-total')).toBe('2');
    expect((await api.get(`/users/${member.user.id}/memberships`, { token: admin.token, query: { type: 'Namespace' } })).body).toHaveLength(1);
    const bad = await api.get(`/users/${member.user.id}/memberships`, { token: admin.token, query: { type: 'Epic' } });
    expect([bad.status, bad.body]).toEqual([400, { error: 'type does not have a valid value' }]);
    expect((await api.get(`/users/${member.user.id}/memberships`, { token: member.token })).status).toBe(403);
    expect((await api.get('/users/999999999/memberships', { token: admin.token })).body).toEqual({ message: '404 User Not Found' });
  });
});
