// Blame against the system `git`: a history git builds (insertions, deletions, changed and moved lines, a file
// without a final newline, two branches edited apart and merged, a conflict resolved by hand in the merge, a file
// unchanged by some commits and by a merge) is loaded into the store, and the API attributes every line of every
// version to the commit `git blame --porcelain` names.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { findRepository } from '../../../db/queries/repositories/refs.ts';
import { applyWrite, prepareWrite } from '../../../functions/repositories/store/store.ts';
import { api, testDb } from '../../helpers/app.ts';
import { git, hasGit, runGit, scratchRepo } from '../../helpers/git-dir.ts';
import { loadGitRepository } from './diff-support.ts';

const lines = (from: number, to: number, prefix = 'line') => Array.from({ length: to - from + 1 }, (_, i) => `${prefix} ${from + i}\n`).join('');

/** `git blame --porcelain`: the commit of each line, in order. */
async function gitBlame(work: string, rev: string, path: string): Promise<string[]> {
  const out = (await runGit(work, ['blame', '--porcelain', rev, '--', path])).stdout.toString();
  const owners: string[] = [];
  for (const line of out.split('\n')) {
    const m = /^([0-9a-f]{40}) \d+ (\d+)/.exec(line);
    if (m) owners[Number(m[2]) - 1] = m[1]!;
  }
  return owners;
}

