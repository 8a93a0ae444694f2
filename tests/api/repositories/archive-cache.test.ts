// Archives cost CPU (tar.bz2 most): GET repository/archive keeps each one in the platform's cache (the in-memory
// stand-in here, as under `npm start`) and limits archive requests per project and client IP as GitLab 13.x/14.x's
// `project_repositories_archive` throttle does (5 a minute; 100 a minute for anonymous callers of a project together),
// with lib/api/repositories.rb's 429 body. The policy check comes before both.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { appFetch, TEST_PUBLIC_URL, testCache } from '../../helpers/app.ts';
import { listArchive } from './archive-support.ts';
import { RepoWriter } from './read-support.ts';

const TIME = 1_600_000_000;
const LIMITED = { message: { error: 'This archive has been requested too many times. Try again later.' } };

let owner: { token: string };
let stranger: { token: string };
let id: number;
let publicId: number;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([createUser(), createUser()]);
  id = (await createProject(owner.token)).id;
  publicId = (await createProject(owner.token, { visibility: 'public' })).id;
  const files = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}.txt`, `file ${i}\n`.repeat(200)]));
  await (await RepoWriter.open(id)).commit('main', files, 'Initial\n', TIME);
  await (await RepoWriter.open(publicId)).commit('main', { 'README.md': '# public\n' }, 'Initial\n', TIME);
});

/** A client IP of its own (the shared PostgreSQL database keeps counters between runs). */
let ips = 0;
const newIp = () => `203.0.113.${++ips}-${process.pid}-${Date.now()}`;

async function get(path: string, ip: string, token?: string) {
  const headers: Record<string, string> = { 'cf-connecting-ip': ip };
  if (token) headers['PRIVATE-TOKEN'] = token;
  const res = await appFetch(new URL(`/api/v4${path}`, TEST_PUBLIC_URL), { headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, json: () => JSON.parse(new TextDecoder().decode(bytes)) };
}

describe('archive cache', () => {
  it('the same archive again is read back from the cache: the same bytes and headers, nothing built or stored again', async () => {
    const match = vi.spyOn(testCache(), 'match');
    const put = vi.spyOn(testCache(), 'put');
    try {
      const first = await get(`/projects/${id}/repository/archive.tar.bz2`, newIp(), owner.token);
      expect(first.status).toBe(200);
      expect([await match.mock.results[0]!.value, put.mock.calls.length]).toEqual([undefined, 1]);
      const second = await get(`/projects/${id}/repository/archive.tar.bz2`, newIp(), owner.token);
      expect(second.status).toBe(200);
      expect(await match.mock.results[1]!.value).toBeInstanceOf(Response);
      expect(put.mock.calls.length).toBe(1);
      expect(second.bytes).toEqual(first.bytes);
      expect([...second.headers].filter(([k]) => k !== 'x-request-id' && k !== 'server-timing')).toEqual(
        [...first.headers].filter(([k]) => k !== 'x-request-id' && k !== 'server-timing'),
      );
      expect(listArchive(second.bytes, 'tar').entries.filter((e) => e.type === '0')).toHaveLength(40);
      // Another format or path is another archive.
      expect((await get(`/projects/${id}/repository/archive.zip`, newIp(), owner.token)).status).toBe(200);
      const sub = await get(`/projects/${id}/repository/archive.tar.bz2?path=f1.txt`, newIp(), owner.token);
      expect(sub.status).toBe(200);
      expect(
        listArchive(sub.bytes, 'tar')
          .entries.filter((e) => e.type === '0')
          .map((e) => e.name),
      ).toEqual([expect.stringMatching(/\/f1\.txt$/)]);
      expect(put.mock.calls.length).toBe(3);
    } finally {
      match.mockRestore();
      put.mockRestore();
    }
  });

  it('a cached archive is never served without the policy check passing first', async () => {
    expect((await get(`/projects/${id}/repository/archive.tar`, newIp(), owner.token)).status).toBe(200);
    const denied = await get(`/projects/${id}/repository/archive.tar`, newIp(), stranger.token);
    expect([denied.status, denied.json()]).toEqual([404, { message: '404 Project Not Found' }]);
    const anonymous = await get(`/projects/${id}/repository/archive.tar`, newIp());
    expect([anonymous.status, anonymous.json()]).toEqual([404, { message: '404 Project Not Found' }]);
  });
});

describe('archive throttle', () => {
  it('5 archives a minute per project and client IP, then 429 with GitLab body; other IPs and projects are not held back', async () => {
    const ip = newIp();
    for (let i = 0; i < 5; i++) expect((await get(`/projects/${id}/repository/archive.zip`, ip, owner.token)).status).toBe(200);
    const limited = await get(`/projects/${id}/repository/archive.zip`, ip, owner.token);
    expect([limited.status, limited.json()]).toEqual([429, LIMITED]);
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
    // A cached archive counts the same, and an unknown revision too (the throttle comes before any archive work).
    expect((await get(`/projects/${id}/repository/archive.zip?sha=nope`, ip, owner.token)).status).toBe(429);
    expect((await get(`/projects/${id}/repository/archive.zip`, newIp(), owner.token)).status).toBe(200);
    expect((await get(`/projects/${publicId}/repository/archive.zip`, ip, owner.token)).status).toBe(200);
  });

  it('anonymous callers are held per IP too; a project they may not see stays 404 (policy before the throttle)', async () => {
    const ip = newIp();
    for (let i = 0; i < 5; i++) expect((await get(`/projects/${publicId}/repository/archive.tar.gz`, ip)).status).toBe(200);
    const limited = await get(`/projects/${publicId}/repository/archive.tar.gz`, ip);
    expect([limited.status, limited.json()]).toEqual([429, LIMITED]);
    const hidden = await get(`/projects/${id}/repository/archive.tar.gz`, ip);
    expect([hidden.status, hidden.json()]).toEqual([404, { message: '404 Project Not Found' }]);
  });
});
