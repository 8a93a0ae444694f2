// POST /projects/:id/archive and /unarchive (GitLab 13.6): owners archive a project, which then refuses writes
// (issues, commits, merge requests, pipelines) with GitLab's answers, and unarchive it again.
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';

const MAINTAINER = 40;

describe('archiving a project', () => {
  it('201 with the project; an archived project refuses writes; unarchive restores them; both are idempotent', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token);
    const archived = await api.post(`/projects/${p.id}/archive`, { token: owner.token });
    expect(archived.status).toBe(201);
    expect(archived.body).toMatchObject({ id: p.id, archived: true });
    expect(archived.body.runners_token).toEqual(expect.any(String));
    expect(archived.headers.get('cache-control')).toBe('no-store');
    expect((await api.post(`/projects/${p.id}/archive`, { token: owner.token })).body.archived).toBe(true);
    expect((await api.get('/projects', { token: owner.token, query: { archived: true, search: p.name } })).body.map((x: { id: number }) => x.id)).toEqual([
      p.id,
    ]);
    const issue = await api.post(`/projects/${p.id}/issues`, { token: owner.token, body: { title: 'x' } });
    expect([issue.status, issue.body]).toEqual([403, { message: '403 Forbidden' }]);
    const commit = await api.post(`/projects/${p.id}/repository/commits`, {
      token: owner.token,
      body: { branch: 'master', commit_message: 'm', actions: [{ action: 'create', file_path: 'a', content: 'a' }] },
    });
    expect(commit.status).toBe(403);
    const restored = await api.post(`/projects/${p.id}/unarchive`, { token: owner.token });
    expect([restored.status, restored.body.archived]).toEqual([201, false]);
    expect((await api.post(`/projects/${p.id}/issues`, { token: owner.token, body: { title: 'x' } })).status).toBe(201);
  });

  it('maintainers may not archive (owners only); 404 for what the caller cannot see', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token);
    const maintainer = await createUser();
    await addMember(owner.token, 'projects', p.id, maintainer.user.id, MAINTAINER);
    expect((await api.post(`/projects/${p.id}/archive`, { token: maintainer.token })).status).toBe(403);
    expect((await api.post(`/projects/${p.id}/archive`, { token: (await createUser()).token })).body).toEqual({ message: '404 Project Not Found' });
    expect((await api.get(`/projects/${p.id}`, { token: owner.token })).body.archived).toBe(false);
  });

  describeAuthorization('POST /projects/:id/archive', {
    fixture: async () => {
      const owner = await createUser();
      const p = await createProject(owner.token, { visibility: 'public' });
      const maintainer = await createUser();
      await addMember(owner.token, 'projects', p.id, maintainer.user.id, MAINTAINER);
      return { allowed: owner.token, id: p.id, nonMember: (await createUser()).token, insufficientRole: maintainer.token };
    },
    call: (fx, token) => api.post(`/projects/${fx.id}/archive`, { token }),
    success: 201,
    nonMember: { status: 403, body: { message: '403 Forbidden' } },
    insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
  });

  describeAuthorization('POST /projects/:id/unarchive (a private project)', {
    fixture: async () => {
      const owner = await createUser();
      const p = await createProject(owner.token, { visibility: 'private' });
      return { allowed: owner.token, id: p.id, nonMember: (await createUser()).token };
    },
    call: (fx, token) => api.post(`/projects/${fx.id}/unarchive`, { token }),
    success: 201,
    nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  });
});