describe.runIf(hasGit())('blame agrees with git blame', () => {
  let work: string;
  let token: string;
  let id: number;
  const scratch = scratchRepo();
  const run = scratch.run;
  const put = scratch.put;
  const commit = scratch.commit;
  /** Every revision of the test, by name, with the paths to blame there. */
  const checks: [string, string][] = [];

  beforeAll(async () => {
    work = await scratch.init('blame-git-');
    await mkdir(join(work, 'src'));
    await put('src/file.txt', lines(1, 20));
    await put('other.txt', 'other\n');
    await commit('Initial');
    // Insertions at the top, middle and end; one line changed.
    await put('src/file.txt', `header\n${lines(1, 5)}inserted a\ninserted b\n${lines(6, 9)}line ten changed\n${lines(11, 20)}footer\n`);
    await commit('Insert and change');
    await run('tag', 'v1');
    // Deletions; another file changes alone (file.txt untouched here).
    await put('src/file.txt', `header\n${lines(1, 3)}inserted a\ninserted b\n${lines(6, 9)}line ten changed\n${lines(11, 14)}${lines(18, 20)}footer\n`);
    await commit('Delete lines');
    await put('other.txt', 'other changed\n');
    await commit('Only other');
    // A block moved down past a longer one, and no final newline.
    await put('src/file.txt', `header\n${lines(6, 9)}line ten changed\n${lines(11, 14)}${lines(1, 3)}inserted a\ninserted b\n${lines(18, 20)}footer`);
    await commit('Move a block');
    // Two branches edit different places, then a merge with a conflict resolved by hand.
    await run('checkout', '-q', '-b', 'topic');
    const text = await readFile(join(work, 'src/file.txt'), 'utf8');
    await put('src/file.txt', text.replace('line 7\n', 'line 7 topic\n').replace('line 19\n', 'line 19 topic\ntopic extra\n'));
    await commit('Topic edits');
    await run('checkout', '-q', 'main');
    await put('src/file.txt', text.replace('header\n', 'header main\n').replace('line 19\n', 'line 19 main\n'));
    await commit('Main edits');
    await run('merge', '-q', '--no-edit', 'topic').catch(() => undefined);
    const merged = text
      .replace('header\n', 'header main\n')
      .replace('line 7\n', 'line 7 topic\n')
      .replace('line 19\n', 'line 19 main\ntopic extra\nresolved in merge\n');
    await put('src/file.txt', merged);
    await run('add', '-A');
    await run('commit', '-q', '--no-edit');
    // A merge that leaves the file as the first parent has it (the side branch changed another file only).
    await run('checkout', '-q', '-b', 'side');
    await put('other.txt', 'side\n');
    await commit('Side');
    await run('checkout', '-q', 'main');
    await run('merge', '-q', '--no-ff', '--no-edit', 'side');
    await put('src/file.txt', `${merged}\nlast line\n`);
    await commit('After the merges');

    ({ token } = await createUser());
    id = (await createProject(token)).id;
    await loadGitRepository(work, id, ['main', 'topic', 'side']);
    const poolId = (await findRepository(testDb().db, id))!.poolId;
    await applyWrite(testDb(), poolId, await prepareWrite([]), [{ projectId: id, name: 'refs/tags/v1', old: null, new: await git(work, 'rev-parse', 'v1') }]);
    const log = (await git(work, 'log', '--format=%H', 'main')).split('\n');
    for (const rev of [...log, 'topic', 'v1', 'main']) checks.push([rev, 'src/file.txt']);
    checks.push(['main', 'other.txt']);
  });

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('attributes every line of every version as git does', async () => {
    for (const [rev, path] of checks) {
      const res = await api.get(`/projects/${id}/repository/files/${encodeURIComponent(path)}/blame`, { token, query: { ref: rev } });
      expect(res.status, `${rev} ${res.text}`).toBe(200);
      const ours = (res.body as { commit: { id: string }; lines: string[] }[]).flatMap((g) => g.lines.map(() => g.commit.id));
      expect(ours, `${rev}:${path}`).toEqual(await gitBlame(work, rev, path));
    }
  });

  it("the lines are the file's, and the groups split where the commit changes", async () => {
    const res = await api.get(`/projects/${id}/repository/files/src%2Ffile.txt/blame`, { token, query: { ref: 'main' } });
    const groups = res.body as { commit: { id: string; parent_ids: string[] }; lines: string[] }[];
    expect(groups.flatMap((g) => g.lines).join('\n') + '\n').toBe((await git(work, 'show', 'main:src/file.txt')) + '\n');
    for (let i = 1; i < groups.length; i++) expect(groups[i]!.commit.id).not.toBe(groups[i - 1]!.commit.id);
    // The history's interesting lines: from the topic branch, from the merge's resolution, from the first commit.
    const owner = (line: string) => groups.find((g) => g.lines.includes(line))!.commit;
    const subject = async (oid: string) => git(work, 'log', '-1', '--format=%s', oid);
    expect(await subject(owner('line 7 topic').id)).toBe('Topic edits');
    expect(owner('resolved in merge').parent_ids).toHaveLength(2);
    expect(await subject(owner('line 12').id)).toBe('Initial');
    expect(await subject(owner('line ten changed').id)).toBe('Insert and change');
    expect(await subject(owner('inserted a').id)).toBe('Move a block');
    // 'footer' lost its newline in 'Move a block' and got it back after the merges: a changed line, twice.
    expect(await subject(owner('footer').id)).toBe('After the merges');
  });

  it.each([7, 1, 11])('a random history of edits, branches and merges (seed %i): every version as git blames it', async (start) => {
    const dir = await mkdtemp(join(tmpdir(), 'blame-random-'));
    try {
      let seed = start;
      const rnd = (n: number) => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return seed % n;
      };
      let tick = 1_700_000_000;
      const sh = (...args: string[]) => {
        tick += 60;
        return runGit(dir, args, { env: { GIT_AUTHOR_DATE: `${tick} +0000`, GIT_COMMITTER_DATE: `${tick} +0000` } });
      };
      let counter = 0;
      // Mostly unique lines, with the repeated ones code has (braces, blank lines).
      const fresh = () => (rnd(5) === 0 ? ['}', '', '{'][rnd(3)]! : `line ${++counter}`);
      const edit = async () => {
        const file = join(dir, 'f.txt');
        const current = (await readFile(file, 'utf8')).split('\n').slice(0, -1);
        for (let k = 0; k < 1 + rnd(3); k++) {
          const op = rnd(4);
          const at = rnd(current.length + 1);
          if (op === 0 || current.length < 3) current.splice(at, 0, ...Array.from({ length: 1 + rnd(3) }, fresh));
          else if (op === 1) current.splice(at, 1 + rnd(2));
          else if (op === 2) current[Math.min(at, current.length - 1)] = fresh();
          else current.splice(rnd(current.length), 0, ...current.splice(at, 1 + rnd(2)));
        }
        await writeFile(file, current.map((l) => `${l}\n`).join(''));
        await sh('commit', '-q', '-a', '-m', `edit ${tick}`);
      };
      await sh('init', '-q', '-b', 'main');
      await writeFile(
        join(dir, 'f.txt'),
        Array.from({ length: 12 }, fresh)
          .map((l) => `${l}\n`)
          .join(''),
      );
      await sh('add', '-A');
      await sh('commit', '-q', '-m', 'start');
      for (let round = 0; round < 6; round++) {
        await sh('checkout', '-q', '-b', `b${round}`);
        for (let k = 0; k < 1 + rnd(3); k++) await edit();
        await sh('checkout', '-q', 'main');
        for (let k = 0; k < rnd(3); k++) await edit();
        // Conflicts resolve to main's side (-X ours): the merge still has both parents.
        await sh('merge', '-q', '--no-edit', '-X', 'ours', `b${round}`);
        if (rnd(2)) await edit();
      }
      const project = (await createProject(token)).id;
      await loadGitRepository(dir, project, ['main']);
      const revs = (await git(dir, 'log', '--format=%H', 'main')).split('\n');
      expect(revs.length).toBeGreaterThan(10);
      for (const rev of revs) {
        const res = await api.get(`/projects/${project}/repository/files/f.txt/blame`, { token, query: { ref: rev } });
        const ours = (res.body as { commit: { id: string }; lines: string[] }[]).flatMap((g) => g.lines.map(() => g.commit.id));
        expect(ours, rev).toEqual(await gitBlame(dir, rev, 'f.txt'));
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
