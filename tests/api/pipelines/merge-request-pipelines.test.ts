// Merge request pipelines (MergeRequests::CreatePipelineService, 13.6): a `merge_request_event` pipeline for the
// source branch's head, stored under refs/merge-requests/<iid>/head, when the configuration has jobs for that source;
// made when the merge request opens and on each push to its source branch; none when no job is for merge requests.
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { ciProject, commitFiles } from './support.ts';

const MR_AND_BRANCH = `mr-only:
  script: [echo mr]
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
branch-only:
  script: [echo branch]
`;

async function pipelines(token: string, projectId: number) {
  const list = (await api.get(`/projects/${projectId}/pipelines`, { token, query: { sort: 'asc' } })).body as Array<{ id: number; ref: string; sha: string }>;
  return Promise.all(
    list.map(async (p) => ({
      ref: p.ref,
      sha: p.sha,
      jobs: ((await api.get(`/projects/${projectId}/pipelines/${p.id}/jobs`, { token })).body as Array<{ name: string; ref: string }>).map(
        (j) => `${j.name}@${j.ref}`,
      ),
    })),
  );
}

describe('merge request pipelines', () => {
  it('opening the merge request and pushing to its branch make merge_request_event pipelines', async () => {
    const { owner, project } = await ciProject(MR_AND_BRANCH);
    const first = await commitFiles(owner.token, project.id, { 'a.txt': 'a' }, 'feature', 'A');
    const mr = await api.post(`/projects/${project.id}/merge_requests`, {
      token: owner.token,
      body: { source_branch: 'feature', target_branch: 'master', title: 'Feature' },
    });
    expect(mr.status).toBe(201);
    const second = await commitFiles(owner.token, project.id, { 'b.txt': 'b' }, 'feature', 'B', null);
    const ref = `refs/merge-requests/${mr.body.iid}/head`;
    expect((await pipelines(owner.token, project.id)).slice(1)).toEqual([
      { ref: 'feature', sha: first.id, jobs: ['branch-only@feature'] },
      { ref, sha: first.id, jobs: [`mr-only@${ref}`] },
      { ref: 'feature', sha: second.id, jobs: ['branch-only@feature'] },
      { ref, sha: second.id, jobs: [`mr-only@${ref}`] },
    ]);
  });

  it('a configuration without jobs for merge requests makes none', async () => {
    const { owner, project } = await ciProject('build:\n  script: [x]\n');
    await commitFiles(owner.token, project.id, { 'a.txt': 'a' }, 'feature', 'A');
    expect(
      (
        await api.post(`/projects/${project.id}/merge_requests`, {
          token: owner.token,
          body: { source_branch: 'feature', target_branch: 'master', title: 'F' },
        })
      ).status,
    ).toBe(201);
    expect((await pipelines(owner.token, project.id)).map((p) => p.ref)).toEqual(['master', 'feature']);
  });
});
