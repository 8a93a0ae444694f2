// Impersonation tokens (GitLab 13.6's /users/:user_id/impersonation_tokens): administrators make tokens that
// authenticate as the user; listed by state; revoked at once.
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createAdmin, createUser } from '../../factories/users.ts';

describe('impersonation tokens', () => {
  it('create (201, the token once, no-store), use as the user, list by state, read, revoke (then 401)', async () => {
    const admin = await createAdmin();
    const someone = await createUser();
    const base = `/users/${someone.user.id}/impersonation_tokens`;
    const created = await api.post(base, { token: admin.token, body: { name: 'support', scopes: ['api'] } });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'support',
      revoked: false,
      created_at: expect.any(String),
      scopes: ['api'],
      user_id: someone.user.id,
      last_used_at: null,
      active: true,
      expires_at: null,
      token: expect.stringMatching(/^glpat-/),
      impersonation: true,
    });
    const me = await api.get('/user', { token: created.body.token });
    expect([me.status, me.body.id]).toEqual([200, someone.user.id]);

    const expired = await api.post(base, { token: admin.token, body: { name: 'old', scopes: 'read_api', expires_at: '2020-01-01' } });
    expect(expired.status).toBe(201);
    const names = async (state?: string) =>
      (await api.get(base, { token: admin.token, query: state ? { state } : {} })).body.map((t: { name: string }) => t.name);
    expect(await names()).toEqual(['support', 'old']);
    expect(await names('active')).toEqual(['support']);
    expect(await names('inactive')).toEqual(['old']);

    const one = await api.get(`${base}/${created.body.id}`, { token: admin.token });
    expect(one.body).toMatchObject({ id: created.body.id, impersonation: true });
    expect(one.body.token).toBeUndefined();
    expect((await api.delete(`${base}/${created.body.id}`, { token: admin.token })).status).toBe(204);
    expect((await api.get('/user', { token: created.body.token })).status).toBe(401);
    const other = await createUser();
    const elsewhere = await api.get(`/users/${other.user.id}/impersonation_tokens/${expired.body.id}`, { token: admin.token });
    expect([elsewhere.status, elsewhere.body]).toEqual([404, { message: '404 Impersonation Token Not Found' }]);
  });

  it.each([
    [{ scopes: ['api'] }, 400, { error: 'name is missing' }],
    [{ name: 'x' }, 400, { message: { scopes: ["can't be blank"] } }],
    [{ name: 'x', scopes: ['everything'] }, 400, { message: { scopes: ['can only contain available scopes'] } }],
    [{ name: 'x', scopes: ['api'], state: 'x', expires_at: 'soon' }, 400, { error: 'expires_at is invalid' }],
  ])('refuses %j', async (body, status, expected) => {
    const admin = await createAdmin();
    const someone = await createUser();
    const res = await api.post(`/users/${someone.user.id}/impersonation_tokens`, { token: admin.token, body });
    expect([res.status, res.body]).toEqual([status, expected]);
    expect((await api.get(`/users/${someone.user.id}/impersonation_tokens`, { token: admin.token })).body).toEqual([]);
  });

  describeAuthorization('POST /users/:user_id/impersonation_tokens', {
    fixture: async () => {
      const someone = await createUser();
      return { allowed: (await createAdmin()).token, id: someone.user.id, nonMember: someone.token };
    },
    call: (fx, token) => api.post(`/users/${fx.id}/impersonation_tokens`, { token, body: { name: 'x', scopes: ['api'] } }),
    success: 201,
    nonMember: { status: 403, body: { message: '403 Forbidden' } },
  });
});
