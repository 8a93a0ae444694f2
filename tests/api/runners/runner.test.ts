// The runner API driven by a runner that speaks gitlab-runner's protocol (tests/helpers/ci-runner.ts) and runs
// `script` lines with /bin/sh in a sandbox: pipelines run to their end, traces and artifacts travel, and the
// protocol's refusals are GitLab's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, appFetch, dbTiming, request, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { registerRunner, requestJob, runJob, runUntilIdle, type Fetch, type JobPayload, type JobResult } from '../../helpers/ci-runner.ts';
import { addMember } from '../../factories/groups.ts';
import { createUser } from '../../factories/users.ts';
import { ciProject } from '../pipelines/support.ts';

const workDir = mkdtempSync(join(tmpdir(), 'ci-runner-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));
const fetch: Fetch = (input, init) => appFetch(input, init);

const TWO_STAGES = `stages: [build, test]
build:
  stage: build
  script:
    - mkdir -p out
    - echo "built $CI_COMMIT_SHORT_SHA" > out/result.txt
    - echo compiling
  artifacts:
    paths: [out/]
test:
  stage: test
  needs: [build]
  script:
    - cat out/result.txt
    - test "$GREETING" = hello
  variables:
    GREETING: hello
`;

async function registrationToken(token: string, projectId: number): Promise<string> {
  const res = await api.get(`/projects/${projectId}`, { token });
  expect(res.body.runners_token).toMatch(/^\d+-[0-9a-f]{20}$/);
  return res.body.runners_token as string;
}

async function projectWithRunner(yaml: string) {
  const ctx = await ciProject(yaml);
  const runner = await registerRunner(fetch, await registrationToken(ctx.owner.token, ctx.project.id));
  return { ...ctx, runner };
}

async function pipelineOf(token: string, projectId: number) {
  const [p] = (await api.get(`/projects/${projectId}/pipelines`, { token })).body;
  const jobs = (await api.get(`/projects/${projectId}/pipelines/${p.id}/jobs`, { token })).body as Array<{ id: number; name: string; status: string }>;
  return { pipeline: (await api.get(`/projects/${projectId}/pipelines/${p.id}`, { token })).body, jobs: Object.fromEntries(jobs.map((j) => [j.name, j])) };
}

describe('a runner runs pipelines', () => {
  it('two stages with a needs edge run to success; artifacts reach the dependent job; traces are readable', async () => {
    const { owner, project, runner, sha } = await projectWithRunner(TWO_STAGES);
    const results = new Map<string, JobResult>();
    const ran = await runUntilIdle(fetch, runner, { workDir, onJob: (job, result) => results.set(job.job_info.name, result) });
    expect(ran.map((j) => j.job_info.name)).toEqual(['build', 'test']);
    expect(results.get('build')!.status).toBe('success');
    expect(results.get('test')!.status).toBe('success');
    const { pipeline, jobs } = await pipelineOf(owner.token, project.id);
    expect(pipeline).toMatchObject({ status: 'success', sha, started_at: expect.any(String), finished_at: expect.any(String), duration: expect.any(Number) });
    expect([jobs.build!.status, jobs.test!.status]).toEqual(['success', 'success']);
    const trace = await api.get(`/projects/${project.id}/jobs/${jobs.test!.id}/trace`, { token: owner.token });
    expect(trace.status).toBe(200);
    expect(trace.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(trace.text).toContain(`built ${sha.slice(0, 8)}`);
    expect(trace.text).toBe(results.get('test')!.trace);
    const job = (await api.get(`/projects/${project.id}/jobs/${jobs.build!.id}`, { token: owner.token })).body;
    expect(job).toMatchObject({
      status: 'success',
      artifacts_file: { filename: 'artifacts.zip', size: expect.any(Number) },
      runner: { id: runner.id, description: 'test runner', active: true, is_shared: false },
    });
    const zip = await api.get(`/projects/${project.id}/jobs/${jobs.build!.id}/artifacts`, { token: owner.token });
    expect([zip.status, zip.headers.get('content-disposition')]).toEqual([200, 'attachment; filename="artifacts.zip"; filename*=UTF-8\'\'artifacts.zip']);
  });

  it('a failing script fails its job and skips the jobs that depend on it', async () => {
    const { owner, project, runner } = await projectWithRunner(TWO_STAGES.replace('echo compiling', 'exit 3'));
    const results: JobResult[] = [];
    const ran = await runUntilIdle(fetch, runner, { workDir, onJob: (_j, r) => results.push(r) });
    expect(ran.map((j) => j.job_info.name)).toEqual(['build']);
    expect(results[0]).toMatchObject({ status: 'failed', exitCode: 3, failureReason: 'script_failure' });
    const { pipeline, jobs } = await pipelineOf(owner.token, project.id);
    expect([pipeline.status, jobs.build!.status, jobs.test!.status]).toEqual(['failed', 'failed', 'skipped']);
  });

  it('the job payload carries git coordinates, variables and steps as gitlab-runner expects', async () => {
    const { project, runner, sha } = await projectWithRunner(
      TWO_STAGES.replace('stage: build\n', 'stage: build\n  before_script: [echo before]\n  after_script: [echo after]\n  image: alpine:3\n'),
    );
    const job = (await requestJob(fetch, runner)) as JobPayload;
    expect(job).toMatchObject({
      job_info: { name: 'build', stage: 'build', project_id: project.id, project_name: project.name },
      git_info: {
        ref: 'master',
        sha,
        ref_type: 'branch',
        depth: 50,
        repo_url: `https://gitlab-ci-token:${job.token}@gitlab.example.test/${project.path_with_namespace}.git`,
      },
      runner_info: { timeout: 3600, runner_session_url: null },
      image: { name: 'alpine:3', entrypoint: null, ports: [] },
      steps: [
        {
          name: 'script',
          script: ['echo before', 'mkdir -p out', `echo "built $CI_COMMIT_SHORT_SHA" > out/result.txt`, 'echo compiling'],
          timeout: 3600,
          when: 'on_success',
          allow_failure: false,
        },
        { name: 'after_script', script: ['echo after'], timeout: 3600, when: 'always', allow_failure: true },
      ],
      artifacts: [{ name: null, untracked: null, paths: ['out/'], when: 'on_success', expire_in: null, artifact_type: 'archive', artifact_format: 'zip' }],
      dependencies: [],
    });
    const vars = Object.fromEntries(job.variables.map((v) => [v.key, v]));
    expect(vars.CI_JOB_TOKEN).toEqual({ key: 'CI_JOB_TOKEN', value: job.token, public: false, masked: true });
    expect(vars.CI_PROJECT_PATH).toEqual({ key: 'CI_PROJECT_PATH', value: project.path_with_namespace, public: true, masked: false });
    expect(vars.CI_SERVER_URL!.value).toBe(TEST_PUBLIC_URL);
    expect(vars.CI_COMMIT_BRANCH!.value).toBe('master');
    // The job is running on this runner now.
    const res = await api.get(`/projects/${project.id}/jobs/${job.id}`, { token: (await ciProject()).owner.token });
    expect(res.status).toBe(404);
  });
});

describe('registration', () => {
  it('only maintainers see runners_token; a wrong token is 403; unregister and verify', async () => {
    const { owner, project } = await ciProject();
    const dev = await createUser();
    await addMember(owner.token, 'projects', project.id, dev.user.id, 30);
    expect((await api.get(`/projects/${project.id}`, { token: dev.token })).body).not.toHaveProperty('runners_token');
    const token = await registrationToken(owner.token, project.id);
    const bad = await request('POST', '/api/v4/runners', { body: { token: token.replace(/.$/, (c) => (c === '0' ? '1' : '0')) } });
    expect([bad.status, bad.body]).toEqual([403, { message: '403 Forbidden' }]);
    const other = await request('POST', '/api/v4/runners', { body: { token: `${project.id + 100000}-${token.split('-')[1]}` } });
    expect(other.status).toBe(403);
    const missing = await request('POST', '/api/v4/runners', { body: {} });
    expect([missing.status, missing.body]).toEqual([400, { error: 'token is missing' }]);
    const reg = await request('POST', '/api/v4/runners', { body: { token, description: 'r', tag_list: 'docker, linux' } });
    expect([reg.status, Object.keys(reg.body)]).toEqual([201, ['id', 'token']]);
    expect((await request('POST', '/api/v4/runners/verify', { body: { token: reg.body.token } })).status).toBe(200);
    expect((await request('DELETE', '/api/v4/runners', { body: { token: reg.body.token } })).status).toBe(204);
    expect((await request('POST', '/api/v4/runners/verify', { body: { token: reg.body.token } })).status).toBe(403);
  });

  it('a tagged runner takes only jobs whose tags it has; an idle poll is one statement', async () => {
    const { owner, project } = await ciProject('tagged:\n  script: [x]\n  tags: [gpu]\n');
    const token = await registrationToken(owner.token, project.id);
    const plain = await registerRunner(fetch, token);
    const poll = await request('POST', '/api/v4/jobs/request', { body: { token: plain.token } });
    expect([poll.status, poll.headers.get('x-gitlab-last-update')]).toEqual([204, expect.any(String)]);
    expect(dbTiming(poll).queries).toBeLessThanOrEqual(2);
    const gpu = await registerRunner(fetch, token, { tagList: ['gpu'] });
    expect((await requestJob(fetch, gpu))?.job_info.name).toBe('tagged');
    const unknown = await request('POST', '/api/v4/jobs/request', { body: { token: 'nope' } });
    expect([unknown.status, unknown.body]).toEqual([403, { message: '403 Forbidden' }]);
  });
});

describe('concurrency', () => {
  it('runners polling at once never take one job twice', async () => {
    const { owner, project } = await ciProject('a:\n  script: [x]\nb:\n  script: [y]\nc:\n  script: [z]\n');
    const token = await registrationToken(owner.token, project.id);
    const runners = await Promise.all(Array.from({ length: 6 }, () => registerRunner(fetch, token)));
    const taken = (await Promise.all(runners.map((r) => requestJob(fetch, r)))).filter((j): j is JobPayload => j !== null);
    expect(taken.map((j) => j.job_info.name).sort()).toEqual(['a', 'b', 'c']);
    expect(new Set(taken.map((j) => j.id)).size).toBe(3);
  });

  it('two appends at one offset: one is stored, the other told the stored range', async () => {
    const { runner } = await projectWithRunner(TWO_STAGES);
    const job = (await requestJob(fetch, runner))!;
    const patch = (body: string) =>
      appFetch(`${TEST_PUBLIC_URL}/api/v4/jobs/${job.id}/trace`, {
        method: 'PATCH',
        headers: { 'JOB-TOKEN': job.token, 'Content-Range': `0-${body.length - 1}`, 'Content-Type': 'text/plain' },
        body,
      });
    const answers = await Promise.all([patch('first'), patch('second!')]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 416]);
    const won = answers.find((a) => a.status === 202)!.headers.get('range');
    expect(answers.find((a) => a.status === 416)!.headers.get('range')).toBe(won);
  });
});

describe('job updates, traces and artifacts', () => {
  it('traces append at the stored length; a mismatch is 416 with the stored range', async () => {
    const { runner } = await projectWithRunner(TWO_STAGES);
    const job = (await requestJob(fetch, runner))!;
    const patch = (range: string | undefined, body: string, token = job.token) =>
      appFetch(`${TEST_PUBLIC_URL}/api/v4/jobs/${job.id}/trace`, {
        method: 'PATCH',
        headers: { 'JOB-TOKEN': token, ...(range ? { 'Content-Range': range } : {}), 'Content-Type': 'text/plain' },
        body,
      });
    const first = await patch('0-4', 'hello');
    expect([first.status, first.headers.get('range'), first.headers.get('job-status')]).toEqual([202, '0-5', 'running']);
    const gap = await patch('7-9', 'abc');
    expect([gap.status, gap.headers.get('range'), await gap.json()]).toEqual([416, '0-5', { message: '416 Range Not Satisfiable' }]);
    const again = await patch('5-7', ' w!');
    expect([again.status, again.headers.get('range')]).toEqual([202, '0-8']);
    const noRange = await patch(undefined, 'x');
    expect([noRange.status, await noRange.json()]).toEqual([400, { message: '400 Missing header Content-Range' }]);
    expect((await patch('8-8', 'x', 'wrong')).status).toBe(403);
    const missing = await appFetch(`${TEST_PUBLIC_URL}/api/v4/jobs/999999999/trace`, {
      method: 'PATCH',
      headers: { 'JOB-TOKEN': job.token, 'Content-Range': '0-0' },
      body: 'x',
    });
    expect(missing.status).toBe(404);
  });

  it('a finished job refuses updates with its status', async () => {
    const { runner } = await projectWithRunner(TWO_STAGES);
    const job = (await requestJob(fetch, runner))!;
    const put = (state: string) => request('PUT', `/api/v4/jobs/${job.id}`, { body: { token: job.token, state } });
    expect((await put('success')).status).toBe(200);
    const again = await put('failed');
    expect([again.status, again.body, again.headers.get('job-status')]).toEqual([403, { message: '403 Forbidden - Job is not running' }, 'success']);
    expect((await request('PUT', `/api/v4/jobs/${job.id}`, { body: { token: 'nope', state: 'success' } })).status).toBe(403);
  });

  it('a canceled job tells its runner through Job-Status', async () => {
    const { owner, project, runner } = await projectWithRunner(TWO_STAGES);
    const job = (await requestJob(fetch, runner))!;
    expect((await api.post(`/projects/${project.id}/jobs/${job.id}/cancel`, { token: owner.token })).body.status).toBe('canceled');
    const result = await runJob(fetch, job, { workDir });
    expect(result.status).toBe('aborted');
  });
});
