// The merge engine (functions/merge-requests/merge-engine.ts) against the system `git`: a history git builds (line
// edits in different hunks, a file without a final newline, a mode change, a symlink, a deletion, binary files, a
// merge inside a branch) is loaded into the store; each merge gives the tree `git merge --no-ff` gives (same tree id,
// entry by entry), a conflict where git has one, a fast-forward where `git merge --ff-only` can, and a rebase the
// trees `git rebase` makes. What the engine writes is handed to git as loose objects, so git reads it too.
import { chmod, mkdir, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIT_OBJECT_TYPES } from '../../db/schema/repositories.ts';
import { buildMerge, cleanupMessage, mergeability, rebase, type BuildMergeInput } from '../../functions/merge-requests/merge-engine.ts';
import type { PreparedWrite } from '../../functions/repositories/store/store.ts';
import { loadGitRepository } from '../api/repositories/diff-support.ts';
import { testDb } from '../helpers/app.ts';
import { git, hasGit, runGit, scratchRepo, writeLooseObjects } from '../helpers/git-dir.ts';
import { measured, projectWithRepository } from './store-support.ts';

const lines = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}\n`).join('');
const edit = (replacements: Record<number, string>) => lines(30).replace(/^line (\d+)$/gm, (l, n: string) => replacements[Number(n)] ?? l);
const binary = (seed: number) => Uint8Array.from({ length: 64 }, (_, i) => (i * seed) % 256);
const TYPE_NAMES = Object.fromEntries(Object.entries(GIT_OBJECT_TYPES).map(([name, n]) => [n, name])) as Record<number, 'commit' | 'tree' | 'blob' | 'tag'>;
const user = { name: 'Merger', email: 'merger@example.com' };
const NOW = 1_700_000_000;

describe.runIf(hasGit())('the merge engine agrees with git', () => {
  const scratch = scratchRepo();
  const { run, put, commit } = scratch;
  let work: string;
  let projectId: number;
  const tip: Record<string, string> = {};
  const branches = ['main', 'topic', 'clash', 'binclash', 'gone', 'dirfile', 'twin', 'ahead', 'single', 'rebased'];

  beforeAll(async () => {
    work = await scratch.init('merge-engine-git-');
    await put('list.txt', lines(30));
    await put('tail.txt', 'a\nb');
    await put('bin.dat', binary(3));
    await put('tool.sh', 'echo\n');
    await put('dir.txt', 'x\n');
    await commit('Base');
    await run('tag', 'base'); // where every branch but ahead and single starts

    await run('checkout', '-q', '-b', 'topic', 'base');
    await put('list.txt', edit({ 4: 'topic 4' }));
    await put('tail.txt', 'a\nb\nc');
    await chmod(join(work, 'tool.sh'), 0o755);
    await commit('Topic edits');
    await put('new.txt', 'new\n');
    await rm(join(work, 'dir.txt'));
    await symlink('list.txt', join(work, 'link'));
    await commit('Topic adds and deletes');

    await run('checkout', '-q', '-b', 'clash', 'base');
    await put('list.txt', edit({ 28: 'clash 28' }));
    await commit('Clash on line 28');

    await run('checkout', '-q', '-b', 'binclash', 'base');
    await put('bin.dat', binary(5));
    await commit('Binary change');

    await run('checkout', '-q', '-b', 'gone', 'base');
    await rm(join(work, 'list.txt'));
    await commit('Delete what main edits');

    await run('checkout', '-q', '-b', 'dirfile', 'base');
    await mkdir(join(work, 'main.txt'));
    await put('main.txt/inside', 'a directory where main adds a file\n');
    await commit('A directory named like main.txt');

    await run('checkout', '-q', '-b', 'twin', 'base');
    await put('main.txt', 'main\n');
    await rm(join(work, 'tail.txt'));
    await commit('The file main adds, the same');

    await run('checkout', '-q', '-b', 'rebased', 'base');
    await put('list.txt', edit({ 10: 'rebase 10' }));
    await commit('Rebase one');
    await put('list.txt', edit({ 10: 'rebase 10', 28: 'main 28' }));
    await commit('Rebase two: what main does too');
    await put('r.txt', 'r\n');
    await commit('Rebase three');
    await run('checkout', '-q', '-b', 'rside');
    await put('side.txt', 'side\n');
    await commit('Side work');
    await run('checkout', '-q', 'rebased');
    await put('tail.txt', 'z\na\nb');
    await commit('Rebase four');
    await run('merge', '-q', '--no-ff', '-m', 'Merge side', 'rside');

    await run('checkout', '-q', 'main');
    await put('list.txt', edit({ 28: 'main 28' }));
    await put('main.txt', 'main\n');
    await put('bin.dat', binary(7));
    await commit('Main moves on');

    await run('checkout', '-q', '-b', 'ahead', 'main');
    await put('list.txt', edit({ 15: 'ahead 15', 28: 'main 28' }));
    await commit('Ahead one');
    await put('ahead.txt', 'ahead\n');
    await commit('Ahead two');

    await run('checkout', '-q', '-b', 'single', 'main');
    await put('single.txt', 'single\n');
    await commit('Single');
    await run('checkout', '-q', 'main');

    for (const b of branches) tip[b] = await git(work, 'rev-parse', b);
    ({ projectId } = await projectWithRepository());
    await loadGitRepository(work, projectId, branches);
  });

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  const db = () => testDb().db;
  /** The engine's objects, as loose objects git can read. */
  const giveToGit = (write: PreparedWrite | undefined) =>
    writeLooseObjects(
      join(work, '.git'),
      (write?.objects ?? []).map((o) => ({ oid: o.oid, type: TYPE_NAMES[o.type]!, body: o.data })),
    );
  const lsTree = (rev: string) => git(work, 'ls-tree', '-r', rev);
  /** git's operation on a scratch branch at `onto`: the commit it leaves, or 'conflict'. */
  const gitRun = async (onto: string, args: string[]) => {
    const branch = `scratch-${Math.random().toString(36).slice(2, 8)}`;
    await run('checkout', '-q', '-b', branch, onto);
    try {
      await run(...args);
      return await git(work, 'rev-parse', 'HEAD');
    } catch {
      await run(args[0]!, '--abort').catch(() => undefined);
      return 'conflict';
    } finally {
      await run('checkout', '-q', '-f', 'main');
    }
  };
  const merge = (source: string, method: BuildMergeInput['method'], extra: Partial<BuildMergeInput> = {}) =>
    buildMerge(db(), projectId, { targetTip: tip.main!, sourceHead: tip[source]!, method, mergeMessage: `Merge ${source}`, user, now: NOW, ...extra });

  it.each(['topic', 'twin', 'ahead', 'single'])('merging %s writes a merge commit with the tree git merge --no-ff makes', async (source) => {
    const expected = await gitRun('main', ['merge', '--no-ff', '-m', 'git', source]);
    expect(expected).not.toBe('conflict');
    const result = await merge(source, 'merge');
    if (result.kind !== 'ok') throw new Error(result.kind);
    await giveToGit(result.write);
    expect(result.mergeCommitSha).toBe(result.newTip);
    expect(result.squashCommitSha).toBeNull();
    expect(await git(work, 'rev-parse', `${result.newTip}^{tree}`)).toBe(await git(work, 'rev-parse', `${expected}^{tree}`));
    expect(await lsTree(result.newTip)).toBe(await lsTree(expected));
    expect((await git(work, 'log', '-1', '--format=%P%n%an <%ae> %at%n%B', result.newTip)).trim()).toBe(
      `${tip.main} ${tip[source]}\nMerger <merger@example.com> ${NOW}\nMerge ${source}`,
    );
    expect(result.commitCount).toBe(Number(await git(work, 'rev-list', '--count', `main..${source}`)) + 1);
  });

  it.each(['clash', 'binclash', 'gone', 'dirfile'])('merging %s conflicts where git merge does', async (source) => {
    expect(await gitRun('main', ['merge', '--no-ff', '-m', 'git', source])).toBe('conflict');
    expect(await merge(source, 'merge')).toEqual({ kind: 'conflict' });
    const check = await mergeability(db(), projectId, { targetTip: tip.main!, sourceHead: tip[source]! });
    expect(check).toMatchObject({ conflict: true, ffPossible: false, mergeBase: await git(work, 'merge-base', 'main', source) });
  });

  it('mergeability costs a constant number of statements and tells whether a fast-forward is possible', async () => {
    for (const [source, ffPossible] of [
      ['topic', false],
      ['ahead', true],
      ['rebased', false],
    ] as const) {
      const { result, queries } = await measured((database) => mergeability(database.db, projectId, { targetTip: tip.main!, sourceHead: tip[source]! }));
      expect(result).toEqual({
        mergeBase: await git(work, 'merge-base', 'main', source),
        conflict: false,
        ffPossible,
        ahead: Number(await git(work, 'rev-list', '--count', `main..${source}`)),
      });
      expect(queries).toBeLessThanOrEqual(4);
    }
  });

  it('ff fast-forwards where git merge --ff-only does, and refuses where it cannot', async () => {
    expect(await gitRun('main', ['merge', '--ff-only', 'ahead'])).toBe(tip.ahead);
    expect(await merge('ahead', 'ff')).toMatchObject({
      kind: 'ok',
      write: undefined,
      newTip: tip.ahead,
      mergeCommitSha: null,
      commitCount: 2,
      lastCommitMessage: 'Ahead two\n',
    });
    expect(await gitRun('main', ['merge', '--ff-only', 'topic'])).toBe('conflict');
    expect(await merge('topic', 'ff')).toEqual({ kind: 'ff_impossible' });
  });

  it('rebase_merge needs the source on top of the target, then writes a merge commit', async () => {
    expect(await merge('topic', 'rebase_merge')).toEqual({ kind: 'ff_impossible' });
    const result = await merge('ahead', 'rebase_merge');
    if (result.kind !== 'ok') throw new Error(result.kind);
    await giveToGit(result.write);
    expect(await git(work, 'rev-parse', `${result.newTip}^{tree}`)).toBe(await git(work, 'rev-parse', `${tip.ahead}^{tree}`));
    expect(await git(work, 'log', '-1', '--format=%P', result.newTip)).toBe(`${tip.main} ${tip.ahead}`);
  });

  it('squashing commits the merged tree on the target tip (Gitaly applies start...head there), then the merge commit', async () => {
    const author = { name: 'Author', email: 'author@example.com' };
    const result = await merge('topic', 'merge', { squash: { defaultMessage: 'Squashed title  \n\n', author } });
    if (result.kind !== 'ok') throw new Error(result.kind);
    await giveToGit(result.write);
    const squash = result.squashCommitSha!;
    expect(await git(work, 'log', '-1', '--format=%P|%T|%an|%cn|%B', squash)).toBe(
      `${tip.main}|${await git(work, 'rev-parse', `${result.newTip}^{tree}`)}|Author|Merger|Squashed title\n`,
    );
    expect(await git(work, 'log', '-1', '--format=%P', result.newTip)).toBe(`${tip.main} ${squash}`);
    const expected = await gitRun('main', ['merge', '--no-ff', '-m', 'git', 'topic']);
    expect(await lsTree(squash)).toBe(await lsTree(expected));
    expect(await lsTree(result.newTip)).toBe(await lsTree(expected));
    expect(result.commitCount).toBe(2);
  });

  it.each(['Title', 'Title  \n\n\n', '\n\n  \nTitle\t\n\n\n\nBody  \nmore\n\n', '# kept\nTitle', '', '  \n'])(
    'a squash message %j is cleaned up as git commit -m does (git stripspace)',
    async (message) => {
      expect(cleanupMessage(message)).toBe((await runGit(work, ['stripspace'], { input: message })).stdout.toString());
    },
  );

  it('squashing one commit without a message keeps it (squash_redundant?); with a message it squashes', async () => {
    const author = { name: 'Author', email: 'author@example.com' };
    const redundant = await merge('single', 'ff', { squash: { defaultMessage: 'Title', author } });
    expect(redundant).toMatchObject({ kind: 'ok', write: undefined, newTip: tip.single, squashCommitSha: tip.single, mergeCommitSha: null });
    const given = await merge('single', 'ff', { squash: { message: 'Given', defaultMessage: 'Title', author } });
    if (given.kind !== 'ok') throw new Error(given.kind);
    await giveToGit(given.write);
    expect(given.newTip).toBe(given.squashCommitSha);
    expect(await git(work, 'log', '-1', '--format=%P|%T|%B', given.newTip)).toBe(`${tip.main}|${await git(work, 'rev-parse', 'single^{tree}')}|Given\n`);
  });

  it('ff with squash moves the target to the squash commit', async () => {
    const result = await merge('ahead', 'ff', { squash: { defaultMessage: 'Ahead, squashed', author: user } });
    if (result.kind !== 'ok') throw new Error(result.kind);
    await giveToGit(result.write);
    expect(result).toMatchObject({ mergeCommitSha: null, newTip: result.squashCommitSha, commitCount: 1, lastCommitMessage: 'Ahead, squashed\n' });
    expect(await git(work, 'log', '-1', '--format=%P|%T', result.newTip)).toBe(`${tip.main}|${await git(work, 'rev-parse', 'ahead^{tree}')}`);
  });

  /** `tree subject author` of each commit in `range`, oldest first. */
  const history = (range: string) => git(work, 'log', '--reverse', '--format=%T %s | %an <%ae> %at', range);

  it('rebase replays a linear branch as git rebase does, dropping a commit that becomes empty', async () => {
    await run('branch', '-f', 'linear', `${tip.rebased}^1~1`); // Rebase one, two, three
    const linear = await git(work, 'rev-parse', 'linear');
    const expected = await gitRun('linear', ['rebase', '-q', 'main']);
    expect(expected).not.toBe('conflict');
    const result = await rebase(db(), projectId, { targetTip: tip.main!, sourceHead: linear, user, now: NOW });
    if (result.kind !== 'ok') throw new Error(result.kind);
    await giveToGit(result.write);
    expect(await history(`main..${result.newHead}`)).toBe(await history(`main..${expected}`));
    expect(result.commitCount).toBe(2);
    expect(await git(work, 'log', '-1', '--format=%P %cn %ct', result.newHead)).toMatch(/ Merger 1700000000$/);
    // Its reads: the commits, their changes and bodies, the target's directories and blobs.
    const { queries } = await measured((database) => rebase(database.db, projectId, { targetTip: tip.main!, sourceHead: tip.rebased!, user, now: NOW }));
    expect(queries).toBeLessThanOrEqual(5);
  });

  it('rebase leaves merge commits out and ends on the tree git rebase makes', async () => {
    const expected = await gitRun('rebased', ['rebase', '-q', 'main']);
    expect(expected).not.toBe('conflict');
    const result = await rebase(db(), projectId, { targetTip: tip.main!, sourceHead: tip.rebased!, user, now: NOW });
    if (result.kind !== 'ok') throw new Error(result.kind);
    await giveToGit(result.write);
    expect(await lsTree(result.newHead)).toBe(await lsTree(expected));
    const subjects = async (head: string) => (await git(work, 'log', '--format=%s', `main..${head}`)).split('\n').sort();
    expect(await subjects(result.newHead)).toEqual(await subjects(expected));
    expect(await git(work, 'rev-list', '--merges', '--count', `main..${result.newHead}`)).toBe('0');
  });

  it('rebase conflicts where git rebase does; a branch on top of the target is left as it is', async () => {
    expect(await gitRun('clash', ['rebase', '-q', 'main'])).toBe('conflict');
    expect(await rebase(db(), projectId, { targetTip: tip.main!, sourceHead: tip.clash!, user, now: NOW })).toEqual({ kind: 'conflict' });
    expect(await rebase(db(), projectId, { targetTip: tip.main!, sourceHead: tip.ahead!, user, now: NOW })).toMatchObject({
      kind: 'ok',
      write: undefined,
      newHead: tip.ahead,
    });
  });
});
