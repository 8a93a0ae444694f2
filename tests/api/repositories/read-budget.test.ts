// Issue 14's read budgets, read from Server-Timing: a file at depth 10 <= 4 queries, a tree page of 100 entries
// <= 3, a commits page of 100 (with and without `path`) <= 3, each with the token's lookup included.
import { beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, queryCount } from '../../helpers/app.ts';
import { nested, RepoWriter, type TreeSpec } from './read-support.ts';

const DEEP = 'd1/d2/d3/d4/d5/d6/d7/d8/d9/d10/deep.txt';
let token: string;
let id: number;

beforeAll(async () => {
  ({ token } = await createUser());
  id = (await createProject(token)).id;
  const repo = await RepoWriter.open(id);
  const many: TreeSpec = {};
  for (let i = 0; i < 130; i++) many[`file-${String(i).padStart(3, '0')}.txt`] = `${i}\n`;
  await repo.commit('main', { many, ...nested(10, 'deep.txt', 'deep\n') }, 'Base\n', 1_600_000_000);
  // The big subtrees are referenced by id in the 210 commits that follow (written once, in the first commit).
  const root = (await api.get(`/projects/${id}/repository/tree`, { token })).body as { name: string; id: string }[];
  const sub = (name: string) => ({ mode: '40000', oid: root.find((e) => e.name === name)!.id });
  await repo.commits('main', 210, (i) => ({ many: sub('many'), d1: sub('d1'), 'log.txt': `${i}\n`, 'hot.txt': `${i - (i % 2)}\n` }), 1_600_001_000);
  await api.get('/user', { token }); // the token's first use records last_used_at: not part of what is measured
});

describe('read budgets (Server-Timing)', () => {
  it('a file at depth 10: <= 4 queries', async () => {
    const res = await api.get(`/projects/${id}/repository/files/${encodeURIComponent(DEEP)}`, { token, query: { ref: 'main' } });
    expect(res.status, res.text).toBe(200);
    expect(queryCount(res)).toBeLessThanOrEqual(4);
    const raw = await api.get(`/projects/${id}/repository/files/${encodeURIComponent(DEEP)}/raw`, { token });
    expect(raw.text).toBe('deep\n');
    expect(queryCount(raw)).toBeLessThanOrEqual(4);
  });

  it('a tree page of 100 entries: <= 3 queries', async () => {
    const res = await api.get(`/projects/${id}/repository/tree`, { token, query: { path: 'many', per_page: 100 } });
    expect(res.body).toHaveLength(100);
    expect(res.headers.get('x-total')).toBe('130');
    expect(queryCount(res)).toBeLessThanOrEqual(3);
    const recursive = await api.get(`/projects/${id}/repository/tree`, { token, query: { recursive: true, per_page: 100, page: 2 } });
    // 11 directories (many, d1..d10), then 133 files (130, deep.txt, hot.txt, log.txt): 144 entries.
    expect(recursive.headers.get('x-total')).toBe('144');
    expect(recursive.body).toHaveLength(44);
    expect(queryCount(recursive)).toBeLessThanOrEqual(3);
  });

  it('a commits page of 100, with and without path: <= 3 queries, totals in the headers', async () => {
    const all = await api.get('/projects/' + id + '/repository/commits', { token, query: { per_page: 100 } });
    expect(all.body).toHaveLength(100);
    expect(all.headers.get('x-total')).toBe('211');
    expect(all.headers.get('x-next-page')).toBe('2');
    expect(queryCount(all)).toBeLessThanOrEqual(3);
    const hot = await api.get('/projects/' + id + '/repository/commits', { token, query: { per_page: 100, path: 'hot.txt' } });
    expect(hot.body).toHaveLength(100);
    // hot.txt changes in every other commit (and is added by the first of the 210).
    expect(hot.headers.get('x-total')).toBe('105');
    expect(hot.body.every((c: { title: string }) => Number(c.title.split(' ')[1]) % 2 === 0)).toBe(true);
    expect(queryCount(hot)).toBeLessThanOrEqual(3);
  });
});
