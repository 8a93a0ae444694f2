// Bad input at POST /oauth/token: each near miss gets its exact RFC 6749 error and status, never a 500, with
// no-store, and leaves the stored grant and tokens as they were.
import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.ts';
import { createUser } from '../factories/users.ts';
import { createApplication, grantRow, issueCode, tokensOfApplication } from '../factories/oauth.ts';
import { basicHeader, oauth, tokenPost } from './client.ts';
import { testDb } from '../helpers/app.ts';
import { oauthGrants } from '../../db/schema/index.ts';
import { eq, sql } from 'drizzle-orm';

const REDIRECT = 'https://client.example.test/callback';

async function setup(options: { confidential?: boolean; challenge?: 'S256' | 'plain' } = {}) {
  const { user } = await createUser();
  const app = await createApplication({ confidential: options.confidential ?? true, redirectUris: [REDIRECT] });
  const verifier = oauth.generateRandomCodeVerifier();
  const challenge = options.challenge === 'S256' ? await oauth.calculatePKCECodeChallenge(verifier) : options.challenge === 'plain' ? verifier : undefined;
  const code = await issueCode({ application: app, userId: user.id, codeChallenge: challenge, codeChallengeMethod: options.challenge });
  const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: app.uid, client_secret: app.secret };
  return { user, app, code, verifier, form };
}

async function expectError(res: Awaited<ReturnType<typeof tokenPost>>, status: number, error: string, description?: string) {
  expect([res.status, res.body?.error]).toEqual([status, error]);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('content-type')).toContain('application/json');
  if (description) expect(res.body.error_description).toBe(description);
}

/** The code was not consumed and no token exists: the failed request changed nothing. */
async function expectUntouched(s: Awaited<ReturnType<typeof setup>>) {
  const grant = (await grantRow(s.code))!;
  expect(grant.consumedAt).toBeNull();
  expect(grant.revokedAt).toBeNull();
  expect(await tokensOfApplication(s.app.id)).toEqual([]);
}

describe('redirect_uri must equal the one the code was issued for', () => {
  const variants = [
    `${REDIRECT}/`,
    'https://client.example.test/Callback',
    'https://CLIENT.example.test/callback',
    `${REDIRECT}?x=1`,
    `${REDIRECT}#frag`,
    'https://client.example.test/other',
    'https://client.example.test/callback/../callback',
    'https://user@client.example.test/callback',
    'http://client.example.test/callback',
  ];
  for (const variant of variants) {
    it(`refuses ${variant}, then the code still works`, async () => {
      const s = await setup();
      await expectError(await tokenPost({ ...s.form, redirect_uri: variant }), 400, 'invalid_grant');
      await expectUntouched(s);
      expect((await tokenPost(s.form)).status).toBe(200);
    });
  }
});

describe('codes', () => {
  it('a forged code is invalid_grant and harms nothing', async () => {
    const s = await setup();
    await expectError(await tokenPost({ ...s.form, code: 'forged' }), 400, 'invalid_grant');
    await expectUntouched(s);
  });

  it('an expired code is invalid_grant', async () => {
    const s = await setup();
    await testDb()
      .db.update(oauthGrants)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(oauthGrants.id, (await grantRow(s.code))!.id));
    await expectError(await tokenPost(s.form), 400, 'invalid_grant');
    expect((await grantRow(s.code))!.consumedAt).toBeNull();
  });

  it("another client's code is invalid_grant", async () => {
    const s = await setup();
    const other = await createApplication({ redirectUris: [REDIRECT] });
    await expectError(await tokenPost({ ...s.form, client_id: other.uid, client_secret: other.secret }), 400, 'invalid_grant');
    await expectUntouched(s);
  });
});

describe('PKCE', () => {
  it('a wrong S256 verifier is invalid_grant; the right one then works', async () => {
    const s = await setup({ confidential: false, challenge: 'S256' });
    const { client_secret: _, ...form } = s.form;
    await expectError(await tokenPost({ ...form, code_verifier: oauth.generateRandomCodeVerifier() }), 400, 'invalid_grant');
    await expectError(await tokenPost(form), 400, 'invalid_request', 'Missing required parameter: code_verifier.');
    await expectUntouched(s);
    expect((await tokenPost({ ...form, code_verifier: s.verifier })).status).toBe(200);
  });

  it('a plain challenge does not accept its S256 transform', async () => {
    const s = await setup({ challenge: 'plain' });
    await expectError(await tokenPost({ ...s.form, code_verifier: await oauth.calculatePKCECodeChallenge(s.verifier) }), 400, 'invalid_grant');
    await expectUntouched(s);
  });

  it('a verifier without a stored challenge is refused (downgrade)', async () => {
    const s = await setup();
    await expectError(await tokenPost({ ...s.form, code_verifier: s.verifier }), 400, 'invalid_grant');
    await expectUntouched(s);
  });

  it('a public client without PKCE is refused', async () => {
    const s = await setup({ confidential: false });
    const { client_secret: _, ...form } = s.form;
    await expectError(await tokenPost(form), 400, 'invalid_grant');
    await expectUntouched(s);
  });
});

