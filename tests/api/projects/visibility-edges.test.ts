// What a reader must not learn: fork sources it cannot read, private profiles among starrers, deleted things.
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { createGroup, addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';

describe('forked_from_project', () => {
  it('is shown only while the caller may read the source', async () => {
    const a = await createUser();
    const source = await createProject(a.token, { visibility: 'public' });
    const b = await createUser();
    const fork = (await api.post(`/projects/${source.id}/fork`, { token: b.token })).body;
    expect((await api.get(`/projects/${fork.id}`)).body.forked_from_project).toMatchObject({ id: source.id });

    await api.put(`/projects/${source.id}`, { token: a.token, body: { visibility: 'private' } });
    // The fork stays public, but its private source is no longer named to anyone who cannot read it.
    expect((await api.get(`/projects/${fork.id}`)).body).not.toHaveProperty('forked_from_project');
    expect((await api.get(`/projects/${fork.id}`, { token: b.token })).body).not.toHaveProperty('forked_from_project');
    expect((await api.get(`/projects/${fork.id}`, { token: a.token })).body.forked_from_project).toMatchObject({ id: source.id });
    const listed = await api.get('/projects', { token: b.token, query: { search: fork.name, owned: true } });
    expect(listed.body[0]).not.toHaveProperty('forked_from_project');

    await api.delete(`/projects/${source.id}`, { token: a.token });
    expect((await api.get(`/projects/${fork.id}`, { token: a.token })).body).not.toHaveProperty('forked_from_project');
    expect((await api.get(`/projects/${fork.id}`, { token: (await createAdmin()).token })).body).not.toHaveProperty('forked_from_project');
  });
});

describe('starrers', () => {
  it('leaves out private profiles except for the user themselves and administrators', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token, { visibility: 'public' });
    const open = await createUser();
    const hidden = await createUser({ privateProfile: true });
    await api.post(`/projects/${p.id}/star`, { token: open.token });
    await api.post(`/projects/${p.id}/star`, { token: hidden.token });
    const ids = (res: { body: Array<{ user: { id: number } }> }) => res.body.map((s) => s.user.id).sort();
    const anon = await api.get(`/projects/${p.id}/starrers`);
    expect(ids(anon)).toEqual([open.user.id]);
    expect(anon.headers.get('x-total')).toBe('1');
    expect(ids(await api.get(`/projects/${p.id}/starrers`, { token: hidden.token }))).toEqual([open.user.id, hidden.user.id].sort());
    expect(ids(await api.get(`/projects/${p.id}/starrers`, { token: (await createAdmin()).token }))).toEqual([open.user.id, hidden.user.id].sort());
  });
});

describe('owned=true', () => {
  it('covers the personal namespace and projects the user holds as Owner through a group', async () => {
    const me = await createUser();
    const group = await createGroup(me.token);
    const inGroup = await createProject(me.token, { namespaceId: group.id });
    const personal = await createProject(me.token);
    const other = await createUser();
    const theirs = await createProject(other.token, { visibility: 'public' });
    const owned = await api.get('/projects', { token: me.token, query: { owned: true, per_page: 100 } });
    expect(owned.body.map((p: { id: number }) => p.id).sort()).toEqual([inGroup.id, personal.id].sort());
    expect(owned.body.map((p: { id: number }) => p.id)).not.toContain(theirs.id);
    // A maintainer of the group does not own its projects.
    const maintainer = await createUser();
    await addMember(me.token, 'groups', group.id, maintainer.user.id, 40);
    expect((await api.get('/projects', { token: maintainer.token, query: { owned: true } })).body).toEqual([]);
  });
});
