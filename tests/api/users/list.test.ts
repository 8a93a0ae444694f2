// GET /users: UsersFinder as GitLab 13.6 runs it (anonymous callers need `username`, non-administrators never see
// external users and cannot reorder, administrators get UserWithAdmin and may search by email).
import { describe, expect, it } from 'vitest';
import { api, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';

const ids = (body: Array<{ id: number }>) => body.map((u) => u.id);

describe('GET /users', () => {
  it('anonymous callers must name a username (403 otherwise)', async () => {
    const res = await api.get('/users');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: '403 Forbidden - Not authorized to access /api/v4/users' });
  });

  it('anonymous lookup by username, case-insensitive, as UserBasic', async () => {
    const { user } = await createUser();
    const res = await api.get('/users', { query: { username: user.username.toUpperCase() } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: user.id, name: user.name, username: user.username, state: 'active', avatar_url: null, web_url: `${TEST_PUBLIC_URL}/${user.username}` },
    ]);
    expect(res.headers.get('x-total')).toBe('1');
    const none = await api.get('/users', { query: { username: unique('nobody') } });
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
  });

  it('signed-in users get UserBasic, without is_admin or email', async () => {
    const { user, token } = await createUser();
    const res = await api.get('/users', { token, query: { username: user.username } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body[0]).sort()).toEqual(['avatar_url', 'id', 'name', 'state', 'username', 'web_url']);
  });

  it('administrators get UserWithAdmin', async () => {
    const { token } = await createAdmin();
    const { user } = await createUser();
    const res = await api.get('/users', { token, query: { username: user.username } });
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({ id: user.id, email: user.email, is_admin: false, external: false, identities: [] });
  });

  it('search matches name and username; 3+ character words partially, shorter queries exactly', async () => {
    const tag = unique('srch');
    const { user: a, token } = await createUser({ username: `${tag}a` });
    const { user: b } = await createUser({ username: `${tag}b` });
    const res = await api.get('/users', { token, query: { search: tag.toUpperCase() } });
    expect(ids(res.body).sort()).toEqual([a.id, b.id].sort());
    // "@user" is the same search as "user".
    expect(ids((await api.get('/users', { token, query: { search: `@${a.username}` } })).body)).toEqual([a.id]);
    // Under 3 characters only an exact (case-insensitive) name or username matches.
    const short = (await api.get('/users', { token, query: { search: tag.slice(0, 2) } })).body;
    expect(ids(short)).not.toContain(a.id);
  });

  it('search by the primary email is for administrators; others match public emails only', async () => {
    const { user } = await createUser();
    const { token: admin } = await createAdmin();
    const { token: other } = await createUser();
    expect(ids((await api.get('/users', { token: admin, query: { search: user.email.toUpperCase() } })).body)).toEqual([user.id]);
    expect((await api.get('/users', { token: other, query: { search: user.email } })).body).toEqual([]);
  });

  it('active and blocked filters', async () => {
    const tag = unique('state');
    const { user: active, token } = await createUser({ username: `${tag}a` });
    const { user: blocked } = await createUser({ username: `${tag}b`, state: 'blocked' });
    expect(ids((await api.get('/users', { token, query: { search: tag, blocked: true } })).body)).toEqual([blocked.id]);
    expect(ids((await api.get('/users', { token, query: { search: tag, active: 'true' } })).body)).toEqual([active.id]);
    expect(ids((await api.get('/users', { token, query: { search: tag, active: false } })).body).sort()).toEqual([active.id, blocked.id].sort());
  });

  it('non-administrators never see external users; external=true is for administrators', async () => {
    const tag = unique('ext');
    const { user: internal, token } = await createUser({ username: `${tag}a` });
    const { user: external } = await createUser({ username: `${tag}b`, external: true });
    expect(ids((await api.get('/users', { token, query: { search: tag } })).body)).toEqual([internal.id]);
    const denied = await api.get('/users', { token, query: { external: true } });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: '403 Forbidden' });
    expect((await api.get('/users', { query: { username: external.username, external: true } })).status).toBe(401);
    const { token: admin } = await createAdmin();
    expect(ids((await api.get('/users', { token: admin, query: { search: tag } })).body).sort()).toEqual([internal.id, external.id].sort());
    expect(ids((await api.get('/users', { token: admin, query: { search: tag, external: true } })).body)).toEqual([external.id]);
  });

  it('order_by and sort apply for administrators; others get id descending', async () => {
    const tag = unique('ord');
    const { user: first, token } = await createUser({ username: `${tag}z` });
    const { user: second } = await createUser({ username: `${tag}a` });
    const { token: admin } = await createAdmin();
    const byName = await api.get('/users', { token: admin, query: { search: tag, order_by: 'username', sort: 'asc' } });
    expect(ids(byName.body)).toEqual([second.id, first.id]);
    expect(ids((await api.get('/users', { token: admin, query: { search: tag } })).body)).toEqual([second.id, first.id]);
    expect(ids((await api.get('/users', { token: admin, query: { search: tag, order_by: 'id', sort: 'asc' } })).body)).toEqual([first.id, second.id]);
    // A non-administrator's order_by is dropped (searching orders by relevance, then name).
    const user = await api.get('/users', { token, query: { search: tag, order_by: 'id', sort: 'asc' } });
    expect(ids(user.body)).toEqual([second.id, first.id]);
  });

  it('created_before/created_after filter for administrators', async () => {
    const tag = unique('crt');
    const { user } = await createUser({ username: `${tag}a` });
    const { token: admin } = await createAdmin();
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(ids((await api.get('/users', { token: admin, query: { search: tag, created_before: future } })).body)).toEqual([user.id]);
    expect((await api.get('/users', { token: admin, query: { search: tag, created_after: future } })).body).toEqual([]);
    const bad = await api.get('/users', { token: admin, query: { created_after: 'yesterday-ish' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'created_after is invalid' });
  });

  it('created_after/created_before outside years 1..9999 are 400, never a database error', async () => {
    const { token: admin } = await createAdmin();
    for (const value of ['-100000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '+010000-01-01T00:00:00Z', '0000-12-31T23:59:59Z', '-000001-01-01T00:00:00Z']) {
      for (const key of ['created_after', 'created_before']) {
        const res = await api.get('/users', { token: admin, query: { [key]: value } });
        expect(res.status, `${key}=${value}`).toBe(400);
        expect(res.body).toEqual({ error: `${key} is invalid` });
      }
    }
    // The edges of the range are dates like any other.
    for (const value of ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z']) {
      expect((await api.get('/users', { token: admin, query: { created_after: value } })).status, value).toBe(200);
    }
  });

  it('400 for values outside the lists', async () => {
    const { token } = await createAdmin();
    const res = await api.get('/users', { token, query: { order_by: 'magic', sort: 'up' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'order_by does not have a valid value, sort does not have a valid value' });
    expect((await api.get('/users', { token, query: { active: 'maybe' } })).body).toEqual({ error: 'active is invalid' });
  });
});
