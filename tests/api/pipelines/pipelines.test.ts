// Pipelines (GitLab 13.6 lib/api/pipelines.rb): made from the repository's .gitlab-ci.yml on a push and on
// POST /projects/:id/pipeline; listed, read, retried, canceled and deleted.
import { describe, expect, it } from 'vitest';
import { api, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { postForm } from '../../helpers/raw-form.ts';
import { addMember } from '../../factories/groups.ts';
import { createUser } from '../../factories/users.ts';
import { ciProject, commitFiles } from './support.ts';

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

async function jobsOf(token: string, projectId: number, pipelineId: number) {
  const res = await api.get(`/projects/${projectId}/pipelines/${pipelineId}/jobs`, { token, query: { per_page: 100 } });
  expect(res.status).toBe(200);
  return Object.fromEntries((res.body as Array<{ name: string; status: string }>).map((j) => [j.name, j.status]));
}

describe('push pipelines', () => {
  it('a commit with .gitlab-ci.yml makes a push pipeline with the processed statuses', async () => {
    const { owner, project, sha } = await ciProject();
    const list = await api.get(`/projects/${project.id}/pipelines`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total')).toBe('1');
    const [p] = list.body;
    expect(p).toEqual({
      id: expect.any(Number),
      sha,
      ref: 'master',
      status: 'pending',
      created_at: ISO,
      updated_at: ISO,
      web_url: `${TEST_PUBLIC_URL}/${project.path_with_namespace}/-/pipelines/${p.id}`,
    });
    // build runs first; rspec needs only build; lint waits for the build stage; deploy is manual after test.
    expect(await jobsOf(owner.token, project.id, p.id)).toEqual({ build: 'pending', lint: 'created', rspec: 'created', deploy: 'created' });
  });

  it('a commit without .gitlab-ci.yml makes none', async () => {
    const { owner, project } = await ciProject(null);
    const list = await api.get(`/projects/${project.id}/pipelines`, { token: owner.token });
    expect([list.status, list.body, list.headers.get('x-total')]).toEqual([200, [], '0']);
  });

  it('an invalid file makes a failed pipeline carrying yaml_errors', async () => {
    const { owner, project } = await ciProject('rspec:\n  script: x\n  when: later\n');
    const [p] = (await api.get(`/projects/${project.id}/pipelines`, { token: owner.token })).body;
    const one = await api.get(`/projects/${project.id}/pipelines/${p.id}`, { token: owner.token });
    expect(one.body).toMatchObject({ status: 'failed', yaml_errors: 'jobs:rspec when should be one of: on_success, on_failure, always, manual or delayed' });
    expect(await jobsOf(owner.token, project.id, p.id)).toEqual({});
  });
});

describe('POST /projects/:id/pipeline', () => {
  it('creates a pipeline with its variables (201, Entities::Pipeline)', async () => {
    const { owner, project, sha } = await ciProject();
    const res = await api.post(`/projects/${project.id}/pipeline`, {
      token: owner.token,
      body: {
        ref: 'master',
        variables: [
          { key: 'A', value: '1' },
          { key: 'F', value: 'file text', variable_type: 'file' },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual([
      'id',
      'sha',
      'ref',
      'status',
      'created_at',
      'updated_at',
      'web_url',
      'before_sha',
      'tag',
      'yaml_errors',
      'user',
      'started_at',
      'finished_at',
      'committed_at',
      'duration',
      'coverage',
      'detailed_status',
    ]);
    expect(res.body).toMatchObject({
      sha,
      ref: 'master',
      status: 'pending',
      before_sha: '0000000000000000000000000000000000000000',
      tag: false,
      yaml_errors: null,
      user: { id: owner.user.id, username: owner.user.username },
      detailed_status: {
        icon: 'status_pending',
        text: 'pending',
        label: 'pending',
        group: 'pending',
        tooltip: 'pending',
        has_details: true,
        details_path: `/${project.path_with_namespace}/-/pipelines/${res.body.id}`,
        illustration: null,
        favicon: '/assets/ci_favicons/favicon_status_pending.png',
      },
    });
    const vars = await api.get(`/projects/${project.id}/pipelines/${res.body.id}/variables`, { token: owner.token });
    expect([vars.status, vars.body]).toEqual([
      200,
      [
        { variable_type: 'env_var', key: 'A', value: '1' },
        { variable_type: 'file', key: 'F', value: 'file text' },
      ],
    ]);
  });

  it('reads variables from a form body as the Ruby gem sends them (variables[][key]=..&variables[][value]=..)', async () => {
    const { owner, project } = await ciProject();
    // HTTParty's HashConversions: an Array of Hashes becomes `variables[][key]` names, percent-encoded.
    const form =
      'ref=master&variables%5B%5D%5Bkey%5D=K&variables%5B%5D%5Bvalue%5D=V&variables%5B%5D%5Bkey%5D=F&variables%5B%5D%5Bvalue%5D=file+text&variables%5B%5D%5Bvariable_type%5D=file';
    const res = await postForm(`/projects/${project.id}/pipeline`, owner.token, form);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const vars = await api.get(`/projects/${project.id}/pipelines/${res.body.id}/variables`, { token: owner.token });
    expect([vars.status, vars.body]).toEqual([
      200,
      [
        { variable_type: 'env_var', key: 'K', value: 'V' },
        { variable_type: 'file', key: 'F', value: 'file text' },
      ],
    ]);
  });

  it.each([['an unknown ref', { ref: 'nope' }, { base: ['Reference not found'] }]])(
    'refuses %s with base errors and stores nothing',
    async (_n, body, message) => {
      const { owner, project } = await ciProject();
      const res = await api.post(`/projects/${project.id}/pipeline`, { token: owner.token, body });
      expect([res.status, res.body]).toEqual([400, { message }]);
      expect((await api.get(`/projects/${project.id}/pipelines`, { token: owner.token })).headers.get('x-total')).toBe('1');
    },
  );

  it('refuses a ref without .gitlab-ci.yml', async () => {
    const { owner, project } = await ciProject(null);
    const res = await api.post(`/projects/${project.id}/pipeline`, { token: owner.token, body: { ref: 'master' } });
    expect([res.status, res.body]).toEqual([400, { message: { base: ['Missing CI config file'] } }]);
  });

  it('does not keep a pipeline for an invalid file (save_on_errors: false)', async () => {
    const { owner, project } = await ciProject('rspec:\n  script: x\n  when: later\n');
    const res = await api.post(`/projects/${project.id}/pipeline`, { token: owner.token, body: { ref: 'master' } });
    expect([res.status, res.body]).toEqual([
      400,
      { message: { base: ['jobs:rspec when should be one of: on_success, on_failure, always, manual or delayed'] } },
    ]);
    expect((await api.get(`/projects/${project.id}/pipelines`, { token: owner.token })).headers.get('x-total')).toBe('1');
  });

  it('refuses when every job is filtered out', async () => {
    const { owner, project } = await ciProject('rspec:\n  script: x\n  only: [tags]\n');
    const res = await api.post(`/projects/${project.id}/pipeline`, { token: owner.token, body: { ref: 'master' } });
    expect([res.status, res.body]).toEqual([400, { message: { base: ['No stages / jobs for this pipeline.'] } }]);
  });

  it.each([
    [{}, 'ref is missing'],
    [{ ref: 'master', variables: [{ value: 'x' }] }, 'variables[0][key] is missing'],
    [{ ref: 'master', variables: [{ key: 'A', value: 'x', variable_type: 'other' }] }, 'variables[0][variable_type] does not have a valid value'],
  ])('bad parameters %j: 400', async (body, error) => {
    const { owner, project } = await ciProject();
    const res = await api.post(`/projects/${project.id}/pipeline`, { token: owner.token, body });
    expect([res.status, res.body]).toEqual([400, { error }]);
  });

  it('needs a developer; anonymous callers are 401', async () => {
    const { owner, project } = await ciProject();
    const reporter = await createUser();
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    expect((await api.post(`/projects/${project.id}/pipeline`, { token: reporter.token, body: { ref: 'master' } })).status).toBe(403);
    expect((await api.post(`/projects/${project.id}/pipeline`, { body: { ref: 'master' } })).status).toBe(401);
    const stranger = await createUser();
    expect((await api.post(`/projects/${project.id}/pipeline`, { token: stranger.token, body: { ref: 'master' } })).body).toEqual({
      message: '404 Project Not Found',
    });
  });
});

describe('listing filters', () => {
  it('filters by scope, status, ref, sha, yaml_errors and username and orders', async () => {
    const { owner, project, sha } = await ciProject();
    await commitFiles(owner.token, project.id, { 'other.txt': 'x' }, 'feature', 'on a branch');
    const second = (await api.post(`/projects/${project.id}/pipeline`, { token: owner.token, body: { ref: 'master' } })).body;
    const ids = async (query: Record<string, string>) =>
      (await api.get(`/projects/${project.id}/pipelines`, { token: owner.token, query })).body.map((p: { id: number }) => p.id);
    const all = await ids({});
    expect(all).toHaveLength(3);
    expect(all[0]).toBe(second.id);
    expect(await ids({ sort: 'asc' })).toEqual([...all].reverse());
    expect(await ids({ ref: 'feature' })).toHaveLength(1);
    expect(await ids({ sha })).toEqual([second.id, all[2]]);
    expect(await ids({ scope: 'branches' })).toHaveLength(2);
    expect(await ids({ scope: 'tags' })).toEqual([]);
    expect(await ids({ status: 'pending' })).toHaveLength(3);
    expect(await ids({ yaml_errors: 'true' })).toEqual([]);
    expect(await ids({ username: owner.user.username })).toHaveLength(3);
    const bad = await api.get(`/projects/${project.id}/pipelines`, { token: owner.token, query: { scope: 'done' } });
    expect([bad.status, bad.body]).toEqual([400, { error: 'scope does not have a valid value' }]);
  });
});

describe('cancel, retry, delete', () => {
  it('cancel cancels what has not finished; retry runs failed and canceled jobs again', async () => {
    const { owner, project } = await ciProject();
    const [p] = (await api.get(`/projects/${project.id}/pipelines`, { token: owner.token })).body;
    const canceled = await api.post(`/projects/${project.id}/pipelines/${p.id}/cancel`, { token: owner.token });
    expect([canceled.status, canceled.body.status]).toEqual([200, 'canceled']);
    expect(await jobsOf(owner.token, project.id, p.id)).toEqual({ build: 'canceled', lint: 'canceled', rspec: 'canceled', deploy: 'canceled' });
    const retried = await api.post(`/projects/${project.id}/pipelines/${p.id}/retry`, { token: owner.token });
    expect([retried.status, retried.body.status]).toEqual([201, 'pending']);
    expect(await jobsOf(owner.token, project.id, p.id)).toEqual({ build: 'pending', lint: 'created', rspec: 'created', deploy: 'created' });
    // Every job is listed by the project's listing, retried ones too.
    expect((await api.get(`/projects/${project.id}/jobs`, { token: owner.token })).headers.get('x-total')).toBe('8');
  });

  it('a job retried alone: a pending copy, the original kept as retried, the skipped jobs after it reopened, all in one write', async () => {
    const { owner, project } = await ciProject();
    const [p] = (await api.get(`/projects/${project.id}/pipelines`, { token: owner.token })).body;
    await api.post(`/projects/${project.id}/pipelines/${p.id}/cancel`, { token: owner.token });
    const jobs = (await api.get(`/projects/${project.id}/pipelines/${p.id}/jobs`, { token: owner.token })).body as Array<{ id: number; name: string }>;
    const build = jobs.find((j) => j.name === 'build')!;
    const retried = await api.post(`/projects/${project.id}/jobs/${build.id}/retry`, { token: owner.token });
    expect(retried.status, retried.text).toBe(201);
    expect(retried.body).toMatchObject({ name: 'build', status: 'pending', user: { id: owner.user.id } });
    expect(retried.body.id).not.toBe(build.id);
    expect(await jobsOf(owner.token, project.id, p.id)).toMatchObject({ build: 'pending' });
    // The original is retried now: retrying it again is refused and copies nothing.
    const again = await api.post(`/projects/${project.id}/jobs/${build.id}/retry`, { token: owner.token });
    expect([again.status, again.body]).toEqual([403, { message: '403 Forbidden - Job is not retryable' }]);
    expect((await api.get(`/projects/${project.id}/jobs`, { token: owner.token })).headers.get('x-total')).toBe('5');
  });

  it('only owners delete; the pipeline and its jobs are gone', async () => {
    const { owner, project } = await ciProject();
    const dev = await createUser();
    await addMember(owner.token, 'projects', project.id, dev.user.id, 30);
    const [p] = (await api.get(`/projects/${project.id}/pipelines`, { token: owner.token })).body;
    expect((await api.delete(`/projects/${project.id}/pipelines/${p.id}`, { token: dev.token })).status).toBe(403);
    expect((await api.delete(`/projects/${project.id}/pipelines/${p.id}`, { token: owner.token })).status).toBe(204);
    expect((await api.get(`/projects/${project.id}/pipelines/${p.id}`, { token: owner.token })).body).toEqual({ message: '404 Not found' });
    expect((await api.get(`/projects/${project.id}/jobs`, { token: owner.token })).body).toEqual([]);
  });
});
