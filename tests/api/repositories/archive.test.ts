// GET /projects/:id/repository/archive[.format] through HTTP (GitLab 13.6 repositories.rb `archive`, Workhorse's
// SendArchive, Gitaly's GetArchive): names, headers, formats, `sha` and `path`, the 404s and who may download.
import { beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, request } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { fetchArchive, listArchive } from './archive-support.ts';
import { RepoWriter } from './read-support.ts';

const TIME = 1_600_000_000;
const SUBMODULE = '0123456789abcdef0123456789abcdef01234567';

let owner: { token: string };
let guest: { token: string };
let stranger: { token: string };
let id: number;
let path: string;
let emptyId: number;
let publicId: number;
let c1: string;
let c2: string;

beforeAll(async () => {
  [owner, guest, stranger] = await Promise.all([createUser(), createUser(), createUser()]);
  const project = await createProject(owner.token);
  ({ id, path } = project);
  emptyId = (await createProject(owner.token)).id;
  publicId = (await createProject(owner.token, { visibility: 'public' })).id;
  await addMember(owner.token, 'projects', id, (await api.get('/user', { token: guest.token })).body.id, 10);
  const repo = await RepoWriter.open(id);
  const tree = {
    'README.md': '# hi\n',
    'empty.txt': '',
    src: { 'main.ts': 'main()\n', lib: { 'util.ts': 'u\n' } },
    vendor: { mode: '160000', oid: SUBMODULE },
  };
  c1 = await repo.commit('main', tree, 'Initial\n', TIME);
  await repo.branch('feature/x', c1);
  c2 = await repo.commit('feature/x', { ...tree, 'NEW.md': 'new\n' }, 'Feature\n', TIME + 60);
  await repo.tag('v1', c1, 'Release\n');
  await repo.branch('ünï/cödé', c1);
  await (await RepoWriter.open(publicId)).commit('main', { 'README.md': '# public\n' }, 'Initial\n', TIME);
});

const archive = (suffix = '', query = '', token = owner.token) => fetchArchive(`/projects/${id}/repository/archive${suffix}${query ? `?${query}` : ''}`, token);
const names = (bytes: Uint8Array, kind: 'tar' | 'zip' = 'tar') => listArchive(bytes, kind).entries.map((e) => e.name);

