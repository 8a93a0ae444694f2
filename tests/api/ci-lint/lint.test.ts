// POST /ci/lint (GitLab 13.6 lib/api/lint.rb) and GET /projects/:id/ci/lint (the project's .gitlab-ci.yml at its
// default branch; Entities::Ci::Lint::Result).
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';

const VALID =
  'stages: [build, test]\n.base:\n  image: ruby\nbuild:\n  stage: build\n  script: make\nrspec:\n  extends: .base\n  script: [rspec]\n  needs: [build]\n';

describe('POST /ci/lint', () => {
  let token: string;
  beforeAll(async () => {
    token = (await createUser()).token;
  });

  it('answers valid content', async () => {
    const res = await api.post('/ci/lint', { token, body: { content: VALID } });
    expect([res.status, res.body]).toEqual([200, { status: 'valid', errors: [], warnings: [] }]);
  });

  it('includes the merged YAML when asked', async () => {
    const res = await api.post('/ci/lint', { token, body: { content: 'rspec:\n  script: [x]\n', include_merged_yaml: true } });
    expect([res.status, res.body]).toEqual([200, { status: 'valid', errors: [], warnings: [], merged_yaml: '---\n:rspec:\n  :script:\n  - x\n' }]);
  });

  it.each([
    ['no job', '.a:\n  script: x\n', 'jobs config should contain at least one visible job'],
    ['a bad root', 'text', 'Invalid configuration format'],
    ['empty content', '', 'Please provide content of .gitlab-ci.yml'],
    ['a YAML error', 'a: b: c\n', '(<unknown>): nested mappings are not allowed in compact mappings at line 1 column 4'],
    ['an undefined need', 'rspec:\n  script: x\n  needs: [build]\n', 'rspec job: undefined need: build'],
    ['an unknown base', 'rspec:\n  extends: .x\n  script: x\n', 'rspec: unknown keys in `extends` (.x)'],
  ])('answers invalid content (%s) with the first error', async (_n, content, error) => {
    const res = await api.post('/ci/lint', { token, body: { content, include_merged_yaml: true } });
    expect([res.status, res.body]).toEqual([200, { status: 'invalid', errors: [error], warnings: [], merged_yaml: null }]);
  });

  it('reports only the first of several errors (13.6)', async () => {
    const res = await api.post('/ci/lint', { token, body: { content: 'a:\n  script: x\n  when: later\nb:\n  script: x\n  foo: 1\n' } });
    expect(res.body).toEqual({ status: 'invalid', errors: ['jobs:a when should be one of: on_success, on_failure, always, manual or delayed'], warnings: [] });
  });

  it('reads include: template', async () => {
    const res = await api.post('/ci/lint', { token, body: { content: 'include:\n  - template: Security/SAST.gitlab-ci.yml\n' } });
    expect(res.body).toEqual({ status: 'valid', errors: [], warnings: [] });
  });

  it.each([
    [{}, 'content is missing'],
    [{ content: 'a: 1', include_merged_yaml: 'perhaps' }, 'include_merged_yaml is invalid'],
  ])('bad parameters: %j', async (body, error) => {
    const res = await api.post('/ci/lint', { token, body });
    expect([res.status, res.body]).toEqual([400, { error }]);
  });

  it('takes form and query parameters too', async () => {
    const res = await api.post('/ci/lint', { token, query: { content: 'rspec:\n  script: x\n' } });
    expect([res.status, res.body]).toEqual([200, { status: 'valid', errors: [], warnings: [] }]);
  });

  // Anonymous writes meet the API's authenticate_non_get! (as GitLab answers when sign-ups are restricted).
  it.each([undefined, 'glpat-not-a-real-token'])('token %s: 401', async (bad) => {
    const res = await api.post('/ci/lint', { token: bad, body: { content: VALID } });
    expect([res.status, res.body]).toEqual([401, { message: '401 Unauthorized' }]);
  });
});

async function commitCi(token: string, projectId: number, content: string) {
  const res = await api.post(`/projects/${projectId}/repository/commits`, {
    token,
    body: { branch: 'master', commit_message: 'Add CI', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content }] },
  });
  if (res.status !== 201) throw new Error(`commit failed: ${res.status} ${res.text}`);
}

