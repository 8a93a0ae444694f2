// Deploy tokens (GitLab 13.6): a project's or group's maintainers create (the token once, no-store), list and delete
// them, administrators list the instance's; a read_repository token clones its project (or its group's projects)
// with git, as its username, until it is deleted or expires.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, serveTestApp } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { hasGit, runGit } from '../../helpers/git-dir.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';

async function projectWithFile(token: string, namespaceId?: number) {
  const p = await createProject(token, { namespaceId });
  const commit = await api.post(`/projects/${p.id}/repository/commits`, {
    token,
    body: { branch: 'main', commit_message: 'init', actions: [{ action: 'create', file_path: 'hello.txt', content: 'hello' }] },
  });
  expect(commit.status).toBe(201);
  return p;
}

describe('deploy tokens', () => {
  it('create (201, token once), list, delete (204, then 404); administrators list them all', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token);
    const created = await api.post(`/projects/${p.id}/deploy_tokens`, { token: owner.token, body: { name: 'ci', scopes: ['read_repository'] } });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'ci',
      username: `gitlab+deploy-token-${created.body.id}`,
      expires_at: null,
      scopes: ['read_repository'],
      token: expect.any(String),
    });
    const named = await api.post(`/projects/${p.id}/deploy_tokens`, {
      token: owner.token,
      body: { name: 'named', scopes: 'read_repository,read_registry', username: 'deployer', expires_at: '2099-01-01T00:00:00Z' },
    });
    expect(named.body).toMatchObject({ username: 'deployer', scopes: ['read_repository', 'read_registry'], expires_at: '2099-01-01T00:00:00.000Z' });
    const list = await api.get(`/projects/${p.id}/deploy_tokens`, { token: owner.token });
    expect([list.status, list.headers.get('x-total')]).toEqual([200, '2']);
    expect(list.body[0]).toEqual({ id: created.body.id, name: 'ci', username: created.body.username, expires_at: null, scopes: ['read_repository'] });
    const admin = await createAdmin();
    const all = (await api.get('/deploy_tokens', { token: admin.token, query: { per_page: 100 } })).body.map((t: { id: number }) => t.id);
    expect(all).toEqual(expect.arrayContaining([created.body.id, named.body.id]));
    expect((await api.get('/deploy_tokens', { token: owner.token })).status).toBe(403);
    expect((await api.delete(`/projects/${p.id}/deploy_tokens/${created.body.id}`, { token: owner.token })).status).toBe(204);
    const again = await api.delete(`/projects/${p.id}/deploy_tokens/${created.body.id}`, { token: owner.token });
    expect([again.status, again.body]).toEqual([404, { message: '404 Deploy Token Not Found' }]);
  });

  it.each([
    [{ scopes: ['read_repository'] }, { error: 'name is missing' }],
    [{ name: 'x', scopes: ['write_repository'] }, { error: 'scopes does not have a valid value' }],
    [{ name: 'x', scopes: [] }, { message: "Scopes can't be blank" }],
    [{ name: 'x', scopes: ['read_repository'], username: 'has space' }, { message: "Username can contain only letters, digits, '_', '-', '+', and '.'" }],
  ])('400 for %j', async (body, expected) => {
    const owner = await createUser();
    const p = await createProject(owner.token);
    const res = await api.post(`/projects/${p.id}/deploy_tokens`, { token: owner.token, body });
    expect([res.status, res.body]).toEqual([400, expected]);
    expect((await api.get(`/projects/${p.id}/deploy_tokens`, { token: owner.token })).body).toEqual([]);
  });

  describeAuthorization('POST /projects/:id/deploy_tokens', {
    fixture: async () => {
      const owner = await createUser();
      const p = await createProject(owner.token, { visibility: 'public' });
      const developer = await createUser();
      await addMember(owner.token, 'projects', p.id, developer.user.id, 30);
      return { allowed: owner.token, id: p.id, nonMember: (await createUser()).token, insufficientRole: developer.token };
    },
    call: (fx, token) => api.post(`/projects/${fx.id}/deploy_tokens`, { token, body: { name: 't', scopes: ['read_repository'] } }),
    success: 201,
    nonMember: { status: 403, body: { message: '403 Forbidden' } },
    insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
  });
});

describe.skipIf(!hasGit())('git clone with a deploy token', () => {
  let server: Awaited<ReturnType<typeof serveTestApp>>;
  let dir: string;
  beforeAll(async () => {
    server = await serveTestApp();
    dir = mkdtempSync(join(tmpdir(), 'deploy-token-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const cloneUrl = (path: string, login: string, password: string) => {
    const url = new URL(`${server.url}/${path}.git`);
    url.username = encodeURIComponent(login);
    url.password = encodeURIComponent(password);
    return url.toString();
  };
  const clone = (path: string, login: string, password: string, into: string) =>
    runGit(dir, ['clone', '-q', cloneUrl(path, login, password), into], { env: { GIT_TERMINAL_PROMPT: '0' } }).then(
      () => 'ok',
      (e: Error) => e.message,
    );

  it("a project token clones its private project; a group token its group's projects; wrong login, scope or project fail", async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const p = await projectWithFile(owner.token, group.id);
    const other = await projectWithFile(owner.token);
    const made = await api.post(`/projects/${p.id}/deploy_tokens`, { token: owner.token, body: { name: 'ci', scopes: ['read_repository'] } });
    expect(await clone(p.path_with_namespace, made.body.username, made.body.token, 'a')).toBe('ok');
    expect(readFileSync(join(dir, 'a', 'hello.txt'), 'utf8')).toBe('hello');
    expect(await clone(p.path_with_namespace, 'someone-else', made.body.token, 'b')).not.toBe('ok');
    expect(await clone(other.path_with_namespace, made.body.username, made.body.token, 'c')).not.toBe('ok');

    const registryOnly = await api.post(`/projects/${p.id}/deploy_tokens`, { token: owner.token, body: { name: 'r', scopes: ['read_registry'] } });
    expect(await clone(p.path_with_namespace, registryOnly.body.username, registryOnly.body.token, 'd')).not.toBe('ok');

    const groupToken = await api.post(`/groups/${group.id}/deploy_tokens`, {
      token: owner.token,
      body: { name: 'g', scopes: ['read_repository'], username: 'fleet' },
    });
    expect(groupToken.status).toBe(201);
    expect(await clone(p.path_with_namespace, 'fleet', groupToken.body.token, 'e')).toBe('ok');

    expect((await api.delete(`/projects/${p.id}/deploy_tokens/${made.body.id}`, { token: owner.token })).status).toBe(204);
    expect(await clone(p.path_with_namespace, made.body.username, made.body.token, 'f')).not.toBe('ok');
    // A deploy token never pushes.
    const push = await fetch(`${server.url}/${p.path_with_namespace}.git/info/refs?service=git-receive-pack`, {
      headers: { authorization: `Basic ${Buffer.from(`fleet:${groupToken.body.token}`).toString('base64')}` },
    });
    expect(push.status).toBe(401);
  });
});
