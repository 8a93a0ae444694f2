// GET /users/:id: Entities::User for everyone (anonymous too), UserDetailsWithAdmin for administrators.
import { describe, expect, it } from 'vitest';
import { members } from '../../../db/schema/index.ts';
import { api, testDb, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { createAdmin, createUser } from '../../factories/users.ts';

describe('GET /users/:id', () => {
  it('returns Entities::User by id, to anonymous callers too', async () => {
    const { user } = await createUser();
    const res = await api.get(`/users/${user.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: user.id,
      name: user.name,
      username: user.username,
      state: 'active',
      avatar_url: null,
      web_url: `${TEST_PUBLIC_URL}/${user.username}`,
      created_at: user.createdAt.toISOString(),
      bio: '',
      bio_html: '',
      location: '',
      public_email: '',
      skype: '',
      linkedin: '',
      twitter: '',
      website_url: '',
      organization: '',
      job_title: '',
      bot: false,
      work_information: null,
    });
  });

  it(':id is a number (GitLab: `requires :id, type: Integer`, route requirement /[0-9]*/): a username matches no route', async () => {
    const { user, token } = await createUser();
    for (const ref of [user.username, user.username.toUpperCase(), `${user.id}abc`, '-5', '+5']) {
      const res = await api.get(`/users/${encodeURIComponent(ref)}`, { token });
      expect(res.status, ref).toBe(404);
      expect(res.body).toEqual({ error: '404 Not Found' });
    }
    // Leading zeros are still the number.
    expect((await api.get(`/users/00${user.id}`, { token })).body.id).toBe(user.id);
  });

  it('a private profile hides created_at from others, not from its owner or administrators', async () => {
    const { user, token: own } = await createUser({ privateProfile: true });
    const { token: other } = await createUser();
    const { token: admin } = await createAdmin();
    for (const token of [undefined, other]) {
      const res = await api.get(`/users/${user.id}`, { token });
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty('created_at');
      expect(res.body.username).toBe(user.username);
    }
    expect((await api.get(`/users/${user.id}`, { token: own })).body.created_at).toBe(user.createdAt.toISOString());
    expect((await api.get(`/users/${user.id}`, { token: admin })).body.created_at).toBe(user.createdAt.toISOString());
  });

  it('administrators get UserDetailsWithAdmin with the highest role', async () => {
    const { user } = await createUser();
    const { token } = await createAdmin();
    const res = await api.get(`/users/${user.id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, email: user.email, is_admin: false, highest_role: 0, current_sign_in_ip: null, last_sign_in_ip: null });
    await testDb().db.insert(members).values({ sourceType: 'Namespace', sourceId: 1, userId: user.id, accessLevel: 30 });
    expect((await api.get(`/users/${user.id}`, { token })).body.highest_role).toBe(30);
  });

  it('highest_role ignores expired memberships', async () => {
    const { user } = await createUser();
    const { token } = await createAdmin();
    await testDb()
      .db.insert(members)
      .values([
        { sourceType: 'Namespace', sourceId: 1, userId: user.id, accessLevel: 20 },
        { sourceType: 'Project', sourceId: 1, userId: user.id, accessLevel: 40, expiresAt: '2000-01-01' },
      ]);
    expect((await api.get(`/users/${user.id}`, { token })).body.highest_role).toBe(20);
  });

  it('shows blocked users with their state', async () => {
    const { user } = await createUser({ state: 'blocked' });
    const res = await api.get(`/users/${user.id}`);
    expect(res.status).toBe(200);
    expect(res.body.state).toBe('blocked');
  });

  it('404 User Not Found for unknown ids and out-of-range ids', async () => {
    for (const ref of ['0', '2147483647', '2147483648', '99999999999', '9'.repeat(40)]) {
      const res = await api.get(`/users/${ref}`);
      expect(res.status, ref).toBe(404);
      expect(res.body).toEqual({ message: '404 User Not Found' });
    }
  });
});
