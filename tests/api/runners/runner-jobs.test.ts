// GET /runners/:id/jobs (GitLab 13.6 runners.rb, Ci::RunnerJobsFinder): the jobs a runner took, as
// JobBasicWithProject, by status, newest first unless `sort=asc`; to those who may read the runner, and only in
// projects where they are reporters or above (administrators: all).
import { describe, expect, it } from 'vitest';
import { api, appFetch } from '../../helpers/app.ts';
import { registerRunner, requestJob } from '../../helpers/ci-runner.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { commitFiles } from '../pipelines/support.ts';

const YAML = 'build:\n  script: [echo build]\n';

async function fixture() {
  const owner = await createUser();
  const group = await createGroup(owner.token);
  const token = (await api.get(`/groups/${group.id}`, { token: owner.token })).body.runners_token as string;
  const a = await createProject(owner.token, { namespaceId: group.id });
  const b = await createProject(owner.token, { namespaceId: group.id });
  await commitFiles(owner.token, a.id, { '.gitlab-ci.yml': YAML });
  await commitFiles(owner.token, b.id, { '.gitlab-ci.yml': YAML });
  const runner = await registerRunner(appFetch, token);
  const first = await requestJob(appFetch, runner);
  const second = await requestJob(appFetch, runner);
  return { owner, group, a, b, runner, first: first!.id, second: second!.id };
}

describe('GET /runners/:id/jobs', () => {
  it('lists the jobs the runner took with their projects; status filter, sort, and the reader’s projects only', async () => {
    const fx = await fixture();
    const res = await api.get(`/runners/${fx.runner.id}/jobs`, { token: fx.owner.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total')).toBe('2');
    expect(res.body.map((j: { id: number }) => j.id)).toEqual([fx.second, fx.first]);
    expect(res.body[1]).toMatchObject({ id: fx.first, status: 'running', name: 'build', stage: 'test', ref: 'master' });
    expect(res.body[1].project).toEqual({
      id: fx.a.id,
      description: fx.a.description,
      name: fx.a.name,
      name_with_namespace: fx.a.name_with_namespace,
      path: fx.a.path,
      path_with_namespace: fx.a.path_with_namespace,
      created_at: fx.a.created_at,
    });
    expect((await api.get(`/runners/${fx.runner.id}/jobs`, { token: fx.owner.token, query: { sort: 'asc' } })).body.map((j: { id: number }) => j.id)).toEqual([
      fx.first,
      fx.second,
    ]);
    expect((await api.get(`/runners/${fx.runner.id}/jobs`, { token: fx.owner.token, query: { status: 'success' } })).body).toEqual([]);
    expect((await api.get(`/runners/${fx.runner.id}/jobs`, { token: fx.owner.token, query: { status: 'bogus' } })).body).toEqual({
      error: 'status does not have a valid value',
    });
    expect((await api.get(`/runners/${fx.runner.id}/jobs`, { token: fx.owner.token, query: { order_by: 'name' } })).body).toEqual({
      error: 'order_by does not have a valid value',
    });
    // An administrator sees every job.
    expect((await api.get(`/runners/${fx.runner.id}/jobs`, { token: (await createAdmin()).token })).body).toHaveLength(2);
    expect(await api.get('/runners/99999999/jobs', { token: fx.owner.token })).toMatchObject({ status: 404, body: { message: '404 Runner Not Found' } });
  });

  describeAuthorization('GET /runners/:id/jobs', {
    fixture: async () => {
      const fx = await fixture();
      const maintainer = await createUser();
      await addMember(fx.owner.token, 'groups', fx.group.id, maintainer.user.id, 40);
      return { allowed: fx.owner.token, id: fx.runner.id, nonMember: (await createUser()).token, insufficientRole: maintainer.token };
    },
    call: (fx, token) => api.get(`/runners/${fx.id}/jobs`, { token }),
    nonMember: { status: 403, body: { message: '403 Forbidden - No access granted' } },
    insufficientRole: { status: 403, body: { message: '403 Forbidden - No access granted' } },
    success: 200,
  });
});
