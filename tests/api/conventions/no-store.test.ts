// A response that carries a secret (a new personal access token, an application's client secret, trigger, runner,
// job and alert integration tokens, a project's runners_token) must not be kept by a browser or a proxy cache:
// `Cache-Control: no-store` and `Pragma: no-cache`, as the OAuth token responses send. GraphQL's other answers are
// GitLab's `max-age=0, private, must-revalidate`.
import { describe, expect, it } from 'vitest';
import { api, request, type TestResponse } from '../../helpers/app.ts';
import { csrfToken, signedIn } from '../../helpers/browser.ts';
import { createProject } from '../../factories/projects.ts';
import { addMember } from '../../factories/groups.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';
import { ciProject } from '../pipelines/support.ts';
import { gql } from '../alerts-notify/support.ts';

const expectNoStore = (res: TestResponse) => {
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('pragma')).toBe('no-cache');
};

describe('secret-bearing responses are not cacheable', () => {
  it('POST /users/:id/personal_access_tokens', async () => {
    const { token: admin } = await createAdmin();
    const { user } = await createUser();
    const res = await api.post(`/users/${user.id}/personal_access_tokens`, { token: admin, body: { name: 'pat', scopes: ['api'] } });
    expect(res.status).toBe(201);
    expect(res.body.token).toBeTruthy();
    expectNoStore(res);
  });

  it('POST /applications', async () => {
    const { token: admin } = await createAdmin();
    const res = await api.post('/applications', { token: admin, body: { name: unique('app'), redirect_uri: 'https://client.example.test/cb', scopes: 'api' } });
    expect(res.status).toBe(201);
    expect(res.body.secret).toBeTruthy();
    expectNoStore(res);
  });

  it('the application pages that show a secret: create and renew', async () => {
    const { browser } = await signedIn();
    const page = await browser.get('/oauth/applications');
    const created = await browser.post('/oauth/applications', [
      ['authenticity_token', csrfToken(page.text)],
      ['doorkeeper_application[name]', unique('app')],
      ['doorkeeper_application[redirect_uri]', 'https://client.example.test/cb'],
      ['doorkeeper_application[scopes][]', 'api'],
    ]);
    expect(created.status).toBe(201);
    expectNoStore(created);
    const id = /action="\/oauth\/applications\/(\d+)\/renew"/.exec(created.text)![1];
    const renewed = await browser.post(`/oauth/applications/${id}/renew`, { authenticity_token: csrfToken(created.text) });
    expect(renewed.status).toBe(200);
    expect(renewed.text).toContain('id="secret"');
    expectNoStore(renewed);
  });
});

describe('tokens of CI and alerting are not cacheable (issue 28, item 9)', () => {
  it('a new pipeline trigger (the one answer with its whole token)', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    const created = await api.post(`/projects/${project.id}/triggers`, { token: owner.token, body: { description: 'deploy' } });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^[0-9a-f]{30}$/);
    expectNoStore(created);
  });

  it("GET and PUT /projects/:id with runners_token (a maintainer's); without it, cacheable as before", async () => {
    const owner = await createUser();
    const project = await createProject(owner.token, { visibility: 'public' });
    for (const res of [
      await api.get(`/projects/${project.id}`, { token: owner.token }),
      await api.put(`/projects/${project.id}`, { token: owner.token, body: { description: 'x' } }),
    ]) {
      expect(res.status).toBe(200);
      expect(res.body.runners_token).toBeTruthy();
      expectNoStore(res);
    }
    const reporter = await createUser();
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    for (const token of [reporter.token, undefined]) {
      const res = await api.get(`/projects/${project.id}`, { token });
      expect([res.status, res.body.runners_token]).toEqual([200, undefined]);
      expect(res.headers.get('cache-control')).not.toBe('no-store');
    }
  });

  it("runner registration (the runner's token) and a job request (the job's token)", async () => {
    const { owner, project } = await ciProject('build:\n  script: [echo hi]\n');
    const registration = (await api.get(`/projects/${project.id}`, { token: owner.token })).body.runners_token as string;
    const registered = await request('POST', '/api/v4/runners', { body: { token: registration, info: { name: 'gitlab-runner' } } });
    expect(registered.status).toBe(201);
    expect(registered.body.token).toBeTruthy();
    expectNoStore(registered);
    const job = await request('POST', '/api/v4/jobs/request', { body: { token: registered.body.token, info: { features: { variables: true } } } });
    expect(job.status).toBe(201);
    expect(job.body.token).toBeTruthy();
    expectNoStore(job);
  });

  it("GraphQL: an alert integration's token (create, reset) is no-store; other answers max-age=0, private, must-revalidate", async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    const created = await gql(
      `mutation($p: ID!) { httpIntegrationCreate(input: { projectPath: $p, name: "M", active: true }) { errors integration { id token } } }`,
      {
        token: owner.token,
        variables: { p: project.path_with_namespace },
      },
    );
    const integration = created.body.data.httpIntegrationCreate.integration;
    expect(integration.token).toMatch(/^[0-9a-f]{32}$/);
    expectNoStore(created);
    const reset = await gql(
      `mutation($id: AlertManagementHttpIntegrationID!) { httpIntegrationResetToken(input: { id: $id }) { errors integration { token } } }`,
      {
        token: owner.token,
        variables: { id: integration.id },
      },
    );
    expect(reset.body.data.httpIntegrationResetToken.integration.token).toMatch(/^[0-9a-f]{32}$/);
    expectNoStore(reset);
    const cacheable = [
      await gql('{ currentUser { username } }', { token: owner.token }),
      await gql('{ currentUser { username } }'),
      await gql('{ currentUser { username } }', { token: 'not-a-token' }),
      await request('GET', '/api/graphql', { query: { query: '{ currentUser { username } }' }, token: owner.token }),
    ];
    expect(cacheable.map((r) => r.status)).toEqual([200, 200, 401, 200]);
    for (const res of cacheable) expect(res.headers.get('cache-control')).toBe('max-age=0, private, must-revalidate');
  });
});
