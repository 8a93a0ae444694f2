// A browser session authenticates the API as GitLab's does: reads with the cookie alone, writes only with the
// session's CSRF token in X-CSRF-Token (otherwise the request is anonymous).
import { describe, expect, it } from 'vitest';
import { insertSession } from '../../../db/queries/lib/sessions.ts';
import { randomToken, sha256Hex } from '../../../functions/lib/crypto.ts';
import { csrfTokenFor, SESSION_COOKIE } from '../../../functions/lib/session.ts';
import { api, testDb } from '../../helpers/app.ts';
import { createUser, unique } from '../../factories/users.ts';

async function sessionFor(userId: number, expiresInMs = 3600_000) {
  const value = randomToken();
  await insertSession(testDb().db, { digest: await sha256Hex(value), userId, expiresAt: new Date(Date.now() + expiresInMs) });
  return value;
}

describe('session cookie on /api/v4', () => {
  it('reads with the cookie; writes need X-CSRF-Token', async () => {
    const { user } = await createUser();
    const session = await sessionFor(user.id);
    const cookie = `${SESSION_COOKIE}=${session}`;
    const me = await api.get('/user', { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);

    const noCsrf = await api.post('/projects', { headers: { cookie }, body: { name: unique('s') } });
    expect(noCsrf).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    const badCsrf = await api.post('/projects', { headers: { cookie, 'x-csrf-token': 'nope' }, body: { name: unique('s') } });
    expect(badCsrf.status).toBe(401);
    const ok = await api.post('/projects', { headers: { cookie, 'x-csrf-token': await csrfTokenFor(session) }, body: { name: unique('s') } });
    expect(ok.status).toBe(201);
    expect(ok.body.owner.id).toBe(user.id);
  });

  it('an expired or unknown session is anonymous; sudo is refused for sessions', async () => {
    const { user } = await createUser();
    const expired = await sessionFor(user.id, -1000);
    expect((await api.get('/user', { headers: { cookie: `${SESSION_COOKIE}=${expired}` } })).status).toBe(401);
    expect((await api.get('/user', { headers: { cookie: `${SESSION_COOKIE}=forged` } })).status).toBe(401);
    const admin = await createUser({ admin: true });
    const session = await sessionFor(admin.user.id);
    const sudo = await api.get('/user', { headers: { cookie: `${SESSION_COOKIE}=${session}`, sudo: user.username } });
    expect(sudo.status).toBe(403);
    expect(sudo.body).toEqual({ message: '403 Forbidden - Must be authenticated using an OAuth or Personal Access Token to use sudo' });
  });
});
