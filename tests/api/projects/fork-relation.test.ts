// POST /projects/:id/fork/:forked_from_id and DELETE /projects/:id/fork (GitLab 13.6): the project's administrators
// mark it a fork of a project they can read (409 when it already is one); owners remove the relation (304 when
// there is none).
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';

describe('the fork relation', () => {
  it('link (201, forked_from_project shown, the source counts the fork), 409 a second time, unlink (204), then 304', async () => {
    const owner = await createUser();
    const source = await createProject(owner.token, { visibility: 'public' });
    const p = await createProject(owner.token);
    const linked = await api.post(`/projects/${p.id}/fork/${source.id}`, { token: owner.token });
    expect(linked.status).toBe(201);
    expect(linked.body.forked_from_project).toMatchObject({ id: source.id, path_with_namespace: source.path_with_namespace });
    expect((await api.get(`/projects/${source.id}`)).body.forks_count).toBe(1);
    expect((await api.get(`/projects/${source.id}/forks`, { token: owner.token })).body.map((f: { id: number }) => f.id)).toEqual([p.id]);
    const again = await api.post(`/projects/${p.id}/fork/${source.id}`, { token: owner.token });
    expect([again.status, again.body]).toEqual([409, { message: 'Project already forked' }]);

    const unlinked = await api.delete(`/projects/${p.id}/fork`, { token: owner.token });
    expect([unlinked.status, unlinked.text]).toEqual([204, '']);
    expect((await api.get(`/projects/${p.id}`, { token: owner.token })).body.forked_from_project).toBeUndefined();
    expect((await api.delete(`/projects/${p.id}/fork`, { token: owner.token })).status).toBe(304);
  });

  it('a source the caller cannot read is 404; maintainers link but only owners unlink; strangers are refused', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token);
    const hidden = await createProject((await createUser()).token);
    const unseen = await api.post(`/projects/${p.id}/fork/${hidden.id}`, { token: owner.token });
    expect([unseen.status, unseen.body]).toEqual([404, { message: '404 Project Not Found' }]);

    const maintainer = await createUser();
    await addMember(owner.token, 'projects', p.id, maintainer.user.id, 40);
    const source = await createProject(owner.token, { visibility: 'internal' });
    expect((await api.post(`/projects/${p.id}/fork/${source.id}`, { token: maintainer.token })).status).toBe(201);
    expect((await api.delete(`/projects/${p.id}/fork`, { token: maintainer.token })).status).toBe(403);
    const stranger = await createUser();
    expect((await api.delete(`/projects/${p.id}/fork`, { token: stranger.token })).body).toEqual({ message: '404 Project Not Found' });
    expect((await api.delete(`/projects/${p.id}/fork`)).status).toBe(401);
  });
});
