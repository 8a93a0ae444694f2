// Protected refs in CI (GitLab 13.6 Chain::Validate::Abilities#allowed_to_write_ref?, Ci::Pipeline#protected_ref?):
// a pipeline on a protected branch needs push or merge access to it, for POST /pipeline and for a trigger (which
// runs as its owner, checked when it fires); a pipeline on a protected ref is protected, and a runner registered
// with `access_level: ref_protected` takes only those jobs. `master` is protected when it is created.
import { describe, expect, it } from 'vitest';
import { api, appFetch } from '../../helpers/app.ts';
import { registerRunner, requestJob, type Fetch } from '../../helpers/ci-runner.ts';
import { addMember } from '../../factories/groups.ts';
import { createUser } from '../../factories/users.ts';
import { ciProject } from './support.ts';

const fetch: Fetch = (input, init) => appFetch(input, init);
const YAML = 'job:\n  script: [echo hi]\n';
const refused = (ref: string) => ({ message: { base: [`Insufficient permissions for protected ref '${ref}'`] } });

async function fixture() {
  const base = await ciProject(YAML);
  const [maintainer, developer] = await Promise.all([createUser(), createUser()]);
  await addMember(base.owner.token, 'projects', base.project.id, maintainer.user.id, 40);
  await addMember(base.owner.token, 'projects', base.project.id, developer.user.id, 30);
  const branch = await api.post(`/projects/${base.project.id}/repository/branches`, { token: base.owner.token, body: { branch: 'feature', ref: 'master' } });
  expect(branch.status).toBe(201);
  return { ...base, maintainer, developer };
}

const runPipeline = (token: string, projectId: number, ref: string) => api.post(`/projects/${projectId}/pipeline`, { token, body: { ref } });

describe('POST /projects/:id/pipeline on a protected ref', () => {
  it('refuses a developer on protected master (400, nothing stored); a maintainer, or any branch the developer may push, runs', async () => {
    const fx = await fixture();
    const before = (await api.get(`/projects/${fx.project.id}/pipelines`, { token: fx.owner.token })).headers.get('x-total');
    const dev = await runPipeline(fx.developer.token, fx.project.id, 'master');
    expect([dev.status, dev.body]).toEqual([400, refused('master')]);
    expect((await api.get(`/projects/${fx.project.id}/pipelines`, { token: fx.owner.token })).headers.get('x-total')).toBe(before);
    expect((await runPipeline(fx.developer.token, fx.project.id, 'feature')).status).toBe(201);
    expect((await runPipeline(fx.maintainer.token, fx.project.id, 'master')).status).toBe(201);
  });

  it('lets a developer run on a protected branch developers may merge to', async () => {
    const fx = await fixture();
    const rule = await api.post(`/projects/${fx.project.id}/protected_branches`, {
      token: fx.owner.token,
      body: { name: 'feature', push_access_level: 40, merge_access_level: 30 },
    });
    expect(rule.status).toBe(201);
    expect((await runPipeline(fx.developer.token, fx.project.id, 'feature')).status).toBe(201);
  });

  it('refuses a protected tag the developer may not create', async () => {
    const fx = await fixture();
    expect((await api.post(`/projects/${fx.project.id}/repository/tags`, { token: fx.owner.token, body: { tag_name: 'v1.0', ref: 'master' } })).status).toBe(
      201,
    );
    expect((await api.post(`/projects/${fx.project.id}/protected_tags`, { token: fx.owner.token, body: { name: 'v*' } })).status).toBe(201);
    const dev = await runPipeline(fx.developer.token, fx.project.id, 'v1.0');
    expect([dev.status, dev.body]).toEqual([400, refused('v1.0')]);
    expect((await runPipeline(fx.maintainer.token, fx.project.id, 'v1.0')).status).toBe(201);
  });

  it('answers a missing ref as before', async () => {
    const fx = await fixture();
    const res = await runPipeline(fx.developer.token, fx.project.id, 'nope');
    expect([res.status, res.body]).toEqual([400, { message: { base: ['Reference not found'] } }]);
  });
});

describe('a trigger on a protected ref', () => {
  it('is refused once its owner is demoted to developer, checked when it fires', async () => {
    const fx = await fixture();
    const created = await api.post(`/projects/${fx.project.id}/triggers`, { token: fx.maintainer.token, body: { description: 'deploy' } });
    expect(created.status).toBe(201);
    const fire = (ref: string) => api.post(`/projects/${fx.project.id}/trigger/pipeline`, { body: { token: created.body.token, ref } });
    expect((await fire('master')).status).toBe(201);
    const demoted = await api.put(`/projects/${fx.project.id}/members/${fx.maintainer.user.id}`, { token: fx.owner.token, body: { access_level: 30 } });
    expect(demoted.status).toBe(200);
    const res = await fire('master');
    expect([res.status, res.body]).toEqual([400, refused('master')]);
    expect((await fire('refs/heads/master')).body).toEqual(refused('master'));
    expect((await fire('feature')).status).toBe(201);
  });
});

describe('protected pipelines and ref_protected runners', () => {
  it('a pipeline on protected master is protected and goes to a ref_protected runner; one on an unprotected branch does not', async () => {
    const fx = await fixture();
    const project = await api.get(`/projects/${fx.project.id}`, { token: fx.owner.token });
    const protectedRunner = await registerRunner(fetch, project.body.runners_token, { accessLevel: 'ref_protected' });
    // The push pipeline of master's first commit: protected, so the ref_protected runner takes its job.
    const first = await requestJob(fetch, protectedRunner);
    expect(first?.git_info.ref).toBe('master');
    expect(first?.variables).toContainEqual({ key: 'CI_COMMIT_REF_PROTECTED', value: 'true', public: true, masked: false });
    // A feature branch pipeline is not protected: the ref_protected runner gets nothing, any other runner takes it.
    expect((await runPipeline(fx.developer.token, fx.project.id, 'feature')).status).toBe(201);
    expect(await requestJob(fetch, protectedRunner)).toBeNull();
    const anyRunner = await registerRunner(fetch, project.body.runners_token);
    const job = await requestJob(fetch, anyRunner);
    expect(job?.git_info.ref).toBe('feature');
    expect(job?.variables).toContainEqual({ key: 'CI_COMMIT_REF_PROTECTED', value: 'false', public: true, masked: false });
  });
});

describe('protected ref wildcards', () => {
  it('match in linear time (`*a*a*a*a*a*a*a*a*b` against a long name)', async () => {
    const fx = await fixture();
    const rule = await api.post(`/projects/${fx.project.id}/protected_branches`, { token: fx.owner.token, body: { name: '*a*a*a*a*a*a*a*a*b' } });
    expect(rule.status).toBe(201);
    const started = performance.now();
    const name = 'a'.repeat(120);
    const created = await api.post(`/projects/${fx.project.id}/repository/branches`, { token: fx.developer.token, body: { branch: name, ref: 'master' } });
    expect([created.status, created.body.protected]).toEqual([201, false]);
    const matching = await api.post(`/projects/${fx.project.id}/repository/branches`, {
      token: fx.developer.token,
      body: { branch: `${name}b`, ref: 'master' },
    });
    expect([matching.status, matching.body]).toEqual([400, { message: 'You are not allowed to create protected branches on this project.' }]);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
