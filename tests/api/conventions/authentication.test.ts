// Token transports, invalid tokens on public endpoints, blocked users and scopes (lib/auth.ts).
import { describe, expect, it } from 'vitest';
import { api, type RequestOptions } from '../../helpers/app.ts';
import { createToken, createUser } from '../../factories/users.ts';

const UNAUTHORIZED = { message: '401 Unauthorized' };
const INSUFFICIENT = 'The request requires higher privileges than provided by the access token.';

describe('token transports', () => {
  it('PRIVATE-TOKEN header, private_token, Authorization: Bearer, access_token and bearer_token all authenticate', async () => {
    const { user, token } = await createUser();
    const requests = [
      api.get('/user', { headers: { 'PRIVATE-TOKEN': token } }),
      api.get('/user', { query: { private_token: token } }),
      api.get('/user', { headers: { Authorization: `Bearer ${token}` } }),
      api.get('/user', { headers: { authorization: `bearer ${token}` } }),
      api.get('/user', { query: { access_token: token } }),
      api.get('/user', { query: { bearer_token: token } }),
    ];
    for (const res of await Promise.all(requests)) {
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(user.id);
    }
  });

  it('a token that matches nothing is 401 on every transport, public endpoints included', async () => {
    const bad = 'glpat-not-a-token-at-all';
    const transports: RequestOptions[] = [
      { headers: { 'PRIVATE-TOKEN': bad } },
      { query: { private_token: bad } },
      { headers: { Authorization: `Bearer ${bad}` } },
      { query: { access_token: bad } },
    ];
    for (const options of transports) {
      const res = await api.get('/users/1', options);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    }
    // Without any credential the same public endpoint answers.
    expect((await api.get('/users/1')).status).not.toBe(401);
  });

  it('expired and revoked tokens are 401 invalid_token even on public endpoints', async () => {
    const { user } = await createUser();
    const expired = await createToken(user, ['api'], { expiresAt: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10) });
    const revoked = await createToken(user, ['api'], { revoked: true });
    const r1 = await api.get(`/users/${user.id}`, { token: expired });
    expect(r1.status).toBe(401);
    expect(r1.body).toEqual({ error: 'invalid_token', error_description: 'Token is expired. You can either do re-authorization or token refresh.' });
    const r2 = await api.get(`/users/${user.id}`, { headers: { Authorization: `Bearer ${revoked}` } });
    expect(r2.status).toBe(401);
    expect(r2.body).toEqual({ error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' });
    // A token expiring later today-or-after still works.
    const valid = await createToken(user, ['api'], { expiresAt: new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10) });
    expect((await api.get('/user', { token: valid })).status).toBe(200);
  });

  it('blocked users are 403 with the reason, on public endpoints too', async () => {
    const { token } = await createUser({ state: 'blocked' });
    for (const res of [await api.get('/user', { token }), await api.get('/users/1', { token })]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden - Your account has been blocked.' });
    }
  });
});

describe('scopes', () => {
  it('read_api reads but cannot write (403 insufficient_scope naming the registered scopes)', async () => {
    const { user } = await createUser();
    const token = await createToken(user, ['read_api']);
    expect((await api.get('/user', { token })).status).toBe(200);
    expect((await api.get(`/users/${user.id}`, { token })).status).toBe(200);
    const write = await api.post('/projects', { token, body: { name: 'nope' } });
    expect(write.status).toBe(403);
    expect(write.body).toEqual({ error: 'insufficient_scope', error_description: INSUFFICIENT, scope: 'api read_api' });
    expect(write.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    const userWrite = await api.post(`/users/${user.id}/block`, { token });
    expect(userWrite.status).toBe(403);
    expect(userWrite.body.scope).toBe('read_user api read_api');
  });

  it('read_user reaches /user and /users reads only', async () => {
    const { user } = await createUser();
    const token = await createToken(user, ['read_user']);
    for (const path of ['/user', '/users', `/users/${user.id}`, '/version']) {
      expect((await api.get(path, { token })).status, path).toBe(200);
    }
    for (const [method, path] of [
      ['get', '/projects'],
      ['get', `/users/${user.id}/projects`],
      ['get', '/personal_access_tokens'],
      ['post', `/users/${user.id}/unblock`],
    ] as const) {
      const res = await api[method](path, { token });
      expect(res.status, path).toBe(403);
      expect(res.body.error).toBe('insufficient_scope');
    }
  });

  it('api reaches everything; repository and registry scopes reach nothing of the API', async () => {
    const { user, token } = await createUser();
    expect((await api.get('/personal_access_tokens', { token })).status).toBe(200);
    for (const scope of ['read_repository', 'write_repository', 'read_registry', 'write_registry', 'sudo']) {
      const res = await api.get('/personal_access_tokens', { token: await createToken(user, [scope]) });
      expect(res.status, scope).toBe(403);
      expect(res.body).toEqual({ error: 'insufficient_scope', error_description: INSUFFICIENT, scope: 'api read_api' });
    }
  });
});

describe('GET /version', () => {
  it('needs a signed-in caller and answers the GitLab version this API follows', async () => {
    const { token } = await createUser();
    const res = await api.get('/version', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: '13.6.0', revision: expect.any(String) });
    expect(res.body.version).toMatch(/^13\.6\./);
    expect((await api.get('/version')).body).toEqual(UNAUTHORIZED);
  });
});
