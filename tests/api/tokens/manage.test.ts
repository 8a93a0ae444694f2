// GET /personal_access_tokens[/:id|/self] and DELETE /personal_access_tokens/:id.
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createAdmin, createToken, createUser } from '../../factories/users.ts';

/** A user with three tokens (the factory's `api` token first); returns their ids through the API. */
async function userWithTokens() {
  const { user, token } = await createUser();
  await createToken(user, ['read_user']);
  await createToken(user, ['read_api'], { revoked: true });
  const list = await api.get('/personal_access_tokens', { token });
  return { user, token, ids: (list.body as Array<{ id: number }>).map((t) => t.id) };
}

describeAuthorization('GET /personal_access_tokens', {
  fixture: async () => {
    const { user: other } = await createUser();
    return { allowed: (await createUser()).token, otherUser: (await createUser()).token, other };
  },
  call: (fx, token) => api.get('/personal_access_tokens', { token, query: token === fx.otherUser ? { user_id: fx.other.id } : {} }),
  success: 200,
  otherUser: { status: 401, body: { message: '401 Unauthorized' } },
});

describeAuthorization('DELETE /personal_access_tokens/:id', {
  fixture: async () => {
    const owner = await userWithTokens();
    return { allowed: owner.token, otherUser: (await createUser()).token, id: owner.ids[1]! };
  },
  call: (fx, token) => api.delete(`/personal_access_tokens/${fx.id}`, { token }),
  success: 204,
  otherUser: { status: 400, body: { message: '400 Bad request' } },
});

describeAuthorization('GET /personal_access_tokens/:id', {
  fixture: async () => {
    const owner = await userWithTokens();
    return { allowed: owner.token, otherUser: (await createUser()).token, id: owner.ids[0]! };
  },
  call: (fx, token) => api.get(`/personal_access_tokens/${fx.id}`, { token }),
  success: 200,
  otherUser: { status: 401, body: { message: '401 Unauthorized' } },
});

describe('GET /personal_access_tokens', () => {
  it("lists the caller's own tokens, oldest first, with pagination headers", async () => {
    const { user, token, ids } = await userWithTokens();
    const res = await api.get('/personal_access_tokens', { token });
    expect(res.status).toBe(200);
    expect(ids).toHaveLength(3);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(res.body.map((t: { user_id: number }) => t.user_id)).toEqual([user.id, user.id, user.id]);
    expect(res.body.map((t: { scopes: string[]; active: boolean; revoked: boolean }) => [t.scopes, t.active, t.revoked])).toEqual([
      [['api'], true, false],
      [['read_user'], true, false],
      [['read_api'], false, true],
    ]);
    expect(res.body[0]).not.toHaveProperty('token');
    expect(res.headers.get('x-total')).toBe('3');
    expect(res.headers.get('x-page')).toBe('1');
    // Asking for one's own user_id is allowed.
    expect((await api.get('/personal_access_tokens', { token, query: { user_id: user.id } })).body).toHaveLength(3);
  });

  it("administrators see every token, or one user's with user_id", async () => {
    const owner = await userWithTokens();
    const { token: admin } = await createAdmin();
    const mine = await api.get('/personal_access_tokens', { token: admin, query: { user_id: owner.user.id } });
    expect(mine.body.map((t: { id: number }) => t.id)).toEqual(owner.ids);
    const all = await api.get('/personal_access_tokens', { token: admin, query: { per_page: 100 } });
    expect(Number(all.headers.get('x-total'))).toBeGreaterThanOrEqual(4);
    expect(new Set(all.body.map((t: { user_id: number }) => t.user_id)).size).toBeGreaterThan(1);
  });

  it('a non-admin naming someone else (or nobody) is 401 before anything else', async () => {
    const { token } = await createUser();
    const { user: other } = await createUser();
    for (const user_id of [String(other.id), '0', 'abc', '99999999999']) {
      const res = await api.get('/personal_access_tokens', { token, query: { user_id } });
      expect(res.status, user_id).toBe(401);
    }
  });

  it("an administrator's user_id outside the id range is a parameter error, not a database error", async () => {
    const { token: admin } = await createAdmin();
    for (const user_id of ['99999999999', '0', '-5']) {
      const res = await api.get('/personal_access_tokens', { token: admin, query: { user_id } });
      expect(res.status, user_id).toBe(400);
      expect(res.body).toEqual({ error: 'user_id does not have a valid value' });
    }
  });
});

describe('GET /personal_access_tokens/:id and /self', () => {
  it('the owner and administrators see a token; others 401; administrators 404 for a missing one', async () => {
    const { ids, token } = await userWithTokens();
    expect((await api.get(`/personal_access_tokens/${ids[1]}`, { token })).body).toMatchObject({ id: ids[1], scopes: ['read_user'] });
    const { token: admin } = await createAdmin();
    expect((await api.get(`/personal_access_tokens/${ids[1]}`, { token: admin })).status).toBe(200);
    const { token: other } = await createUser();
    const hidden = await api.get(`/personal_access_tokens/${ids[1]}`, { token: other });
    expect(hidden.status).toBe(401);
    expect(hidden.body).toEqual({ message: '401 Unauthorized' });
    expect((await api.get('/personal_access_tokens/2147483647', { token: other })).status).toBe(401);
    const missing = await api.get('/personal_access_tokens/2147483647', { token: admin });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Not Found' });
    // Integers that can name no token are missing tokens too, never a database error.
    for (const ref of ['99999999999', '0', '-5']) {
      expect(await api.get(`/personal_access_tokens/${ref}`, { token: admin }), ref).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
      expect(await api.get(`/personal_access_tokens/${ref}`, { token: other }), ref).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    }
  });

  it('/self is the token of the request', async () => {
    const { user, token } = await createUser();
    const res = await api.get('/personal_access_tokens/self', { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: user.id, scopes: ['api'], active: true, revoked: false });
    expect((await api.get('/personal_access_tokens/self')).status).toBe(401);
  });
});

describe('DELETE /personal_access_tokens/:id', () => {
  it('revokes at once: 204, then the token is 401 invalid_token (revoked)', async () => {
    const { user } = await createUser();
    const value = await createToken(user, ['api']);
    const self = await api.get('/personal_access_tokens/self', { token: value });
    const res = await api.delete(`/personal_access_tokens/${self.body.id}`, { token: value });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const after = await api.get('/user', { token: value });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' });
    expect(after.headers.get('www-authenticate')).toMatch(/^Bearer realm="The API", error="invalid_token"/);
  });

  it("administrators revoke anyone's token; the listing shows it revoked", async () => {
    const { ids, token } = await userWithTokens();
    const { token: admin } = await createAdmin();
    expect((await api.delete(`/personal_access_tokens/${ids[1]}`, { token: admin })).status).toBe(204);
    const list = await api.get('/personal_access_tokens', { token });
    expect(list.body[1]).toMatchObject({ id: ids[1], revoked: true, active: false });
  });

  it("404 Not found (RecordNotFound) for a missing token; 400 for someone else's", async () => {
    const { ids } = await userWithTokens();
    const { token } = await createUser();
    const missing = await api.delete('/personal_access_tokens/2147483647', { token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Not found' });
    const other = await api.delete(`/personal_access_tokens/${ids[0]}`, { token });
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ message: '400 Bad request' });
    expect((await api.delete('/personal_access_tokens/abc', { token })).body).toEqual({ error: 'id is invalid' });
    for (const ref of ['99999999999', '0']) {
      expect(await api.delete(`/personal_access_tokens/${ref}`, { token }), ref).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    }
  });
});
