// Users' SSH keys (GitLab 13.6): /user/keys for the caller, /users/:id/keys (anyone reads, administrators write),
// GET /keys/:id and GET /keys?fingerprint= for administrators. User keys and deploy keys share one fingerprint rule.
import { describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { keys } from '../../../db/schema/index.ts';
import { api, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { createDeployKey, generateKey } from '../deploy-keys/helpers.ts';

const userKeyCount = async (userId: number) =>
  (
    await testDb()
      .db.select({ n: count() })
      .from(keys)
      .where(and(eq(keys.userId, userId), eq(keys.type, 'Key')))
  )[0]!.n;

describe('SSH keys of users', () => {
  it('add (201, SSHKey), list, read, look up by id and by either fingerprint (admins), delete', async () => {
    const me = await createUser();
    const generated = generateKey('ed25519', 'me@laptop');
    const added = await api.post('/user/keys', { token: me.token, body: { title: 'laptop', key: generated.pub, expires_at: '2030-01-01T00:00:00Z' } });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      id: expect.any(Number),
      title: 'laptop',
      key: generated.pub,
      created_at: expect.stringMatching(/^\d{4}-/),
      expires_at: '2030-01-01T00:00:00.000Z',
    });
    const id = added.body.id;
    const own = await api.get('/user/keys', { token: me.token });
    expect([own.status, own.headers.get('x-total'), own.body]).toEqual([200, '1', [added.body]]);
    expect((await api.get(`/user/keys/${id}`, { token: me.token })).body).toEqual(added.body);
    // Anyone reads a user's public keys, by id or username.
    expect((await api.get(`/users/${me.user.id}/keys`)).body).toEqual([added.body]);
    expect((await api.get(`/users/${me.user.username}/keys`)).body).toEqual([added.body]);

    const admin = await createAdmin();
    const byId = await api.get(`/keys/${id}`, { token: admin.token });
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ ...added.body, user: { id: me.user.id, username: me.user.username } });
    expect((await api.get('/keys', { token: admin.token, query: { fingerprint: generated.md5 } })).body.id).toBe(id);
    expect((await api.get('/keys', { token: admin.token, query: { fingerprint: `SHA256:${generated.sha256}` } })).body.id).toBe(id);
    const unknown = await api.get('/keys', { token: admin.token, query: { fingerprint: generateKey().md5 } });
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 Key Not Found' }]);
    const bad = await api.get('/keys', { token: admin.token, query: { fingerprint: 'nope' } });
    expect([bad.status, bad.body]).toEqual([400, { message: 'Failed to return the key' }]);
    expect((await api.get(`/keys/${id}`, { token: me.token })).status).toBe(403);

    // Another user's key is not found through /user/keys.
    const other = await createUser();
    expect((await api.get(`/user/keys/${id}`, { token: other.token })).body).toEqual({ message: '404 Key Not Found' });
    expect((await api.delete(`/user/keys/${id}`, { token: other.token })).status).toBe(404);
    expect((await api.delete(`/user/keys/${id}`, { token: me.token })).status).toBe(204);
    expect(await userKeyCount(me.user.id)).toBe(0);
  });

  it('one fingerprint for user and deploy keys; the model errors; nothing written on refusal', async () => {
    const me = await createUser();
    const project = await createProject(me.token);
    const deploy = generateKey();
    await createDeployKey(project.id, me.token, { key: deploy.pub });
    const taken = await api.post('/user/keys', { token: me.token, body: { title: 't', key: deploy.pub } });
    expect([taken.status, taken.body]).toEqual([400, { message: { fingerprint: ['has already been taken'] } }]);
    const garbage = await api.post('/user/keys', { token: me.token, body: { title: '', key: 'not a key' } });
    expect(garbage.status).toBe(400);
    expect(garbage.body.message).toMatchObject({ title: ["can't be blank"], fingerprint: ['cannot be generated'] });
    const missing = await api.post('/user/keys', { token: me.token, body: { title: 't' } });
    expect([missing.status, missing.body]).toEqual([400, { error: 'key is missing' }]);
    expect(await userKeyCount(me.user.id)).toBe(0);
    // The same key twice at once: one key.
    const k = generateKey().pub;
    const results = await Promise.all([1, 2, 3].map(() => api.post('/user/keys', { token: me.token, body: { title: 'x', key: k } })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400]);
    expect(await userKeyCount(me.user.id)).toBe(1);
  });

  it("administrators add and remove others' keys; others may not", async () => {
    const admin = await createAdmin();
    const someone = await createUser();
    const pub = generateKey().pub;
    const refused = await api.post(`/users/${someone.user.id}/keys`, { token: someone.token, body: { title: 'x', key: pub } });
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }]);
    const added = await api.post(`/users/${someone.user.id}/keys`, { token: admin.token, body: { title: 'x', key: pub } });
    expect(added.status).toBe(201);
    expect((await api.get('/user/keys', { token: someone.token })).body.map((k: { id: number }) => k.id)).toEqual([added.body.id]);
    expect((await api.delete(`/users/${someone.user.id}/keys/${added.body.id}`, { token: admin.token })).status).toBe(204);
    expect((await api.delete(`/users/${someone.user.id}/keys/${added.body.id}`, { token: admin.token })).body).toEqual({ message: '404 Key Not Found' });
    expect((await api.get('/users/999999999/keys')).body).toEqual({ message: '404 User Not Found' });
  });

  describeAuthorization('POST /user/keys', {
    fixture: async () => ({ allowed: (await createUser()).token }),
    call: (_fx, token) => api.post('/user/keys', { token, body: { title: 'k', key: generateKey().pub } }),
    success: 201,
  });
});
