// GET/POST /oauth/authorize: client and redirect URI checked first (error page, never a redirect), then response
// type, scope and PKCE (errors redirected with state); sign in and come back; consent page; Authorize for the code
// and implicit flows; Deny; tampered consent forms re-checked from their fields.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oauthAccessTokens, oauthApplications, oauthGrants } from '../../db/schema/index.ts';
import { sha256Hex, toHex } from '../../functions/lib/crypto.ts';
import { OAUTH_SCOPES } from '../../functions/oauth/scopes.ts';
import { api, testDb } from '../helpers/app.ts';
import { Browser, createUserWithPassword, formFields, PASSWORD, signedIn } from '../helpers/browser.ts';
import { unique } from '../factories/users.ts';

const CALLBACK = 'https://client.example.test/callback';

async function makeApp(options: { scopes?: string[]; redirectUris?: string[]; confidential?: boolean; trusted?: boolean } = {}) {
  const uid = toHex(crypto.getRandomValues(new Uint8Array(32)));
  const secret = toHex(crypto.getRandomValues(new Uint8Array(32)));
  const [row] = await testDb()
    .db.insert(oauthApplications)
    .values({
      uid,
      secretDigest: await sha256Hex(secret),
      name: unique('Client <b>app</b> '),
      redirectUris: options.redirectUris ?? [CALLBACK],
      scopes: options.scopes ?? ['api', 'read_user'],
      confidential: options.confidential ?? true,
      trusted: options.trusted ?? false,
    })
    .returning();
  return { ...row!, secret };
}

const authorizePath = (params: Record<string, string>) => `/oauth/authorize?${new URLSearchParams(params).toString()}`;
const grantsOf = (applicationId: number) => testDb().db.select().from(oauthGrants).where(eq(oauthGrants.applicationId, applicationId));
const tokensOf = (applicationId: number) => testDb().db.select().from(oauthAccessTokens).where(eq(oauthAccessTokens.applicationId, applicationId));
const STATE = 'xyz ABC/+=&?é%20"<';

describe('GET /oauth/authorize: client and redirect URI first, never redirected', () => {
  it('unknown or missing client: error page, no Location, even when signed out', async () => {
    for (const browser of [new Browser(), (await signedIn()).browser]) {
      for (const clientId of ['0'.repeat(64), '']) {
        const res = await browser.get(authorizePath({ client_id: clientId, redirect_uri: CALLBACK, response_type: 'code', state: 's' }));
        expect(res.status).toBe(400);
        expect(res.headers.get('location')).toBeNull();
        expect(res.text).toContain('invalid_client');
        expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      }
    }
  });

  it('every near-miss redirect URI: error page, never a redirect (and no sign-in detour)', async () => {
    const app = await makeApp({ redirectUris: [CALLBACK, 'http://127.0.0.1:8080/cb?x=1'] });
    const { browser } = await signedIn();
    const nearMisses = [
      'https://client.example.test/callback/',
      'https://client.example.test/callbacks',
      'https://client.example.test/other',
      'https://client.example.test/callback?extra=1',
      'https://client.example.test/callback#frag',
      'https://CLIENT.example.test/callback',
      'https://client.example.test/CALLBACK',
      'http://client.example.test/callback',
      'https://client.example.test:443/callback',
      'https://client.example.test@evil.example/callback',
      'https://evil.example/?https://client.example.test/callback',
      'https://client.example.test/callback/../callback',
      'https://client.example.test/x/../callback',
      'https://client.example.test.evil.example/callback',
      'http://127.0.0.1:8080/cb',
      'http://127.0.0.1:8080/cb?x=1&y=2',
      'javascript:alert(1)',
      '',
    ];
    for (const redirectUri of nearMisses) {
      for (const b of [browser, new Browser()]) {
        const res = await b.get(authorizePath({ client_id: app.uid, redirect_uri: redirectUri, response_type: 'code', state: 's', scope: 'nonsense' }));
        expect(res.status, redirectUri).toBe(400);
        expect(res.headers.get('location'), redirectUri).toBeNull();
        expect(res.text).toContain('invalid_redirect_uri');
      }
    }
    const missing = await browser.get(authorizePath({ client_id: app.uid, response_type: 'code' }));
    expect(missing.status).toBe(400);
    expect(missing.headers.get('location')).toBeNull();
    expect(await grantsOf(app.id)).toEqual([]);
  });
});

