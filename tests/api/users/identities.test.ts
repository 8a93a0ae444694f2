// Identities (issue 12, item 17): `provider`/`extern_uid` on POST and PUT /users are stored and shown as GitLab
// 13.6 shows them; GET /users?extern_uid=&provider= (administrators) and DELETE /users/:id/identities/:provider.
import { describe, expect, it } from 'vitest';
import { createAdmin, createUser, unique } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';

const newUser = (extra: Record<string, unknown> = {}) => {
  const username = unique('ident');
  return { email: `${username}@example.com`, name: 'Ident', username, password: 'secret-password', ...extra };
};

describe('POST /users with an identity', () => {
  it('creates the user with it (201), shown in UserWithAdmin', async () => {
    const { token } = await createAdmin();
    const res = await api.post('/users', { token, body: newUser({ provider: 'github', extern_uid: '67890' }) });
    expect(res.status).toBe(201);
    expect(res.body.identities).toEqual([{ provider: 'github', extern_uid: '67890' }]);
    expect((await api.get(`/users/${res.body.id}`, { token })).body.identities).toEqual([{ provider: 'github', extern_uid: '67890' }]);
  });

  it('a uid another user holds at that provider (without regard to case) is 400, and no user is created', async () => {
    const { token } = await createAdmin();
    const uid = unique('uid');
    expect((await api.post('/users', { token, body: newUser({ provider: 'ldapmain', extern_uid: uid }) })).status).toBe(201);
    const body = newUser({ provider: 'ldapmain', extern_uid: uid.toUpperCase() });
    const res = await api.post('/users', { token, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { 'identities.extern_uid': ['has already been taken'] } });
    expect((await api.get('/users', { token, query: { username: body.username } })).body).toEqual([]);
    // The same uid at another provider is someone else's to have.
    expect((await api.post('/users', { token, body: newUser({ provider: 'github', extern_uid: uid }) })).status).toBe(201);
  });

  it("provider and extern_uid go together (Grape all_or_none_of); a blank provider is the model's error", async () => {
    const { token } = await createAdmin();
    for (const extra of [{ provider: 'github' }, { extern_uid: '1' }]) {
      const res = await api.post('/users', { token, body: newUser(extra) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'extern_uid, provider provide all or none of parameters' });
    }
    const blank = await api.post('/users', { token, body: newUser({ provider: '', extern_uid: '1' }) });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ message: { 'identities.provider': ["can't be blank"] } });
  });
});

describe('PUT /users/:id with an identity', () => {
  it('adds a new identity, and replaces the uid of an existing one (one per provider)', async () => {
    const { token } = await createAdmin();
    const { user } = await createUser();
    const first = await api.put(`/users/${user.id}`, { token, form: { provider: 'github', extern_uid: 'john' } });
    expect(first.status).toBe(200);
    expect(first.body.identities).toEqual([{ provider: 'github', extern_uid: 'john' }]);
    await api.put(`/users/${user.id}`, { token, body: { provider: 'ldapmain', extern_uid: 'uid=john,ou=people' } });
    const replaced = await api.put(`/users/${user.id}`, { token, body: { provider: 'github', extern_uid: '654321', bio: 'b' } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      bio: 'b',
      identities: [
        { provider: 'github', extern_uid: '654321' },
        { provider: 'ldapmain', extern_uid: 'uid=john,ou=people' },
      ],
    });
  });

  it('a uid held by another user is 400 and changes nothing (not even the other fields)', async () => {
    const { token } = await createAdmin();
    const holder = await createUser();
    const { user } = await createUser();
    const uid = unique('taken');
    await api.put(`/users/${holder.user.id}`, { token, body: { provider: 'github', extern_uid: uid } });
    const res = await api.put(`/users/${user.id}`, { token, body: { provider: 'github', extern_uid: uid, bio: 'never' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { 'identities.extern_uid': ['has already been taken'] } });
    const after = (await api.get(`/users/${user.id}`, { token })).body;
    expect(after).toMatchObject({ bio: '', identities: [] });
    // Giving the holder their own uid again is no conflict.
    expect((await api.put(`/users/${holder.user.id}`, { token, body: { provider: 'github', extern_uid: uid.toUpperCase() } })).status).toBe(200);
  });

  it('only administrators set identities: 403 for anyone else, even on themselves', async () => {
    const { user, token } = await createUser();
    const res = await api.put(`/users/${user.id}`, { token, body: { provider: 'github', extern_uid: 'me' } });
    expect(res.status).toBe(403);
    const admin = await createAdmin();
    expect((await api.get(`/users/${user.id}`, { token: admin.token })).body.identities).toEqual([]);
  });

  it('a user sees their own identities in GET /user (UserPublic); others never see them', async () => {
    const { token } = await createAdmin();
    const me = await createUser();
    await api.put(`/users/${me.user.id}`, { token, body: { provider: 'saml', extern_uid: 'me@idp' } });
    expect((await api.get('/user', { token: me.token })).body.identities).toEqual([{ provider: 'saml', extern_uid: 'me@idp' }]);
    const seen = await api.get(`/users/${me.user.id}`, { token: (await createUser()).token });
    expect(seen.body).not.toHaveProperty('identities');
  });

  it("on paid tiers the identity carries EE's saml_provider_id (null: no group SAML here)", async () => {
    const { token } = await createAdmin();
    const { user } = await createUser();
    const res = await api.put(`/users/${user.id}`, { token, body: { provider: 'github', extern_uid: unique('x') }, env: { INSTANCE_TIER: 'premium' } });
    expect(res.body.identities).toEqual([{ provider: 'github', extern_uid: expect.any(String), saml_provider_id: null }]);
  });
});

describe('GET /users?extern_uid=&provider=', () => {
  it('administrators find the user holding a uid (without regard to case); every listed user shows its identities', async () => {
    const { token } = await createAdmin();
    const { user } = await createUser();
    const uid = unique('Find');
    await api.put(`/users/${user.id}`, { token, body: { provider: 'github', extern_uid: uid } });
    const res = await api.get('/users', { token, query: { extern_uid: uid.toLowerCase(), provider: 'github' } });
    expect(res.status).toBe(200);
    expect(res.body.map((u: { id: number }) => u.id)).toEqual([user.id]);
    expect(res.body[0].identities).toEqual([{ provider: 'github', extern_uid: uid }]);
    expect((await api.get('/users', { token, query: { extern_uid: uid, provider: 'gitlab' } })).body).toEqual([]);
  });

  it('one without the other is 400; non-administrators get 403, anonymous callers 401', async () => {
    const { token } = await createAdmin();
    for (const query of [{ extern_uid: '1' }, { provider: 'github' }] as Record<string, string>[]) {
      const res = await api.get('/users', { token, query });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'extern_uid, provider provide all or none of parameters' });
    }
    const query = { extern_uid: '1', provider: 'github' };
    expect((await api.get('/users', { token: (await createUser()).token, query })).status).toBe(403);
    expect((await api.get('/users', { query: { ...query, username: 'x' } })).status).toBe(401);
  });
});

