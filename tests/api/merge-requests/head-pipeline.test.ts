// Entities::MergeRequest's `head_pipeline` (Entities::Ci::Pipeline of the latest pipeline at the diff head) and
// `pipeline` with latest_build_started_at/latest_build_finished_at (MergeRequest::Metrics: the head pipeline once it
// runs, finished when it succeeds), GitLab 13.6.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, appFetch, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { registerRunner, runUntilIdle, type Fetch } from '../../helpers/ci-runner.ts';
import { ciProject, commitFiles } from '../pipelines/support.ts';

const workDir = mkdtempSync(join(tmpdir(), 'ci-head-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));
const fetch: Fetch = (input, init) => appFetch(input, init);
const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

describe('GET /projects/:id/merge_requests/:iid pipelines', () => {
  it('shows the head pipeline (Entities::Pipeline), and `pipeline` once it has run', async () => {
    const { owner, project } = await ciProject('build:\n  script: [echo ok]\n');
    const head = await commitFiles(owner.token, project.id, { 'feature.txt': 'x' }, 'feature', 'Add feature');
    const created = await api.post(`/projects/${project.id}/merge_requests`, {
      token: owner.token,
      body: { source_branch: 'feature', target_branch: 'master', title: 'Feature' },
    });
    expect(created.status).toBe(201);
    const pipelines = (await api.get(`/projects/${project.id}/pipelines`, { token: owner.token, query: { ref: 'feature' } })).body;
    expect(pipelines).toHaveLength(1);
    const id = pipelines[0].id as number;
    const url = `/projects/${project.id}/merge_requests/${created.body.iid}`;

    const waiting = (await api.get(url, { token: owner.token })).body;
    expect(waiting.head_pipeline).toEqual({
      id,
      sha: head.id,
      ref: 'feature',
      status: 'pending',
      created_at: ISO,
      updated_at: ISO,
      web_url: `${TEST_PUBLIC_URL}/${project.path_with_namespace}/-/pipelines/${id}`,
      before_sha: expect.any(String),
      tag: false,
      yaml_errors: null,
      user: expect.objectContaining({ id: owner.user.id, username: owner.user.username }),
      started_at: null,
      finished_at: null,
      committed_at: null,
      duration: null,
      coverage: null,
      detailed_status: expect.objectContaining({ group: 'pending', details_path: `/${project.path_with_namespace}/-/pipelines/${id}` }),
    });
    expect([waiting.pipeline, waiting.latest_build_started_at, waiting.latest_build_finished_at]).toEqual([null, null, null]);

    await runUntilIdle(fetch, await registerRunner(fetch, (await api.get(`/projects/${project.id}`, { token: owner.token })).body.runners_token), { workDir });
    const done = (await api.get(url, { token: owner.token })).body;
    expect(done.head_pipeline).toMatchObject({ id, status: 'success', started_at: ISO, finished_at: ISO });
    expect(done.pipeline).toEqual({
      id,
      sha: head.id,
      ref: 'feature',
      status: 'success',
      created_at: ISO,
      updated_at: ISO,
      web_url: `${TEST_PUBLIC_URL}/${project.path_with_namespace}/-/pipelines/${id}`,
    });
    expect([done.latest_build_started_at, done.latest_build_finished_at]).toEqual([done.head_pipeline.started_at, done.head_pipeline.finished_at]);
  });

  it('is null without a pipeline at the head', async () => {
    const { owner, project } = await ciProject(null);
    await commitFiles(owner.token, project.id, { 'feature.txt': 'x' }, 'feature', 'Add feature');
    const created = await api.post(`/projects/${project.id}/merge_requests`, {
      token: owner.token,
      body: { source_branch: 'feature', target_branch: 'master', title: 'Feature' },
    });
    expect([created.body.pipeline, created.body.head_pipeline]).toEqual([null, null]);
  });
});
