// The diff endpoints without git: pagination of a commit's diff, a root commit, a submodule, a directory replaced
// by a file, the stats of POST repository/commits, who may read diffs, and the query budgets (Server-Timing): the
// same number of statements for 1 file or 60, 1 commit or 30.
import { beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, queryCount } from '../../helpers/app.ts';
import { RepoWriter, type TreeSpec } from './read-support.ts';

const SUBMODULE = 'a'.repeat(40);
const many = (n: number, text: (i: number) => string): TreeSpec =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${String(i).padStart(2, '0')}.txt`, text(i)]));

let token: string;
let id: number;
let root: string;
let wide: string;
let narrow: string;
let swap: string;

beforeAll(async () => {
  ({ token } = await createUser());
  id = (await createProject(token)).id;
  const repo = await RepoWriter.open(id);
  root = await repo.commit('main', { 'a.txt': 'a\n', dir: { 'x.txt': 'x\n' }, sub: { mode: '160000', oid: SUBMODULE } }, 'Root\n', 1_600_000_000);
  wide = await repo.commit(
    'main',
    { 'a.txt': 'a\n', dir: { 'x.txt': 'x\n', ...many(60, (i) => `${i}\n`) }, sub: { mode: '160000', oid: 'b'.repeat(40) } },
    'Wide\n',
    1_600_000_100,
  );
  narrow = await repo.commit(
    'main',
    { 'a.txt': 'a\nb\n', dir: { 'x.txt': 'x\n', ...many(60, (i) => `${i}\n`) }, sub: { mode: '160000', oid: 'b'.repeat(40) } },
    'Narrow\n',
    1_600_000_200,
  );
  swap = await repo.commit('main', { 'a.txt': { 'inner.txt': 'in\n' }, dir: 'now a file\n' }, 'Swap\n', 1_600_000_300);
  await repo.commits('main', 30, (i) => ({ 'log.txt': `${i}\n` }), 1_600_001_000);
  await api.get('/user', { token }); // the token's first use records last_used_at: not measured
});

const get = (path: string, query: Record<string, string> = {}, as = token) => api.get(`/projects/${id}/repository${path}`, { token: as, query });

describe('GET repository/commits/:sha/diff', () => {
  it('a root commit: every file added; a submodule as git shows it', async () => {
    const res = await get(`/commits/${root}/diff`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([
      {
        old_path: 'a.txt',
        new_path: 'a.txt',
        a_mode: '0',
        b_mode: '100644',
        new_file: true,
        renamed_file: false,
        deleted_file: false,
        diff: '@@ -0,0 +1 @@\n+a\n',
      },
      {
        old_path: 'dir/x.txt',
        new_path: 'dir/x.txt',
        a_mode: '0',
        b_mode: '100644',
        new_file: true,
        renamed_file: false,
        deleted_file: false,
        diff: '@@ -0,0 +1 @@\n+x\n',
      },
      {
        old_path: 'sub',
        new_path: 'sub',
        a_mode: '0',
        b_mode: '160000',
        new_file: true,
        renamed_file: false,
        deleted_file: false,
        diff: `@@ -0,0 +1 @@\n+Subproject commit ${SUBMODULE}\n`,
      },
    ]);
  });

  it('paginated with GitLab headers', async () => {
    const res = await get(`/commits/${wide}/diff`, { per_page: '20', page: '2' });
    expect(res.body).toHaveLength(20);
    expect(res.headers.get('x-total')).toBe('61');
    expect(res.headers.get('x-total-pages')).toBe('4');
    expect(res.body[0].new_path).toBe('dir/f20.txt');
  });

  it('a directory replaced by a file and a file by a directory', async () => {
    const res = await get(`/commits/${swap}/diff`, { per_page: '100' });
    const summary = res.body.map(
      (e: { old_path: string; new_path: string; new_file: boolean; deleted_file: boolean }) => `${e.new_file ? 'A' : e.deleted_file ? 'D' : 'M'} ${e.new_path}`,
    );
    expect(summary).toEqual([
      'D a.txt',
      'A a.txt/inner.txt',
      'A dir',
      ...Array.from({ length: 60 }, (_, i) => `D dir/f${String(i).padStart(2, '0')}.txt`),
      'D dir/x.txt',
      'D sub',
    ]);
  });

  it('404 for a commit that is not there', async () => {
    const res = await get('/commits/nope/diff');
    expect([res.status, res.body]).toEqual([404, { message: '404 Commit Not Found' }]);
  });

  it('the same statements for 61 files as for 1 (Server-Timing)', async () => {
    const one = await get(`/commits/${narrow}/diff`);
    const sixty = await get(`/commits/${wide}/diff`, { per_page: '100' });
    expect(one.body).toHaveLength(1);
    expect(sixty.body).toHaveLength(61);
    expect(queryCount(sixty)).toBeLessThanOrEqual(queryCount(one));
    expect(queryCount(sixty)).toBeLessThanOrEqual(4);
  });
});

describe('stats and compare budgets', () => {
  it('commits?with_stats: one statement more for the whole page', async () => {
    const plain = await get('/commits', { per_page: '30' });
    const stats = await get('/commits', { per_page: '30', with_stats: 'true' });
    expect(stats.body[0].stats).toEqual({ additions: 1, deletions: 1, total: 2 });
    expect(queryCount(stats)).toBeLessThanOrEqual(queryCount(plain) + 1);
    const detail = await get(`/commits/${narrow}`);
    expect(detail.body.stats).toEqual({ additions: 1, deletions: 0, total: 1 });
    expect(Object.keys(detail.body).slice(-4)).toEqual(['stats', 'status', 'project_id', 'last_pipeline']);
  });

  it('compare over 30 commits and 60 files: a fixed number of statements', async () => {
    const small = await get('/compare', { from: swap, to: narrow });
    const big = await get('/compare', { from: root, to: 'main' });
    expect(big.status, big.text).toBe(200);
    expect(big.body.commits).toHaveLength(33);
    expect(queryCount(big)).toBeLessThanOrEqual(queryCount(small));
    expect(queryCount(big)).toBeLessThanOrEqual(6);
  });
});

describe('GET repository/compare from_project_id', () => {
  it("from in the fork's source (the fork network), to in the fork; another project is 400 as GitLab words it", async () => {
    const forkName = `fork-${Math.random().toString(36).slice(2, 8)}`;
    const forked = await api.post(`/projects/${id}/fork`, { token, body: { name: forkName, path: forkName } });
    expect(forked.status, forked.text).toBe(201);
    const fork = forked.body as { id: number };
    const created = await api.post(`/projects/${fork.id}/repository/commits`, {
      token,
      body: { branch: 'feature', start_branch: 'main', commit_message: 'In the fork', actions: [{ action: 'create', file_path: 'fork.txt', content: 'f\n' }] },
    });
    expect(created.status, created.text).toBe(201);
    // The source moves on: `main` read in the source is not the fork's `main`.
    const moved = await api.post(`/projects/${id}/repository/commits`, {
      token,
      body: { branch: 'main', commit_message: 'In the source', actions: [{ action: 'create', file_path: 'src.txt', content: 's\n' }] },
    });
    expect(moved.status, moved.text).toBe(201);
    const res = await api.get(`/projects/${fork.id}/repository/compare`, { token, query: { from: 'main', to: 'feature', from_project_id: String(id) } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.commits.map((c: { title: string }) => c.title)).toEqual(['In the fork']);
    expect(res.body.diffs.map((d: { new_path: string }) => d.new_path)).toEqual(['fork.txt']);
    const straight = await api.get(`/projects/${fork.id}/repository/compare`, {
      token,
      query: { from: 'main', to: 'feature', from_project_id: String(id), straight: 'true' },
    });
    expect(straight.body.diffs.map((d: { new_path: string; deleted_file: boolean }) => [d.new_path, d.deleted_file])).toEqual([
      ['fork.txt', false],
      ['src.txt', true],
    ]);
    // The other way round: the source compares from its fork.
    const back = await api.get(`/projects/${id}/repository/compare`, { token, query: { from: 'feature', to: 'main', from_project_id: String(fork.id) } });
    expect(back.body.commits.map((c: { title: string }) => c.title)).toEqual(['In the source']);
    const other = await createProject(token);
    const refused = await api.get(`/projects/${fork.id}/repository/compare`, {
      token,
      query: { from: 'main', to: 'feature', from_project_id: String(other.id) },
    });
    expect([refused.status, refused.body]).toEqual([400, { message: `Target project id:${other.id} is not a fork of project id:${fork.id}` }]);
    const bad = await api.get(`/projects/${fork.id}/repository/compare`, { token, query: { from: 'main', to: 'feature', from_project_id: 'x' } });
    expect([bad.status, bad.body]).toEqual([400, { error: 'from_project_id is invalid' }]);
  });
});

describe('POST repository/commits stats and access', () => {
  it('the created commit carries its stats unless stats=false', async () => {
    const owner = await createUser();
    const project = await api.post('/projects', { token: owner.token, body: { name: `diff-${Date.now()}`, initialize_with_readme: true } });
    const url = `/projects/${project.body.id}/repository/commits`;
    const made = await api.post(url, {
      token: owner.token,
      body: { branch: 'master', commit_message: 'Two', actions: [{ action: 'create', file_path: 'two.txt', content: 'one\ntwo\n' }] },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.stats).toEqual({ additions: 2, deletions: 0, total: 2 });
    const quiet = await api.post(url, {
      token: owner.token,
      body: { branch: 'master', commit_message: 'Q', stats: false, actions: [{ action: 'delete', file_path: 'two.txt' }] },
    });
    expect(quiet.body).not.toHaveProperty('stats');
  });

  it('a private project: 404 to strangers on every diff read', async () => {
    const stranger = await createUser();
    for (const [path, query] of [
      [`/commits/${root}/diff`, {}],
      ['/compare', { from: root, to: 'main' }],
      ['/merge_base', { 'refs[]': 'main' }],
    ] as const) {
      const res = await get(path, query, stranger.token);
      expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }]);
    }
  });
});

describe('a patch over 100 KiB (Gitlab::Git::Diff::SIZE_LIMIT)', () => {
  it('is shown empty, its lines still counted in the stats', async () => {
    const owner = await createUser();
    const pid = (await createProject(owner.token)).id;
    const repo = await RepoWriter.open(pid);
    const big = Array.from({ length: 2000 }, (_, i) => `${String(i).padStart(6, '0')} ${'x'.repeat(52)}\n`).join('');
    await repo.commit('main', { 'small.txt': 'a\n' }, 'Small\n', 1_600_000_000);
    const sha = await repo.commit('main', { 'small.txt': 'b\n', 'big.txt': big }, 'Big\n', 1_600_000_060);
    const res = await api.get(`/projects/${pid}/repository/commits/${sha}/diff`, { token: owner.token });
    expect(res.body.map((e: { new_path: string; diff: string }) => [e.new_path, e.diff])).toEqual([
      ['big.txt', ''],
      ['small.txt', '@@ -1 +1 @@\n-a\n+b\n'],
    ]);
    const detail = await api.get(`/projects/${pid}/repository/commits/${sha}`, { token: owner.token });
    expect(detail.body.stats).toEqual({ additions: 2001, deletions: 1, total: 2002 });
  });
});
