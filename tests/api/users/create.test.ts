// POST /users (administrators): Grape parameter errors first, then 403, then 409 conflicts, then model errors.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../../db/schema/index.ts';
import { verifyPassword } from '../../../functions/lib/crypto.ts';
import { api, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';

const attributes = (extra: Record<string, unknown> = {}) => {
  const username = unique('new');
  return { email: `${username}@example.com`, name: `New ${username}`, username, password: 'secret-password', ...extra };
};
const stored = async (id: number) => (await testDb().db.select().from(users).where(eq(users.id, id)))[0]!;

describeAuthorization('POST /users', {
  fixture: async () => ({ allowed: (await createAdmin()).token, nonMember: (await createUser()).token }),
  call: (_fx, token) => api.post('/users', { token, body: attributes() }),
  success: 201,
  nonMember: { status: 403, body: { message: '403 Forbidden' } },
});

describe('POST /users', () => {
  it('creates a user and answers UserWithAdmin', async () => {
    const { token } = await createAdmin();
    const body = attributes({ bio: 'Hello', projects_limit: 3, can_create_group: false, skip_confirmation: true });
    const res = await api.post('/users', { token, body });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      username: body.username,
      name: body.name,
      email: body.email,
      state: 'active',
      bio: 'Hello',
      projects_limit: 3,
      can_create_group: false,
      can_create_project: true,
      is_admin: false,
      external: false,
      private_profile: false,
    });
    expect(res.body.confirmed_at).not.toBeNull();
    const row = await stored(res.body.id);
    expect(row.passwordHash).not.toContain('secret-password');
    expect(await verifyPassword('secret-password', row.passwordHash)).toBe(true);
    // The personal namespace comes with the user: its path is taken now.
    const again = await api.post('/users', { token, body: { ...attributes(), username: body.username.toUpperCase() } });
    expect(again.status).toBe(409);
  });

  it('without skip_confirmation the account is unconfirmed; the deprecated confirm=false skips it too', async () => {
    const { token } = await createAdmin();
    expect((await api.post('/users', { token, body: attributes() })).body.confirmed_at).toBeNull();
    expect((await api.post('/users', { token, body: attributes({ confirm: false }) })).body.confirmed_at).not.toBeNull();
    expect((await api.post('/users', { token, body: attributes({ confirm: true }) })).body.confirmed_at).toBeNull();
  });

  it('needs a password, reset_password or force_random_password (random password then)', async () => {
    const { token } = await createAdmin();
    const { password: _, ...noPassword } = attributes();
    const res = await api.post('/users', { token, body: noPassword });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'password, reset_password, force_random_password are missing, at least one parameter must be provided' });
    const random = await api.post('/users', { token, body: { ...noPassword, force_random_password: true } });
    expect(random.status).toBe(201);
    expect((await stored(random.body.id)).passwordHash).toMatch(/^pbkdf2-sha256\$/);
    expect((await api.post('/users', { token, body: { ...attributes(), password: undefined, reset_password: true } })).status).toBe(201);
  });

  it('400 parameter errors for missing required attributes', async () => {
    const { token } = await createAdmin();
    const res = await api.post('/users', { token, body: { password: 'secret-password' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'email is missing, name is missing, username is missing' });
  });

  it('model errors: 400 {"message":{field:[...]}} with ActiveRecord wording', async () => {
    const { token } = await createAdmin();
    const res = await api.post('/users', {
      token,
      body: { password: 'pass', email: `${unique('x')}@example.com`, username: 'test!', name: 'test', bio: 'g'.repeat(256), projects_limit: -1 },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: {
        password: ['is too short (minimum is 8 characters)'],
        bio: ['is too long (maximum is 255 characters)'],
        projects_limit: ['must be greater than or equal to 0'],
        username: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."],
      },
    });
  });

  it('a short password alone is a model error', async () => {
    const { token } = await createAdmin();
    const res = await api.post('/users', { token, body: attributes({ password: 'short' }) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { password: ['is too short (minimum is 8 characters)'] } });
  });

  it('invalid email and usernames ending in .git are model errors', async () => {
    const { token } = await createAdmin();
    expect((await api.post('/users', { token, body: attributes({ email: 'invalid email' }) })).body).toEqual({ message: { email: ['is invalid'] } });
    const res = await api.post('/users', { token, body: attributes({ username: `${unique('u')}.git` }) });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.message)).toEqual(['username']);
  });

  it('409 when the email or username is taken (case-insensitive); conflicts win over model errors', async () => {
    const { user } = await createUser();
    const { token } = await createAdmin();
    const email = await api.post('/users', { token, body: attributes({ email: user.email.toUpperCase() }) });
    expect(email.status).toBe(409);
    expect(email.body).toEqual({ message: 'Email has already been taken' });
    const username = await api.post('/users', { token, body: attributes({ username: user.username.toUpperCase(), password: 'short' }) });
    expect(username.status).toBe(409);
    expect(username.body).toEqual({ message: 'Username has already been taken' });
  });

  it('external users can create neither groups nor projects', async () => {
    const { token } = await createAdmin();
    const res = await api.post('/users', { token, body: attributes({ external: true, can_create_group: true }) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ external: true, can_create_group: false, projects_limit: 0, can_create_project: false });
  });

  it('accepts form-encoded parameters', async () => {
    const { token } = await createAdmin();
    const body = attributes();
    const res = await api.post('/users', { token, form: { ...body, admin: 'true', private_profile: '1' } as Record<string, string> });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ username: body.username, is_admin: true, private_profile: true });
  });

  it('anonymous callers get 401 before parameters are checked; non-admins 403 after them', async () => {
    expect((await api.post('/users', { body: {} })).status).toBe(401);
    const { token } = await createUser();
    expect((await api.post('/users', { token, body: {} })).status).toBe(400);
    expect((await api.post('/users', { token, body: attributes({ password: 'short' }) })).body).toEqual({ message: '403 Forbidden' });
  });
});
