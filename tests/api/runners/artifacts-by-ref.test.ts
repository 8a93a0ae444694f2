// GitLab 13.6 lib/api/job_artifacts.rb's v4 routes: the archive of the latest successful job of a name on a ref
// (`jobs/artifacts/:ref_name/download?job=`), one file of it (`.../raw/*artifact_path?job=`), and
// `POST jobs/:job_id/artifacts/keep`; the artifacts come from a runner that runs the jobs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { api, appFetch, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { registerRunner, runUntilIdle, type Fetch } from '../../helpers/ci-runner.ts';
import { addMember } from '../../factories/groups.ts';
import { createUser } from '../../factories/users.ts';
import { ciProject } from '../pipelines/support.ts';

const workDir = mkdtempSync(join(tmpdir(), 'ci-artifacts-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));
const fetch: Fetch = (input, init) => appFetch(input, init);

const YAML = `build:
  script:
    - mkdir -p out/sub
    - echo "built $CI_COMMIT_SHORT_SHA" > out/result.txt
    - echo '{"a":1}' > out/sub/data.json
  artifacts:
    paths: [out/]
    expire_in: 1 week
`;

async function builtProject() {
  const ctx = await ciProject(YAML);
  const token = (await api.get(`/projects/${ctx.project.id}`, { token: ctx.owner.token })).body.runners_token as string;
  await runUntilIdle(fetch, await registerRunner(fetch, token), { workDir });
  const [job] = (await api.get(`/projects/${ctx.project.id}/jobs`, { token: ctx.owner.token })).body;
  expect(job).toMatchObject({ name: 'build', status: 'success' });
  return { ...ctx, job };
}

describe('job artifacts by ref', () => {
  it('downloads the archive and one file of the latest successful job on the ref', async () => {
    const { owner, project, sha, job } = await builtProject();
    const base = `/projects/${project.id}/jobs/artifacts/master`;
    const zip = await api.get(`${base}/download`, { token: owner.token, query: { job: 'build' } });
    expect([zip.status, zip.headers.get('content-type'), zip.headers.get('content-disposition')]).toEqual([
      200,
      'application/octet-stream',
      'attachment; filename="artifacts.zip"; filename*=UTF-8\'\'artifacts.zip',
    ]);
    const bytes = async (path: string) =>
      new Uint8Array(await (await appFetch(`${TEST_PUBLIC_URL}/api/v4${path}`, { headers: { 'private-token': owner.token } })).arrayBuffer());
    const archive = await bytes(`${base}/download?job=build`);
    expect(archive).toEqual(await bytes(`/projects/${project.id}/jobs/${job.id}/artifacts`));
    expect(Object.keys(unzipSync(archive))).toContain('out/result.txt');

    const raw = await api.get(`${base}/raw/out/result.txt`, { token: owner.token, query: { job: 'build' } });
    expect([raw.status, raw.headers.get('content-type'), raw.headers.get('content-disposition'), raw.text]).toEqual([
      200,
      'application/octet-stream',
      'attachment; filename="result.txt"',
      `built ${sha.slice(0, 8)}\n`,
    ]);
    const json = await api.get(`${base}/raw/out/sub/data.json`, { token: owner.token, query: { job: 'build' } });
    expect([json.status, json.headers.get('content-type'), json.text]).toEqual([200, 'application/json', '{"a":1}\n']);

    // Misses: another job name, a ref without a successful pipeline, a file the archive lacks, no `job`.
    expect((await api.get(`${base}/download`, { token: owner.token, query: { job: 'nope' } })).body).toEqual({ message: '404 Not found' });
    expect((await api.get(`/projects/${project.id}/jobs/artifacts/other/download`, { token: owner.token, query: { job: 'build' } })).status).toBe(404);
    expect((await api.get(`${base}/raw/out/missing.txt`, { token: owner.token, query: { job: 'build' } })).status).toBe(404);
    const noJob = await api.get(`${base}/download`, { token: owner.token });
    expect([noJob.status, noJob.body]).toEqual([400, { error: 'job is missing' }]);
  });

  it('finds refs with slashes', async () => {
    const { owner, project } = await builtProject();
    const branch = await api.post(`/projects/${project.id}/repository/branches`, { token: owner.token, body: { branch: 'feature/x', ref: 'master' } });
    expect(branch.status).toBe(201);
    const token = (await api.get(`/projects/${project.id}`, { token: owner.token })).body.runners_token as string;
    await runUntilIdle(fetch, await registerRunner(fetch, token), { workDir });
    const zip = await api.get(`/projects/${project.id}/jobs/artifacts/feature/x/download`, { token: owner.token, query: { job: 'build' } });
    expect(zip.status).toBe(200);
  });
});

describe('POST /projects/:id/jobs/:job_id/artifacts/keep', () => {
  it('clears the expiry (200, Entities::Job); a developer may, a reporter may not; a job without artifacts is 404', async () => {
    const { owner, project, job } = await builtProject();
    expect(job.artifacts_expire_at).not.toBeNull();
    const [developer, reporter] = await Promise.all([createUser(), createUser()]);
    await addMember(owner.token, 'projects', project.id, developer.user.id, 30);
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    const url = `/projects/${project.id}/jobs/${job.id}/artifacts/keep`;
    expect((await api.post(url, {})).status).toBe(401);
    expect((await api.post(url, { token: reporter.token })).status).toBe(403);
    const kept = await api.post(url, { token: developer.token });
    expect([kept.status, kept.body.id, kept.body.artifacts_expire_at]).toEqual([200, job.id, null]);
    expect((await api.get(`/projects/${project.id}/jobs/${job.id}`, { token: owner.token })).body.artifacts_expire_at).toBeNull();
    await api.post(`/projects/${project.id}/jobs/${job.id}/erase`, { token: owner.token });
    expect((await api.post(url, { token: owner.token })).status).toBe(404);
    expect((await api.post(`/projects/${project.id}/jobs/999999999/artifacts/keep`, { token: owner.token })).status).toBe(404);
  });
});
