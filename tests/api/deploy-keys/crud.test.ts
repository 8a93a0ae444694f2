// A project's deploy keys: create (real keys of each type, fingerprints as ssh-keygen prints them), read, list with
// pagination headers, update, delete (the key goes with its last private link).
import { describe, expect, it } from 'vitest';
import { unique } from '../../factories/users.ts';
import { createProject } from '../../factories/projects.ts';
import { eq } from 'drizzle-orm';
import { projects } from '../../../db/schema/index.ts';
import { api, queryCount, testDb } from '../../helpers/app.ts';
import { addKey, createDeployKey, generateKey, getKey, ISO, linkCount, listKeys, projectWithRoles, removeKey, storedKeys, updateKey } from './helpers.ts';

describe('POST /projects/:id/deploy_keys', () => {
  for (const type of ['ed25519', 'rsa', 'ecdsa'] as const) {
    it(`stores a ${type} key with the fingerprints ssh-keygen gives, and answers the DeployKeysProject entity`, async () => {
      const fx = await projectWithRoles();
      const k = generateKey(type, 'ci@example.com');
      const res = await addKey(fx.project.id, { token: fx.maintainer.token, body: { title: 'CI', key: `\n  ${k.pub}  \n` } });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toEqual({ id: expect.any(Number), title: 'CI', key: k.pub, created_at: expect.stringMatching(ISO), expires_at: null, can_push: false });
      expect(Object.keys(res.body)).toEqual(['id', 'title', 'key', 'created_at', 'expires_at', 'can_push']);
      const [row] = await storedKeys({ md5: k.md5 });
      expect(row).toMatchObject({
        id: res.body.id,
        type: 'DeployKey',
        fingerprint: k.md5,
        fingerprintSha256: k.sha256,
        public: false,
        userId: fx.maintainer.user.id,
        projectIds: [fx.project.id],
      });
    });
  }

  it('can_push is stored on the link; form parameters work too', async () => {
    const fx = await projectWithRoles();
    const k = generateKey();
    const res = await addKey(fx.project.id, { token: fx.maintainer.token, form: { title: 'pusher', key: k.pub, can_push: 'true' } });
    expect(res.status).toBe(201);
    expect(res.body.can_push).toBe(true);
  });

  it('keeps the blob and the first word of the comment, and joins a blob broken over lines (Gitlab::SSHPublicKey.sanitize)', async () => {
    const fx = await projectWithRoles();
    const k = generateKey('rsa', 'deploy');
    const [type, blob] = k.pub.split(' ') as [string, string];
    const wrapped = `${type} ${blob.match(/.{1,64}/g)!.join('\n')} first second`;
    const res = await addKey(fx.project.id, { token: fx.maintainer.token, body: { title: 'wrapped', key: wrapped } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.key).toBe(`${type} ${blob} first`);
  });

  it("answers the project's own key again (201, unchanged) when the same text is added twice", async () => {
    const fx = await projectWithRoles();
    const k = generateKey();
    const first = await createDeployKey(fx.project.id, fx.maintainer.token, { key: k.pub, title: 'first', can_push: true });
    const again = await addKey(fx.project.id, { token: fx.maintainer.token, body: { key: k.pub, title: 'second', can_push: false } });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first);
    expect(await linkCount(fx.project.id)).toBe(1);
  });
});

