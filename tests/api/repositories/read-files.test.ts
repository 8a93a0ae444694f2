// Tree, blobs and files through HTTP (GitLab 13.6 repositories.rb and files.rb): a repository with a file 10
// directories deep, a rename, unicode and dotted names, read at branches, tags and commits.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, request, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { nested, RepoWriter } from './read-support.ts';

const DEEP = 'd1/d2/d3/d4/d5/d6/d7/d8/d9/d10/deep.txt';
const UNICODE = 'docs/ünï cödé.md';
const enc = encodeURIComponent;
const b64 = (s: string) => Buffer.from(s).toString('base64');

let token: string;
let id: number;
const c: string[] = [];

beforeAll(async () => {
  ({ token } = await createUser());
  id = (await createProject(token)).id;
  const repo = await RepoWriter.open(id);
  const base = { 'README.md': '# hello\n', src: { 'main.ts': 'main()\n' }, 'a.b.c.txt': 'dots\n', ...nested(10, 'deep.txt', 'deep v1\n') };
  c.push(await repo.commit('main', { ...base, docs: { 'guide.md': 'guide\n' } }, 'Initial commit\n', 1_600_000_000));
  c.push(await repo.commit('main', { ...base, ...nested(10, 'deep.txt', 'deep v2\n'), docs: { 'guide.md': 'guide\n' } }, 'Edit deep\n', 1_600_000_100));
  c.push(
    await repo.commit(
      'main',
      { ...base, ...nested(10, 'deep.txt', 'deep v2\n'), docs: { 'guide.md': 'guide\n', 'ünï cödé.md': 'ü\n' } },
      'Unicode\n',
      1_600_000_200,
    ),
  );
  await repo.tag('v1.0', c[0]!, 'Release\n');
});

describe('GET /projects/:id/repository/files/:file_path', () => {
  it('answers the file with base64 content, ids and the last commit that touched it', async () => {
    const res = await api.get(`/projects/${id}/repository/files/${enc(DEEP)}`, { token, query: { ref: 'main' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      file_name: 'deep.txt',
      file_path: DEEP,
      size: 8,
      encoding: 'base64',
      content_sha256: createHash('sha256').update('deep v2\n').digest('hex'),
      ref: 'main',
      blob_id: expect.stringMatching(/^[0-9a-f]{40}$/),
      commit_id: c[2],
      last_commit_id: c[1],
      content: b64('deep v2\n'),
    });
    expect(res.headers.get('x-gitlab-last-commit-id')).toBe(c[1]);
  });

  it('reads at a tag, a commit id and an abbreviated one; unicode and dotted names', async () => {
    expect((await api.get(`/projects/${id}/repository/files/${enc(DEEP)}`, { token, query: { ref: 'v1.0' } })).body).toMatchObject({
      content: b64('deep v1\n'),
      commit_id: c[0],
      last_commit_id: c[0],
      ref: 'v1.0',
    });
    expect((await api.get(`/projects/${id}/repository/files/${enc(DEEP)}`, { token, query: { ref: c[1]!.slice(0, 10) } })).body).toMatchObject({
      commit_id: c[1],
    });
    const uni = await api.get(`/projects/${id}/repository/files/${enc(UNICODE)}`, { token, query: { ref: 'main' } });
    expect(uni.body).toMatchObject({ file_name: 'ünï cödé.md', file_path: UNICODE, content: b64('ü\n'), last_commit_id: c[2] });
    const dots = await api.get(`/projects/${id}/repository/files/a.b.c.txt`, { token, query: { ref: 'main' } });
    expect(dots.body).toMatchObject({ file_name: 'a.b.c.txt', content: b64('dots\n') });
  });

  it('HEAD sends the X-Gitlab-* headers and no body', async () => {
    const res = await request('HEAD', `/api/v4/projects/${id}/repository/files/${enc('README.md')}?ref=main`, { token });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(Object.fromEntries([...res.headers].filter(([k]) => k.startsWith('x-gitlab-')))).toEqual({
      'x-gitlab-file-name': 'README.md',
      'x-gitlab-file-path': 'README.md',
      'x-gitlab-size': '8',
      'x-gitlab-encoding': 'base64',
      'x-gitlab-content-sha256': expect.stringMatching(/^[0-9a-f]{64}$/),
      'x-gitlab-ref': 'main',
      'x-gitlab-blob-id': expect.stringMatching(/^[0-9a-f]{40}$/),
      'x-gitlab-commit-id': c[2],
      'x-gitlab-last-commit-id': c[0],
    });
  });

  it.each([
    ['no ref', 'README.md', {}, 400, { error: 'ref is missing' }],
    ['a blank ref', 'README.md', { ref: ' ' }, 400, { error: 'ref is empty' }],
    ['an unknown ref', 'README.md', { ref: 'nope' }, 404, { message: '404 Commit Not Found' }],
    ['a missing file', 'nope.md', { ref: 'main' }, 404, { message: '404 File Not Found' }],
    ['a directory', 'docs', { ref: 'main' }, 404, { message: '404 File Not Found' }],
    ['a file missing at that ref', UNICODE, { ref: 'v1.0' }, 404, { message: '404 File Not Found' }],
    ['path traversal', '../etc/passwd', { ref: 'main' }, 400, { error: 'file_path should be a valid file path' }],
    ['path traversal inside', 'docs/../README.md', { ref: 'main' }, 400, { error: 'file_path should be a valid file path' }],
  ])('%s -> %i', async (_name, file, query, status, body) => {
    const res = await api.get(`/projects/${id}/repository/files/${enc(file)}`, { token, query });
    expect(res.status, res.text).toBe(status);
    expect(res.body).toEqual(body);
  });

  it('/raw sends the bytes with the headers; ref is optional (the default branch)', async () => {
    const res = await api.get(`/projects/${id}/repository/files/${enc(DEEP)}/raw`, { token });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe('deep v2\n');
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.headers.get('x-gitlab-ref')).toBe('');
    expect(res.headers.get('x-gitlab-commit-id')).toBe(c[2]);
    expect(res.headers.get('cache-control')).toBe('no-cache, no-store');
    const tagged = await api.get(`/projects/${id}/repository/files/${enc(DEEP)}/raw`, { token, query: { ref: 'v1.0' } });
    expect(tagged.text).toBe('deep v1\n');
    expect((await api.get(`/projects/${id}/repository/files/nope/raw`, { token })).body).toEqual({ message: '404 File Not Found' });
  });
});

