// One key in many projects: enabling a key of another project (by id, or by adding its text), who may, what
// can_push and titles do across projects, the administrators' instance listing, and concurrent adds of one key.
import { describe, expect, it } from 'vitest';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { eq } from 'drizzle-orm';
import { keys } from '../../../db/schema/index.ts';
import { api, testDb } from '../../helpers/app.ts';
import { addKey, createDeployKey, enableKey, generateKey, getKey, ISO, linkCount, listKeys, projectWithRoles, storedKeys, updateKey } from './helpers.ts';

describe('POST /projects/:id/deploy_keys/:key_id/enable', () => {
  it('enables a key of a project the caller maintains: 201 with the DeployKey entity (no can_push), once', async () => {
    const fx = await projectWithRoles();
    const mine = await createProject(fx.maintainer.token);
    const key = await createDeployKey(fx.project.id, fx.maintainer.token, { can_push: true });
    const res = await enableKey(mine.id, key.id, { token: fx.maintainer.token });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ id: key.id, title: key.title, key: key.key, created_at: key.created_at, expires_at: null });
    // The push right is per project: enabled keys start read-only.
    expect((await getKey(mine.id, key.id, { token: fx.maintainer.token })).body).toEqual({ ...key, can_push: false });
    expect((await enableKey(mine.id, key.id, { token: fx.maintainer.token })).status).toBe(201);
    expect(await linkCount(mine.id)).toBe(1);
  });

  it('a key the caller cannot reach (a project where they are developer, or none) or no key at all: 404 Deploy Key Not Found', async () => {
    const fx = await projectWithRoles();
    const key = await createDeployKey(fx.project.id, fx.maintainer.token);
    for (const user of [fx.developer, fx.guest, fx.stranger]) {
      const own = await createProject(user.token);
      expect(await enableKey(own.id, key.id, { token: user.token })).toMatchObject({ status: 404, body: { message: '404 Deploy Key Not Found' } });
      expect(await linkCount(own.id)).toBe(0);
    }
    const own = await createProject(fx.maintainer.token);
    expect(await enableKey(own.id, 2_000_000_000, { token: fx.maintainer.token })).toMatchObject({
      status: 404,
      body: { message: '404 Deploy Key Not Found' },
    });
    expect(await enableKey(own.id, 'x', { token: fx.maintainer.token })).toMatchObject({ status: 400, body: { error: 'key_id is invalid' } });
  });

  it('membership through a group counts; an administrator may enable any deploy key', async () => {
    const fx = await projectWithRoles();
    const key = await createDeployKey(fx.project.id, fx.maintainer.token);
    const viaGroup = await createUser();
    const group = await createGroup(fx.owner.token);
    const inGroup = await createProject(fx.owner.token, { namespaceId: group.id });
    expect((await enableKey(inGroup.id, key.id, { token: fx.owner.token })).status).toBe(201);
    await addMember(fx.owner.token, 'groups', group.id, viaGroup.user.id, 40);
    const theirs = await createProject(viaGroup.token);
    expect((await enableKey(theirs.id, key.id, { token: viaGroup.token })).status).toBe(201);

    const admin = await createAdmin();
    const adminProject = await createProject(admin.token);
    expect((await enableKey(adminProject.id, key.id, { token: admin.token })).status).toBe(201);
  });
});

describe('adding a key that exists elsewhere', () => {
  it('enables it (with can_push) when the caller maintains a project holding it', async () => {
    const fx = await projectWithRoles();
    const k = generateKey();
    const original = await createDeployKey(fx.project.id, fx.maintainer.token, { key: k.pub, title: 'original' });
    const second = await createProject(fx.maintainer.token);
    const res = await addKey(second.id, { token: fx.maintainer.token, body: { key: k.pub, title: 'ignored', can_push: true } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ ...original, can_push: true });
    const [row] = await storedKeys({ md5: k.md5 });
    expect(row?.projectIds).toEqual([fx.project.id, second.id].sort());
  });

  it('a title change shows in every project; can_push stays per project', async () => {
    const fx = await projectWithRoles();
    const key = await createDeployKey(fx.project.id, fx.maintainer.token, { title: 'before' });
    const second = await createProject(fx.maintainer.token);
    await enableKey(second.id, key.id, { token: fx.maintainer.token });
    await updateKey(second.id, key.id, { token: fx.maintainer.token, body: { title: 'after', can_push: true } });
    expect((await getKey(fx.project.id, key.id, { token: fx.maintainer.token })).body).toEqual({ ...key, title: 'after', can_push: false });
    expect((await getKey(second.id, key.id, { token: fx.maintainer.token })).body).toEqual({ ...key, title: 'after', can_push: true });
  });
});

