// The code flow of a native app on a loopback port (RFC 8252 §7.3), through the consent page and oauth4webapi:
// /oauth/authorize lets the port of an IP-literal loopback URI vary; the token endpoint then wants the very
// redirect_uri the code was issued for (RFC 6749 §4.1.3, "identical"), so another port is invalid_grant there.
import { describe, expect, it } from 'vitest';
import { api } from '../helpers/app.ts';
import { formFields, signedIn } from '../helpers/browser.ts';
import { createApplication, type TestApplication } from '../factories/oauth.ts';
import { authServer, basic, clientOf, http, oauth } from './client.ts';

const REGISTERED = 'http://127.0.0.1/cb';

async function codeFor(app: TestApplication, redirectUri: string) {
  const { browser, user } = await signedIn();
  const verifier = oauth.generateRandomCodeVerifier();
  const query = new URLSearchParams({
    client_id: app.uid,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'read_user',
    state: 'loop',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const page = await browser.get(`/oauth/authorize?${query}`);
  expect(page.status, page.text).toBe(200);
  const res = await browser.post('/oauth/authorize', formFields(page.text, '/oauth/authorize'));
  const callback = new URL(res.headers.get('location')!);
  expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
  return { user, verifier, params: oauth.validateAuthResponse(await authServer(), clientOf(app), callback, 'loop') };
}

const exchange = async (app: TestApplication, code: Awaited<ReturnType<typeof codeFor>>, redirectUri: string) =>
  oauth.authorizationCodeGrantRequest(await authServer(), clientOf(app), basic(app), code.params, redirectUri, code.verifier, http);

describe('loopback redirect URIs at the token endpoint', () => {
  it('a code issued to http://127.0.0.1:<port>/cb is exchanged with that redirect URI', async () => {
    const app = await createApplication({ redirectUris: [REGISTERED], scopes: ['read_user'] });
    const code = await codeFor(app, 'http://127.0.0.1:49152/cb');
    const tokens = await oauth.processAuthorizationCodeResponse(await authServer(), clientOf(app), await exchange(app, code, 'http://127.0.0.1:49152/cb'));
    expect(tokens.scope).toBe('read_user');
    expect((await api.get('/user', { headers: { authorization: `Bearer ${tokens.access_token}` } })).body.id).toBe(code.user.id);
  });

  it('anything but the redirect URI the code was issued for is invalid_grant, another loopback port included', async () => {
    const app = await createApplication({ redirectUris: [REGISTERED], scopes: ['read_user'] });
    for (const wrong of [
      'http://127.0.0.1:50000/cb',
      'http://127.0.0.1/cb',
      'http://localhost:49152/cb',
      'http://127.0.0.1:49152/other',
      'https://127.0.0.1:49152/cb',
      'http://127.0.0.2:49152/cb',
    ]) {
      const code = await codeFor(app, 'http://127.0.0.1:49152/cb');
      const res = await exchange(app, code, wrong);
      expect(res.status, wrong).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe('invalid_grant');
    }
  });
});
