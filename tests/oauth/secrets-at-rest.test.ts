// After every kind of credential has been issued and used (password sign-in, session, personal token, OAuth client
// secret, code, access and refresh tokens, implicit token), a dump of every table holds none of them in plaintext.
import { describe, expect, it } from 'vitest';
import { issueImplicitToken } from '../../functions/oauth/service.ts';
import { SESSION_COOKIE } from '../../functions/lib/session.ts';
import { api, testDb } from '../helpers/app.ts';
import { allTables, tablesHolding } from '../helpers/db-dump.ts';
import { PASSWORD, signedIn } from '../helpers/browser.ts';
import { createAdmin, unique } from '../factories/users.ts';
import { createApplication, issueCode } from '../factories/oauth.ts';
import { tokenPost } from './client.ts';

describe('secrets at rest, whole database', () => {
  it('no table holds a plaintext password, session id, token, code or client secret', async () => {
    const secrets: string[] = [PASSWORD];
    const { browser, user, token: pat } = await signedIn();
    secrets.push(browser.cookies.get(SESSION_COOKIE)!, pat);

    const admin = await createAdmin();
    const newPassword = `pw-${unique('x')}-long`;
    const created = await api.post('/users', {
      token: admin.token,
      body: { email: `${unique('u')}@example.com`, name: 'U', username: unique('u'), password: newPassword },
    });
    expect(created.status).toBe(201);
    const issuedPat = await api.post(`/users/${user.id}/personal_access_tokens`, { token: admin.token, body: { name: 'ci', scopes: ['api'] } });
    expect(issuedPat.status).toBe(201);
    const registered = await api.post('/applications', {
      token: admin.token,
      body: { name: 'dump', redirect_uri: 'https://client.example.test/cb', scopes: 'api read_user' },
    });
    expect(registered.status).toBe(201);
    secrets.push(newPassword, issuedPat.body.token, registered.body.secret);

    const app = await createApplication();
    const code = await issueCode({ application: app, userId: user.id });
    const first = await tokenPost({
      grant_type: 'authorization_code',
      code,
      redirect_uri: app.redirectUris[0]!,
      client_id: app.uid,
      client_secret: app.secret,
    });
    expect(first.status).toBe(200);
    const second = await tokenPost({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id: app.uid, client_secret: app.secret });
    expect(second.status).toBe(200);
    const implicit = await issueImplicitToken({ db: testDb().db, application: app, userId: user.id, scopes: ['api'] });
    secrets.push(
      app.secret,
      code,
      first.body.access_token,
      first.body.refresh_token,
      second.body.access_token,
      second.body.refresh_token,
      implicit.accessToken,
    );

    for (const secret of secrets) expect(secret, 'a credential was issued').toBeTruthy();
    expect(allTables().length).toBeGreaterThanOrEqual(11);
    // The search finds what is stored: the signed-in user's name is in `users`.
    expect(await tablesHolding([user.username])).toContain('users');
    expect(await tablesHolding(secrets), 'tables holding a plaintext credential').toEqual([]);
  });
});
