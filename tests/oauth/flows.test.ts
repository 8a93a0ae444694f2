// The provider's flows end to end, with oauth4webapi as the (strict) client.
import { describe, expect, it } from 'vitest';
import { api, request, TEST_PUBLIC_URL, testDb } from '../helpers/app.ts';
import { createUser } from '../factories/users.ts';
import { createApplication, grantRow, issueCode, tokenRow, tokensOfApplication } from '../factories/oauth.ts';
import { authServer, basic, callbackParams, clientOf, http, oauth, tokenPost } from './client.ts';
import { hashPassword } from '../../functions/lib/crypto.ts';
import { oauthAccessTokens, oauthApplications, users } from '../../db/schema/index.ts';
import { eq, sql } from 'drizzle-orm';
import { issueImplicitToken, tokenResponseBody } from '../../functions/oauth/service.ts';

// A fresh client IP per test: the per-IP counter lives in the database, shared by reruns on PostgreSQL.
const randomIp = () => `10.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`;
const bearer = (t: string) => ({ headers: { Authorization: `Bearer ${t}` } });

describe('discovery (RFC 8414)', () => {
  it('advertises the endpoints with the configured issuer, whatever the Host header says', async () => {
    const as = await authServer();
    expect(as.issuer).toBe(TEST_PUBLIC_URL);
    expect(as.token_endpoint).toBe(`${TEST_PUBLIC_URL}/oauth/token`);
    expect(as.code_challenge_methods_supported).toEqual(['S256', 'plain']);
    expect(as.response_types_supported).toEqual(['code', 'token']);
    expect(as.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic', 'client_secret_post', 'none']);
    expect(as.scopes_supported).toContain('read_user');
    const res = await request('GET', '/.well-known/oauth-authorization-server', { headers: { Host: 'evil.example' } });
    expect(res.body.issuer).toBe(TEST_PUBLIC_URL);
  });

  it('advertises no OpenID Connect scope: no id_token, userinfo, keys or discovery document are served (issue 28, item 15)', async () => {
    const as = await authServer();
    expect(as.scopes_supported).toEqual(['api', 'read_api', 'read_user', 'read_repository', 'write_repository', 'read_registry', 'write_registry', 'sudo']);
    expect(as.userinfo_endpoint).toBeUndefined();
    expect(as.jwks_uri).toBeUndefined();
    expect((await request('GET', '/.well-known/openid-configuration')).status).toBe(404);
  });
});

describe('authorization code', () => {
  it('public client with PKCE S256: tokens, /api/v4/user, in at most 3 queries', async () => {
    const { user } = await createUser();
    const app = await createApplication({ confidential: false, scopes: ['api', 'read_user'] });
    const verifier = oauth.generateRandomCodeVerifier();
    const code = await issueCode({
      application: app,
      userId: user.id,
      scopes: ['api', 'read_user'],
      codeChallenge: await oauth.calculatePKCECodeChallenge(verifier),
      codeChallengeMethod: 'S256',
    });
    const as = await authServer();
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      clientOf(app),
      oauth.None(),
      await callbackParams(app, code),
      app.redirectUris[0]!,
      verifier,
      http,
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    const queries = Number(/desc="(\d+)/.exec(res.headers.get('server-timing')!)![1]);
    expect(queries).toBeLessThanOrEqual(3);
    const tokens = await oauth.processAuthorizationCodeResponse(as, clientOf(app), res);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(7200);
    expect(tokens.scope).toBe('api read_user');
    expect(typeof tokens.refresh_token).toBe('string');
    expect(typeof tokens.created_at).toBe('number');
    const me = await api.get('/user', bearer(tokens.access_token));
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);
    expect((await grantRow(code))!.consumedAt).not.toBeNull();
    // Only digests at rest.
    const row = (await tokenRow(tokens.access_token))!;
    expect(row.tokenDigest).not.toBe(tokens.access_token);
    expect(row.grantId).toBe((await grantRow(code))!.id);
  });

  it('confidential client with HTTP Basic and no PKCE', async () => {
    const { user } = await createUser();
    const app = await createApplication();
    const code = await issueCode({ application: app, userId: user.id });
    const as = await authServer();
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      clientOf(app),
      basic(app),
      await callbackParams(app, code),
      app.redirectUris[0]!,
      oauth.nopkce,
      http,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, clientOf(app), res);
    expect(tokens.scope).toBe('api');
  });

  it('confidential client with client_secret_post and plain PKCE', async () => {
    const { user } = await createUser();
    const app = await createApplication();
    const verifier = oauth.generateRandomCodeVerifier();
    const code = await issueCode({ application: app, userId: user.id, codeChallenge: verifier, codeChallengeMethod: 'plain' });
    const as = await authServer();
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      clientOf(app),
      oauth.ClientSecretPost(app.secret),
      await callbackParams(app, code),
      app.redirectUris[0]!,
      verifier,
      http,
    );
    expect((await oauth.processAuthorizationCodeResponse(as, clientOf(app), res)).access_token).toBeTruthy();
  });

  it('a replayed code is refused and revokes the tokens issued from it', async () => {
    const { user } = await createUser();
    const app = await createApplication();
    const code = await issueCode({ application: app, userId: user.id });
    const form = { grant_type: 'authorization_code', code, redirect_uri: app.redirectUris[0]!, client_id: app.uid, client_secret: app.secret };
    const first = await tokenPost(form);
    expect(first.status).toBe(200);
    const second = await tokenPost(form);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    expect(second.headers.get('cache-control')).toBe('no-store');
    expect((await tokenRow(first.body.access_token))!.revokedAt).not.toBeNull();
    expect((await api.get('/user', bearer(first.body.access_token))).status).toBe(401);
  });

  it('a replayed code also revokes tokens refreshed from it', async () => {
    const { user } = await createUser();
    const app = await createApplication();
    const code = await issueCode({ application: app, userId: user.id });
    const form = { grant_type: 'authorization_code', code, redirect_uri: app.redirectUris[0]!, client_id: app.uid, client_secret: app.secret };
    const first = await tokenPost(form);
    const refreshed = await tokenPost({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id: app.uid, client_secret: app.secret });
    expect((await api.get('/user', bearer(refreshed.body.access_token))).status).toBe(200);
    expect((await tokenPost(form)).body.error).toBe('invalid_grant');
    expect((await api.get('/user', bearer(refreshed.body.access_token))).status).toBe(401);
    expect(
      (await tokenPost({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token, client_id: app.uid, client_secret: app.secret })).status,
    ).toBe(400);
  });
});