describe('client authentication', () => {
  it('missing client: invalid_client 401', async () => {
    const s = await setup();
    const { client_id: _a, client_secret: _b, ...form } = s.form;
    await expectError(await tokenPost(form), 401, 'invalid_client');
    await expectUntouched(s);
  });

  it('confidential client without its secret: invalid_client 401', async () => {
    const s = await setup();
    const { client_secret: _, ...form } = s.form;
    await expectError(await tokenPost(form), 401, 'invalid_client');
    await expectUntouched(s);
  });

  it('wrong secret in the body: invalid_client 401 (Bearer challenge)', async () => {
    const s = await setup();
    const res = await tokenPost({ ...s.form, client_secret: 'wrong' });
    await expectError(res, 401, 'invalid_client');
    await expectUntouched(s);
  });

  it('wrong secret by Basic: invalid_client 401 with WWW-Authenticate: Basic', async () => {
    const s = await setup();
    const { client_id: _a, client_secret: _b, ...form } = s.form;
    const res = await tokenPost(form, { Authorization: basicHeader(s.app.uid, 'wrong') });
    await expectError(res, 401, 'invalid_client');
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
    await expectUntouched(s);
    // Unknown client by Basic, and a malformed Basic header.
    await expectError(await tokenPost(form, { Authorization: basicHeader('nope', 'x') }), 401, 'invalid_client');
    await expectError(await tokenPost(form, { Authorization: 'Basic %%%' }), 401, 'invalid_client');
    // The right Basic credentials work.
    expect((await tokenPost(form, { Authorization: basicHeader(s.app.uid, s.app.secret) })).status).toBe(200);
  });

  it('Basic and body secret together: invalid_request; mismatched ids: invalid_request', async () => {
    const s = await setup();
    await expectError(await tokenPost(s.form, { Authorization: basicHeader(s.app.uid, s.app.secret) }), 400, 'invalid_request');
    const { client_secret: _, ...form } = s.form;
    await expectError(await tokenPost({ ...form, client_id: 'someone-else' }, { Authorization: basicHeader(s.app.uid, s.app.secret) }), 400, 'invalid_request');
    await expectUntouched(s);
  });
});

describe('request shape', () => {
  it('missing grant_type and unknown grant types', async () => {
    await expectError(await tokenPost({}), 400, 'invalid_request', 'Missing required parameter: grant_type.');
    await expectError(await tokenPost({ grant_type: 'client_credentials' }), 400, 'unsupported_grant_type');
    await expectError(await tokenPost({ grant_type: '__proto__' }), 400, 'unsupported_grant_type');
  });

  it('missing parameters name the parameter', async () => {
    const s = await setup();
    const { code: _c, ...noCode } = s.form;
    await expectError(await tokenPost(noCode), 400, 'invalid_request', 'Missing required parameter: code.');
    const { redirect_uri: _r, ...noRedirect } = s.form;
    await expectError(await tokenPost(noRedirect), 400, 'invalid_request', 'Missing required parameter: redirect_uri.');
    await expectError(
      await tokenPost({ grant_type: 'refresh_token', client_id: s.app.uid }),
      400,
      'invalid_request',
      'Missing required parameter: refresh_token.',
    );
    await expectUntouched(s);
  });

  it('malformed bodies: broken JSON, non-string values, JSON arrays', async () => {
    const s = await setup();
    await expectError(await request('POST', '/oauth/token', { body: '{"grant_type":' }), 400, 'invalid_request');
    await expectError(await request('POST', '/oauth/token', { body: { ...s.form, code: ['a', 'b'] } }), 400, 'invalid_request');
    await expectError(await request('POST', '/oauth/token', { body: { ...s.form, code: 42 } }), 400, 'invalid_request');
    await expectError(await request('POST', '/oauth/token', { body: '[1,2]' }), 400, 'invalid_request');
    await expectError(await tokenPost({ ...s.form, code: 'x'.repeat(100_000) }), 400, 'invalid_request');
    await expectUntouched(s);
    // JSON bodies are accepted like forms.
    expect((await request('POST', '/oauth/token', { body: s.form })).status).toBe(200);
  });

  it('a parameter sent twice (RFC 6749 §3.1), in the body or across query and body, is invalid_request; the code stays redeemable', async () => {
    const s = await setup();
    const twice = [...Object.entries(s.form), ['code', s.form.code]] as unknown as Record<string, string>;
    await expectError(await request('POST', '/oauth/token', { form: twice }), 400, 'invalid_request', 'Parameter included more than once: code.');
    await expectError(
      await request('POST', '/oauth/token', { form: s.form, query: { grant_type: 'authorization_code' } }),
      400,
      'invalid_request',
      'Parameter included more than once: grant_type.',
    );
    const revoke = [
      ['token', 'a'],
      ['token', 'b'],
      ['client_id', s.app.uid],
      ['client_secret', s.app.secret],
    ] as unknown as Record<string, string>;
    await expectError(await request('POST', '/oauth/revoke', { form: revoke }), 400, 'invalid_request', 'Parameter included more than once: token.');
    await expectUntouched(s);
    expect((await tokenPost(s.form)).status).toBe(200);
  });
});
