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

  it('finds a user by username, without regard to case', async () => {
    const { user, token } = await createUser();
    const res = await api.get(`/users/${user.username.toUpperCase()}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(user.id);
    expect(res.body).not.toHaveProperty('is_admin');
    expect(res.body).not.toHaveProperty('email');
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

  it('shows blocked users with their state', async () => {
    const { user } = await createUser({ state: 'blocked' });
    const res = await api.get(`/users/${user.id}`);
    expect(res.status).toBe(200);
    expect(res.body.state).toBe('blocked');
  });

  it('404 User Not Found for unknown ids, usernames and out-of-range ids', async () => {
    for (const ref of ['0', '2147483647', '99999999999', 'no-such-user-anywhere']) {
      const res = await api.get(`/users/${ref}`);
      expect(res.status, ref).toBe(404);
      expect(res.body).toEqual({ message: '404 User Not Found' });
    }
  });
});
