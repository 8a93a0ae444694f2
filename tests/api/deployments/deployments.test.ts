// Deployments (GitLab 13.6 lib/api/deployments.rb): made by the API (the environment found or created by name) and
// by pipelines' jobs (following their jobs' statuses); the Deployment entity's field order; DeploymentsFinder's
// filters and orders; status changes along Deployment's state machine, refused for CI-made deployments; roles.
import { describe, expect, it } from 'vitest';
import { deployments as deploymentsTable } from '../../../db/schema/index.ts';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, queryCount, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';
import { ciProject } from '../pipelines/support.ts';

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const SHA = 'a'.repeat(40);

async function setup() {
  const owner = await createUser();
  const project = await createProject(owner.token, { visibility: 'private' });
  return { owner, project, base: `/projects/${project.id}/deployments` };
}

const deploy = (token: string, base: string, body: Record<string, unknown>) =>
  api.post(base, { token, body: { sha: SHA, ref: 'master', tag: false, status: 'success', ...body } });
const stored = async (projectId: number) => (await testDb().db.select().from(deploymentsTable)).filter((d) => d.projectId === projectId).length;

describe('POST /projects/:id/deployments', () => {
  it('creates a deployment and its environment (201, Entities::Deployment)', async () => {
    const { owner, project, base } = await setup();
    const res = await deploy(owner.token, base, { environment: 'production' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['id', 'iid', 'ref', 'sha', 'created_at', 'updated_at', 'user', 'environment', 'deployable', 'status']);
    expect(res.body).toEqual({
      id: expect.any(Number),
      iid: 1,
      ref: 'master',
      sha: SHA,
      created_at: ISO,
      updated_at: ISO,
      user: {
        id: owner.user.id,
        name: owner.user.name,
        username: owner.user.username,
        state: 'active',
        avatar_url: null,
        web_url: `${TEST_PUBLIC_URL}/${owner.user.username}`,
      },
      environment: { id: expect.any(Number), name: 'production', slug: 'production', external_url: null },
      deployable: null,
      status: 'success',
    });
    const again = await deploy(owner.token, base, { environment: 'production', status: 'running' });
    expect([again.body.iid, again.body.environment.id, again.body.status]).toEqual([2, res.body.environment.id, 'running']);
    const envs = await api.get(`/projects/${project.id}/environments`, { token: owner.token });
    expect(envs.body).toHaveLength(1);
    // The successful one is the environment's last deployment.
    const one = await api.get(`/projects/${project.id}/environments/${res.body.environment.id}`, { token: owner.token });
    expect(one.body.last_deployment).toMatchObject({ id: res.body.id, status: 'success', deployable: null });
  });

  it.each([
    [{ environment: 'x', status: 'created' }, { error: 'status does not have a valid value' }],
    [{ environment: 'x', tag: 'maybe' }, { error: 'tag is invalid' }],
    [{ environment: undefined }, { error: 'environment is missing' }],
    [
      { environment: '/bad' },
      { message: { name: ["can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'"] } },
    ],
  ])('refuses %j (400) and stores nothing', async (body, expected) => {
    const { owner, project, base } = await setup();
    const res = await deploy(owner.token, base, body);
    expect([res.status, res.body]).toEqual([400, expected]);
    expect(await stored(project.id)).toBe(0);
  });

  it('needs a developer; anonymous 401; stranger 404', async () => {
    const { owner, project, base } = await setup();
    const reporter = await createUser();
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    expect((await deploy(reporter.token, base, { environment: 'x' })).body).toEqual({ message: '403 Forbidden' });
    expect((await api.post(base, { body: { environment: 'x', sha: SHA, ref: 'master', tag: false, status: 'success' } })).status).toBe(401);
    const stranger = await createUser();
    expect((await deploy(stranger.token, base, { environment: 'x' })).body).toEqual({ message: '404 Project Not Found' });
    expect(await stored(project.id)).toBe(0);
    expect((await api.get(`/projects/${project.id}/environments`, { token: owner.token })).body).toEqual([]);
  });
});

describe('GET /projects/:id/deployments', () => {
  it('filters by environment, status and update time; orders by id, iid, ref, updated_at', async () => {
    const { owner, base } = await setup();
    const a = (await deploy(owner.token, base, { environment: 'production', ref: 'b-branch' })).body;
    const b = (await deploy(owner.token, base, { environment: 'staging', ref: 'a-branch', status: 'failed' })).body;
    const c = (await deploy(owner.token, base, { environment: 'production', ref: 'c-branch', status: 'running' })).body;
    const ids = async (query: Record<string, string>) => {
      const res = await api.get(base, { token: owner.token, query });
      expect(res.status).toBe(200);
      return res.body.map((d: { id: number }) => d.id);
    };
    expect(await ids({})).toEqual([a.id, b.id, c.id]);
    expect(await ids({ sort: 'desc' })).toEqual([c.id, b.id, a.id]);
    expect(await ids({ order_by: 'ref' })).toEqual([b.id, a.id, c.id]);
    expect(await ids({ order_by: 'iid', sort: 'desc' })).toEqual([c.id, b.id, a.id]);
    expect(await ids({ environment: 'production' })).toEqual([a.id, c.id]);
    expect(await ids({ status: 'failed' })).toEqual([b.id]);
    expect(await ids({ updated_after: '2000-01-01T00:00:00Z', updated_before: '2999-01-01T00:00:00Z' })).toEqual([a.id, b.id, c.id]);
    expect(await ids({ updated_after: '2999-01-01T00:00:00Z' })).toEqual([]);
    // Updating moves a deployment to the end of updated_at ascending.
    await api.put(`${base}/${a.id}`, { token: owner.token, body: { status: 'failed' } });
    expect((await ids({ order_by: 'updated_at' })).at(-1)).toBe(a.id);
    const bad = await api.get(base, { token: owner.token, query: { order_by: 'status' } });
    expect([bad.status, bad.body]).toEqual([400, { error: 'order_by does not have a valid value' }]);
    const page = await api.get(base, { token: owner.token, query: { per_page: 2 } });
    expect([page.body.length, page.headers.get('x-total'), page.headers.get('x-next-page')]).toEqual([2, '3', '2']);
  });

  it('one deployment; 404 for unknown; reporters read, guests 403', async () => {
    const { owner, project, base } = await setup();
    const d = (await deploy(owner.token, base, { environment: 'production' })).body;
    const reporter = await createUser();
    const guest = await createUser();
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
    const one = await api.get(`${base}/${d.id}`, { token: reporter.token });
    expect([one.status, one.body]).toEqual([200, d]);
    expect((await api.get(`${base}/999999`, { token: owner.token })).body).toEqual({ message: '404 Not found' });
    expect((await api.get(base, { token: guest.token })).body).toEqual({ message: '403 Forbidden' });
    expect((await api.get(base)).status).toBe(401);
  });
});

describe('PUT /projects/:id/deployments/:deployment_id', () => {
  it("moves along Deployment's state machine", async () => {
    const { owner, base } = await setup();
    const d = (await deploy(owner.token, base, { environment: 'production', status: 'running' })).body;
    const ok = await api.put(`${base}/${d.id}`, { token: owner.token, body: { status: 'success' } });
    expect([ok.status, ok.body.status, Object.keys(ok.body)]).toEqual([200, 'success', Object.keys(d)]);
    const run = await api.put(`${base}/${d.id}`, { token: owner.token, body: { status: 'running' } });
    expect([run.status, run.body]).toEqual([400, { message: { status: ['cannot transition via "run"'] } }]);
    const same = await api.put(`${base}/${d.id}`, { token: owner.token, body: { status: 'success' } });
    expect([same.status, same.body]).toEqual([400, { message: { status: ['cannot transition via "succeed"'] } }]);
    expect((await api.put(`${base}/${d.id}`, { token: owner.token, body: {} })).body).toEqual({
      error: 'status is missing, status does not have a valid value',
    });
    expect((await api.put(`${base}/999999`, { token: owner.token, body: { status: 'failed' } })).body).toEqual({ message: '404 Not found' });
  });

  it('refuses CI-made deployments and reporters', async () => {
    const yaml = 'deploy:\n  script: [x]\n  environment: production\n';
    const { owner, project } = await ciProject(yaml);
    const base = `/projects/${project.id}/deployments`;
    const [d] = (await api.get(base, { token: owner.token })).body;
    expect(d.deployable).toMatchObject({ name: 'deploy' });
    const res = await api.put(`${base}/${d.id}`, { token: owner.token, body: { status: 'success' } });
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden - Deployments created using GitLab CI can not be updated using the API' }]);
    const reporter = await createUser();
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    expect((await api.put(`${base}/${d.id}`, { token: reporter.token, body: { status: 'success' } })).body).toEqual({ message: '403 Forbidden' });
  });
});

describe('deployments follow their jobs', () => {
  it('recording costs one statement, and none without environments', async () => {
    const plain = await ciProject('build:\n  script: [x]\n');
    const deploying = await ciProject('build:\n  script: [x]\n  environment: production\n');
    const run = async (p: typeof plain) => api.post(`/projects/${p.project.id}/pipeline`, { token: p.owner.token, body: { ref: 'master' } });
    const [a, b] = [await run(plain), await run(deploying)];
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(queryCount(b) - queryCount(a)).toBeLessThanOrEqual(1);
    expect((await api.get(`/projects/${deploying.project.id}/deployments`, { token: deploying.owner.token })).body.map((d: { iid: number }) => d.iid)).toEqual([
      1, 2,
    ]);
  });

  it('a canceled pipeline cancels its deployments; a played manual job runs its deployment', async () => {
    const yaml =
      'stages: [deploy]\nproduction:\n  stage: deploy\n  script: [x]\n  when: manual\n  environment: production\nstaging:\n  stage: deploy\n  script: [x]\n  environment:\n    name: staging\n';
    const { owner, project } = await ciProject(yaml);
    const base = `/projects/${project.id}/deployments`;
    const statuses = async () =>
      Object.fromEntries(
        (await api.get(base, { token: owner.token })).body.map((d: { environment: { name: string }; status: string }) => [d.environment.name, d.status]),
      );
    expect(await statuses()).toEqual({ production: 'created', staging: 'created' });
    const jobs = (await api.get(`/projects/${project.id}/jobs`, { token: owner.token })).body as Array<{ id: number; name: string; pipeline: { id: number } }>;
    const production = jobs.find((j) => j.name === 'production')!;
    const pipelineId = production.pipeline.id;
    // Canceling ends staging (pending); the manual job is left for later.
    await api.post(`/projects/${project.id}/pipelines/${pipelineId}/cancel`, { token: owner.token });
    expect(await statuses()).toEqual({ production: 'created', staging: 'canceled' });
    const played = await api.post(`/projects/${project.id}/jobs/${production.id}/play`, { token: owner.token });
    expect(played.status).toBe(200);
    expect(await statuses()).toEqual({ production: 'running', staging: 'canceled' });
    const finished = (await testDb().db.select().from(deploymentsTable)).filter((d) => d.projectId === project.id);
    expect(finished.map((d) => [d.status, d.finishedAt !== null]).sort()).toEqual([
      ['canceled', true],
      ['running', false],
    ]);
  });
});