describe('public deploy keys', () => {
  const makePublic = (id: number) => testDb().db.update(keys).set({ public: true }).where(eq(keys.id, id));

  it("any maintainer may enable one; its title is the administrators' to change, its push right the project's", async () => {
    const fx = await projectWithRoles();
    const key = await createDeployKey(fx.project.id, fx.maintainer.token, { title: 'shared' });
    await makePublic(key.id);
    const stranger = await createProject(fx.stranger.token);
    expect((await enableKey(stranger.id, key.id, { token: fx.stranger.token })).status).toBe(201);
    const res = await updateKey(stranger.id, key.id, { token: fx.stranger.token, body: { title: 'mine now', can_push: true } });
    expect(res).toMatchObject({ status: 200, body: { ...key, title: 'shared', can_push: true } });
    const admin = await createAdmin();
    expect((await updateKey(stranger.id, key.id, { token: admin.token, body: { title: 'by admin' } })).body.title).toBe('by admin');
  });

  it('is kept when its last project removes it (only private keys go with their last link)', async () => {
    const fx = await projectWithRoles();
    const k = generateKey();
    const key = await createDeployKey(fx.project.id, fx.maintainer.token, { key: k.pub });
    await makePublic(key.id);
    expect((await api.delete(`/projects/${fx.project.id}/deploy_keys/${key.id}`, { token: fx.maintainer.token })).status).toBe(204);
    expect((await storedKeys({ md5: k.md5 })).map((r) => r.projectIds)).toEqual([[]]);
  });
});

describe('GET /deploy_keys (administrators)', () => {
  it('lists deploy keys of every project, paginated, with the DeployKey entity', async () => {
    const admin = await createAdmin();
    const fx = await projectWithRoles();
    const a = await createDeployKey(fx.project.id, fx.maintainer.token, { can_push: true });
    const b = await createDeployKey(fx.project.id, fx.maintainer.token);
    // Other test files add keys at the same time on PostgreSQL: page through everything and find ours, in id order.
    const seen: Array<{ id: number }> = [];
    for (let page = 1; ; page++) {
      const res = await api.get('/deploy_keys', { token: admin.token, query: { per_page: 100, page } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-per-page')).toBe('100');
      seen.push(...res.body);
      if (!res.headers.get('x-next-page')) break;
    }
    const ours = seen.filter((k) => k.id === a.id || k.id === b.id);
    expect(ours).toEqual([
      { id: a.id, title: a.title, key: a.key, created_at: expect.stringMatching(ISO), expires_at: null },
      { id: b.id, title: b.title, key: b.key, created_at: b.created_at, expires_at: null },
    ]);
    const small = await api.get('/deploy_keys', { token: admin.token, query: { per_page: 1 } });
    expect(small.body).toHaveLength(1);
    expect(small.headers.get('x-next-page')).toBe('2');
  });

  it('is 403 for other users and 401 without a token', async () => {
    const fx = await projectWithRoles();
    expect(await api.get('/deploy_keys', { token: fx.owner.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await api.get('/deploy_keys')).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
  });
});

describe('removed v3 paths', () => {
  it('GET /projects/:id/keys and DELETE .../deploy_keys/:key_id/disable are 404', async () => {
    const fx = await projectWithRoles();
    const key = await createDeployKey(fx.project.id, fx.maintainer.token);
    for (const [method, path] of [
      ['GET', `/projects/${fx.project.id}/keys`],
      ['GET', `/projects/${fx.project.id}/keys/${key.id}`],
      ['POST', `/projects/${fx.project.id}/keys`],
      ['DELETE', `/projects/${fx.project.id}/keys/${key.id}`],
      ['DELETE', `/projects/${fx.project.id}/deploy_keys/${key.id}/disable`],
    ] as const) {
      const res = await api[method === 'GET' ? 'get' : method === 'POST' ? 'post' : 'delete'](path, { token: fx.maintainer.token });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect(await linkCount(fx.project.id)).toBe(1);
  });
});

describe('concurrent adds of one key', () => {
  it('to one project make one key and one link; every request answers 201 with it', async () => {
    const fx = await projectWithRoles();
    const k = generateKey();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => addKey(fx.project.id, { token: fx.maintainer.token, body: { key: k.pub, title: 'racing' } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(await linkCount(fx.project.id)).toBe(1);
    const rows = await storedKeys({ md5: k.md5 });
    expect(rows).toHaveLength(1);
    expect((await listKeys(fx.project.id, { token: fx.maintainer.token })).body).toEqual([results[0]!.body]);
  });
});
