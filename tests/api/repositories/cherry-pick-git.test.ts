// Cherry-pick and revert against the system `git`: a history git builds (edits in different hunks of one file, a
// file without a final newline, a mode change, a symlink, a merge commit) is loaded into the store; each pick or
// revert through the API gives the tree `git cherry-pick` / `git revert` (with -m 1 for a merge) gives, entry by
// entry, and a conflict where git has one.
import { chmod, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';
import { git, hasGit, scratchRepo } from '../../helpers/git-dir.ts';
import { loadGitRepository } from './diff-support.ts';

const lines = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}\n`).join('');

describe.runIf(hasGit())('cherry-pick and revert agree with git', () => {
  let work: string;
  let token: string;
  let id: number;
  const scratch = scratchRepo();
  const run = scratch.run;
  const put = scratch.put;
  const commit = scratch.commit;
  const shas: Record<string, string> = {};

  beforeAll(async () => {
    work = await scratch.init('pick-git-');
    await run('config', 'user.name', 'Git');
    await run('config', 'user.email', 'git@example.com');
    await put('list.txt', lines(30));
    await put('tail.txt', 'a\nb');
    await put('tool.sh', 'echo\n');
    await commit('Initial');
    await run('checkout', '-q', '-b', 'topic');
    await put('list.txt', lines(30).replace('line 4\n', 'topic 4\n'));
    await put('tail.txt', 'a\nb\nc');
    await chmod(join(work, 'tool.sh'), 0o755);
    await symlink('list.txt', join(work, 'link'));
    shas.edit = await commit('Topic edits');
    await run('checkout', '-q', '-b', 'side', 'main');
    await put('side.txt', 'side\n');
    await put('list.txt', lines(30).replace('line 28\n', 'side 28\n'));
    await commit('Side work');
    await run('checkout', '-q', 'topic');
    await run('merge', '-q', '--no-ff', '-m', 'Merge side', 'side');
    shas.merge = await git(work, 'rev-parse', 'HEAD');
    await run('checkout', '-q', 'main');
    await put('list.txt', lines(30).replace('line 15\n', 'main 15\n'));
    await commit('Main edit');
    await put('list.txt', lines(30).replace('line 15\n', 'main 15\n').replace('line 4\n', 'main 4\n'));
    shas.clash = await commit('Main clash');

    ({ token } = await createUser());
    id = (await createProject(token)).id;
    await loadGitRepository(work, id, ['main', 'topic', 'side']);
    for (const b of ['main', 'topic', 'side']) {
      const res = await api.post(`/projects/${id}/repository/branches`, { token, body: { branch: `api-${b}`, ref: b } });
      expect(res.status, res.text).toBe(201);
    }
  });

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** The tree of `ref` as `mode type oid path` lines: git's ls-tree -r, and the API's recursive tree. */
  const gitTree = async (ref: string) =>
    (await git(work, 'ls-tree', '-r', ref))
      .split('\n')
      .map((l) => l.replace('\t', ' '))
      .sort();
  const apiTree = async (ref: string) => {
    const res = await api.get(`/projects/${id}/repository/tree`, { token, query: { ref, recursive: 'true', per_page: '100' } });
    return (res.body as { id: string; mode: string; type: string; path: string }[])
      .filter((e) => e.type !== 'tree')
      .map((e) => `${e.mode} ${e.type} ${e.id} ${e.path}`)
      .sort();
  };
  /** Runs git's operation on a scratch branch from `onto`; the tree it leaves, or 'conflict'. */
  const gitResult = async (onto: string, args: string[]) => {
    const scratch = `scratch-${Math.random().toString(36).slice(2, 8)}`;
    await run('checkout', '-q', '-b', scratch, onto);
    try {
      await run(...args);
      return await gitTree('HEAD');
    } catch {
      await run(args[0]!, '--abort').catch(() => undefined);
      return 'conflict';
    } finally {
      await run('checkout', '-q', '-f', 'main');
    }
  };

  it.each([
    ['cherry-pick a commit with hunk, no-newline, mode and symlink changes onto side', 'cherry_pick', 'edit', 'api-side', ['cherry-pick', '--no-edit']],
    ['cherry-pick a merge commit (mainline 1) onto main', 'cherry_pick', 'merge', 'api-main', ['cherry-pick', '--no-edit', '-m', '1']],
    ['revert a commit on topic', 'revert', 'edit', 'api-topic', ['revert', '--no-edit']],
    ['revert a merge (mainline 1) on topic', 'revert', 'merge', 'api-topic', ['revert', '--no-edit', '-m', '1']],
  ])('%s: the tree git makes', async (_name, kind, commit, branch, args) => {
    const before = await git(work, 'rev-parse', branch.replace('api-', ''));
    const expected = await gitResult(branch.replace('api-', ''), [...args, shas[commit]!]);
    expect(expected).not.toBe('conflict');
    const res = await api.post(`/projects/${id}/repository/commits/${shas[commit]}/${kind}`, { token, body: { branch } });
    expect(res.status, res.text).toBe(201);
    expect((res.body as { parent_ids: string[] }).parent_ids).toEqual([before]);
    expect(await apiTree(branch)).toEqual(expected);
    // Back to where it was for the next case.
    const reset = await api.delete(`/projects/${id}/repository/branches/${branch}`, { token });
    expect(reset.status).toBe(204);
    await api.post(`/projects/${id}/repository/branches`, { token, body: { branch, ref: before } });
  });

  it.each([
    ['clash', 'api-topic'],
    ['edit', 'api-main'],
  ])('a conflict where git has one: %s onto %s changes lines the branch changed', async (commit, branch) => {
    expect(await gitResult(branch.replace('api-', ''), ['cherry-pick', '--no-edit', shas[commit]!])).toBe('conflict');
    const res = await api.post(`/projects/${id}/repository/commits/${shas[commit]}/cherry_pick`, { token, body: { branch } });
    expect(res.status).toBe(400);
    expect((res.body as { error_code: string }).error_code).toBe('conflict');
  });
});
