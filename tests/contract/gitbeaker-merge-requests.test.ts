// Merge requests through @gitbeaker/rest, unmodified, against a served instance: branches and commits, an MR with
// labels and assignees, its lists and filters, changes, commits, versions, closes_issues, then a real merge that
// closes the issue its description names.
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTestApp } from '../helpers/app.ts';
import { createUser, unique } from '../factories/users.ts';

describe('@gitbeaker/rest merge requests against a served instance', () => {
  let server: Awaited<ReturnType<typeof serveTestApp>>;
  beforeAll(async () => {
    server = await serveTestApp();
  });
  afterAll(() => server.close());

  it('create, list, changes, commits, versions, edit, merge', async () => {
    const owner = await createUser();
    const gl = new Gitlab({ host: server.url, token: owner.token });
    const project = await gl.Projects.create({ name: unique('gb-mr-'), initializeWithReadme: true });
    const issue = await gl.Issues.create(project.id, 'Fix the readme');
    await gl.Branches.create(project.id, 'feature', 'master');
    const commit = await gl.Commits.create(project.id, 'feature', 'Add a file', [{ action: 'create', filePath: 'feature.txt', content: 'feature\n' }]);

    const mr = await gl.MergeRequests.create(project.id, 'feature', 'master', 'Add the feature', {
      description: `Closes #${issue.iid}`,
      labels: 'feature',
      assigneeIds: [owner.user.id],
      removeSourceBranch: true,
    });
    expect(mr).toMatchObject({
      iid: 1,
      state: 'opened',
      source_branch: 'feature',
      target_branch: 'master',
      labels: ['feature'],
      sha: commit.id,
      merge_status: 'can_be_merged',
      force_remove_source_branch: true,
    });

    const listed = await gl.MergeRequests.all({ projectId: project.id, state: 'opened', labels: 'feature' });
    expect(listed.map((m) => m.iid)).toEqual([1]);
    expect(listed[0]).not.toHaveProperty('subscribed');
    const mine = await gl.MergeRequests.all({ scope: 'created_by_me' });
    expect(mine.map((m) => m.project_id)).toContain(project.id);

    const changes = await gl.MergeRequests.showChanges(project.id, mr.iid);
    expect(changes.changes.map((c) => [c.new_path, c.new_file])).toEqual([['feature.txt', true]]);
    const commits = await gl.MergeRequests.allCommits(project.id, mr.iid);
    expect(commits.map((c) => c.id)).toEqual([commit.id]);
    const versions = await gl.MergeRequests.allDiffVersions(project.id, mr.iid);
    expect(versions.map((v) => v.head_commit_sha)).toEqual([commit.id]);
    const version = await gl.MergeRequests.showDiffVersion(project.id, mr.iid, versions[0]!.id);
    expect((version.diffs as Array<{ new_path: string }>).map((d) => d.new_path)).toEqual(['feature.txt']);
    const closing = await gl.MergeRequests.allIssuesClosed(project.id, mr.iid);
    expect(closing.map((i) => i.iid)).toEqual([issue.iid]);

    const edited = await gl.MergeRequests.edit(project.id, mr.iid, { title: 'Add the feature, edited', description: `Closes #${issue.iid}` });
    expect(edited.title).toBe('Add the feature, edited');

    const merged = await gl.MergeRequests.merge(project.id, mr.iid, { sha: commit.id });
    expect(merged).toMatchObject({ state: 'merged', merge_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect((await gl.Issues.show(issue.iid, { projectId: project.id })).state).toBe('closed');
    await expect(gl.Branches.show(project.id, 'feature')).rejects.toThrow();
    const master = await gl.Branches.show(project.id, 'master');
    expect(master.commit.id).toBe(merged.merge_commit_sha);
  });
});
