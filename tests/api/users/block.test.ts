// POST /users/:id/block and /unblock (administrators): 201 with the state machine's answer as the body.
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createAdmin, createUser } from '../../factories/users.ts';

for (const action of ['block', 'unblock'] as const) {
  describeAuthorization(`POST /users/:id/${action}`, {
    fixture: async () => ({
      allowed: (await createAdmin()).token,
      nonMember: (await createUser()).token,
      target: (await createUser({ state: action === 'unblock' ? 'blocked' : 'active' })).user,
    }),
    call: (fx, token) => api.post(`/users/${fx.target.id}/${action}`, { token }),
    success: 201,
    nonMember: { status: 403, body: { message: '403 Forbidden' } },
  });
}

describe('POST /users/:id/block', () => {
  it('blocks an active user: 201 true; their token stops working (403)', async () => {
    const { user, token: theirs } = await createUser();
    const { token } = await createAdmin();
    const res = await api.post(`/users/${user.id}/block`, { token });
    expect(res.status).toBe(201);
    expect(res.text).toBe('true');
    expect((await api.get(`/users/${user.id}`)).body.state).toBe('blocked');
    const denied = await api.get('/user', { token: theirs });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: '403 Forbidden - Your account has been blocked.' });
  });

  it('an already blocked user: 201 null', async () => {
    const { user } = await createUser({ state: 'blocked' });
    const { token } = await createAdmin();
    const res = await api.post(`/users/${user.id}/block`, { token });
    expect(res.status).toBe(201);
    expect(res.text).toBe('null');
  });

  it('the calling administrator cannot block themselves', async () => {
    const { user, token } = await createAdmin();
    const res = await api.post(`/users/${user.id}/block`, { token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: '403 Forbidden - The API initiating user cannot be blocked by the API' });
  });

  it('non-admins get 403 and nothing changes; unknown users 404', async () => {
    const { token } = await createUser();
    const { user: target } = await createUser();
    expect((await api.post(`/users/${target.id}/block`, { token })).body).toEqual({ message: '403 Forbidden' });
    expect((await api.get(`/users/${target.id}`)).body.state).toBe('active');
    const { token: admin } = await createAdmin();
    for (const ref of ['0', '99999999999']) {
      const res = await api.post(`/users/${ref}/block`, { token: admin });
      expect(res.status, ref).toBe(404);
      expect(res.body).toEqual({ message: '404 User Not Found' });
    }
  });

  it('a username or a negative number matches no route (GitLab: 404 for /users/ASDF/block); nothing changes', async () => {
    const { user } = await createUser();
    const { token: admin } = await createAdmin();
    for (const ref of [user.username, '-5']) {
      const res = await api.post(`/users/${ref}/block`, { token: admin });
      expect(res.status, ref).toBe(404);
      expect(res.body).toEqual({ error: '404 Not Found' });
    }
    expect((await api.get(`/users/${user.id}`)).body.state).toBe('active');
  });
});

describe('POST /users/:id/unblock', () => {
  it('unblocks a blocked user: 201 true; their token works again', async () => {
    const { user, token: theirs } = await createUser({ state: 'blocked' });
    const { token } = await createAdmin();
    const res = await api.post(`/users/${user.id}/unblock`, { token });
    expect(res.status).toBe(201);
    expect(res.text).toBe('true');
    expect((await api.get('/user', { token: theirs })).status).toBe(200);
  });

  it('unblocking an active user: 201 false', async () => {
    const { user } = await createUser();
    const { token } = await createAdmin();
    const res = await api.post(`/users/${user.id}/unblock`, { token });
    expect(res.status).toBe(201);
    expect(res.text).toBe('false');
    expect((await api.get(`/users/${user.id}`)).body.state).toBe('active');
  });

  it('404 for unknown users', async () => {
    const { token } = await createAdmin();
    for (const ref of ['0', '99999999999']) {
      const res = await api.post(`/users/${ref}/unblock`, { token });
      expect(res.status, ref).toBe(404);
      expect(res.body).toEqual({ message: '404 User Not Found' });
    }
    const { user } = await createUser({ state: 'blocked' });
    const byName = await api.post(`/users/${user.username}/unblock`, { token });
    expect(byName.status).toBe(404);
    expect(byName.body).toEqual({ error: '404 Not Found' });
    expect((await api.get(`/users/${user.id}`)).body.state).toBe('blocked');
  });
});