describe('password grant', () => {
  it('issues api-scoped tokens to an authenticated client', async () => {
    const { user } = await createUser({ passwordHash: await hashPassword('correct horse') });
    const app = await createApplication({ scopes: ['api', 'read_user'] });
    const as = await authServer();
    const res = await oauth.genericTokenEndpointRequest(
      as,
      clientOf(app),
      basic(app),
      'password',
      { username: user.username, password: 'correct horse' },
      { ...http, headers: { 'cf-connecting-ip': randomIp() } },
    );
    const tokens = await oauth.processGenericTokenEndpointResponse(as, clientOf(app), res);
    expect(tokens.scope).toBe('api');
    expect((await api.get('/user', bearer(tokens.access_token))).body.username).toBe(user.username);
  });

  it('limits scopes to the application, and locks the account after 10 failures', async () => {
    const { user } = await createUser({ passwordHash: await hashPassword('correct horse') });
    const app = await createApplication({ scopes: ['read_user'] });
    const ip = { 'cf-connecting-ip': randomIp() };
    const base = { grant_type: 'password', username: user.username, client_id: app.uid, client_secret: app.secret };
    expect((await tokenPost({ ...base, password: 'correct horse', scope: 'api' }, ip)).body.error).toBe('invalid_scope');
    // No scope: the default (api) is not registered for this application.
    expect((await tokenPost({ ...base, password: 'correct horse' }, ip)).body.error).toBe('invalid_scope');
    for (let i = 0; i < 10; i++) {
      const bad = await tokenPost({ ...base, password: 'wrong', scope: 'read_user' }, ip);
      expect([bad.status, bad.body.error]).toEqual([400, 'invalid_grant']);
    }
    const locked = await tokenPost({ ...base, password: 'correct horse', scope: 'read_user' }, ip);
    expect([locked.status, locked.body.error]).toEqual([400, 'invalid_grant']);
  });

  it('requires client authentication: none, a public client id alone, or a wrong secret is invalid_client', async () => {
    const { user } = await createUser({ passwordHash: await hashPassword('correct horse') });
    const app = await createApplication({ confidential: false });
    const ip = { 'cf-connecting-ip': randomIp() };
    const base = { grant_type: 'password', username: user.username, password: 'correct horse' };
    const attempts: Record<string, string>[] = [{}, { client_id: app.uid }, { client_id: app.uid, client_secret: 'wrong' }];
    for (const extra of attempts) {
      const res = await tokenPost({ ...base, ...extra }, ip);
      expect([res.status, res.body.error]).toEqual([401, 'invalid_client']);
    }
    expect(await tokensOfApplication(app.id)).toEqual([]);
  });

  it('answers 429 with Retry-After past the per-IP limit', async () => {
    const app = await createApplication();
    const ip = { 'cf-connecting-ip': randomIp() };
    let last;
    for (let i = 0; i < 31; i++)
      last = await tokenPost({ grant_type: 'password', username: 'nobody-here', password: 'x', client_id: app.uid, client_secret: app.secret }, ip);
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

async function codeTokens(scopes = ['api', 'read_user']) {
  const { user } = await createUser();
  const app = await createApplication({ scopes });
  const code = await issueCode({ application: app, userId: user.id, scopes });
  const as = await authServer();
  const res = await oauth.authorizationCodeGrantRequest(
    as,
    clientOf(app),
    basic(app),
    await callbackParams(app, code),
    app.redirectUris[0]!,
    oauth.nopkce,
    http,
  );
  return { user, app, as, tokens: await oauth.processAuthorizationCodeResponse(as, clientOf(app), res) };
}

describe('refresh', () => {
  it('rotates in at most 3 queries, revokes the old access token, keeps a grace until the new set is used, then reuse revokes the lineage', async () => {
    const { app, as, tokens } = await codeTokens();
    const refresh = () => oauth.refreshTokenGrantRequest(as, clientOf(app), basic(app), tokens.refresh_token!, http);
    const res = await refresh();
    expect(Number(/desc="(\d+)/.exec(res.headers.get('server-timing')!)![1])).toBeLessThanOrEqual(3);
    const second = await oauth.processRefreshTokenResponse(as, clientOf(app), res);
    expect(second.refresh_token).not.toBe(tokens.refresh_token);
    expect(second.scope).toBe('api read_user');
    expect((await api.get('/user', bearer(tokens.access_token))).status).toBe(401);

    // Grace: the response was "lost"; the old refresh token works again and replaces the unused set.
    const retry = await oauth.processRefreshTokenResponse(as, clientOf(app), await refresh());
    expect((await tokenRow(second.access_token))!.revokedAt).not.toBeNull();
    // The new set is used: the grace ends.
    expect((await api.get('/user', bearer(retry.access_token))).status).toBe(200);
    const reuse = await refresh();
    expect(reuse.status).toBe(400);
    expect((await reuse.json()).error).toBe('invalid_grant');
    // Reuse revoked the whole lineage.
    expect((await api.get('/user', bearer(retry.access_token))).status).toBe(401);
    const again = await oauth.refreshTokenGrantRequest(as, clientOf(app), basic(app), retry.refresh_token!, http);
    expect(again.status).toBe(400);
  });

  it('may narrow the scope but not widen it', async () => {
    const { app, as, tokens } = await codeTokens(['api', 'read_user']);
    const narrow = await oauth.processRefreshTokenResponse(
      as,
      clientOf(app),
      await oauth.refreshTokenGrantRequest(as, clientOf(app), basic(app), tokens.refresh_token!, { ...http, additionalParameters: { scope: 'read_user' } }),
    );
    expect(narrow.scope).toBe('read_user');
    const widen = await oauth.refreshTokenGrantRequest(as, clientOf(app), basic(app), narrow.refresh_token!, {
      ...http,
      additionalParameters: { scope: 'read_user api' },
    });
    expect(widen.status).toBe(400);
    expect((await widen.json()).error).toBe('invalid_scope');
    // The refused request changed nothing: the refresh token still works.
    expect((await tokenRow(narrow.access_token))!.revokedAt).toBeNull();
  });

  it('an application narrowed after the grant: a refresh keeps only the scopes it is still registered for', async () => {
    const { app, as, tokens } = await codeTokens(['api', 'read_user']);
    await testDb()
      .db.update(oauthApplications)
      .set({ scopes: ['read_user'] })
      .where(eq(oauthApplications.id, app.id));
    const wide = await oauth.refreshTokenGrantRequest(as, clientOf(app), basic(app), tokens.refresh_token!, {
      ...http,
      additionalParameters: { scope: 'api' },
    });
    expect([wide.status, (await wide.json()).error]).toEqual([400, 'invalid_scope']);
    const res = await oauth.processRefreshTokenResponse(
      as,
      clientOf(app),
      await oauth.refreshTokenGrantRequest(as, clientOf(app), basic(app), tokens.refresh_token!, http),
    );
    expect(res.scope).toBe('read_user');
    expect((await tokenRow(res.access_token))!.scopes).toEqual(['read_user']);
  });

  it('refuses the refresh token of a blocked user', async () => {
    const { user, app, tokens } = await codeTokens();
    await testDb().db.update(users).set({ state: 'blocked' }).where(eq(users.id, user.id));
    const res = await tokenPost({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: app.uid, client_secret: app.secret });
    expect([res.status, res.body.error]).toEqual([400, 'invalid_grant']);
  });

  it('a wrong client secret on refresh is invalid_client and rotates nothing', async () => {
    const { app, tokens } = await codeTokens();
    const res = await tokenPost({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: app.uid, client_secret: 'wrong' });
    expect([res.status, res.body.error]).toEqual([401, 'invalid_client']);
    expect(await tokensOfApplication(app.id)).toHaveLength(1);
    expect((await tokenRow(tokens.access_token))!.revokedAt).toBeNull();
  });

  it("refuses another client's refresh token", async () => {
    const { tokens } = await codeTokens();
    const other = await createApplication();
    const res = await tokenPost({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: other.uid, client_secret: other.secret });
    expect([res.status, res.body.error]).toEqual([400, 'invalid_grant']);
    expect((await tokenRow(tokens.access_token))!.revokedAt).toBeNull();
  });
});

describe('revoke, introspect, token info', () => {
  it('introspects its own active tokens only', async () => {
    const { app, as, user, tokens } = await codeTokens();
    const info = await oauth.processIntrospectionResponse(
      as,
      clientOf(app),
      await oauth.introspectionRequest(as, clientOf(app), basic(app), tokens.access_token, http),
    );
    expect(info).toMatchObject({ active: true, scope: 'api read_user', client_id: app.uid, token_type: 'Bearer', username: user.username });
    expect(info.exp! - info.iat!).toBe(7200);
    const other = await createApplication();
    const foreign = await oauth.processIntrospectionResponse(
      as,
      clientOf(other),
      await oauth.introspectionRequest(as, clientOf(other), basic(other), tokens.access_token, http),
    );
    expect(foreign).toEqual({ active: false });
    const unknown = await oauth.processIntrospectionResponse(as, clientOf(app), await oauth.introspectionRequest(as, clientOf(app), basic(app), 'nope', http));
    expect(unknown).toEqual({ active: false });
    const refreshInfo = await oauth.processIntrospectionResponse(
      as,
      clientOf(app),
      await oauth.introspectionRequest(as, clientOf(app), basic(app), tokens.refresh_token!, {
        ...http,
        additionalParameters: { token_type_hint: 'refresh_token' },
      }),
    );
    expect(refreshInfo).toMatchObject({ active: true, client_id: app.uid });
    expect(refreshInfo.exp).toBeUndefined();
    const noClient = await request('POST', '/oauth/introspect', { form: { token: tokens.access_token } });
    expect([noClient.status, noClient.body.error]).toEqual([401, 'invalid_client']);
  });

  it("revokes a token set; another client's token and unknown tokens answer 200 and change nothing", async () => {
    const { app, as, tokens } = await codeTokens();
    const other = await createApplication();
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, clientOf(other), basic(other), tokens.access_token, http));
    expect((await tokenRow(tokens.access_token))!.revokedAt).toBeNull();
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, clientOf(app), basic(app), 'unknown-token', http));
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, clientOf(app), basic(app), tokens.refresh_token!, {
        ...http,
        additionalParameters: { token_type_hint: 'refresh_token' },
      }),
    );
    expect((await api.get('/user', bearer(tokens.access_token))).status).toBe(401);
    for (const t of [tokens.access_token, tokens.refresh_token!]) {
      expect(await oauth.processIntrospectionResponse(as, clientOf(app), await oauth.introspectionRequest(as, clientOf(app), basic(app), t, http))).toEqual({
        active: false,
      });
    }
    const refresh = await oauth.refreshTokenGrantRequest(as, clientOf(app), basic(app), tokens.refresh_token!, http);
    expect(refresh.status).toBe(400);
    const none = await request('POST', '/oauth/revoke', { form: { token: tokens.access_token } });
    expect([none.status, none.body.error]).toEqual([403, 'unauthorized_client']);
  });

  it('revoking a superseded refresh token revokes the whole lineage, including the set that replaced it', async () => {
    const { app, as, tokens } = await codeTokens();
    const next = await oauth.processRefreshTokenResponse(
      as,
      clientOf(app),
      await oauth.refreshTokenGrantRequest(as, clientOf(app), basic(app), tokens.refresh_token!, http),
    );
    const newer = await oauth.processRefreshTokenResponse(
      as,
      clientOf(app),
      await oauth.refreshTokenGrantRequest(as, clientOf(app), basic(app), next.refresh_token!, http),
    );
    expect((await api.get('/user', bearer(newer.access_token))).status).toBe(200);
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, clientOf(app), basic(app), tokens.refresh_token!, {
        ...http,
        additionalParameters: { token_type_hint: 'refresh_token' },
      }),
    );
    expect((await api.get('/user', bearer(newer.access_token))).status).toBe(401);
    expect((await oauth.refreshTokenGrantRequest(as, clientOf(app), basic(app), newer.refresh_token!, http)).status).toBe(400);
    expect((await tokensOfApplication(app.id)).every((t) => t.revokedAt !== null)).toBe(true);
  });

  it('introspection authorised by another access token of the same application (Doorkeeper), never by the token itself', async () => {
    const { app, user, tokens } = await codeTokens();
    const second = await issueImplicitToken({ db: testDb().db, application: { id: app.id }, userId: user.id, scopes: ['read_user'] });
    const introspect = (token: string, by: string) => request('POST', '/oauth/introspect', { form: { token }, headers: { Authorization: `Bearer ${by}` } });
    const ok = await introspect(tokens.access_token, second.accessToken);
    expect([ok.status, ok.body.active, ok.body.client_id, ok.body.scope]).toEqual([200, true, app.uid, 'api read_user']);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    const self = await introspect(tokens.access_token, tokens.access_token);
    expect([self.status, self.body.error]).toEqual([401, 'invalid_token']);
    const bogus = await introspect(tokens.access_token, 'not-a-token');
    expect([bogus.status, bogus.body.error]).toEqual([401, 'invalid_token']);
    // A token of another application sees nothing of this one's.
    const other = await codeTokens();
    expect((await introspect(tokens.access_token, other.tokens.access_token)).body).toEqual({ active: false });
    // A revoked bearer authorises nothing.
    await testDb()
      .db.update(oauthAccessTokens)
      .set({ revokedAt: sql`now()` })
      .where(eq(oauthAccessTokens.id, (await tokenRow(second.accessToken))!.id));
    expect((await introspect(tokens.access_token, second.accessToken)).status).toBe(401);
  });

  it('token info: 200 for a live token (header or query); 401 invalid/expired/revoked with WWW-Authenticate', async () => {
    const { app, user, tokens } = await codeTokens();
    const ok = await request('GET', '/oauth/token/info', bearer(tokens.access_token));
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ resource_owner_id: user.id, scope: ['api', 'read_user'], scopes: ['api', 'read_user'], application: { uid: app.uid } });
    expect(ok.body.expires_in).toBeGreaterThan(7100);
    expect(ok.body.expires_in_seconds).toBe(ok.body.expires_in);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    expect((await request('GET', '/oauth/token/info', { query: { access_token: tokens.access_token } })).status).toBe(200);

    const bad = await request('GET', '/oauth/token/info', bearer('garbage'));
    expect([bad.status, bad.body]).toEqual([401, { error: 'invalid_token', error_description: 'The access token is invalid' }]);
    expect(bad.headers.get('www-authenticate')).toContain('invalid_token');

    await testDb()
      .db.update(oauthAccessTokens)
      .set({ createdAt: sql`now() - interval '3 hours'` })
      .where(eq(oauthAccessTokens.id, (await tokenRow(tokens.access_token))!.id));
    const expired = await request('GET', '/oauth/token/info', bearer(tokens.access_token));
    expect(expired.body.error_description).toBe('The access token expired');
    // The REST API answers an expired OAuth token with GitLab's body.
    const restExpired = await api.get('/user', bearer(tokens.access_token));
    expect([restExpired.status, restExpired.body]).toEqual([
      401,
      { error: 'invalid_token', error_description: 'Token is expired. You can either do re-authorization or token refresh.' },
    ]);

    await testDb()
      .db.update(oauthAccessTokens)
      .set({ revokedAt: sql`now()` })
      .where(eq(oauthAccessTokens.id, (await tokenRow(tokens.access_token))!.id));
    expect((await request('GET', '/oauth/token/info', bearer(tokens.access_token))).body.error_description).toBe('The access token was revoked');
  });

  it('scopes are enforced on the REST API: read_user cannot create a project', async () => {
    const { tokens } = await codeTokens(['read_user']);
    const res = await api.post('/projects', { ...bearer(tokens.access_token), body: { name: 'nope' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('insufficient_scope');
    expect((await api.get('/user', bearer(tokens.access_token))).status).toBe(200);
  });

  it('CORS preflight on /oauth/token without credentials', async () => {
    const res = await request('OPTIONS', '/oauth/token', { headers: { Origin: 'https://spa.example', 'Access-Control-Request-Method': 'POST' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('implicit grant (service used by the consent page)', () => {
  it('issues an access token without refresh token that authenticates the API', async () => {
    const { user } = await createUser();
    const app = await createApplication({ scopes: ['read_user'] });
    const issued = await issueImplicitToken({ db: testDb().db, application: app, userId: user.id, scopes: ['read_user'] });
    expect(issued.refreshToken).toBeNull();
    expect(tokenResponseBody(issued)).not.toHaveProperty('refresh_token');
    expect((await api.get('/user', bearer(issued.accessToken))).status).toBe(200);
  });
});

describe('secrets at rest', () => {
  it('no plaintext code, token, refresh token or client secret is stored', async () => {
    const { user } = await createUser();
    const app = await createApplication();
    const code = await issueCode({ application: app, userId: user.id });
    const first = await tokenPost({
      grant_type: 'authorization_code',
      code,
      redirect_uri: app.redirectUris[0]!,
      client_id: app.uid,
      client_secret: app.secret,
    });
    const second = await tokenPost({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id: app.uid, client_secret: app.secret });
    const dump = JSON.stringify(
      await testDb().db.execute(
        sql`SELECT (SELECT json_agg(a) FROM oauth_applications a) AS apps, (SELECT json_agg(g) FROM oauth_grants g) AS grants, (SELECT json_agg(t) FROM oauth_access_tokens t) AS tokens`,
      ),
    );
    for (const secret of [app.secret, code, first.body.access_token, first.body.refresh_token, second.body.access_token, second.body.refresh_token]) {
      expect(secret).toBeTruthy();
      expect(dump).not.toContain(secret);
    }
  });
});
