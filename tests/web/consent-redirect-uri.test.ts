// Redirect URIs at /oauth/authorize (issue 12, items 5 and 6): a registered URI's own query is kept, but the
// authorization response's parameters replace, never duplicate, what it carries (RFC 6749 §3.1, §3.1.2); loopback
// IP literals accept any port (RFC 8252 §7.3), and nothing else is relaxed.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oauthGrants } from '../../db/schema/index.ts';
import { sha256Hex } from '../../functions/lib/crypto.ts';
import { testDb } from '../helpers/app.ts';
import { formFields, signedIn } from '../helpers/browser.ts';
import { createApplication } from '../factories/oauth.ts';

const authorizePath = (params: Record<string, string>) => `/oauth/authorize?${new URLSearchParams(params).toString()}`;

async function approveAt(redirectUri: string, params: Record<string, string>, registered = [redirectUri]) {
  const app = await createApplication({ redirectUris: registered, scopes: ['api', 'read_user'] });
  const { browser } = await signedIn();
  const page = await browser.get(authorizePath({ client_id: app.uid, redirect_uri: redirectUri, scope: 'read_user', ...params }));
  expect(page.status, page.text).toBe(200);
  const res = await browser.post('/oauth/authorize', formFields(page.text, '/oauth/authorize'));
  expect(res.status).toBe(302);
  return { app, browser, location: res.headers.get('location')! };
}

describe('a registered redirect URI with a query', () => {
  it("the response's code and state replace the registered ones; the rest of its query is kept as registered", async () => {
    const registered = 'https://client.example.test/cb?state=fixed&tenant=a%20b&code=stale';
    const { location } = await approveAt(registered, { response_type: 'code', state: 'mine' });
    const url = new URL(location);
    expect(url.searchParams.getAll('state')).toEqual(['mine']);
    expect(url.searchParams.getAll('code')).toHaveLength(1);
    expect(url.searchParams.get('code')).not.toBe('stale');
    expect(url.search).toContain('tenant=a%20b');
    expect(`${url.origin}${url.pathname}`).toBe('https://client.example.test/cb');
  });

  it("without a state in the request, the registered state stays (it is part of the client's URI)", async () => {
    const { location } = await approveAt('https://client.example.test/cb?state=fixed', { response_type: 'code' });
    const url = new URL(location);
    expect(url.searchParams.getAll('state')).toEqual(['fixed']);
    expect(url.searchParams.getAll('code')).toHaveLength(1);
  });

  it('error redirects (Deny, invalid scope) replace error, error_description and state too', async () => {
    const registered = 'https://client.example.test/cb?state=fixed&error=stale&error_description=stale';
    const app = await createApplication({ redirectUris: [registered] });
    const { browser } = await signedIn();
    const page = await browser.get(authorizePath({ client_id: app.uid, redirect_uri: registered, response_type: 'code', state: 'mine' }));
    const denied = new URL((await browser.post('/oauth/authorize/deny', formFields(page.text, '/oauth/authorize/deny'))).headers.get('location')!);
    const invalid = new URL(
      (await browser.get(authorizePath({ client_id: app.uid, redirect_uri: registered, response_type: 'code', state: 'mine', scope: 'sudo' }))).headers.get(
        'location',
      )!,
    );
    for (const [url, error] of [
      [denied, 'access_denied'],
      [invalid, 'invalid_scope'],
    ] as const) {
      expect(url.searchParams.getAll('error')).toEqual([error]);
      expect(url.searchParams.getAll('error_description')).toHaveLength(1);
      expect(url.searchParams.getAll('state')).toEqual(['mine']);
    }
  });

  it('the implicit flow: the fragment carries each parameter once, the registered query is left alone', async () => {
    const registered = 'https://client.example.test/cb?state=fixed';
    const { location } = await approveAt(registered, { response_type: 'token', state: 'mine' });
    const [base, fragment] = location.split('#') as [string, string];
    expect(base).toBe(registered);
    const params = new URLSearchParams(fragment);
    expect([...params.keys()]).toEqual(['access_token', 'token_type', 'expires_in', 'state']);
    expect(params.get('state')).toBe('mine');
  });
});

describe('loopback redirect URIs (RFC 8252 §7.3)', () => {
  it('an application registered with http://127.0.0.1/cb or http://[::1]/cb is sent to whatever port the request names', async () => {
    for (const [registered, requested] of [
      ['http://127.0.0.1/cb', 'http://127.0.0.1:49152/cb'],
      ['http://[::1]/cb', 'http://[::1]:50123/cb'],
      ['http://127.0.0.1:8080/cb?x=1', 'http://127.0.0.1:9090/cb?x=1'],
      ['http://127.0.0.1:8080/cb', 'http://127.0.0.1/cb'],
    ] as const) {
      const { app, location } = await approveAt(requested, { response_type: 'code', state: 'p' }, [registered]);
      const url = new URL(location);
      expect(location.startsWith(`${requested}${requested.includes('?') ? '&' : '?'}code=`), location).toBe(true);
      const [grant] = await testDb()
        .db.select()
        .from(oauthGrants)
        .where(eq(oauthGrants.codeDigest, await sha256Hex(url.searchParams.get('code')!)));
      expect(grant).toMatchObject({ applicationId: app.id, redirectUri: requested });
    }
  });

  it('only the port of an IP-literal loopback URI varies: everything else is still an exact match', async () => {
    const app = await createApplication({ redirectUris: ['http://127.0.0.1/cb', 'http://localhost/cb', 'https://client.example.test/callback'] });
    const { browser } = await signedIn();
    const refused = [
      'http://localhost:49152/cb',
      'http://127.0.0.1:49152/cb/',
      'http://127.0.0.1:49152/other',
      'http://127.0.0.1:49152/cb?x=1',
      'http://127.0.0.1:49152/CB',
      'https://127.0.0.1:49152/cb',
      'http://127.0.0.2:49152/cb',
      'http://127.1:49152/cb',
      'http://user@127.0.0.1:49152/cb',
      'http://127.0.0.1:49152@evil.example/cb',
      'http://127.0.0.1:0/cb',
      'http://127.0.0.1:65536/cb',
      'http://127.0.0.1:/cb',
      'http://127.0.0.1:0080/cb',
      'http://[::1]:49152/cb',
      'https://client.example.test:8443/callback',
    ];
    for (const redirectUri of refused) {
      const res = await browser.get(authorizePath({ client_id: app.uid, redirect_uri: redirectUri, response_type: 'code', state: 's' }));
      expect(res.status, redirectUri).toBe(400);
      expect(res.headers.get('location'), redirectUri).toBeNull();
      expect(res.text).toContain('invalid_redirect_uri');
    }
  });
});
