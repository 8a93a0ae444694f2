// GET repository/files/:file_path/blame (GitLab 13.6 files.rb): the groups of Entities::BlameRange with
// Entities::BlameRangeCommit, the file's X-Gitlab-* headers, the errors of assign_file_vars!, who may read it,
// and its cost (a constant number of queries whatever the history's length).
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createToken, createUser } from '../../factories/users.ts';
import { api, queryCount, request } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { nested, RepoWriter } from './read-support.ts';

const T0 = 1_600_000_000; // 2020-09-13T12:26:40Z; ObjectBuilder's commits are at +0100
let owner: { token: string };
let reporter: { token: string };
let guest: { token: string };
let stranger: { token: string };
let id: number;
let publicId: number;
let c: string[];

const enc = encodeURIComponent;
const blamePath = (project: number, path: string) => `/projects/${project}/repository/files/${enc(path)}/blame`;
const commitBody = (oid: string, parents: string[], message: string, time: number) => {
  const date = new Date((time + 3600) * 1000).toISOString().replace('Z', '+01:00');
  return {
    id: oid,
    parent_ids: parents,
    message,
    authored_date: date,
    author_name: 'Ada Lovelace',
    author_email: 'ada@example.com',
    committed_date: date,
    committer_name: 'Ada Lovelace',
    committer_email: 'ada@example.com',
  };
};

beforeAll(async () => {
  [owner, reporter, guest, stranger] = await Promise.all([createUser(), createUser(), createUser(), createUser()]);
  id = (await createProject(owner.token)).id;
  publicId = (await createProject(owner.token, { visibility: 'public' })).id;
  const userId = async (u: { token: string }) => (await api.get('/user', { token: u.token })).body.id as number;
  await addMember(owner.token, 'projects', id, await userId(reporter), 20);
  await addMember(owner.token, 'projects', id, await userId(guest), 10);
  const repo = await RepoWriter.open(id);
  c = [
    await repo.commit('main', { 'poem.txt': 'one\ntwo\nthree\n', 'empty.txt': '', dir: { 'x.txt': 'x\n' } }, 'Initial\n', T0),
    await repo.commit('main', { 'poem.txt': 'zero\none\ntwo\nthree\nfour\n', 'empty.txt': '', dir: { 'x.txt': 'x\n' } }, 'Grow\n\nWith a body.\n', T0 + 60),
    await repo.commit('main', { 'poem.txt': 'zero\none\nTWO\nthree\nfour\n', 'empty.txt': '', dir: { 'x.txt': 'x\ny\n' } }, 'Shout\n', T0 + 120),
  ];
  const pub = await RepoWriter.open(publicId);
  await pub.commit('main', { 'README.md': '# hi\n' }, 'Initial\n', T0);
});