describe('GET /projects/:id/deploy_keys[/:key_id]', () => {
  it("lists the project's keys in the order they were added, paginated with GitLab's headers", async () => {
    const fx = await projectWithRoles();
    const a = await createDeployKey(fx.project.id, fx.maintainer.token, { title: 'a' });
    const b = await createDeployKey(fx.project.id, fx.maintainer.token, { title: 'b', can_push: true });
    const c = await createDeployKey(fx.project.id, fx.maintainer.token, { title: 'c' });

    const all = await listKeys(fx.project.id, { token: fx.maintainer.token });
    expect(all.status).toBe(200);
    expect(all.body).toEqual([a, b, c]);
    expect(all.headers.get('x-total')).toBe('3');

    const page = await listKeys(fx.project.id, { token: fx.maintainer.token, query: { per_page: 2, page: 2 } });
    expect(page.body).toEqual([c]);
    expect(page.headers.get('x-page')).toBe('2');
    expect(page.headers.get('x-per-page')).toBe('2');
    expect(page.headers.get('x-prev-page')).toBe('1');
    expect(page.headers.get('x-next-page')).toBe('');
    expect(page.headers.get('x-total-pages')).toBe('2');
    expect(page.headers.get('link')).toContain('rel="first"');
  });

  it('costs the same number of queries for one key or many (one joined read)', async () => {
    const fx = await projectWithRoles();
    await createDeployKey(fx.project.id, fx.maintainer.token);
    const one = queryCount(await listKeys(fx.project.id, { token: fx.maintainer.token }));
    for (let i = 0; i < 4; i++) await createDeployKey(fx.project.id, fx.maintainer.token);
    const many = await listKeys(fx.project.id, { token: fx.maintainer.token });
    expect(many.body).toHaveLength(5);
    expect(queryCount(many)).toBeLessThanOrEqual(one);
  });

  it('reads one key by its id; a key the project does not have is 404 Not found', async () => {
    const fx = await projectWithRoles();
    const other = await projectWithRoles();
    const mine = await createDeployKey(fx.project.id, fx.maintainer.token, { can_push: true });
    const theirs = await createDeployKey(other.project.id, other.maintainer.token);
    expect(await getKey(fx.project.id, mine.id, { token: fx.maintainer.token })).toMatchObject({ status: 200, body: mine });
    for (const id of [theirs.id, 2_000_000_000, 99_999_999_999]) {
      expect(await getKey(fx.project.id, id, { token: fx.maintainer.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    }
  });

  it('a key id that is not an integer is 400 key_id is invalid (for a maintainer)', async () => {
    const fx = await projectWithRoles();
    expect(await getKey(fx.project.id, 'abc', { token: fx.maintainer.token })).toMatchObject({ status: 400, body: { error: 'key_id is invalid' } });
  });

  it('works by URL-encoded project path', async () => {
    const fx = await projectWithRoles();
    const key = await createDeployKey(fx.project.id, fx.maintainer.token);
    expect((await listKeys(fx.project.path_with_namespace, { token: fx.maintainer.token })).body).toEqual([key]);
  });
});

describe('PUT /projects/:id/deploy_keys/:key_id', () => {
  it('changes the title and can_push, each alone or both', async () => {
    const fx = await projectWithRoles();
    const key = await createDeployKey(fx.project.id, fx.maintainer.token, { title: 'old' });
    const pushed = await updateKey(fx.project.id, key.id, { token: fx.maintainer.token, body: { can_push: true } });
    expect(pushed).toMatchObject({ status: 200, body: { ...key, can_push: true } });
    const renamed = await updateKey(fx.project.id, key.id, { token: fx.maintainer.token, body: { title: 'new', can_push: false } });
    expect(renamed).toMatchObject({ status: 200, body: { ...key, title: 'new', can_push: false } });
    expect((await getKey(fx.project.id, key.id, { token: fx.maintainer.token })).body).toEqual({ ...key, title: 'new', can_push: false });
  });

  it('needs title or can_push; a blank or long title is refused and nothing changes', async () => {
    const fx = await projectWithRoles();
    const key = await createDeployKey(fx.project.id, fx.maintainer.token, { title: 'kept' });
    const cases: Array<[unknown, number, unknown]> = [
      [{}, 400, { error: 'title, can_push are missing, at least one parameter must be provided' }],
      [{ title: '' }, 400, { message: { 'deploy_key.title': ["can't be blank"] } }],
      [{ title: 'x'.repeat(256), can_push: true }, 400, { message: { 'deploy_key.title': ['is too long (maximum is 255 characters)'] } }],
      [{ can_push: 'maybe' }, 400, { error: 'can_push is invalid' }],
    ];
    for (const [body, status, expected] of cases) {
      const res = await updateKey(fx.project.id, key.id, { token: fx.maintainer.token, body });
      expect([res.status, res.body], JSON.stringify(body)).toEqual([status, expected]);
    }
    expect((await getKey(fx.project.id, key.id, { token: fx.maintainer.token })).body).toEqual(key);
  });

  it('a key the project does not have is 404 Not found', async () => {
    const fx = await projectWithRoles();
    const other = await projectWithRoles();
    const theirs = await createDeployKey(other.project.id, other.maintainer.token);
    expect(await updateKey(fx.project.id, theirs.id, { token: fx.maintainer.token, body: { title: 'x' } })).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    });
  });
});

describe('DELETE /projects/:id/deploy_keys/:key_id', () => {
  it('removes the key from the project (204), and the key itself when no other project uses it', async () => {
    const fx = await projectWithRoles();
    const k = generateKey();
    const key = await createDeployKey(fx.project.id, fx.maintainer.token, { key: k.pub });
    const res = await removeKey(fx.project.id, key.id, { token: fx.maintainer.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await storedKeys({ md5: k.md5 })).toEqual([]);
    expect(await removeKey(fx.project.id, key.id, { token: fx.maintainer.token })).toMatchObject({
      status: 404,
      body: { message: '404 Deploy Key Not Found' },
    });
  });

  it('keeps a key another project still uses', async () => {
    const owner = await projectWithRoles();
    const second = await createProject(owner.maintainer.token);
    const k = generateKey();
    const key = await createDeployKey(owner.project.id, owner.maintainer.token, { key: k.pub });
    expect((await api.post(`/projects/${second.id}/deploy_keys/${key.id}/enable`, { token: owner.maintainer.token })).status).toBe(201);
    expect((await removeKey(owner.project.id, key.id, { token: owner.maintainer.token })).status).toBe(204);
    const [row] = await storedKeys({ md5: k.md5 });
    expect(row?.projectIds).toEqual([second.id]);
  });

  it('honours If-Unmodified-Since (412, nothing removed)', async () => {
    const fx = await projectWithRoles();
    const key = await createDeployKey(fx.project.id, fx.maintainer.token);
    const res = await removeKey(fx.project.id, key.id, { token: fx.maintainer.token, headers: { 'If-Unmodified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' } });
    expect(res.status).toBe(412);
    expect(await linkCount(fx.project.id)).toBe(1);
  });

  it('purging a project removes its links (foreign key cascade); the key no project uses stays', async () => {
    const fx = await projectWithRoles();
    const k = generateKey();
    await createDeployKey(fx.project.id, fx.maintainer.token, { key: k.pub, title: unique('t') });
    await testDb().db.delete(projects).where(eq(projects.id, fx.project.id));
    expect(await linkCount(fx.project.id)).toBe(0);
    expect((await storedKeys({ md5: k.md5 })).map((r) => r.projectIds)).toEqual([[]]);
  });
});