describe('GET /projects/:id/ci/lint', () => {
  it('lints the committed .gitlab-ci.yml', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    await commitCi(owner.token, project.id, 'rspec:\n  script: [x]\n');
    const res = await api.get(`/projects/${project.id}/ci/lint`, { token: owner.token });
    expect([res.status, res.body]).toEqual([200, { valid: true, errors: [], warnings: [], merged_yaml: '---\n:rspec:\n  :script:\n  - x\n' }]);
  });

  it('reports every error of an invalid file', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    await commitCi(owner.token, project.id, 'a:\n  script: x\n  when: later\nb:\n  script: x\n  foo: 1\n');
    const res = await api.get(`/projects/${project.id}/ci/lint`, { token: owner.token });
    expect(res.body).toEqual({
      valid: false,
      errors: ['jobs:a when should be one of: on_success, on_failure, always, manual or delayed', 'jobs:b config contains unknown keys: foo'],
      warnings: [],
      merged_yaml: null,
    });
  });

  it('reads include: local from the same commit', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    const res = await api.post(`/projects/${project.id}/repository/commits`, {
      token: owner.token,
      body: {
        branch: 'master',
        commit_message: 'CI with a local include',
        actions: [
          { action: 'create', file_path: '.gitlab-ci.yml', content: 'include:\n  - local: ci/lint.yml\n  - local: ci/missing.yml\nrspec:\n  script: [x]\n' },
          { action: 'create', file_path: 'ci/lint.yml', content: 'lint:\n  script: [y]\n' },
        ],
      },
    });
    expect(res.status).toBe(201);
    const lint = await api.get(`/projects/${project.id}/ci/lint`, { token: owner.token });
    expect(lint.body).toEqual({ valid: false, errors: ['Local file `ci/missing.yml` does not exist!'], warnings: [], merged_yaml: null });
    await api.put(`/projects/${project.id}/repository/files/.gitlab-ci.yml`, {
      token: owner.token,
      body: { branch: 'master', commit_message: 'fix', content: 'include:\n  - local: ci/lint.yml\nrspec:\n  script: [x]\n' },
    });
    const fixed = await api.get(`/projects/${project.id}/ci/lint`, { token: owner.token });
    expect(fixed.body).toEqual({ valid: true, errors: [], warnings: [], merged_yaml: '---\n:lint:\n  :script:\n  - y\n:rspec:\n  :script:\n  - x\n' });
  });

  it('an empty repository or a project without the file lints empty content', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    const expected = { valid: false, errors: ['Please provide content of .gitlab-ci.yml'], warnings: [], merged_yaml: null };
    expect((await api.get(`/projects/${project.id}/ci/lint`, { token: owner.token })).body).toEqual(expected);
    await api.post(`/projects/${project.id}/repository/commits`, {
      token: owner.token,
      body: { branch: 'master', commit_message: 'README', actions: [{ action: 'create', file_path: 'README.md', content: 'hi' }] },
    });
    expect((await api.get(`/projects/${project.id}/ci/lint`, { token: owner.token })).body).toEqual(expected);
  });

  it('dry_run plans a push pipeline on the default branch', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    await commitCi(owner.token, project.id, 'build:\n  stage: build\n  script: x\n  only: [tags]\ntest:\n  script: y\n  needs: [build]\n');
    const plain = await api.get(`/projects/${project.id}/ci/lint`, { token: owner.token });
    expect(plain.body.valid).toBe(true);
    const dry = await api.get(`/projects/${project.id}/ci/lint`, { token: owner.token, query: { dry_run: true } });
    expect([dry.status, dry.body]).toEqual([200, { valid: false, errors: ["test: needs 'build'"], warnings: [], merged_yaml: plain.body.merged_yaml }]);
  });

  it('404 for a missing project', async () => {
    const owner = await createUser();
    const res = await api.get('/projects/999999999/ci/lint', { token: owner.token });
    expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }]);
  });
});

describeAuthorization('GET /projects/:id/ci/lint', {
  fixture: async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    await commitCi(owner.token, project.id, 'rspec:\n  script: x\n');
    const guest = await createUser();
    await api.post(`/projects/${project.id}/members`, { token: owner.token, body: { user_id: guest.user.id, access_level: 10 } });
    const stranger = await createUser();
    return { project, allowed: owner.token, insufficientRole: guest.token, nonMember: stranger.token };
  },
  call: (fx, token) => api.get(`/projects/${fx.project.id}/ci/lint`, { token }),
  success: 200,
  anonymous: { status: 404, body: { message: '404 Project Not Found' } },
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  // download_code: reporters and above of a private project.
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
});
