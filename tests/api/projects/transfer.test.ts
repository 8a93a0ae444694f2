// PUT /projects/:id/transfer and POST /groups/:id/projects/:project_id (GitLab 13.6's Projects::TransferService): the
// project moves with its repository, its old path redirects, its visibility follows a less visible group; owners
// only, into a namespace where they may create projects; 13.6's messages otherwise.
import { describe, expect, it } from 'vitest';
import { api, appFetch, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';

const failed = (message: string) => ({ message: `Failed to transfer project {:new_namespace=>["${message}"]}` });

describe('transferring a project', () => {
  it('moves the project into a group by path, keeps its repository, git redirects the old path; visibility follows the group', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token, { visibility: 'public' });
    const commit = await api.post(`/projects/${p.id}/repository/commits`, {
      token: owner.token,
      body: { branch: 'main', commit_message: 'init', actions: [{ action: 'create', file_path: 'a.txt', content: 'a' }] },
    });
    expect(commit.status).toBe(201);
    const group = await createGroup(owner.token, { visibility: 'internal' });
    const res = await api.put(`/projects/${p.id}/transfer`, { token: owner.token, body: { namespace: group.full_path } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: p.id,
      path_with_namespace: `${group.full_path}/${p.path}`,
      visibility: 'internal',
      namespace: { id: group.id, kind: 'group', full_path: group.full_path },
    });
    expect(
      (
        await api.get(`/projects/${encodeURIComponent(`${group.full_path}/${p.path}`)}/repository/files/a.txt/raw`, {
          token: owner.token,
          query: { ref: 'main' },
        })
      ).text,
    ).toBe('a');
    // The API does not follow the old path (find_project), as in 13.6; git's transport serves it (redirect_routes).
    expect((await api.get(`/projects/${encodeURIComponent(p.path_with_namespace)}`, { token: owner.token })).status).toBe(404);
    const git = await appFetch(`${TEST_PUBLIC_URL}/${p.path_with_namespace}.git/info/refs?service=git-upload-pack`, {
      headers: { authorization: `Basic ${Buffer.from(`${owner.user.username}:${owner.token}`).toString('base64')}` },
    });
    expect(git.status).toBe(200);
    expect(Buffer.from(await git.arrayBuffer()).toString('latin1')).toContain(commit.body.id);

    // Back to the personal namespace, by id.
    const personal = (await api.get('/namespaces', { token: owner.token })).body.find((n: { kind: string }) => n.kind === 'user');
    const back = await api.put(`/projects/${p.id}/transfer`, { token: owner.token, body: { namespace: String(personal.id) } });
    expect([back.status, back.body.path_with_namespace]).toEqual([200, p.path_with_namespace]);
  });

  it('refuses the same namespace, one the owner may not create in, a hidden one, and a name that is taken there', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token);
    const group = await createGroup(owner.token);
    const same = await api.put(`/projects/${p.id}/transfer`, { token: owner.token, body: { namespace: p.namespace.full_path } });
    expect([same.status, same.body]).toEqual([400, failed('Transfer failed, please contact an admin.')]);

    const other = await createUser();
    const guestGroup = await createGroup(other.token);
    await addMember(other.token, 'groups', guestGroup.id, owner.user.id, 10);
    const guest = await api.put(`/projects/${p.id}/transfer`, { token: owner.token, body: { namespace: String(guestGroup.id) } });
    expect([guest.status, guest.body]).toEqual([400, failed('Transfer failed, please contact an admin.')]);

    const hidden = await createGroup(other.token);
    const unseen = await api.put(`/projects/${p.id}/transfer`, { token: owner.token, body: { namespace: hidden.full_path } });
    expect([unseen.status, unseen.body]).toEqual([404, { message: '404 Namespace Not Found' }]);

    await createProject(owner.token, { namespaceId: group.id, path: p.path, name: `other ${p.name}` });
    const taken = await api.put(`/projects/${p.id}/transfer`, { token: owner.token, body: { namespace: String(group.id) } });
    expect([taken.status, taken.body]).toEqual([400, failed('Project with same name or path in target namespace already exists')]);
    expect((await api.get(`/projects/${p.id}`, { token: owner.token })).body.path_with_namespace).toBe(p.path_with_namespace);

    const missing = await api.put(`/projects/${p.id}/transfer`, { token: owner.token, body: {} });
    expect([missing.status, missing.body]).toEqual([400, { error: 'namespace is missing' }]);
  });

  describeAuthorization('PUT /projects/:id/transfer', {
    fixture: async () => {
      const owner = await createUser();
      const p = await createProject(owner.token, { visibility: 'public' });
      const group = await createGroup(owner.token);
      const maintainer = await createUser();
      await addMember(owner.token, 'projects', p.id, maintainer.user.id, 40);
      return { allowed: owner.token, id: p.id, group: group.id, nonMember: (await createUser()).token, insufficientRole: maintainer.token };
    },
    call: (fx, token) => api.put(`/projects/${fx.id}/transfer`, { token, body: { namespace: String(fx.group) } }),
    success: 200,
    nonMember: { status: 403, body: { message: '403 Forbidden' } },
    insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
  });

  it('POST /groups/:id/projects/:project_id: administrators move a project into the group (201 with the group); others 403', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token);
    const group = await createGroup(owner.token);
    const refused = await api.post(`/groups/${group.id}/projects/${p.id}`, { token: owner.token });
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }]);
    const admin = await createAdmin();
    const res = await api.post(`/groups/${group.id}/projects/${p.id}`, { token: admin.token });
    expect(res.status).toBe(201);
    expect(res.body.id).toBe(group.id);
    expect(res.body.projects.map((x: { id: number }) => x.id)).toEqual([p.id]);
    expect((await api.get(`/projects/${p.id}`, { token: owner.token })).body.namespace.id).toBe(group.id);
  });
});