describe('GET /oauth/authorize: errors returned to the client', () => {
  it('unsupported response_type, invalid scope, PKCE faults: 302 with error, description and state as sent', async () => {
    const app = await makeApp();
    const pub = await makeApp({ confidential: false });
    const { browser } = await signedIn();
    const cases: [Record<string, string>, string, string][] = [
      [{ client_id: app.uid, response_type: 'id_token' }, 'unsupported_response_type', 'The authorization server does not support this response type.'],
      [{ client_id: app.uid, response_type: 'code', scope: 'api sudo' }, 'invalid_scope', 'The requested scope is invalid, unknown, or malformed.'],
      [{ client_id: app.uid, response_type: 'code', scope: 'unknown' }, 'invalid_scope', 'The requested scope is invalid, unknown, or malformed.'],
      [
        { client_id: app.uid, response_type: 'code', code_challenge: 'a'.repeat(43), code_challenge_method: 'S512' },
        'invalid_request',
        'The code challenge method must be plain or S256.',
      ],
      [{ client_id: app.uid, response_type: 'code', code_challenge: 'short' }, 'invalid_request', 'The code challenge is malformed.'],
      [{ client_id: pub.uid, response_type: 'code' }, 'invalid_request', 'Missing required parameter: code_challenge.'],
    ];
    for (const [params, error, description] of cases) {
      const res = await browser.get(authorizePath({ redirect_uri: CALLBACK, state: STATE, ...params }));
      expect(res.status, error).toBe(302);
      const location = new URL(res.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
      expect(Object.fromEntries(location.searchParams)).toEqual({ error, error_description: description, state: STATE });
      // Signed out, nothing redirects to the client, not even an error (no open redirector): sign in first.
      const anonymous = await new Browser().get(authorizePath({ redirect_uri: CALLBACK, state: STATE, ...params }));
      expect(anonymous.status).toBe(302);
      expect(anonymous.headers.get('location')).toMatch(/^\/users\/sign_in\?return_to=%2Foauth%2Fauthorize%3F/);
    }
    const implicit = await browser.get(authorizePath({ client_id: app.uid, redirect_uri: CALLBACK, response_type: 'token', scope: 'sudo', state: 'st' }));
    expect(implicit.headers.get('location')).toBe(
      `${CALLBACK}#error=invalid_scope&error_description=The+requested+scope+is+invalid%2C+unknown%2C+or+malformed.&state=st`,
    );
  });
});

describe('GET /oauth/authorize: sign in first, then the consent page', () => {
  it('signed out: to sign-in with return_to, and back to the same request after signing in', async () => {
    const app = await makeApp();
    const { user } = await createUserWithPassword();
    const browser = new Browser();
    const path = authorizePath({ client_id: app.uid, redirect_uri: CALLBACK, response_type: 'code', state: STATE, scope: 'read_user' });
    const res = await browser.get(path);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!, 'https://x.test');
    expect(location.pathname).toBe('/users/sign_in');
    const returnTo = location.searchParams.get('return_to')!;
    const signIn = await browser.signIn(user.username, PASSWORD, returnTo);
    expect(signIn.status).toBe(302);
    const back = await browser.get(signIn.headers.get('location')!);
    expect(back.status).toBe(200);
    expect(formFields(back.text, '/oauth/authorize')).toMatchObject({
      client_id: app.uid,
      redirect_uri: CALLBACK,
      response_type: 'code',
      state: STATE,
      scope: 'read_user',
    });
  });

  it('names the application (escaped) and each requested scope with its description; CSRF and hidden fields on both forms', async () => {
    const app = await makeApp({ scopes: ['api', 'read_user', 'openid'] });
    const { browser } = await signedIn();
    const res = await browser.get(
      authorizePath({ client_id: app.uid, redirect_uri: CALLBACK, response_type: 'code', state: STATE, scope: 'read_user openid', nonce: 'n-1' }),
    );
    expect(res.status).toBe(200);
    expect(res.text).toContain(app.name.replace(/</g, '&lt;').replace(/>/g, '&gt;'));
    expect(res.text).not.toContain('<b>app</b>');
    expect(res.text).toContain('This application will be able to:');
    for (const s of ['read_user', 'openid'] as const) expect(res.text).toContain(OAUTH_SCOPES[s].replace(/'/g, '&#39;'));
    expect(res.text).not.toContain(OAUTH_SCOPES.api);
    const approve = formFields(res.text, '/oauth/authorize');
    const deny = formFields(res.text, '/oauth/authorize/deny');
    for (const f of [approve, deny]) {
      expect(f).toEqual({
        authenticity_token: expect.stringMatching(/^[0-9a-f]{64}$/),
        client_id: app.uid,
        redirect_uri: CALLBACK,
        response_type: 'code',
        state: STATE,
        scope: 'read_user openid',
        nonce: 'n-1',
      });
    }
    // The form's redirect to the client must pass form-action; nothing else is allowed.
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("form-action 'self' https://client.example.test;");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('an admin is warned', async () => {
    const app = await makeApp();
    const { browser } = await signedIn({ admin: true });
    const res = await browser.get(authorizePath({ client_id: app.uid, redirect_uri: CALLBACK, response_type: 'code' }));
    expect(res.text).toContain('You are an admin');
  });
});

describe('POST /oauth/authorize', () => {
  async function consent(params: Record<string, string>, app: Awaited<ReturnType<typeof makeApp>>) {
    const session = await signedIn();
    const page = await session.browser.get(authorizePath({ client_id: app.uid, redirect_uri: app.redirectUris[0]!, ...params }));
    expect(page.status, page.text).toBe(200);
    return { ...session, page, approve: formFields(page.text, '/oauth/authorize'), deny: formFields(page.text, '/oauth/authorize/deny') };
  }

  it('code flow: 302 with code and state exactly as sent; the grant stores digest, redirect URI, scopes and PKCE', async () => {
    const app = await makeApp();
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
    const { browser, user, approve } = await consent(
      { response_type: 'code', state: STATE, scope: 'read_user', code_challenge: challenge, code_challenge_method: 'S256' },
      app,
    );
    const res = await browser.post('/oauth/authorize', approve);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
    expect([...location.searchParams.keys()]).toEqual(['code', 'state']);
    expect(location.searchParams.get('state')).toBe(STATE);
    const code = location.searchParams.get('code')!;
    const [grant] = await testDb()
      .db.select()
      .from(oauthGrants)
      .where(eq(oauthGrants.codeDigest, await sha256Hex(code)));
    expect(grant).toMatchObject({
      applicationId: app.id,
      userId: user.id,
      redirectUri: CALLBACK,
      scopes: ['read_user'],
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
      consumedAt: null,
    });
    expect(JSON.stringify(await grantsOf(app.id))).not.toContain(code);
  });

  it('code flow end to end: the code is exchanged at /oauth/token for a token that reads /user', async () => {
    const app = await makeApp();
    const { browser, user, approve } = await consent({ response_type: 'code', state: 's1', scope: 'read_user' }, app);
    const res = await browser.post('/oauth/authorize', approve);
    const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
    const token = await browser.post('/oauth/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      client_id: app.uid,
      client_secret: app.secret,
    });
    expect(token.status, token.text).toBe(200);
    expect(token.body).toMatchObject({ token_type: expect.stringMatching(/^bearer$/i), scope: 'read_user', expires_in: 7200 });
    const me = await api.get('/user', { headers: { authorization: `Bearer ${token.body.access_token}` } });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);
  });

  it('a redirect URI with a query gets `&code=`; no state sent means none returned', async () => {
    const app = await makeApp({ redirectUris: ['https://client.example.test/cb?tenant=a%20b'] });
    const { browser, approve } = await consent({ response_type: 'code' }, app);
    const res = await browser.post('/oauth/authorize', approve);
    expect(res.headers.get('location')).toMatch(/^https:\/\/client\.example\.test\/cb\?tenant=a%20b&code=[\w-]+$/);
  });

  it('implicit flow: token in the fragment (access_token, token_type, expires_in, state), no refresh token, usable on the API', async () => {
    const app = await makeApp();
    const { browser, user, approve } = await consent({ response_type: 'token', state: STATE, scope: 'read_user' }, app);
    const res = await browser.post('/oauth/authorize', approve);
    expect(res.status).toBe(302);
    const location = res.headers.get('location')!;
    expect(location.startsWith(`${CALLBACK}#`)).toBe(true);
    const fragment = new URLSearchParams(location.slice(location.indexOf('#') + 1));
    expect([...fragment.keys()]).toEqual(['access_token', 'token_type', 'expires_in', 'state']);
    expect(fragment.get('token_type')!.toLowerCase()).toBe('bearer');
    expect(fragment.get('expires_in')).toBe('7200');
    expect(fragment.get('state')).toBe(STATE);
    const me = await api.get('/user', { headers: { authorization: `Bearer ${fragment.get('access_token')}` } });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);
    const [row] = await tokensOf(app.id);
    expect(row).toMatchObject({
      userId: user.id,
      scopes: ['read_user'],
      refreshTokenDigest: null,
      tokenDigest: await sha256Hex(fragment.get('access_token')!),
    });
  });

  it('Deny (deny form, or decision=deny): 302 with access_denied and the state; nothing issued', async () => {
    const app = await makeApp();
    const { browser, deny, approve } = await consent({ response_type: 'code', state: STATE }, app);
    const expected = `${CALLBACK}?error=access_denied&error_description=The+resource+owner+or+authorization+server+denied+the+request.&state=${new URLSearchParams({ s: STATE }).toString().slice(2)}`;
    const res = await browser.post('/oauth/authorize/deny', deny);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(expected);
    const viaField = await browser.post('/oauth/authorize', { ...approve, decision: 'deny' });
    expect(viaField.headers.get('location')).toBe(expected);
    expect(await grantsOf(app.id)).toEqual([]);
    expect(await tokensOf(app.id)).toEqual([]);
  });

  it('tampered consent: wider scopes than the application has are invalid_scope; nothing issued', async () => {
    const app = await makeApp({ scopes: ['read_user'] });
    const { browser, approve } = await consent({ response_type: 'code', state: 't', scope: 'read_user' }, app);
    for (const scope of ['read_user api', 'sudo', 'read_user admin']) {
      const res = await browser.post('/oauth/authorize', { ...approve, scope });
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get('location')!);
      expect(location.searchParams.get('error')).toBe('invalid_scope');
      expect(location.searchParams.get('state')).toBe('t');
    }
    expect(await grantsOf(app.id)).toEqual([]);
  });

  it('tampered consent: another redirect URI or client gets the error page, never a redirect', async () => {
    const app = await makeApp();
    const { browser, approve, deny } = await consent({ response_type: 'code', state: 't' }, app);
    for (const [action, fields] of [
      ['/oauth/authorize', approve],
      ['/oauth/authorize/deny', deny],
    ] as const) {
      for (const change of [{ redirect_uri: 'https://evil.example/cb' }, { redirect_uri: `${CALLBACK}/` }, { client_id: '1'.repeat(64) }] as Record<
        string,
        string
      >[]) {
        const res = await browser.post(action, { ...fields, ...change });
        expect(res.status).toBe(400);
        expect(res.headers.get('location')).toBeNull();
      }
    }
    expect(await grantsOf(app.id)).toEqual([]);
  });

  it('tampered consent: dropping the PKCE challenge of a public client is refused', async () => {
    const app = await makeApp({ confidential: false });
    const { browser, approve } = await consent({ response_type: 'code', state: 't', code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, app);
    const { code_challenge: _c, code_challenge_method: _m, ...stripped } = approve;
    const res = await browser.post('/oauth/authorize', stripped);
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    expect(await grantsOf(app.id)).toEqual([]);
  });

  it("CSRF: missing, wrong, or another session's token is 403; signed out goes to sign-in; nothing issued", async () => {
    const app = await makeApp();
    const { browser, approve } = await consent({ response_type: 'code', state: 't' }, app);
    const other = await consent({ response_type: 'code', state: 't' }, app);
    const { authenticity_token: _t, ...noToken } = approve;
    expect((await browser.post('/oauth/authorize', noToken)).status).toBe(403);
    expect((await browser.post('/oauth/authorize', { ...approve, authenticity_token: '0'.repeat(64) })).status).toBe(403);
    expect((await browser.post('/oauth/authorize', { ...approve, authenticity_token: other.approve.authenticity_token! })).status).toBe(403);
    expect((await browser.post('/oauth/authorize/deny', noToken)).status).toBe(403);
    const signedOut = await new Browser().post('/oauth/authorize', approve);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get('location')).toMatch(/^\/users\/sign_in\?return_to=%2Foauth%2Fauthorize%3F/);
    expect(await grantsOf(app.id)).toEqual([]);
  });

  it('a trusted application skips the consent page', async () => {
    const app = await makeApp({ trusted: true });
    const { browser, user } = await signedIn();
    const res = await browser.get(authorizePath({ client_id: app.uid, redirect_uri: CALLBACK, response_type: 'code', state: 'tr' }));
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('state')).toBe('tr');
    const grants = await testDb()
      .db.select()
      .from(oauthGrants)
      .where(and(eq(oauthGrants.applicationId, app.id), eq(oauthGrants.userId, user.id)));
    expect(grants).toHaveLength(1);
  });

  it('an application the user already granted exactly these scopes skips the consent page; other scopes ask again', async () => {
    const app = await makeApp();
    const { browser, user, approve } = await consent({ response_type: 'code', state: 'm1', scope: 'read_user' }, app);
    const code = new URL((await browser.post('/oauth/authorize', approve)).headers.get('location')!).searchParams.get('code')!;
    const token = await browser.post('/oauth/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      client_id: app.uid,
      client_secret: app.secret,
    });
    expect(token.status).toBe(200);
    const again = await browser.get(authorizePath({ client_id: app.uid, redirect_uri: CALLBACK, response_type: 'code', state: 'm2', scope: 'read_user' }));
    expect(again.status).toBe(302);
    expect(new URL(again.headers.get('location')!).searchParams.get('state')).toBe('m2');
    expect((await grantsOf(app.id)).filter((g) => g.userId === user.id)).toHaveLength(2);
    // Different scopes: consent again.
    expect((await browser.get(authorizePath({ client_id: app.uid, redirect_uri: CALLBACK, response_type: 'code', scope: 'api read_user' }))).status).toBe(200);
    // Once the token is revoked, consent again.
    await testDb().db.update(oauthAccessTokens).set({ revokedAt: new Date() }).where(eq(oauthAccessTokens.applicationId, app.id));
    expect((await browser.get(authorizePath({ client_id: app.uid, redirect_uri: CALLBACK, response_type: 'code', scope: 'read_user' }))).status).toBe(200);
  });

  it('a user whose email is not confirmed gets an error page, and nothing is issued', async () => {
    const app = await makeApp({ trusted: true });
    const { browser } = await signedIn({ confirmedAt: null });
    const res = await browser.get(authorizePath({ client_id: app.uid, redirect_uri: CALLBACK, response_type: 'code', state: 'u' }));
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.text).toContain('Verify the email address in your account profile before you sign in.');
    expect(await grantsOf(app.id)).toEqual([]);
  });

  it('a repeated parameter (RFC 6749 §3.1): client_id or redirect_uri → error page; any other → invalid_request redirect', async () => {
    const app = await makeApp();
    const { browser } = await signedIn();
    const base = `client_id=${app.uid}&redirect_uri=${encodeURIComponent(CALLBACK)}&response_type=code&state=r`;
    for (const extra of [`&client_id=${app.uid}`, `&redirect_uri=${encodeURIComponent(CALLBACK)}`]) {
      const res = await browser.get(`/oauth/authorize?${base}${extra}`);
      expect([res.status, res.headers.get('location')]).toEqual([400, null]);
      expect(res.text).toContain('invalid_request');
    }
    const res = await browser.get(`/oauth/authorize?${base}&scope=read_user&scope=api`);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      error: 'invalid_request',
      error_description: 'Parameter included more than once: scope.',
      state: 'r',
    });
    expect(await grantsOf(app.id)).toEqual([]);
  });

  it('pages load their stylesheet from our origin; the CSP allows no inline style or script', async () => {
    const browser = new Browser();
    const page = await browser.get('/users/sign_in');
    expect(page.text).toContain('<link rel="stylesheet" href="/-/pages.css"/>');
    expect(page.text).not.toContain('<style');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("style-src 'self';");
    expect(csp).not.toContain('unsafe-inline');
    const css = await browser.get('/-/pages.css');
    expect([css.status, css.headers.get('content-type')]).toEqual([200, 'text/css; charset=utf-8']);
    expect(css.text).toContain('body{');
  });
});
