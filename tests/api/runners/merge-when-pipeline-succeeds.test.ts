// merge_when_pipeline_succeeds waits for the merge request's head pipeline (GitLab 13.6 lib/api/merge_requests.rb
// automatically_mergeable? / immediately_mergeable?, AutoMerge::MergeWhenPipelineSucceedsService): a running pipeline
// makes the merge wait and its success merges; no pipeline, or a failed one, is 405.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, appFetch } from '../../helpers/app.ts';
import { registerRunner, runUntilIdle, type Fetch } from '../../helpers/ci-runner.ts';
import { ciProject, commitFiles } from '../pipelines/support.ts';

const workDir = mkdtempSync(join(tmpdir(), 'ci-mwps-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));
const fetch: Fetch = (input, init) => appFetch(input, init);

async function mergeRequestOnBranch(yaml: string | null) {
  const ctx = await ciProject(yaml);
  const { owner, project } = ctx;
  await commitFiles(owner.token, project.id, { 'feature.txt': 'x' }, 'feature', 'Add feature');
  const mr = await api.post(`/projects/${project.id}/merge_requests`, {
    token: owner.token,
    body: { source_branch: 'feature', target_branch: 'master', title: 'Feature' },
  });
  expect(mr.status).toBe(201);
  const token = (await api.get(`/projects/${project.id}`, { token: owner.token })).body.runners_token as string;
  return { ...ctx, iid: mr.body.iid as number, runnerToken: token };
}

describe('merge_when_pipeline_succeeds', () => {
  it('waits for a running pipeline and merges when it succeeds', async () => {
    const { owner, project, iid, runnerToken } = await mergeRequestOnBranch('build:\n  script: [echo ok]\n');
    const res = await api.put(`/projects/${project.id}/merge_requests/${iid}/merge`, {
      token: owner.token,
      body: { merge_when_pipeline_succeeds: true, should_remove_source_branch: true },
    });
    expect([res.status, res.body.state, res.body.merge_when_pipeline_succeeds]).toEqual([200, 'opened', true]);
    const notes = (await api.get(`/projects/${project.id}/merge_requests/${iid}/notes`, { token: owner.token })).body as Array<{
      body: string;
      system: boolean;
    }>;
    expect(notes.some((n) => n.system && /^enabled an automatic merge when the pipeline for [0-9a-f]{40} succeeds$/.test(n.body))).toBe(true);
    // Asking again changes nothing.
    expect(
      (await api.put(`/projects/${project.id}/merge_requests/${iid}/merge`, { token: owner.token, body: { merge_when_pipeline_succeeds: true } })).status,
    ).toBe(200);
    const runner = await registerRunner(fetch, runnerToken);
    // The master pipeline (the first push) and the feature pipeline both run.
    await runUntilIdle(fetch, runner, { workDir });
    const merged = await api.get(`/projects/${project.id}/merge_requests/${iid}`, { token: owner.token });
    expect(merged.body).toMatchObject({ state: 'merged', merged_by: { id: owner.user.id } });
    // should_remove_source_branch was kept with the request.
    expect((await api.get(`/projects/${project.id}/repository/branches/feature`, { token: owner.token })).status).toBe(404);
  });

  it('a failed pipeline leaves the merge request open and waiting', async () => {
    const { owner, project, iid, runnerToken } = await mergeRequestOnBranch('build:\n  script: [exit 1]\n');
    await api.put(`/projects/${project.id}/merge_requests/${iid}/merge`, { token: owner.token, body: { merge_when_pipeline_succeeds: true } });
    await runUntilIdle(fetch, await registerRunner(fetch, runnerToken), { workDir });
    const mr = (await api.get(`/projects/${project.id}/merge_requests/${iid}`, { token: owner.token })).body;
    expect([mr.state, mr.merge_when_pipeline_succeeds]).toEqual(['opened', true]);
    // Asking now (the head pipeline failed) is refused.
    const cancel = await api.post(`/projects/${project.id}/merge_requests/${iid}/cancel_merge_when_pipeline_succeeds`, { token: owner.token });
    expect(cancel.status).toBe(201);
    const again = await api.put(`/projects/${project.id}/merge_requests/${iid}/merge`, { token: owner.token, body: { merge_when_pipeline_succeeds: true } });
    expect([again.status, again.body]).toEqual([405, { message: '405 Method Not Allowed' }]);
  });

  it('without a pipeline it is 405; a successful head pipeline merges at once', async () => {
    const none = await mergeRequestOnBranch(null);
    const refused = await api.put(`/projects/${none.project.id}/merge_requests/${none.iid}/merge`, {
      token: none.owner.token,
      body: { merge_when_pipeline_succeeds: true },
    });
    expect([refused.status, refused.body]).toEqual([405, { message: '405 Method Not Allowed' }]);

    const { owner, project, iid, runnerToken } = await mergeRequestOnBranch('build:\n  script: [echo ok]\n');
    await runUntilIdle(fetch, await registerRunner(fetch, runnerToken), { workDir });
    const res = await api.put(`/projects/${project.id}/merge_requests/${iid}/merge`, { token: owner.token, body: { merge_when_pipeline_succeeds: true } });
    expect([res.status, res.body.state]).toEqual([200, 'merged']);
  });
});
