// Diffs against the system `git`: a history git builds (edits with function context, files without a final
// newline, binary files, renames exact and similar, a mode change, a symlink, a file becoming a symlink) is loaded
// into the store, and each commit's diff, compare (both ways), merge_base and stats equal what git prints.
import { chmod, mkdir, rm, symlink, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';
import { git, hasGit, scratchRepo } from '../../helpers/git-dir.ts';
import { gitDiffEntries, loadGitRepository } from './diff-support.ts';

const lines = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}\n`).join('');

describe.runIf(hasGit())('diffs agree with git', () => {
  let work: string;
  let token: string;
  let id: number;
  const scratch = scratchRepo();
  const run = scratch.run;
  const put = scratch.put;
  const commit = scratch.commit;

  beforeAll(async () => {
    work = await scratch.init('diff-git-');
    await mkdir(join(work, 'src'));
    await put('src/app.rb', `class App\n${lines(30, '  step')}end\n`);
    await put('notes.txt', 'first\nsecond');
    await put('logo.bin', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
    await put('moved.txt', lines(20));
    await put('similar.txt', lines(10, 'similar'));
    await put('half.txt', lines(10, 'half'));
    await put('script.sh', 'echo hi\n');
    await put('gone.txt', 'bye\n');
    await put('kind.txt', 'a file\n');
    await commit('Initial');
    // Edits: two hunks with function context, a last line without newline, a binary change, a deletion, an addition.
    await put('src/app.rb', `class App\n${lines(30, '  step').replace('  step 3\n', '  step three\n').replace('  step 25\n', '  step 25\n  step 25b\n')}end\n`);
    await put('notes.txt', 'first\nsecond\nthird');
    await put('logo.bin', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 9, 9, 9]));
    await unlink(join(work, 'gone.txt'));
    await put('added.txt', 'new\n');
    await commit('Edit');
    // Renames (exact, and similar with an edit), a mode change, a symlink, a file becoming a symlink.
    await run('mv', 'moved.txt', 'src/moved.txt');
    await run('mv', 'similar.txt', 'renamed.txt');
    await put('renamed.txt', lines(10, 'similar').replace('similar 5\n', 'changed 5\n'));
    // About 40% alike: a rename at Gitaly's 30%, a deletion and an addition at git's 50%.
    await unlink(join(work, 'half.txt'));
    await put('halved.txt', `${lines(4, 'half')}${lines(6, 'other')}`);
    await chmod(join(work, 'script.sh'), 0o755);
    await symlink('notes.txt', join(work, 'link'));
    await unlink(join(work, 'kind.txt'));
    await symlink('src/app.rb', join(work, 'kind.txt'));
    await commit('Move things');
    // A topic branch from here; main moves on too (compare and merge_base).
    await run('checkout', '-q', '-b', 'topic');
    await put('topic.txt', 'topic\n');
    await put('notes.txt', 'first\nsecond\nthird\n');
    await commit('Topic work');
    await run('checkout', '-q', 'main');
    await put('main.txt', 'main\n');
    await put('src/app.rb', 'class App\nend\n');
    await commit('Main work');

    ({ token } = await createUser());
    id = (await createProject(token)).id;
    await loadGitRepository(work, id, ['main', 'topic']);
  });

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  const get = (path: string, query: Record<string, string | boolean | string[]> = {}) => api.get(`/projects/${id}/repository${path}`, { token, query });

  it("each commit's diff: git's hunks, GitLab's fields", async () => {
    const shas = (await git(work, 'rev-list', '--reverse', 'main', 'topic')).split('\n');
    for (const sha of shas) {
      const res = await get(`/commits/${sha}/diff`, { per_page: '100' });
      expect(res.status, res.text).toBe(200);
      const parent = (await git(work, 'rev-list', '--parents', '-1', sha)).split(' ')[1];
      const expected = await gitDiffEntries(work, parent ?? (await git(work, 'hash-object', '-t', 'tree', '/dev/null')), sha);
      expect(res.body, sha).toEqual(expected);
    }
  });

  it('the rendered texts, as GitLab shows them', async () => {
    const edit = (await get(`/commits/${await git(work, 'rev-parse', 'main~2')}/diff`)).body as {
      new_path: string;
      diff: string;
      new_file: boolean;
      deleted_file: boolean;
    }[];
    const by = (p: string) => edit.find((e) => e.new_path === p)!;
    expect(by('logo.bin').diff).toBe('Binary files a/logo.bin and b/logo.bin differ\n');
    expect(by('notes.txt').diff).toBe('@@ -1,2 +1,3 @@\n first\n-second\n\\ No newline at end of file\n+second\n+third\n\\ No newline at end of file\n');
    expect(by('src/app.rb').diff).toMatch(/^@@ -1,7 \+1,7 @@\n class App\n/);
    expect(by('src/app.rb').diff).toContain('@@ -24,6 +24,7 @@ class App\n');
    expect(by('gone.txt')).toMatchObject({ deleted_file: true, diff: '@@ -1 +0,0 @@\n-bye\n' });
    expect(by('added.txt')).toMatchObject({ new_file: true, diff: '@@ -0,0 +1 @@\n+new\n' });
    const moves = (await get(`/commits/${await git(work, 'rev-parse', 'main~1')}/diff`)).body as Record<string, unknown>[];
    expect(moves.find((e) => e.new_path === 'src/moved.txt')).toEqual({
      old_path: 'moved.txt',
      new_path: 'src/moved.txt',
      a_mode: '100644',
      b_mode: '100644',
      new_file: false,
      renamed_file: true,
      deleted_file: false,
      diff: '',
    });
    expect(moves.find((e) => e.new_path === 'script.sh')).toMatchObject({ a_mode: '100644', b_mode: '100755', diff: '' });
    expect(moves.find((e) => e.new_path === 'renamed.txt')).toMatchObject({ old_path: 'similar.txt', renamed_file: true });
    expect(moves.filter((e) => e.new_path === 'halved.txt' || e.old_path === 'half.txt').map((e) => [e.old_path, e.new_path, e.renamed_file])).toEqual([
      ['half.txt', 'half.txt', false],
      ['halved.txt', 'halved.txt', false],
    ]);
  });

  it('compare: from the merge base by default, straight on request; commits oldest first', async () => {
    const merged = await get('/compare', { from: 'main', to: 'topic' });
    expect(merged.status, merged.text).toBe(200);
    expect(Object.keys(merged.body)).toEqual(['commit', 'commits', 'diffs', 'compare_timeout', 'compare_same_ref']);
    expect(merged.body.diffs).toEqual(await gitDiffEntries(work, 'main...topic'));
    const ids = (await git(work, 'log', '--reverse', '--format=%H', 'main..topic')).split('\n');
    expect(merged.body.commits.map((c: { id: string }) => c.id)).toEqual(ids);
    expect(merged.body.commit.id).toBe(ids.at(-1));
    expect(merged.body).toMatchObject({ compare_timeout: false, compare_same_ref: false });
    const straight = await get('/compare', { from: 'main', to: 'topic', straight: 'true' });
    expect(straight.body.diffs).toEqual(await gitDiffEntries(work, 'main', 'topic'));
    expect(straight.body.commits).toEqual(merged.body.commits);
    const same = await get('/compare', { from: 'main', to: await git(work, 'rev-parse', 'main') });
    expect(same.body).toEqual({ commit: null, commits: [], diffs: [], compare_timeout: false, compare_same_ref: true });
    const missing = await get('/compare', { from: 'main', to: 'nope' });
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Ref Not Found' }]);
  });

  it('merge_base: the commit git merge-base names; 13.6 errors', async () => {
    const res = await get('/merge_base', { 'refs[]': ['main', 'topic'] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).toBe(await git(work, 'merge-base', 'main', 'topic'));
    expect(res.body.web_url).toMatch(/\/-\/commit\//);
    const one = await get('/merge_base', { 'refs[]': ['main'] });
    expect([one.status, one.body]).toEqual([400, { message: 'Provide at least 2 refs' }]);
    const unknown = await get('/merge_base', { 'refs[]': ['main', 'nope', 'gone'] });
    expect([unknown.status, unknown.body]).toEqual([400, { message: 'Could not find refs: nope, gone' }]);
    const missing = await get('/merge_base');
    expect([missing.status, missing.body]).toEqual([400, { error: 'refs is missing' }]);
  });

  it('stats: git numstat totals on commits/:sha, the log with_stats', async () => {
    const numstat = async (sha: string) => {
      const out = await git(work, 'show', '--format=', '--numstat', '--find-renames=50%', sha);
      let additions = 0;
      let deletions = 0;
      for (const line of out.split('\n').filter(Boolean)) {
        const [a, d] = line.split('\t');
        additions += a === '-' ? 0 : Number(a);
        deletions += d === '-' ? 0 : Number(d);
      }
      return { additions, deletions, total: additions + deletions };
    };
    const shas = (await git(work, 'rev-list', 'main')).split('\n');
    for (const sha of shas) expect((await get(`/commits/${sha}`)).body.stats, sha).toEqual(await numstat(sha));
    expect((await get(`/commits/${shas[0]}`, { stats: 'false' })).body).not.toHaveProperty('stats');
    const log = await get('/commits', { with_stats: 'true' });
    expect(log.body.map((c: { stats: unknown }) => c.stats)).toEqual(await Promise.all(shas.map(numstat)));
    expect((await get('/commits')).body[0]).not.toHaveProperty('stats');
  });
});
