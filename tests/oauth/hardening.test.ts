// Inputs that once reached the database as NUL bytes: each gets its OAuth error or page, never a 500.
import { describe, expect, it } from 'vitest';
import { Browser, csrfToken, signedIn } from '../helpers/browser.ts';
import { createApplication } from '../factories/oauth.ts';
import { tokenPost } from './client.ts';

describe('NUL bytes and other impossible values', () => {
  it('token endpoint: invalid_request / invalid_client with no-store, never a 500', async () => {
    const app = await createApplication();
    const bodyId = await tokenPost({
      grant_type: 'authorization_code',
      code: 'x',
      redirect_uri: app.redirectUris[0]!,
      client_id: 'a\u0000b',
      client_secret: 's',
    });
    expect(bodyId.status).toBe(401);
    expect(bodyId.body.error).toBe('invalid_client');
    const basic = await tokenPost({ grant_type: 'authorization_code', code: 'x', redirect_uri: 'r' }, { authorization: `Basic ${btoa('a%00b:s')}` });
    expect(basic.status).toBe(401);
    expect(basic.headers.get('www-authenticate')).toMatch(/^Basic/);
    const username = await tokenPost({ grant_type: 'password', username: 'a\u0000b', password: 'p', client_id: app.uid, client_secret: app.secret });
    expect(username.status).toBe(400);
    expect(username.body.error).toBe('invalid_request');
    expect(username.headers.get('cache-control')).toBe('no-store');
  });

  it('authorize and sign-in pages: an error page or an invalid login, never a 500', async () => {
    const { browser } = await signedIn();
    const page = await browser.get('/oauth/authorize?client_id=a%00b&redirect_uri=https%3A%2F%2Fx.test&response_type=code');
    expect(page.status).toBe(400);
    const fresh = new Browser();
    const form = await fresh.get('/users/sign_in');
    const res = await fresh.post('/users/sign_in', { authenticity_token: csrfToken(form.text), 'user[login]': 'a\u0000b', 'user[password]': 'x' });
    expect(res.status).toBe(401);
    expect(res.text).toContain('Invalid login or password.');
  });
});