describeAuthorization('DELETE /users/:id/identities/:provider', {
  fixture: async () => {
    const admin = await createAdmin();
    const { user } = await createUser();
    await api.put(`/users/${user.id}`, { token: admin.token, body: { provider: 'ldapmain', extern_uid: unique('dn') } });
    return { allowed: admin.token, nonMember: (await createUser()).token, target: user };
  },
  call: (fx, token) => api.delete(`/users/${fx.target.id}/identities/ldapmain`, { token }),
  success: 204,
  nonMember: { status: 403, body: { message: '403 Forbidden' } },
});

describe('DELETE /users/:id/identities/:provider', () => {
  it('removes that identity only (204); then 404 Identity Not Found; an unknown user is 404 User Not Found', async () => {
    const { token } = await createAdmin();
    const { user } = await createUser();
    await api.put(`/users/${user.id}`, { token, body: { provider: 'ldapmain', extern_uid: unique('dn') } });
    await api.put(`/users/${user.id}`, { token, body: { provider: 'github', extern_uid: 'gh' } });
    const res = await api.delete(`/users/${user.id}/identities/ldapmain`, { token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api.get(`/users/${user.id}`, { token })).body.identities).toEqual([{ provider: 'github', extern_uid: 'gh' }]);
    const again = await api.delete(`/users/${user.id}/identities/ldapmain`, { token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 Identity Not Found' });
    const nobody = await api.delete('/users/2147483647/identities/github', { token });
    expect(nobody.body).toEqual({ message: '404 User Not Found' });
  });

  it("If-Unmodified-Since before the identity's last change is 412 (destroy_conditionally!)", async () => {
    const { token } = await createAdmin();
    const { user } = await createUser();
    await api.put(`/users/${user.id}`, { token, body: { provider: 'github', extern_uid: unique('c') } });
    const res = await api.delete(`/users/${user.id}/identities/github`, { token, headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } });
    expect(res.status).toBe(412);
    expect((await api.get(`/users/${user.id}`, { token })).body.identities).toHaveLength(1);
  });

  it('a released uid can be given to someone else', async () => {
    const { token } = await createAdmin();
    const a = await createUser();
    const b = await createUser();
    const uid = unique('move');
    await api.put(`/users/${a.user.id}`, { token, body: { provider: 'github', extern_uid: uid } });
    expect((await api.put(`/users/${b.user.id}`, { token, body: { provider: 'github', extern_uid: uid } })).status).toBe(400);
    await api.delete(`/users/${a.user.id}/identities/github`, { token });
    expect((await api.put(`/users/${b.user.id}`, { token, body: { provider: 'github', extern_uid: uid } })).body.identities).toEqual([
      { provider: 'github', extern_uid: uid },
    ]);
  });
});
