// Sudo: an administrator's token with the `sudo` scope acts as another user (param `sudo` or header `Sudo`).
import { describe, expect, it } from 'vitest';
import { api, type RequestOptions } from '../../helpers/app.ts';
import { createAdmin, createToken, createUser } from '../../factories/users.ts';

async function sudoAdmin(scopes = ['api', 'sudo']) {
  const { user } = await createAdmin();
  return { admin: user, token: await createToken(user, scopes) };
}

describe('sudo', () => {
  it('acts as the user named by id or username (case-insensitive), by parameter or header', async () => {
    const { user } = await createUser();
    const { token } = await sudoAdmin();
    const variants: RequestOptions[] = [
      { query: { sudo: user.id } },
      { query: { sudo: user.username.toUpperCase() } },
      { headers: { Sudo: String(user.id) } },
      { headers: { sudo: user.username } },
    ];
    for (const options of variants) {
      const res = await api.get('/user', { token, ...options });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(user.id);
      // The entity is the sudoed user's: no is_admin for a regular user.
      expect(res.body).not.toHaveProperty('is_admin');
    }
  });

  it("the user's own permissions apply (a regular user cannot create users)", async () => {
    const { user } = await createUser();
    const { token } = await sudoAdmin();
    const res = await api.post('/users', {
      token,
      query: { sudo: user.id },
      body: { email: 'x@example.com', name: 'x', username: 'x', password: 'password1' },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: '403 Forbidden' });
  });

  it('the parameter wins over the header', async () => {
    const { user: a } = await createUser();
    const { user: b } = await createUser();
    const { token } = await sudoAdmin();
    expect((await api.get('/user', { token, query: { sudo: a.id }, headers: { Sudo: String(b.id) } })).body.id).toBe(a.id);
  });

  it('a token with only the sudo scope may sudo (endpoint scopes are not checked then)', async () => {
    const { user } = await createUser();
    const { token } = await sudoAdmin(['sudo']);
    const res = await api.get('/users', { token, query: { sudo: user.id, username: user.username } });
    expect(res.status).toBe(200);
    expect(res.body[0].id).toBe(user.id);
  });

  it('non-administrators: 403 Must be admin to use sudo', async () => {
    const { user } = await createUser();
    const { user: caller } = await createUser();
    const token = await createToken(caller, ['api', 'sudo']);
    const res = await api.get('/user', { token, query: { sudo: user.id } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: '403 Forbidden - Must be admin to use sudo' });
  });

  it('an administrator token without the sudo scope: 403 insufficient_scope with scope "sudo"', async () => {
    const { user } = await createUser();
    const { token } = await createAdmin();
    const res = await api.get('/user', { token, headers: { Sudo: user.username } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope: 'sudo',
    });
  });

  it("an unknown user: 404 User with ID or username '<x>' Not Found", async () => {
    const { token } = await sudoAdmin();
    for (const ref of ['no-such-user-here', '0', '99999999999']) {
      const res = await api.get('/user', { token, query: { sudo: ref } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: `404 User with ID or username '${ref}' Not Found` });
    }
  });

  it('anonymous callers: 401', async () => {
    const { user } = await createUser();
    const res = await api.get('/user', { query: { sudo: user.id } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
  });
});