describe('GET /projects/:id/repository/archive', () => {
  it('answers a tar.gz of the default branch named <path>-<ref>-<sha>, with Workhorse headers', async () => {
    const res = await archive();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${path}-main-${c1}.tar.gz"`);
    expect(res.headers.get('content-transfer-encoding')).toBe('binary');
    expect(res.headers.get('content-length')).toBeNull();
    expect([...res.bytes.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    const listed = listArchive(res.bytes, 'tar');
    const prefix = `${path}-main-${c1}`;
    expect(listed.comment).toBe(c1);
    expect(listed.entries).toEqual([
      { name: prefix, type: '5', mode: 0o775, size: 0, mtime: TIME, link: '' },
      { name: `${prefix}/README.md`, type: '0', mode: 0o664, size: 5, mtime: TIME, link: '', sha256: expect.any(String), text: '# hi\n' },
      { name: `${prefix}/empty.txt`, type: '0', mode: 0o664, size: 0, mtime: TIME, link: '', sha256: expect.any(String), text: '' },
      { name: `${prefix}/src`, type: '5', mode: 0o775, size: 0, mtime: TIME, link: '' },
      { name: `${prefix}/src/lib`, type: '5', mode: 0o775, size: 0, mtime: TIME, link: '' },
      { name: `${prefix}/src/lib/util.ts`, type: '0', mode: 0o664, size: 2, mtime: TIME, link: '', sha256: expect.any(String), text: 'u\n' },
      { name: `${prefix}/src/main.ts`, type: '0', mode: 0o664, size: 7, mtime: TIME, link: '', sha256: expect.any(String), text: 'main()\n' },
      // A submodule is an empty directory, as git archive writes it.
      { name: `${prefix}/vendor`, type: '5', mode: 0o775, size: 0, mtime: TIME, link: '' },
    ]);
  });

  it.each([
    ['', 'tar.gz', 'application/octet-stream', [0x1f, 0x8b]],
    ['.tar.gz', 'tar.gz', 'application/octet-stream', [0x1f, 0x8b]],
    ['.tgz', 'tar.gz', 'application/octet-stream', [0x1f, 0x8b]],
    ['.gz', 'tar.gz', 'application/octet-stream', [0x1f, 0x8b]],
    ['.tar.bz2', 'tar.bz2', 'application/octet-stream', [0x42, 0x5a]],
    ['.tbz', 'tar.bz2', 'application/octet-stream', [0x42, 0x5a]],
    ['.tbz2', 'tar.bz2', 'application/octet-stream', [0x42, 0x5a]],
    ['.tb2', 'tar.bz2', 'application/octet-stream', [0x42, 0x5a]],
    ['.bz2', 'tar.bz2', 'application/octet-stream', [0x42, 0x5a]],
    ['.tar', 'tar', 'application/octet-stream', [0x70, 0x61]],
    ['.zip', 'zip', 'application/zip', [0x50, 0x4b]],
  ])('archive%s: a %s archive', async (suffix, extension, type, magic) => {
    const res = await archive(suffix);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${path}-main-${c1}.${extension}"`);
    expect([...res.bytes.subarray(0, 2)]).toEqual(magic);
    const prefix = `${path}-main-${c1}`;
    const listed = names(res.bytes, extension === 'zip' ? 'zip' : 'tar').map((n) => n.replace(/\/$/, ''));
    expect(listed).toEqual([prefix, ...['README.md', 'empty.txt', 'src', 'src/lib', 'src/lib/util.ts', 'src/main.ts', 'vendor'].map((n) => `${prefix}/${n}`)]);
  });

  it('sha: any revision, named as given (slashes as dashes) with the commit id after it', async () => {
    const cases: Array<[string, string, string]> = [
      ['feature/x', 'feature-x', c2],
      ['v1', 'v1', c1],
      [c1, c1, c1],
      [c1.slice(0, 8), c1.slice(0, 8), c1],
      ['main', 'main', c1],
    ];
    for (const [sha, shown, commit] of cases) {
      const res = await archive('.tar', `sha=${encodeURIComponent(sha)}`);
      expect(res.headers.get('content-disposition'), sha).toBe(`attachment; filename="${path}-${shown}-${commit}.tar"`);
      expect(listArchive(res.bytes, 'tar').comment, sha).toBe(commit);
    }
    expect(names((await archive('.tar', 'sha=feature%2Fx')).bytes)).toContain(`${path}-feature-x-${c2}/NEW.md`);
  });

  it('a non-ASCII ref: the filename goes out as its UTF-8 bytes, unescaped, as Workhorse writes it', async () => {
    const res = await archive('.zip', `sha=${encodeURIComponent('ünï/cödé')}`);
    const name = `${path}-ünï-cödé-${c1}`;
    expect(res.headers.get('content-disposition')).toBe(Buffer.from(`attachment; filename="${name}.zip"`).toString('latin1'));
    expect(names(res.bytes, 'zip')[0]).toBe(`${name}/`);
  });

  it('path: only that directory (with the directories above it), named with the path, slashes as dashes', async () => {
    const res = await archive('.tar', 'path=src/lib');
    const prefix = `${path}-main-${c1}-src-lib`;
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${prefix}.tar"`);
    expect(names(res.bytes)).toEqual([prefix, `${prefix}/src`, `${prefix}/src/lib`, `${prefix}/src/lib/util.ts`]);
    const file = await archive('.zip', 'path=README.md');
    expect(names(file.bytes, 'zip')).toEqual([`${path}-main-${c1}-README.md/`, `${path}-main-${c1}-README.md/README.md`]);
    const submodule = await archive('.tar', 'path=vendor');
    expect(names(submodule.bytes)).toEqual([`${path}-main-${c1}-vendor`, `${path}-main-${c1}-vendor/vendor`]);
    // Rails appends the path even when it is empty; the archive is then the whole tree.
    const blank = await archive('.tar', 'path=');
    expect(blank.headers.get('content-disposition')).toBe(`attachment; filename="${path}-main-${c1}-.tar"`);
    expect(names(blank.bytes)).toHaveLength(8);
  });

  it('HEAD answers the headers without a body', async () => {
    const res = await fetchArchive(`/projects/${id}/repository/archive.zip`, owner.token, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${path}-main-${c1}.zip"`);
    expect(res.bytes.length).toBe(0);
  });

  it.each([
    ['an unknown sha', `/projects/ID/repository/archive?sha=nope`, 404, { message: '404 File Not Found' }],
    ['an unknown commit id', `/projects/ID/repository/archive?sha=${'f'.repeat(40)}`, 404, { message: '404 File Not Found' }],
    ['an empty sha', `/projects/ID/repository/archive?sha=`, 404, { message: '404 File Not Found' }],
    ['a path not in the tree', `/projects/ID/repository/archive.zip?path=nope/x`, 404, { message: '404 File Not Found' }],
    ['an unknown format', `/projects/ID/repository/archive.rar`, 404, { error: '404 Not Found' }],
    ['an upper-case format', `/projects/ID/repository/archive.ZIP`, 404, { error: '404 Not Found' }],
    ['sha as an array', `/projects/ID/repository/archive?sha[]=main`, 400, { error: 'sha is invalid' }],
    ['path as an array', `/projects/ID/repository/archive?path[]=src`, 400, { error: 'path is invalid' }],
  ])('%s: %i', async (_name, url, status, body) => {
    const res = await request('GET', `/api/v4${url.replace('ID', String(id))}`, { token: owner.token });
    expect(res.status, res.text).toBe(status);
    expect(res.body).toEqual(body);
  });

  it('an empty repository: 404 File Not Found', async () => {
    const res = await request('GET', `/api/v4/projects/${emptyId}/repository/archive.tar`, { token: owner.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 File Not Found' });
  });

  it('a public project: anyone downloads it, anonymous callers included', async () => {
    const res = await fetchArchive(`/projects/${publicId}/repository/archive.tar`);
    expect(res.status).toBe(200);
    expect(listArchive(res.bytes, 'tar').entries.map((e) => e.text)).toContain('# public\n');
  });
});

const hidden = { status: 404, body: { message: '404 Project Not Found' } };

describeAuthorization('GET /projects/:id/repository/archive', {
  fixture: async () => ({ allowed: owner.token, nonMember: stranger.token, insufficientRole: guest.token }),
  call: (_fx, token) => api.get(`/projects/${id}/repository/archive.tar`, { token }),
  success: 200,
  anonymous: hidden,
  nonMember: hidden,
  // A guest of a private project may not download its code.
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
});
