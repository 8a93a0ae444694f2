// POST /users/:id/personal_access_tokens (administrators, GitLab 13.6): the value is shown once, only its
// SHA-256 digest is stored.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { personalAccessTokens } from '../../../db/schema/index.ts';
import { sha256Hex } from '../../../functions/lib/crypto.ts';
import { api, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createAdmin, createUser } from '../../factories/users.ts';

const inThreeDays = () => new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);

describeAuthorization('POST /users/:id/personal_access_tokens', {
  fixture: async () => ({ allowed: (await createAdmin()).token, nonMember: (await createUser()).token, target: (await createUser()).user }),
  call: (fx, token) => api.post(`/users/${fx.target.id}/personal_access_tokens`, { token, body: { name: 'pat', scopes: ['api'] } }),
  success: 201,
  nonMember: { status: 403, body: { message: '403 Forbidden' } },
});

describe('POST /users/:id/personal_access_tokens', () => {
  it('creates a token: 201 PersonalAccessTokenWithToken; only the digest is stored', async () => {
    const { user } = await createUser();
    const { token: admin } = await createAdmin();
    const expiresAt = inThreeDays();
    const res = await api.post(`/users/${user.id}/personal_access_tokens`, {
      token: admin,
      body: { name: 'new pat', scopes: ['api', 'read_user'], expires_at: expiresAt },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'new pat',
      revoked: false,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      scopes: ['api', 'read_user'],
      user_id: user.id,
      last_used_at: null,
      active: true,
      expires_at: expiresAt,
      token: expect.stringMatching(/^glpat-[\w-]{43}$/),
    });
    const plaintext: string = res.body.token;

    const [row] = await testDb().db.select().from(personalAccessTokens).where(eq(personalAccessTokens.id, res.body.id));
    expect(row!.tokenDigest).toBe(await sha256Hex(plaintext));
    expect(JSON.stringify(row)).not.toContain(plaintext);
    expect(JSON.stringify(row)).not.toContain(plaintext.slice(6));
    // No column of any token row holds the value.
    const [{ n }] = (await testDb()
      .db.select({ n: sql<number>`count(*)::int` })
      .from(personalAccessTokens)
      .where(sql`position(${plaintext.slice(6)} in ${personalAccessTokens}::text) > 0`)) as [{ n: number }];
    expect(Number(n)).toBe(0);

    // The value works at once, for the user it was made for; it is never shown again.
    expect((await api.get('/user', { token: plaintext })).body.id).toBe(user.id);
    const shown = await api.get(`/personal_access_tokens/${res.body.id}`, { token: admin });
    expect(shown.body).not.toHaveProperty('token');
  });

  it('accepts scopes as a comma-separated string and form arrays; expires_at is optional', async () => {
    const { user } = await createUser();
    const { token: admin } = await createAdmin();
    const csv = await api.post(`/users/${user.id}/personal_access_tokens`, { token: admin, body: { name: 'csv', scopes: 'read_api,read_repository' } });
    expect(csv.status).toBe(201);
    expect(csv.body).toMatchObject({ scopes: ['read_api', 'read_repository'], expires_at: null, active: true });
    const form = await api.post(`/users/${user.id}/personal_access_tokens`, { token: admin, form: { name: 'form', 'scopes[]': 'sudo' } });
    expect(form.status).toBe(201);
    expect(form.body.scopes).toEqual(['sudo']);
  });

  it('the created token carries exactly its scopes', async () => {
    const { user } = await createUser();
    const { token: admin } = await createAdmin();
    const res = await api.post(`/users/${user.id}/personal_access_tokens`, { token: admin, body: { name: 'ro', scopes: ['read_user'] } });
    expect((await api.get('/user', { token: res.body.token })).status).toBe(200);
    const denied = await api.get('/projects', { token: res.body.token });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('insufficient_scope');
  });

  it('400 parameter errors: missing name and scopes, unknown scope, bad expires_at', async () => {
    const { user } = await createUser();
    const { token: admin } = await createAdmin();
    const path = `/users/${user.id}/personal_access_tokens`;
    const missing = await api.post(path, { token: admin });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'name is missing, scopes is missing, scopes does not have a valid value' });
    expect((await api.post(path, { token: admin, body: { scopes: ['api'] } })).body).toEqual({ error: 'name is missing' });
    const unknown = await api.post(path, { token: admin, body: { name: 'x', scopes: ['api', 'openid'] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: 'scopes does not have a valid value' });
    // One date rule (lib/validate.ts dateParam): real calendar days of years 1..9999, nothing that reaches Postgres as a 500.
    for (const expires_at of ['2021-02-30', '2099-02-31', '0000-01-01', '10000-01-01', '-0001-01-01', 'tomorrow', '12/31/2030']) {
      const bad = await api.post(path, { token: admin, body: { name: 'x', scopes: ['api'], expires_at } });
      expect(bad.status, expires_at).toBe(400);
      expect(bad.body).toEqual({ error: 'expires_at is invalid' });
    }
  });

  it('422 model errors for a blank name or an empty scope list', async () => {
    const { user } = await createUser();
    const { token: admin } = await createAdmin();
    const res = await api.post(`/users/${user.id}/personal_access_tokens`, { token: admin, body: { name: ' ', scopes: [] } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: "Name can't be blank and Scopes can't be blank" });
  });

  it('admin check comes before parameter checks; unknown users are 404', async () => {
    const { user, token } = await createUser();
    expect((await api.post(`/users/${user.id}/personal_access_tokens`)).body).toEqual({ message: '401 Unauthorized' });
    expect((await api.post(`/users/${user.id}/personal_access_tokens`, { token })).body).toEqual({ message: '403 Forbidden' });
    const { token: admin } = await createAdmin();
    const res = await api.post('/users/0/personal_access_tokens', { token: admin, body: { name: 'x', scopes: ['api'] } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 User Not Found' });
  });

  it('user_id is an Integer: a username is 400, numbers naming nobody (out of range, negative) are 404', async () => {
    const { user, token } = await createUser();
    const { token: admin } = await createAdmin();
    const body = { name: 'x', scopes: ['api'] };
    const byName = await api.post(`/users/${user.username}/personal_access_tokens`, { token: admin, body });
    expect(byName.status).toBe(400);
    expect(byName.body).toEqual({ error: 'user_id is invalid' });
    // The administrator check still comes first.
    expect((await api.post(`/users/${user.username}/personal_access_tokens`, { token, body })).body).toEqual({ message: '403 Forbidden' });
    for (const ref of ['99999999999', '2147483648', '-5']) {
      const res = await api.post(`/users/${ref}/personal_access_tokens`, { token: admin, body });
      expect(res.status, ref).toBe(404);
      expect(res.body).toEqual({ message: '404 User Not Found' });
    }
    const [{ n }] = (await testDb()
      .db.select({ n: sql<number>`count(*)::int` })
      .from(personalAccessTokens)
      .where(eq(personalAccessTokens.userId, user.id))) as [{ n: number }];
    expect(Number(n)).toBe(1);
  });
});
