// Sessions do not outlive credential changes (GitLab): a new password ends every browser session of the user;
// blocking ends them and revokes the user's OAuth tokens as well.
import { describe, expect, it } from 'vitest';
import { api } from '../helpers/app.ts';
import { Browser, signedIn } from '../helpers/browser.ts';
import { createAdmin } from '../factories/users.ts';
import { createApplication, issueCode } from '../factories/oauth.ts';
import { tokenPost } from '../oauth/client.ts';

const sessionCookie = (browser: Browser) => ({ headers: { cookie: `_gitlab_session=${browser.cookies.get('_gitlab_session')}` } });

/** The session authenticates the API and the pages. */
async function expectSignedIn(browser: Browser, username: string) {
  const me = await api.get('/user', sessionCookie(browser));
  expect([me.status, me.body.username]).toEqual([200, username]);
  expect((await browser.get('/oauth/applications')).status).toBe(200);
}

/** The cookie no longer names a session: the API answers 401 and the pages send the browser to sign in. */
async function expectSignedOut(browser: Browser) {
  expect((await api.get('/user', sessionCookie(browser))).status).toBe(401);
  const page = await browser.get('/oauth/applications');
  expect(page.status).toBe(302);
  expect(page.headers.get('location')).toMatch(/^\/users\/sign_in/);
}

async function oauthTokens(userId: number) {
  const app = await createApplication();
  const code = await issueCode({ application: app, userId });
  const res = await tokenPost({ grant_type: 'authorization_code', code, redirect_uri: app.redirectUris[0]!, client_id: app.uid, client_secret: app.secret });
  return { app, tokens: res.body as { access_token: string; refresh_token: string } };
}

describe('a password change ends the sessions', () => {
  it('PUT /users/:id with a password: every session of that user is signed out; other users and other changes keep theirs', async () => {
    const { browser, user } = await signedIn();
    const second = new Browser();
    expect((await second.signIn(user.username, 'correct horse battery staple')).status).toBe(302);
    const { browser: bystander, user: other } = await signedIn();
    const { token } = await createAdmin();

    expect((await api.put(`/users/${user.id}`, { token, body: { bio: 'unchanged password' } })).status).toBe(200);
    await expectSignedIn(browser, user.username);

    expect((await api.put(`/users/${user.id}`, { token, body: { password: 'a brand new password' } })).status).toBe(200);
    await expectSignedOut(browser);
    await expectSignedOut(second);
    await expectSignedIn(bystander, other.username);
    // The new password signs in again.
    expect((await new Browser().signIn(user.username, 'a brand new password')).status).toBe(302);
  });
});

describe('blocking ends the sessions and the OAuth tokens', () => {
  it('POST /users/:id/block: the session is signed out, the OAuth access and refresh tokens are revoked (401), and stay so after unblocking', async () => {
    const { browser, user, token: pat } = await signedIn();
    const { app, tokens } = await oauthTokens(user.id);
    const bearer = { headers: { Authorization: `Bearer ${tokens.access_token}` } };
    expect((await api.get('/user', bearer)).status).toBe(200);
    await expectSignedIn(browser, user.username);
    const { token } = await createAdmin();

    expect((await api.post(`/users/${user.id}/block`, { token })).status).toBe(201);
    await expectSignedOut(browser);
    const revoked = await api.get('/user', bearer);
    expect(revoked.status).toBe(401);
    expect(revoked.body.error).toBe('invalid_token');
    // Personal access tokens answer as before: 403 while the account is blocked.
    expect((await api.get('/user', { token: pat })).status).toBe(403);

    expect((await api.post(`/users/${user.id}/unblock`, { token })).status).toBe(201);
    await expectSignedOut(browser);
    expect((await api.get('/user', bearer)).status).toBe(401);
    const refresh = await tokenPost({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: app.uid, client_secret: app.secret });
    expect([refresh.status, refresh.body.error]).toEqual([400, 'invalid_grant']);
    expect((await api.get('/user', { token: pat })).status).toBe(200);
  });
});
