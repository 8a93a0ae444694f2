// Environments (GitLab 13.6 lib/api/environments.rb): the Environment entities with their field order, GitLab's
// slug algorithm and name rules, list filters, update, delete (stopped only), stop (playing the on_stop job of the
// last successful deployment), and the roles (reporters read, developers write, anonymous 401, strangers 404).
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ciBuilds, environments } from '../../../db/schema/index.ts';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';
import { ciProject } from '../pipelines/support.ts';

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

/** Gitlab::Slug::Environment's suffix, computed here independently of the app. */
const suffix = (name: string) =>
  BigInt(`0x${createHash('sha256').update(name).digest('hex')}`)
    .toString(36)
    .slice(-6);

async function setup(visibility: 'private' | 'public' = 'private') {
  const owner = await createUser();
  const project = await createProject(owner.token, { visibility });
  return { owner, project, base: `/projects/${project.id}/environments` };
}

const countEnvironments = async (projectId: number) => (await testDb().db.select().from(environments)).filter((e) => e.projectId === projectId).length;

describe('POST /projects/:id/environments', () => {
  it('creates an environment (201, Entities::Environment with the project)', async () => {
    const { owner, project, base } = await setup();
    const res = await api.post(base, { token: owner.token, body: { name: 'production', external_url: 'https://prod.example.com' } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['id', 'name', 'slug', 'external_url', 'project', 'state']);
    expect(res.body).toMatchObject({ name: 'production', slug: 'production', external_url: 'https://prod.example.com', state: 'available' });
    expect(res.body.project).toMatchObject({
      id: project.id,
      path_with_namespace: project.path_with_namespace,
      web_url: `${TEST_PUBLIC_URL}/${project.path_with_namespace}`,
    });
    expect(Object.keys(res.body.project)).toContain('namespace');
  });

  it.each([
    ['production', 'production'],
    ['review/feature-1', `review-feature-1-${suffix('review/feature-1')}`],
    ['Production', `production-${suffix('Production')}`],
    ['1st env', `env-1st-env-${suffix('1st env')}`],
    ['a-very-long-environment-name-here', `a-very-long-envir-${suffix('a-very-long-environment-name-here')}`],
    ['staging-', 'staging'],
  ])('slug of %j is %j', async (name, slug) => {
    const { owner, base } = await setup();
    const res = await api.post(base, { token: owner.token, body: { name } });
    expect([res.status, res.body.slug]).toEqual([201, slug]);
  });

  it('refuses a slug parameter, a taken name, a bad name or URL, and stores nothing', async () => {
    const { owner, project, base } = await setup();
    await api.post(base, { token: owner.token, body: { name: 'production' } });
    const cases: Array<[Record<string, unknown>, unknown]> = [
      [{ name: 'x', slug: 'x' }, { error: 'slug is automatically generated and cannot be changed' }],
      [{}, { error: 'name is missing' }],
      [
        { name: '' },
        {
          message: {
            name: ["can't be blank", "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'"],
          },
        },
      ],
      [{ name: 'production' }, { message: { name: ['has already been taken'], slug: ['has already been taken'] } }],
      [
        { name: '/review' },
        { message: { name: ["can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'"] } },
      ],
      [
        { name: 'a*b' },
        { message: { name: ["can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'"] } },
      ],
      [{ name: 'ok', external_url: 'not a url' }, { message: { external_url: ['must be a valid URL'] } }],
    ];
    for (const [body, expected] of cases) {
      const res = await api.post(base, { token: owner.token, body });
      expect([res.status, res.body]).toEqual([400, expected]);
    }
    expect(await countEnvironments(project.id)).toBe(1);
  });

  it('needs a developer; anonymous 401, stranger 404', async () => {
    const { owner, project, base } = await setup();
    const reporter = await createUser();
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    expect((await api.post(base, { token: reporter.token, body: { name: 'x' } })).body).toEqual({ message: '403 Forbidden' });
    expect((await api.post(base, { body: { name: 'x' } })).status).toBe(401);
    const stranger = await createUser();
    expect((await api.post(base, { token: stranger.token, body: { name: 'x' } })).body).toEqual({ message: '404 Project Not Found' });
    expect(await countEnvironments(project.id)).toBe(0);
  });
});

describe('GET /projects/:id/environments', () => {
  it('lists by id with name and prefix search, paginated', async () => {
    const { owner, base } = await setup();
    for (const name of ['production', 'review/a', 'review/b', 'staging']) await api.post(base, { token: owner.token, body: { name } });
    const names = async (query: Record<string, string | number>) =>
      (await api.get(base, { token: owner.token, query })).body.map((e: { name: string }) => e.name);
    expect(await names({})).toEqual(['production', 'review/a', 'review/b', 'staging']);
    expect(await names({ name: 'review/a' })).toEqual(['review/a']);
    expect(await names({ search: 'rev' })).toEqual(['review/a', 'review/b']);
    expect(await names({ search: 'REVIEW/' })).toEqual(['review/a', 'review/b']);
    expect(await names({ search: '%' })).toEqual([]);
    const page = await api.get(base, { token: owner.token, query: { per_page: 1, page: 2 } });
    expect([page.body.map((e: { name: string }) => e.name), page.headers.get('x-total')]).toEqual([['review/a'], '4']);
    expect(Object.keys(page.body[0])).toEqual(['id', 'name', 'slug', 'external_url', 'project', 'state']);
    const both = await api.get(base, { token: owner.token, query: { name: 'a', search: 'b' } });
    expect([both.status, both.body]).toEqual([400, { error: 'name, search cannot be used together' }]);
  });

  it('reporters read; guests are 403 even on public projects; anonymous 401', async () => {
    const { owner, project, base } = await setup('public');
    const guest = await createUser();
    const reporter = await createUser();
    await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    expect((await api.get(base, { token: reporter.token })).status).toBe(200);
    expect((await api.get(base, { token: guest.token })).body).toEqual({ message: '403 Forbidden' });
    expect((await api.get(base)).body).toEqual({ message: '401 Unauthorized' });
  });
});

describe('one environment, update, delete', () => {
  it('GET one has last_deployment (null without a successful one) and no project', async () => {
    const { owner, base } = await setup();
    const created = (await api.post(base, { token: owner.token, body: { name: 'production' } })).body;
    const res = await api.get(`${base}/${created.id}`, { token: owner.token });
    expect([res.status, res.body]).toEqual([
      200,
      { id: created.id, name: 'production', slug: 'production', external_url: null, last_deployment: null, state: 'available' },
    ]);
    expect((await api.get(`${base}/999999`, { token: owner.token })).body).toEqual({ message: '404 Not found' });
    expect((await api.get(`${base}/abc`, { token: owner.token })).body).toEqual({ error: 'environment_id is invalid' });
  });

  it('PUT renames (the slug stays) and changes the URL; refuses a slug and a taken name', async () => {
    const { owner, base } = await setup();
    const a = (await api.post(base, { token: owner.token, body: { name: 'alpha' } })).body;
    await api.post(base, { token: owner.token, body: { name: 'beta' } });
    const res = await api.put(`${base}/${a.id}`, { token: owner.token, body: { name: 'review/alpha', external_url: 'http://alpha.example' } });
    expect([res.status, res.body.name, res.body.slug, res.body.external_url]).toEqual([200, 'review/alpha', 'alpha', 'http://alpha.example']);
    expect((await api.put(`${base}/${a.id}`, { token: owner.token, body: { slug: 'x' } })).body).toEqual({
      error: 'slug is automatically generated and cannot be changed',
    });
    const taken = await api.put(`${base}/${a.id}`, { token: owner.token, body: { name: 'beta' } });
    expect([taken.status, taken.body]).toEqual([400, { message: { name: ['has already been taken'] } }]);
    const cleared = await api.put(`${base}/${a.id}`, { token: owner.token, body: { external_url: '' } });
    expect([cleared.status, cleared.body.external_url, cleared.body.name]).toEqual([200, null, 'review/alpha']);
  });

  it('DELETE: an available environment is 403; a stopped one goes (204); reporters 403', async () => {
    const { owner, project, base } = await setup();
    const reporter = await createUser();
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    const e = (await api.post(base, { token: owner.token, body: { name: 'production' } })).body;
    expect((await api.delete(`${base}/${e.id}`, { token: owner.token })).body).toEqual({ message: '403 Forbidden' });
    const stopped = await api.post(`${base}/${e.id}/stop`, { token: owner.token });
    expect([stopped.status, stopped.body.state]).toEqual([200, 'stopped']);
    expect((await api.delete(`${base}/${e.id}`, { token: reporter.token })).status).toBe(403);
    expect((await api.delete(`${base}/${e.id}`, { token: owner.token })).status).toBe(204);
    expect(await countEnvironments(project.id)).toBe(0);
    expect((await api.delete(`${base}/${e.id}`, { token: owner.token })).body).toEqual({ message: '404 Not found' });
  });
});

const REVIEW_YAML = `stages: [deploy]
deploy_review:
  stage: deploy
  script: [deploy]
  environment:
    name: review/x
    url: https://x.review.example
    on_stop: stop_review
stop_review:
  stage: deploy
  script: [stop]
  when: manual
  environment:
    name: review/x
    action: stop
`;

describe('environments made by pipelines', () => {
  it("a job's environment is created with a deployment; stop plays the on_stop job", async () => {
    const { owner, project, sha } = await ciProject(REVIEW_YAML);
    const base = `/projects/${project.id}/environments`;
    const list = await api.get(base, { token: owner.token });
    expect(list.body).toHaveLength(1);
    const env = list.body[0];
    expect(env).toMatchObject({ name: 'review/x', slug: `review-x-${suffix('review/x')}`, external_url: 'https://x.review.example', state: 'available' });
    // One deployment (the stop job makes none), created, its job the deployable.
    const deployments = await api.get(`/projects/${project.id}/deployments`, { token: owner.token });
    expect(deployments.body).toHaveLength(1);
    const [d] = deployments.body;
    expect(d).toMatchObject({ iid: 1, ref: 'master', sha, status: 'created', user: { id: owner.user.id }, environment: { id: env.id, name: 'review/x' } });
    expect(d.deployable).toMatchObject({ name: 'deploy_review', status: 'pending', pipeline: { sha } });
    const jobs = (await api.get(`/projects/${project.id}/jobs`, { token: owner.token })).body as Array<{
      id: number;
      name: string;
      status: string;
      pipeline: { id: number };
    }>;
    const deploy = jobs.find((j) => j.name === 'deploy_review')!;
    const stopJob = jobs.find((j) => j.name === 'stop_review')!;
    expect(stopJob.status).toBe('manual');

    // The deploy job finishes (as a runner would report it); the next processing (here the one a cancel runs, which
    // leaves finished and manual jobs alone) makes the deployment successful.
    await testDb().db.update(ciBuilds).set({ status: 'success', startedAt: new Date(), finishedAt: new Date() }).where(eq(ciBuilds.id, deploy.id));
    expect((await api.post(`/projects/${project.id}/pipelines/${deploy.pipeline.id}/cancel`, { token: owner.token })).status).toBe(200);
    const one = await api.get(`${base}/${env.id}`, { token: owner.token });
    expect(Object.keys(one.body)).toEqual(['id', 'name', 'slug', 'external_url', 'last_deployment', 'state']);
    expect(Object.keys(one.body.last_deployment)).toEqual(['id', 'iid', 'ref', 'sha', 'created_at', 'updated_at', 'user', 'deployable', 'status']);
    expect(one.body.last_deployment).toMatchObject({ id: d.id, status: 'success', created_at: ISO, deployable: { id: deploy.id, status: 'success' } });

    // A reporter may not stop it; a developer does, and the stop job is queued.
    const reporter = await createUser();
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    expect((await api.post(`${base}/${env.id}/stop`, { token: reporter.token })).status).toBe(403);
    const stopped = await api.post(`${base}/${env.id}/stop`, { token: owner.token });
    expect([stopped.status, stopped.body.state]).toEqual([200, 'stopped']);
    const after = await api.get(`/projects/${project.id}/jobs/${stopJob.id}`, { token: owner.token });
    expect([after.body.status, after.body.user.id]).toEqual(['pending', owner.user.id]);
    // Stopping again changes nothing.
    expect((await api.post(`${base}/${env.id}/stop`, { token: owner.token })).body.state).toBe('stopped');
    // A later successful deployment makes it available again.
    const next = (await api.post(`/projects/${project.id}/pipeline`, { token: owner.token, body: { ref: 'master' } })).body;
    const nextJobs = (await api.get(`/projects/${project.id}/pipelines/${next.id}/jobs`, { token: owner.token })).body as Array<{ id: number; name: string }>;
    const nextDeploy = nextJobs.find((j) => j.name === 'deploy_review')!;
    await testDb().db.update(ciBuilds).set({ status: 'success' }).where(eq(ciBuilds.id, nextDeploy.id));
    await api.post(`/projects/${project.id}/pipelines/${next.id}/cancel`, { token: owner.token });
    const again = await api.get(`${base}/${env.id}`, { token: owner.token });
    expect([again.body.state, again.body.last_deployment.iid, again.body.last_deployment.deployable.id]).toEqual(['available', 2, nextDeploy.id]);
  });

  it("expands variables in the environment's name and URL", async () => {
    const yaml = `variables:
  HOST: example.test
review:
  script: [deploy]
  environment:
    name: review/$CI_COMMIT_REF_NAME
    url: https://\${CI_COMMIT_REF_SLUG}.$HOST/$UNKNOWN
`;
    const { owner, project } = await ciProject(yaml);
    const [env] = (await api.get(`/projects/${project.id}/environments`, { token: owner.token })).body;
    expect(env).toMatchObject({ name: 'review/master', external_url: 'https://master.example.test/' });
    const [d] = (await api.get(`/projects/${project.id}/deployments`, { token: owner.token })).body;
    expect(d).toMatchObject({ iid: 1, environment: { name: 'review/master' }, deployable: { name: 'review' } });
  });

  it('a pipeline without environments makes none; the next pipeline reuses the environment with the next iid', async () => {
    const { owner, project } = await ciProject(REVIEW_YAML);
    await api.post(`/projects/${project.id}/pipeline`, { token: owner.token, body: { ref: 'master' } });
    expect((await api.get(`/projects/${project.id}/environments`, { token: owner.token })).body).toHaveLength(1);
    const list = await api.get(`/projects/${project.id}/deployments`, { token: owner.token, query: { sort: 'desc' } });
    expect(list.body.map((d: { iid: number }) => d.iid)).toEqual([2, 1]);
    const plain = await ciProject();
    expect((await api.get(`/projects/${plain.project.id}/environments`, { token: plain.owner.token })).body).toEqual([]);
  });
});
