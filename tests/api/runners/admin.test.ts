// The runner administration API (GitLab 13.6's runners.rb): a user's runners, every runner for administrators, one
// runner's details, changes and deletion under RunnerPolicy, and a project's runners (list, enable, disable).
import { describe, expect, it } from 'vitest';
import { api, appFetch, testEnv } from '../../helpers/app.ts';
import { registerRunner } from '../../helpers/ci-runner.ts';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { instanceRunnersToken } from '../../../functions/runners/registration-token.ts';

async function projectRunner(token: string, opts: { locked?: boolean; tagList?: string[] } = {}) {
  const project = await createProject(token);
  const registration = (await api.get(`/projects/${project.id}`, { token })).body.runners_token as string;
  const runner = await registerRunner(appFetch, registration, { description: 'project runner', ...opts });
  return { project, runner };
}

const ids = (body: { id: number }[]) => body.map((r) => r.id);

describe('runner administration', () => {
  it("a maintainer lists, reads, changes and deletes the project's runner; the entity and details are 13.6's", async () => {
    const owner = await createUser();
    const { project, runner } = await projectRunner(owner.token, { tagList: ['docker'] });
    const mine = await api.get('/runners', { token: owner.token });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual([
      {
        id: runner.id,
        description: 'project runner',
        ip_address: expect.anything(),
        active: true,
        is_shared: false,
        runner_type: 'project_type',
        name: expect.any(String),
        online: true,
        status: 'online',
      },
    ]);
    expect(mine.headers.get('x-total')).toBe('1');
    expect(ids((await api.get('/runners', { token: owner.token, query: { tag_list: 'docker' } })).body)).toEqual([runner.id]);
    expect((await api.get('/runners', { token: owner.token, query: { tag_list: 'gpu' } })).body).toEqual([]);
    expect((await api.get('/runners', { token: owner.token, query: { status: 'paused' } })).body).toEqual([]);

    const details = await api.get(`/runners/${runner.id}`, { token: owner.token });
    expect(details.body).toMatchObject({ id: runner.id, tag_list: ['docker'], run_untagged: false, locked: false, access_level: 'not_protected', groups: [] });
    expect(details.body.projects.map((p: { id: number }) => p.id)).toEqual([project.id]);
    expect(details.body.token).toBeUndefined();

    const changed = await api.put(`/runners/${runner.id}`, {
      token: owner.token,
      body: { description: 'renamed', active: false, tag_list: ['a', 'b'], maximum_timeout: 3600 },
    });
    expect(changed.body).toMatchObject({ description: 'renamed', active: false, status: 'paused', tag_list: ['a', 'b'], maximum_timeout: 3600 });
    const bad = await api.put(`/runners/${runner.id}`, { token: owner.token, body: { maximum_timeout: 10 } });
    expect([bad.status, bad.body]).toEqual([400, { message: { maximum_timeout: ['should be greater than or equal to 600'] } }]);
    const none = await api.put(`/runners/${runner.id}`, { token: owner.token, body: {} });
    expect(none.status).toBe(400);

    const stranger = await createUser();
    expect((await api.get(`/runners/${runner.id}`, { token: stranger.token })).body).toEqual({ message: '403 Forbidden - No access granted' });
    expect((await api.get('/runners', { token: stranger.token })).body).toEqual([]);
    expect((await api.delete(`/runners/${runner.id}`, { token: stranger.token })).status).toBe(403);
    expect((await api.delete(`/runners/${runner.id}`, { token: owner.token })).status).toBe(204);
    expect((await api.get(`/runners/${runner.id}`, { token: owner.token })).body).toEqual({ message: '404 Runner Not Found' });
    expect((await api.get('/runners')).status).toBe(401);
  });

  it('shared runners: anyone signed in reads one, only administrators change it; /runners/all is for administrators', async () => {
    const admin = await createAdmin();
    const shared = await registerRunner(appFetch, (await instanceRunnersToken(testEnv.ENCRYPTION_KEY))!, { description: 'shared' });
    const user = await createUser();
    expect((await api.get(`/runners/${shared.id}`, { token: user.token })).body).toMatchObject({
      id: shared.id,
      is_shared: true,
      runner_type: 'instance_type',
    });
    expect((await api.put(`/runners/${shared.id}`, { token: user.token, body: { description: 'x' } })).body).toEqual({
      message: '403 Forbidden - Runner is shared',
    });
    expect((await api.get('/runners/all', { token: user.token })).status).toBe(403);
    const all = await api.get('/runners/all', { token: admin.token, query: { type: 'instance_type', per_page: 100 } });
    expect(ids(all.body)).toContain(shared.id);
    expect(all.body.every((r: { runner_type: string }) => r.runner_type === 'instance_type')).toBe(true);
    const scoped = await api.get('/runners/all', { token: admin.token, query: { scope: 'shared', per_page: 100 } });
    expect(ids(scoped.body)).toContain(shared.id);
    expect((await api.get('/runners', { token: admin.token, query: { scope: 'shared' } })).body).toEqual({ error: 'scope does not have a valid value' });
    expect((await api.put(`/runners/${shared.id}`, { token: admin.token, body: { description: 'by admin' } })).body.description).toBe('by admin');
    expect((await api.delete(`/runners/${shared.id}`, { token: admin.token })).status).toBe(204);
  });

  it("a project's runners: its own and the shared ones; enable another of the maintainer's runners; disable unless it is the last project", async () => {
    const owner = await createUser();
    const { project: first, runner } = await projectRunner(owner.token);
    const second = await createProject(owner.token);
    const listed = await api.get(`/projects/${second.id}/runners`, { token: owner.token, query: { type: 'project_type' } });
    expect(listed.body).toEqual([]);
    const enabled = await api.post(`/projects/${second.id}/runners`, { token: owner.token, body: { runner_id: runner.id } });
    expect([enabled.status, enabled.body.id]).toEqual([201, runner.id]);
    expect(ids((await api.get(`/projects/${second.id}/runners`, { token: owner.token, query: { type: 'project_type' } })).body)).toEqual([runner.id]);
    // Serving two projects, a maintainer of one may not delete it.
    const maintainer = await createUser();
    await addMember(owner.token, 'projects', first.id, maintainer.user.id, 40);
    expect((await api.delete(`/runners/${runner.id}`, { token: maintainer.token })).body).toEqual({
      message: '403 Forbidden - Runner associated with more than one project',
    });
    expect((await api.delete(`/projects/${second.id}/runners/${runner.id}`, { token: owner.token })).status).toBe(204);
    const last = await api.delete(`/projects/${first.id}/runners/${runner.id}`, { token: owner.token });
    expect([last.status, last.body]).toEqual([
      403,
      { message: '403 Forbidden - Only one project associated with the runner. Please remove the runner instead' },
    ]);

    // authenticate_enable_runner!'s reasons: a locked runner, then one the caller does not own.
    const locked = await projectRunner((await createUser()).token, { locked: true });
    const refused = await api.post(`/projects/${second.id}/runners`, { token: owner.token, body: { runner_id: locked.runner.id } });
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden - Runner is locked' }]);
    const foreign = await projectRunner((await createUser()).token);
    const notOwned = await api.post(`/projects/${second.id}/runners`, { token: owner.token, body: { runner_id: foreign.runner.id } });
    expect([notOwned.status, notOwned.body]).toEqual([403, { message: '403 Forbidden - No access granted' }]);
    const developer = await createUser();
    await addMember(owner.token, 'projects', second.id, developer.user.id, 30);
    expect((await api.get(`/projects/${second.id}/runners`, { token: developer.token })).status).toBe(403);
  });
});
