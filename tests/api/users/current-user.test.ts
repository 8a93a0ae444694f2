import { describe, expect, it } from 'vitest';
import { api, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { createToken, createUser } from '../../factories/users.ts';

describe('GET /user', () => {
  it('returns the caller as UserPublic', async () => {
    const { user, token } = await createUser();
    const res = await api.get('/user', { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: user.id,
      username: user.username,
      name: user.name,
      state: 'active',
      email: user.email,
      web_url: `${TEST_PUBLIC_URL}/${user.username}`,
      avatar_url: null,
      can_create_group: true,
      can_create_project: true,
      two_factor_enabled: false,
      external: false,
      private_profile: false,
      identities: [],
    });
    expect(res.body).not.toHaveProperty('is_admin');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('includes is_admin for administrators', async () => {
    const { token } = await createUser({ admin: true });
    const res = await api.get('/user', { token });
    expect(res.status).toBe(200);
    expect(res.body.is_admin).toBe(true);
  });

  it('401 without a token', async () => {
    const res = await api.get('/user');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
  });

  it('401 with a token that matches nothing', async () => {
    const res = await api.get('/user', { token: 'glpat-nope' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
  });

  it('accepts every token transport GitLab accepts', async () => {
    const { user, token } = await createUser();
    for (const res of [
      await api.get('/user', { headers: { authorization: `Bearer ${token}` } }),
      await api.get('/user', { query: { private_token: token } }),
      await api.get('/user', { query: { access_token: token } }),
    ]) {
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(user.id);
    }
  });

  it('401 invalid_token for a revoked or expired token', async () => {
    const { user } = await createUser();
    const revoked = await createToken(user, ['api'], { revoked: true });
    const expired = await createToken(user, ['api'], { expiresAt: '2020-01-01' });
    const r1 = await api.get('/user', { token: revoked });
    expect(r1.status).toBe(401);
    expect(r1.body).toEqual({ error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' });
    const r2 = await api.get('/user', { token: expired });
    expect(r2.status).toBe(401);
    expect(r2.body).toEqual({ error: 'invalid_token', error_description: 'Token is expired. You can either do re-authorization or token refresh.' });
  });

  it('403 for a blocked user', async () => {
    const { token } = await createUser({ state: 'blocked' });
    const res = await api.get('/user', { token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: '403 Forbidden - Your account has been blocked.' });
  });

  // The error names every scope registered for the endpoint, API::Users' own first (GitLab's APIGuard).
  it('accepts read_user and read_api scopes, refuses others with insufficient_scope', async () => {
    const { user } = await createUser();
    expect((await api.get('/user', { token: await createToken(user, ['read_user']) })).status).toBe(200);
    expect((await api.get('/user', { token: await createToken(user, ['read_api']) })).status).toBe(200);
    const res = await api.get('/user', { token: await createToken(user, ['read_repository']) });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope: 'read_user api read_api',
    });
  });

  it('sends the request id, nosniff and Server-Timing on every response', async () => {
    const { token } = await createUser();
    // The first use of a token also records last_used_at (a second, background statement); later uses within
    // ten minutes cost the one lookup.
    expect((await api.get('/user', { token })).headers.get('server-timing')).toMatch(/desc="2 queries, 2 round trips"$/);
    const res = await api.get('/user', { token, headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('server-timing')).toMatch(/^db;dur=\d+(\.\d)?;desc="1 query, 1 round trip"$/);
  });
});