describe('GET /projects/:id/repository/tree', () => {
  it('lists the root in GitLab order (trees first) with pagination headers', async () => {
    const res = await api.get(`/projects/${id}/repository/tree`, { token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((e: any) => [e.type, e.path, e.mode])).toEqual([
      ['tree', 'd1', '040000'],
      ['tree', 'docs', '040000'],
      ['tree', 'src', '040000'],
      ['blob', 'README.md', '100644'],
      ['blob', 'a.b.c.txt', '100644'],
    ]);
    expect(res.headers.get('x-total')).toBe('5');
    expect(res.headers.get('x-page')).toBe('1');
  });

  it('path, ref, recursive and pages', async () => {
    const docs = await api.get(`/projects/${id}/repository/tree`, { token, query: { path: 'docs', ref: 'v1.0' } });
    expect(docs.body).toEqual([{ id: expect.any(String), name: 'guide.md', type: 'blob', path: 'docs/guide.md', mode: '100644' }]);
    const all = await api.get(`/projects/${id}/repository/tree`, { token, query: { recursive: true, per_page: 100 } });
    expect(all.body.map((e: any) => e.path)).toContain(DEEP);
    const second = await api.get(`/projects/${id}/repository/tree`, { token, query: { per_page: 2, page: 2 } });
    expect(second.body.map((e: any) => e.name)).toEqual(['src', 'README.md']);
    expect(second.headers.get('x-total-pages')).toBe('3');
    expect(second.headers.get('link')).toContain(`<${TEST_PUBLIC_URL}/api/v4/projects/${id}/repository/tree?per_page=2&page=1>; rel="prev"`);
  });

  it('404 Tree Not Found for an unknown ref; a path that is no directory lists nothing', async () => {
    expect(await api.get(`/projects/${id}/repository/tree`, { token, query: { ref: 'nope' } })).toMatchObject({
      status: 404,
      body: { message: '404 Tree Not Found' },
    });
    expect(await api.get(`/projects/${id}/repository/tree`, { token, query: { path: 'nope' } })).toMatchObject({ status: 200, body: [] });
    expect((await api.get(`/projects/${id}/repository/tree`, { token, query: { per_page: 0 } })).body).toEqual({
      error: 'per_page does not have a valid value',
    });
  });

  it('an empty repository: 404 Tree Not Found', async () => {
    const empty = await createProject(token);
    expect(await api.get(`/projects/${empty.id}/repository/tree`, { token })).toMatchObject({ status: 404, body: { message: '404 Tree Not Found' } });
  });
});

describe('GET /projects/:id/repository/blobs/:sha', () => {
  it('JSON and raw by blob id; anything else is 404 Blob Not Found', async () => {
    const file = await api.get(`/projects/${id}/repository/files/README.md`, { token, query: { ref: 'main' } });
    const sha = file.body.blob_id;
    expect((await api.get(`/projects/${id}/repository/blobs/${sha}`, { token })).body).toEqual({ size: 8, encoding: 'base64', content: b64('# hello\n'), sha });
    const raw = await api.get(`/projects/${id}/repository/blobs/${sha}/raw`, { token });
    expect(raw.text).toBe('# hello\n');
    expect(raw.headers.get('content-type')).toMatch(/^text\/plain/);
    for (const bad of [c[0]!, 'main', '0'.repeat(40), 'xyz']) {
      expect(await api.get(`/projects/${id}/repository/blobs/${bad}`, { token }), bad).toMatchObject({ status: 404, body: { message: '404 Blob Not Found' } });
    }
  });
});
