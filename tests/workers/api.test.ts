// The bundled Worker inside workerd, end to end: entry -> app -> Neon drivers -> stand-ins -> PostgreSQL.
import { createExecutionContext, env, SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, inject, it, vi } from 'vitest';
import worker from '../../functions/index.ts';

const { token, user } = inject('workers');
const BASE = 'https://gitlab.example.test/api/v4';

describe('Worker (workerd, Neon drivers, PostgreSQL)', () => {
  // This harness loads the Worker's modules from vitest over I/O, on first use: a module's first load shared by two
  // requests (one loading a route group, another a prompt run's job) resolves in one request's context and the other
  // request fails with "Cannot perform I/O on behalf of a different request" (seen about once in ten runs, on
  // POST /runners reading its body). The deployed bundle has no dynamic import left (`npm run build` inlines every
  // module), so this is the harness's, not the Worker's. So one push, its pipeline and the groups the tests below use
  // are loaded once, alone, before them.
  beforeAll(async () => {
    const headers = { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' };
    const post = (path: string, body: unknown) => SELF.fetch(`${BASE}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const project = (await (await post('/projects', { name: `workerd-warm-${Date.now()}` })).json()) as { id: number };
    const actions = [{ action: 'create', file_path: '.gitlab-ci.yml', content: 'build:\n  script: [echo hi]\n' }];
    expect((await post(`/projects/${project.id}/repository/commits`, { branch: 'master', commit_message: 'CI', actions })).status).toBe(201);
    await vi.waitFor(async () => expect(((await (await SELF.fetch(`${BASE}/projects/${project.id}/jobs`, { headers })).json()) as unknown[]).length).toBe(1), {
      timeout: 20_000,
      interval: 100,
    });
    for (const path of ['/runners', '/jobs/request']) expect((await post(path, { token: 'warm-up' })).status).toBe(403);
    // The prompt run may still be ending (its last statements after the pipeline's): let it.
    await new Promise((resolve) => setTimeout(resolve, 1000));
  });

  it('GET /version answers 200 with the GitLab version', async () => {
    const res = await SELF.fetch(`${BASE}/version`, { headers: { 'PRIVATE-TOKEN': token } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ version: '13.6.0', revision: 'edge' });
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('server-timing')).toMatch(/^db;dur=[\d.]+;desc="\d+ quer(y|ies), \d+ round trips?(, ws)?"$/);
  });

  it('GET /user answers 200 with the token owner', async () => {
    const res = await SELF.fetch(`${BASE}/user`, { headers: { 'PRIVATE-TOKEN': token } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: user.id, username: user.username, state: 'active' });
  });

  it('401 without a token', async () => {
    const res = await SELF.fetch(`${BASE}/user`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: '401 Unauthorized' });
  });

  it('GraphQL: POST /api/graphql runs in workerd (yoga, limits, the same auth)', async () => {
    const res = await SELF.fetch('https://gitlab.example.test/api/graphql', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ currentUser { username } metadata { version } queryComplexity { limit } }' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { currentUser: { username: user.username }, metadata: { version: '13.6.0' }, queryComplexity: { limit: 250 } } });
    const explorer = await SELF.fetch('https://gitlab.example.test/-/graphql-explorer');
    expect(explorer.status).toBe(200);
    expect(await explorer.text()).toContain('/-/graphql-explorer/assets/yoga-graphiql.umd.js');
  });

  it('404 on an unknown route', async () => {
    const res = await SELF.fetch(`${BASE}/no-such-route`, { headers: { 'PRIVATE-TOKEN': token } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: '404 Not Found' });
  });

  it('a multi-row write runs in a transaction over the WebSocket Pool, and reads see it', async () => {
    const headers = { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' };
    const name = `workerd-${Date.now()}`;
    const created = await SELF.fetch(`${BASE}/projects`, { method: 'POST', headers, body: JSON.stringify({ name, visibility: 'private' }) });
    expect(created.status).toBe(201);
    const project = (await created.json()) as { id: number; path_with_namespace: string };
    expect(project.path_with_namespace).toBe(`${user.username}/${name}`);
    // The owner's membership was written in the same transaction: the permissions show it.
    const read = await SELF.fetch(`${BASE}/projects/${project.id}`, { headers });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { permissions: unknown }).permissions).toEqual({
      project_access: { access_level: 50, notification_level: 3 },
      group_access: null,
    });
    const clash = await SELF.fetch(`${BASE}/projects`, { method: 'POST', headers, body: JSON.stringify({ name: `${name}-2`, path: name }) });
    expect(clash.status).toBe(400);
    expect(await clash.json()).toEqual({ message: { path: ['has already been taken'] } });
  });

  it('a job artifact streams into chunks over neon-http and back byte-exact', async () => {
    const headers = { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' };
    const post = (path: string, body: unknown, h: Record<string, string> = headers) =>
      SELF.fetch(`${BASE}${path}`, { method: 'POST', headers: h, body: JSON.stringify(body) });
    const project = (await (await post('/projects', { name: `workerd-ci-${Date.now()}` })).json()) as { id: number };
    const commit = await post(`/projects/${project.id}/repository/commits`, {
      branch: 'master',
      commit_message: 'CI',
      actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: 'build:\n  script: [echo hi]\n' }],
    });
    expect(commit.status).toBe(201);
    const { runners_token } = (await (await SELF.fetch(`${BASE}/projects/${project.id}`, { headers })).json()) as { runners_token: string };
    const runner = (await (await post('/runners', { token: runners_token }, { 'content-type': 'application/json' })).json()) as { token: string };
    // The push's pipeline is made by its post_receive job, which the Worker runs after the commit's response
    // (waitUntil): the runner polls until its job is there, as runners do (204 meanwhile).
    let requested = await post('/jobs/request', { token: runner.token }, { 'content-type': 'application/json' });
    for (let attempt = 0; requested.status === 204 && attempt < 100; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      requested = await post('/jobs/request', { token: runner.token }, { 'content-type': 'application/json' });
    }
    expect(requested.status).toBe(201);
    const job = (await requested.json()) as { id: number; token: string };
    // 2.5 MiB and a bit: three chunks, the last one partial.
    const bytes = new Uint8Array(2.5 * 1024 * 1024 + 11).map((_, i) => (i * 7919) >>> 3);
    const form = new FormData();
    form.append('file', new File([bytes], 'artifacts.zip'));
    const uploaded = await SELF.fetch(`${BASE}/jobs/${job.id}/artifacts`, { method: 'POST', headers: { 'JOB-TOKEN': job.token }, body: form });
    expect([uploaded.status, await uploaded.text()]).toEqual([201, '']);
    const back = await SELF.fetch(`${BASE}/jobs/${job.id}/artifacts`, { headers: { 'JOB-TOKEN': job.token } });
    expect([back.status, back.headers.get('content-length')]).toEqual([200, String(bytes.length)]);
    expect(new Uint8Array(await back.arrayBuffer())).toEqual(bytes);
  });

  // Requests that arrive while a prompt run (waitUntil) of an earlier request is still working: nothing of one
  // request's I/O may be awaited by another (workerd refuses it: "Cannot perform I/O on behalf of a different
  // request"). The Worker keeps no I/O object across requests (a provider holds configuration, pools are per request).
  it('requests concurrent with a prompt run answer as alone', async () => {
    const headers = { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' };
    const post = (path: string, body: unknown, h: Record<string, string> = headers) =>
      SELF.fetch(`${BASE}${path}`, { method: 'POST', headers: h, body: JSON.stringify(body) });
    const project = (await (await post('/projects', { name: `workerd-race-${Date.now()}` })).json()) as { id: number };
    const { runners_token } = (await (await SELF.fetch(`${BASE}/projects/${project.id}`, { headers })).json()) as { runners_token: string };
    const commit = await post(`/projects/${project.id}/repository/commits`, {
      branch: 'master',
      commit_message: 'CI',
      actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: 'build:\n  script: [echo hi]\n' }],
    });
    expect(commit.status).toBe(201);
    const statuses = await Promise.all([
      post('/runners', { token: runners_token }, { 'content-type': 'application/json' }).then(
        (r: Response) => r.status,
        (e: unknown) => 'runners ' + String(e),
      ),
      SELF.fetch(`${BASE}/projects/${project.id}/pipelines`, { headers }).then(
        (r: Response) => r.status,
        (e: unknown) => 'pipelines ' + String(e),
      ),
      SELF.fetch(`${BASE}/projects/${project.id}/jobs`, { headers }).then(
        (r: Response) => r.status,
        (e: unknown) => 'jobs ' + String(e),
      ),
      SELF.fetch(`${BASE}/projects/${project.id}`, { headers }).then(
        (r: Response) => r.status,
        (e: unknown) => 'project ' + String(e),
      ),
    ]);
    expect(statuses).toEqual([201, 200, 200, 200]);
  });

  it("an archive is kept in workerd's cache (caches.default) and read back the second time", async () => {
    const headers = { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' };
    const created = await SELF.fetch(`${BASE}/projects`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: `archive-${Date.now()}`, initialize_with_readme: true }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    // workerd's Cache API (the DOM typings know only CacheStorage, without `default`).
    const platform = (caches as unknown as { default: { put: Cache['put']; match: Cache['match'] } }).default;
    const put = vi.spyOn(platform, 'put');
    const match = vi.spyOn(platform, 'match');
    const fetchArchive = async (ip: string) => {
      const res = await SELF.fetch(`${BASE}/projects/${id}/repository/archive.tar.bz2`, { headers: { 'PRIVATE-TOKEN': token, 'cf-connecting-ip': ip } });
      return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
    };
    const first = await fetchArchive('192.0.2.1');
    expect(first.status).toBe(200);
    await vi.waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    const second = await fetchArchive('192.0.2.2');
    expect(second).toEqual(first);
    expect(await match.mock.results.at(-1)!.value).toBeInstanceOf(Response);
    expect(put).toHaveBeenCalledTimes(1);
    put.mockRestore();
    match.mockRestore();
  });

  it('git push in workerd: a pack with a delta is read (node:zlib), stored, and served to a fetch', async () => {
    const headers = { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' };
    const project = (await (
      await SELF.fetch(`${BASE}/projects`, { method: 'POST', headers, body: JSON.stringify({ name: `workerd-push-${Date.now()}` }) })
    ).json()) as { id: number; path_with_namespace: string };
    const utf8 = new TextEncoder();
    const hex = (b: ArrayBuffer) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, '0')).join('');
    const concat = (parts: Uint8Array[]): Uint8Array<ArrayBuffer> => {
      const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
      return out;
    };
    const oid = async (type: string, body: Uint8Array) => hex(await crypto.subtle.digest('SHA-1', concat([utf8.encode(`${type} ${body.length}\0`), body])));
    const zlib = async (data: Uint8Array) =>
      new Uint8Array(await new Response(new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate'))).arrayBuffer());
    const header = (type: number, size: number) => {
      const bytes = [(type << 4) | (size & 15) | (size > 15 ? 0x80 : 0)];
      for (let rest = size >> 4; rest > 0; rest >>= 7) bytes.push((rest & 0x7f) | (rest > 0x7f ? 0x80 : 0));
      return Uint8Array.from(bytes);
    };
    const base = utf8.encode('line one\nline two\n');
    const edited = utf8.encode('line one\nline two\nline three\n');
    // The edited blob as a delta on the first: copy its 18 bytes, insert "line three\n".
    const delta = concat([Uint8Array.of(base.length, edited.length, 0x90, base.length), Uint8Array.of(11), utf8.encode('line three\n')]);
    const [baseOid, editedOid] = [await oid('blob', base), await oid('blob', edited)];
    const tree = concat([
      utf8.encode('100644 a.txt\0'),
      Uint8Array.from(baseOid.match(/../g)!.map((h) => parseInt(h, 16))),
      utf8.encode('100644 b.txt\0'),
      Uint8Array.from(editedOid.match(/../g)!.map((h) => parseInt(h, 16))),
    ]);
    const treeOid = await oid('tree', tree);
    const commit = utf8.encode(`tree ${treeOid}\nauthor A <a@example.com> 1700000000 +0000\ncommitter A <a@example.com> 1700000000 +0000\n\nfrom workerd\n`);
    const commitOid = await oid('commit', commit);
    const first = concat([header(3, base.length), await zlib(base)]);
    const second = concat([header(6, delta.length), Uint8Array.of(first.length), await zlib(delta)]);
    const body = concat([
      utf8.encode('PACK'),
      Uint8Array.of(0, 0, 0, 2, 0, 0, 0, 4),
      first,
      second,
      header(2, tree.length),
      await zlib(tree),
      header(1, commit.length),
      await zlib(commit),
    ]);
    const pack = concat([body, new Uint8Array(await crypto.subtle.digest('SHA-1', body))]);
    const command = `${'0'.repeat(40)} ${commitOid} refs/heads/master\0report-status\n`;
    const request = concat([utf8.encode(`${(command.length + 4).toString(16).padStart(4, '0')}${command}0000`), pack]);
    const auth = `Basic ${btoa(`${user.username}:${token}`)}`;
    const url = `https://gitlab.example.test/${project.path_with_namespace}.git`;
    const res = await SELF.fetch(`${url}/git-receive-pack`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-git-receive-pack-request' },
      body: request,
    });
    expect([res.status, await res.text()]).toEqual([200, '000eunpack ok\n0019ok refs/heads/master\n0000']);
    const file = await SELF.fetch(`${BASE}/projects/${project.id}/repository/files/b.txt/raw?ref=master`, { headers });
    expect(await file.text()).toBe('line one\nline two\nline three\n');
    const refs = await SELF.fetch(`${url}/info/refs?service=git-upload-pack`, { headers: { authorization: auth } });
    expect(await refs.text()).toContain(`${commitOid} refs/heads/master\n`);
  });

  it('500 with a logged reason when DATABASE_URL is missing', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const res = await worker.fetch(new Request(`${BASE}/version`), { ...env, DATABASE_URL: undefined }, createExecutionContext());
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ message: '500 Internal Server Error' });
    expect(error.mock.calls.flat().join('\n')).toMatch(/DATABASE_URL is not set/);
    error.mockRestore();
  });
});