describe('GET repository/files/:file_path/blame', () => {
  it("answers the groups of consecutive lines by commit, with the commit fields in GitLab's order", async () => {
    const res = await api.get(blamePath(id, 'poem.txt'), { token: owner.token, query: { ref: 'main' } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.text).toBe(
      JSON.stringify([
        { commit: commitBody(c[1]!, [c[0]!], 'Grow\n\nWith a body.\n', T0 + 60), lines: ['zero'] },
        { commit: commitBody(c[0]!, [], 'Initial\n', T0), lines: ['one'] },
        { commit: commitBody(c[2]!, [c[1]!], 'Shout\n', T0 + 120), lines: ['TWO'] },
        { commit: commitBody(c[0]!, [], 'Initial\n', T0), lines: ['three'] },
        { commit: commitBody(c[1]!, [c[0]!], 'Grow\n\nWith a body.\n', T0 + 60), lines: ['four'] },
      ]),
    );
    // Not paginated in 13.6.
    expect(res.headers.get('x-total')).toBeNull();
  });

  it("sends the file's X-Gitlab-* headers, as GET and HEAD of the file do", async () => {
    const res = await api.get(blamePath(id, 'poem.txt'), { token: owner.token, query: { ref: c[2]! } });
    const headers = Object.fromEntries([...res.headers].filter(([k]) => k.startsWith('x-gitlab-')));
    const content = 'zero\none\nTWO\nthree\nfour\n';
    expect(headers).toEqual({
      'x-gitlab-file-name': 'poem.txt',
      'x-gitlab-file-path': 'poem.txt',
      'x-gitlab-size': String(content.length),
      'x-gitlab-encoding': 'base64',
      'x-gitlab-content-sha256': createHash('sha256').update(content).digest('hex'),
      'x-gitlab-ref': c[2],
      'x-gitlab-blob-id': expect.stringMatching(/^[0-9a-f]{40}$/),
      'x-gitlab-commit-id': c[2],
      'x-gitlab-last-commit-id': c[2],
    });
    const head = await request('HEAD', `/api/v4${blamePath(id, 'poem.txt')}?ref=main`, { token: owner.token });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('x-gitlab-commit-id')).toBe(c[2]);
  });

  it('blames the file as it was at an older ref, and a file in a directory (%2F in the path)', async () => {
    const old = await api.get(blamePath(id, 'poem.txt'), { token: owner.token, query: { ref: c[0]! } });
    expect(old.body).toEqual([{ commit: commitBody(c[0]!, [], 'Initial\n', T0), lines: ['one', 'two', 'three'] }]);
    const sub = await api.get(blamePath(id, 'dir/x.txt'), { token: owner.token, query: { ref: 'main' } });
    expect(sub.body.map((g: { commit: { id: string }; lines: string[] }) => [g.commit.id, g.lines])).toEqual([
      [c[0], ['x']],
      [c[2], ['y']],
    ]);
    expect(sub.headers.get('x-gitlab-last-commit-id')).toBe(c[2]);
  });

  it('an empty file: []', async () => {
    const res = await api.get(blamePath(id, 'empty.txt'), { token: owner.token, query: { ref: 'main' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get('x-gitlab-last-commit-id')).toBe(c[0]);
  });

  it.each([
    ['a ref that names nothing', 'poem.txt', { ref: 'nope' }, 404, { message: '404 Commit Not Found' }],
    ['a missing file', 'nope.txt', { ref: 'main' }, 404, { message: '404 File Not Found' }],
    ['a directory', 'dir', { ref: 'main' }, 404, { message: '404 File Not Found' }],
    ['a file that did not exist yet', 'dir/y.txt', { ref: 'main' }, 404, { message: '404 File Not Found' }],
    ['no ref', 'poem.txt', {}, 400, { error: 'ref is missing' }],
    ['an empty ref', 'poem.txt', { ref: '' }, 400, { error: 'ref is empty' }],
    ['a blank ref', 'poem.txt', { ref: '  ' }, 400, { error: 'ref is empty' }],
    ['a path with ..', '../poem.txt', { ref: 'main' }, 400, { error: 'file_path should be a valid file path' }],
  ])('%s', async (_name, path, query, status, body) => {
    const res = await api.get(blamePath(id, path), { token: owner.token, query });
    expect(res.status, res.text).toBe(status);
    expect(res.body).toEqual(body);
  });

  it('the parameters are checked before the project (files.rb looks the project up in the endpoint)', async () => {
    expect(await api.get(blamePath(id, 'poem.txt'), { token: stranger.token })).toMatchObject({ status: 400, body: { error: 'ref is missing' } });
  });

  it('a guest of the private project: 403; a stranger and an anonymous caller: 404 Project Not Found', async () => {
    expect(await api.get(blamePath(id, 'poem.txt'), { token: guest.token, query: { ref: 'main' } })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    for (const token of [stranger.token, undefined]) {
      expect(await api.get(blamePath(id, 'poem.txt'), { token, query: { ref: 'main' } })).toMatchObject({
        status: 404,
        body: { message: '404 Project Not Found' },
      });
    }
    expect((await api.get(blamePath(id, 'poem.txt'), { token: reporter.token, query: { ref: 'main' } })).status).toBe(200);
  });

  it("anyone reads a public project's blame, anonymous callers included", async () => {
    const res = await api.get(blamePath(publicId, 'README.md'), { query: { ref: 'main' } });
    expect(res.status).toBe(200);
    expect(res.body[0].lines).toEqual(['# hi']);
  });

  it('a read_repository token reaches it (files.rb allows the scope for GET and HEAD)', async () => {
    const { user } = await createUser();
    const token = await createToken(user, ['read_repository']);
    await addMember(owner.token, 'projects', id, user.id, 20);
    expect((await api.get(blamePath(id, 'poem.txt'), { token, query: { ref: 'main' } })).status).toBe(200);
  });
});

describeAuthorization('GET /projects/:id/repository/files/:file_path/blame', {
  fixture: async () => ({ allowed: reporter.token, nonMember: stranger.token, insufficientRole: guest.token }),
  call: (_fx, token) => api.get(blamePath(id, 'poem.txt'), { token, query: { ref: 'main' } }),
  success: 200,
  anonymous: { status: 404, body: { message: '404 Project Not Found' } },
  wrongScope: { status: 404, body: { message: '404 Project Not Found' } },
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
});

describe('blame budget (Server-Timing)', () => {
  it("4 queries with the token's, however long the history and deep the path", async () => {
    const { token } = await createUser();
    const big = (await createProject(token)).id;
    const repo = await RepoWriter.open(big);
    await api.get('/user', { token }); // the token's first use records last_used_at: not part of what is measured
    const short = await repo.commits(
      'main',
      3,
      (i) => ({ ...nested(6, 'f.txt', `${Array.from({ length: i + 1 }, (_, k) => `line ${k}\n`).join('')}`), 'other.txt': `${i}\n` }),
      T0,
    );
    const path = 'd1/d2/d3/d4/d5/d6/f.txt';
    const first = await api.get(blamePath(big, path), { token, query: { ref: 'main' } });
    expect(first.body.map((g: { commit: { id: string } }) => g.commit.id)).toEqual(short);
    expect(queryCount(first)).toBeLessThanOrEqual(4);
    // 120 commits more, touching the file in every other one (a line appended).
    await repo.commits(
      'main',
      120,
      (i) => ({ ...nested(6, 'f.txt', `${Array.from({ length: 3 + Math.floor(i / 2) }, (_, k) => `line ${k}\n`).join('')}`), 'other.txt': `x${i}\n` }),
      T0 + 1000,
    );
    const res = await api.get(blamePath(big, path), { token, query: { ref: 'main' } });
    expect(res.status).toBe(200);
    expect(res.body.flatMap((g: { lines: string[] }) => g.lines)).toHaveLength(3 + 59);
    expect(queryCount(res)).toBeLessThanOrEqual(4);
  });
});
