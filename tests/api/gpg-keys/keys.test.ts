// Users' GPG keys (GitLab 13.6 lib/api/users.rb): /user/gpg_keys for the caller (list, read, add, revoke, delete),
// /users/:id/gpg_keys (anyone lists and reads; administrators add, delete and revoke), Entities::GpgKey, the GpgKey
// model's validation messages, the subkeys and user ids stored with a key, and the shared authorization suite.
import { describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import * as openpgp from 'openpgp';
import { gpgKeySubkeys, gpgKeys, users } from '../../../db/schema/index.ts';
import { api, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { makePublicKey, withComment } from './support.ts';

const FORMAT = "is invalid. A valid public GPG key begins with '-----BEGIN PGP PUBLIC KEY BLOCK-----' and ends with '-----END PGP PUBLIC KEY BLOCK-----'";
const KEY_NOT_FOUND = { message: '404 GPG Key Not Found' };

const storedKeys = (userId: number) => testDb().db.select().from(gpgKeys).where(eq(gpgKeys.userId, userId));

describe('GPG keys of the caller: /user/gpg_keys', () => {
  it('add (201, GpgKey), list with pagination headers, read, delete (204)', async () => {
    const me = await createUser();
    const key = await makePublicKey(me.user.email);
    const added = await api.post('/user/gpg_keys', { token: me.token, body: { key: `\n  ${key}\n\n` } });
    expect(added.status, added.text).toBe(201);
    // The key as stored: stripped of surrounding whitespace.
    expect(added.body).toEqual({ id: expect.any(Number), key: key.trim(), created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    const second = await api.post('/user/gpg_keys', { token: me.token, form: { key: await makePublicKey(me.user.email) } });
    expect(second.status).toBe(201);

    const list = await api.get('/user/gpg_keys', { token: me.token, query: { per_page: 1 } });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([added.body]);
    expect([list.headers.get('x-total'), list.headers.get('x-total-pages'), list.headers.get('x-page'), list.headers.get('x-per-page')]).toEqual([
      '2',
      '2',
      '1',
      '1',
    ]);
    expect(list.headers.get('x-next-page')).toBe('2');
    expect(list.headers.get('link')).toContain('rel="next"');
    expect((await api.get('/user/gpg_keys', { token: me.token, query: { page: 2, per_page: 1 } })).body).toEqual([second.body]);

    const one = await api.get(`/user/gpg_keys/${added.body.id}`, { token: me.token });
    expect([one.status, one.body]).toEqual([200, added.body]);
    const removed = await api.delete(`/user/gpg_keys/${added.body.id}`, { token: me.token });
    expect([removed.status, removed.text]).toEqual([204, '']);
    expect((await api.get(`/user/gpg_keys/${added.body.id}`, { token: me.token })).body).toEqual(KEY_NOT_FOUND);
    expect((await api.delete(`/user/gpg_keys/${added.body.id}`, { token: me.token })).status).toBe(404);
    expect((await storedKeys(me.user.id)).map((k) => k.id)).toEqual([second.body.id]);
  });

  it('stores the fingerprint, the primary key id, the subkeys and the user ids GitLab derives from the key', async () => {
    const me = await createUser();
    const armored = await makePublicKey(me.user.email, [{ name: 'Other Name', email: 'Second.Address@Example.com' }]);
    const parsed = await openpgp.readKey({ armoredKey: armored });
    const added = await api.post('/user/gpg_keys', { token: me.token, body: { key: armored } });
    expect(added.status).toBe(201);
    const [row] = await storedKeys(me.user.id);
    expect(row).toMatchObject({
      fingerprint: parsed.getFingerprint().toUpperCase(),
      primaryKeyid: parsed.getKeyID().toHex().toUpperCase(),
      userInfos: [
        { name: 'Key Owner', email: me.user.email.toLowerCase() },
        { name: 'Other Name', email: 'second.address@example.com' },
      ],
    });
    const subkeys = await testDb().db.select().from(gpgKeySubkeys).where(eq(gpgKeySubkeys.gpgKeyId, added.body.id));
    expect(subkeys.map((s) => [s.keyid, s.fingerprint])).toEqual(
      parsed.subkeys.map((s) => [s.getKeyID().toHex().toUpperCase(), s.getFingerprint().toUpperCase()]),
    );
    expect(subkeys).toHaveLength(1);
  });

  it('revoke: 202 with the body 202, the key is gone; 404 for a key of someone else', async () => {
    const me = await createUser();
    const other = await createUser();
    const added = await api.post('/user/gpg_keys', { token: me.token, body: { key: await makePublicKey(me.user.email) } });
    for (const call of [
      () => api.get(`/user/gpg_keys/${added.body.id}`, { token: other.token }),
      () => api.post(`/user/gpg_keys/${added.body.id}/revoke`, { token: other.token }),
      () => api.delete(`/user/gpg_keys/${added.body.id}`, { token: other.token }),
    ]) {
      const res = await call();
      expect([res.status, res.body]).toEqual([404, KEY_NOT_FOUND]);
    }
    const revoked = await api.post(`/user/gpg_keys/${added.body.id}/revoke`, { token: me.token });
    expect([revoked.status, revoked.text]).toEqual([202, '202']);
    expect(await storedKeys(me.user.id)).toEqual([]);
    expect((await api.post(`/user/gpg_keys/${added.body.id}/revoke`, { token: me.token })).body).toEqual(KEY_NOT_FOUND);
  });

  it("the model's messages: blank, not one public key block, unreadable, taken (same text; same key armored again)", async () => {
    const me = await createUser();
    const refused = async (body: unknown) => {
      const res = await api.post('/user/gpg_keys', { token: me.token, body });
      return [res.status, res.body];
    };
    expect(await refused({})).toEqual([400, { error: 'key is missing' }]);
    expect(await refused({ key: '   ' })).toEqual([400, { message: { key: ["can't be blank", FORMAT] } }]);
    expect(await refused({ key: 'ssh-ed25519 AAAA' })).toEqual([400, { message: { key: [FORMAT] } }]);
    const key = await makePublicKey(me.user.email);
    expect(await refused({ key: `${key}\n${key}` })).toEqual([400, { message: { key: [FORMAT] } }]);
    expect(await refused({ key: `text before\n${key}` })).toEqual([400, { message: { key: [FORMAT] } }]);
    // A private key block is not a public key block.
    const { privateKey } = await openpgp.generateKey({ userIDs: [{ email: me.user.email }], format: 'armored' });
    expect(await refused({ key: privateKey })).toEqual([400, { message: { key: [FORMAT] } }]);
    // The right markers around what GnuPG cannot import: no fingerprint, no key id.
    const garbage = '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nbm90IGEga2V5\n-----END PGP PUBLIC KEY BLOCK-----';
    expect(await refused({ key: garbage })).toEqual([400, { message: { fingerprint: ["can't be blank"], primary_keyid: ["can't be blank"] } }]);

    expect((await api.post('/user/gpg_keys', { token: me.token, body: { key } })).status).toBe(201);
    expect(await refused({ key })).toEqual([400, { message: { key: ['has already been taken'] } }]);
    // Another user, the same key in another armor: taken whoever holds it.
    const other = await createUser();
    const again = await api.post('/user/gpg_keys', { token: other.token, body: { key: withComment(key) } });
    expect([again.status, again.body]).toEqual([400, { message: { fingerprint: ['has already been taken'], primary_keyid: ['has already been taken'] } }]);
    expect(await storedKeys(other.user.id)).toEqual([]);
    expect(await storedKeys(me.user.id)).toHaveLength(1);
  });

  it('the same key sent three times at once: one key', async () => {
    const me = await createUser();
    const key = await makePublicKey(me.user.email);
    const results = await Promise.all([1, 2, 3].map(() => api.post('/user/gpg_keys', { token: me.token, body: { key } })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400]);
    expect(await storedKeys(me.user.id)).toHaveLength(1);
  });

  it('key_id: any integer (unknown: 404), anything else 400; DELETE honours If-Unmodified-Since (412)', async () => {
    const me = await createUser();
    expect((await api.get('/user/gpg_keys/abc', { token: me.token })).body).toEqual({ error: 'key_id is invalid' });
    expect((await api.get('/user/gpg_keys/99999999999', { token: me.token })).body).toEqual(KEY_NOT_FOUND);
    const added = await api.post('/user/gpg_keys', { token: me.token, body: { key: await makePublicKey(me.user.email) } });
    const stale = await api.delete(`/user/gpg_keys/${added.body.id}`, { token: me.token, headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' } });
    expect([stale.status, stale.body]).toEqual([412, { message: '412 Precondition Failed' }]);
    expect((await api.delete(`/user/gpg_keys/${added.body.id}`, { token: me.token })).status).toBe(204);
  });

  it("a user's keys go with the user", async () => {
    const me = await createUser();
    const added = await api.post('/user/gpg_keys', { token: me.token, body: { key: await makePublicKey(me.user.email) } });
    await testDb().db.delete(users).where(eq(users.id, me.user.id));
    expect(await testDb().db.select().from(gpgKeys).where(eq(gpgKeys.id, added.body.id))).toEqual([]);
    expect(
      await testDb()
        .db.select()
        .from(gpgKeySubkeys)
        .where(inArray(gpgKeySubkeys.gpgKeyId, [added.body.id])),
    ).toEqual([]);
  });
});

describe('GPG keys of a user: /users/:id/gpg_keys', () => {
  it('anyone lists and reads them (13.6: no read_user check); 404 User Not Found, 404 GPG Key Not Found', async () => {
    const owner = await createUser();
    const added = await api.post('/user/gpg_keys', { token: owner.token, body: { key: await makePublicKey(owner.user.email) } });
    const list = await api.get(`/users/${owner.user.id}/gpg_keys`);
    expect([list.status, list.body, list.headers.get('x-total')]).toEqual([200, [added.body], '1']);
    expect((await api.get(`/users/${owner.user.id}/gpg_keys/${added.body.id}`)).body).toEqual(added.body);
    const blocked = await createUser({ state: 'blocked' });
    expect((await api.get(`/users/${blocked.user.id}/gpg_keys`)).body).toEqual([]);
    expect((await api.get('/users/999999999/gpg_keys')).body).toEqual({ message: '404 User Not Found' });
    const other = await createUser();
    expect((await api.get(`/users/${other.user.id}/gpg_keys/${added.body.id}`)).body).toEqual(KEY_NOT_FOUND);
    // `:id` is an integer: a username matches no route.
    expect((await api.get(`/users/${owner.user.username}/gpg_keys`)).status).toBe(404);
  });

  it('administrators add, delete and revoke them; others get 403 and change nothing', async () => {
    const admin = await createAdmin();
    const someone = await createUser();
    const key = await makePublicKey(someone.user.email);
    const refused = await api.post(`/users/${someone.user.id}/gpg_keys`, { token: someone.token, body: { key } });
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }]);
    expect(await storedKeys(someone.user.id)).toEqual([]);

    const added = await api.post(`/users/${someone.user.id}/gpg_keys`, { token: admin.token, body: { key } });
    expect(added.status, added.text).toBe(201);
    expect((await api.get('/user/gpg_keys', { token: someone.token })).body).toEqual([added.body]);
    expect((await api.post(`/users/${someone.user.id}/gpg_keys`, { token: admin.token, body: { key } })).body).toEqual({
      message: { key: ['has already been taken'] },
    });
    expect((await api.post('/users/999999999/gpg_keys', { token: admin.token, body: { key: await makePublicKey('x@example.com') } })).body).toEqual({
      message: '404 User Not Found',
    });

    expect((await api.delete(`/users/${someone.user.id}/gpg_keys/${added.body.id}`, { token: someone.token })).status).toBe(403);
    expect((await api.post(`/users/${someone.user.id}/gpg_keys/${added.body.id}/revoke`, { token: someone.token })).status).toBe(403);
    const revoked = await api.post(`/users/${someone.user.id}/gpg_keys/${added.body.id}/revoke`, { token: admin.token });
    expect([revoked.status, revoked.text]).toEqual([202, '202']);
    expect((await api.post(`/users/${someone.user.id}/gpg_keys/${added.body.id}/revoke`, { token: admin.token })).body).toEqual(KEY_NOT_FOUND);

    const again = await api.post(`/users/${someone.user.id}/gpg_keys`, { token: admin.token, body: { key } });
    // Another user's path does not reach this user's key.
    const stranger = await createUser();
    expect((await api.delete(`/users/${stranger.user.id}/gpg_keys/${again.body.id}`, { token: admin.token })).body).toEqual(KEY_NOT_FOUND);
    expect((await api.delete(`/users/${someone.user.id}/gpg_keys/${again.body.id}`, { token: admin.token })).status).toBe(204);
    expect(await storedKeys(someone.user.id)).toEqual([]);
  });
});

describeAuthorization('POST /user/gpg_keys', {
  fixture: async () => {
    const me = await createUser();
    return { allowed: me.token, email: me.user.email };
  },
  call: async (fx, token) => api.post('/user/gpg_keys', { token, body: { key: await makePublicKey(fx.email) } }),
  success: 201,
});

describeAuthorization('GET /user/gpg_keys', {
  fixture: async () => ({ allowed: (await createUser()).token }),
  call: (_fx, token) => api.get('/user/gpg_keys', { token }),
  success: 200,
});

describeAuthorization('GET /users/:id/gpg_keys (public)', {
  fixture: async () => ({ allowed: (await createUser()).token, id: (await createUser()).user.id }),
  call: (fx, token) => api.get(`/users/${fx.id}/gpg_keys`, { token }),
  success: 200,
  anonymous: { status: 200, body: [] },
});

describeAuthorization('DELETE /users/:id/gpg_keys/:key_id (administrators)', {
  fixture: async () => {
    const owner = await createUser();
    const added = await api.post('/user/gpg_keys', { token: owner.token, body: { key: await makePublicKey(owner.user.email) } });
    return { allowed: (await createAdmin()).token, otherUser: (await createUser()).token, path: `/users/${owner.user.id}/gpg_keys/${added.body.id}` };
  },
  call: (fx, token) => api.delete(fx.path, { token }),
  success: 204,
  otherUser: { status: 403, body: { message: '403 Forbidden' } },
});

describeAuthorization('POST /user/gpg_keys/:key_id/revoke (the owner only)', {
  fixture: async () => {
    const owner = await createUser();
    const added = await api.post('/user/gpg_keys', { token: owner.token, body: { key: await makePublicKey(owner.user.email) } });
    return { allowed: owner.token, otherUser: (await createUser()).token, id: added.body.id as number };
  },
  call: (fx, token) => api.post(`/user/gpg_keys/${fx.id}/revoke`, { token }),
  success: 202,
  otherUser: { status: 404, body: KEY_NOT_FOUND },
});
