// The consent POST issues exactly what the page displayed (issue 12, item 1): scopes, client, redirect URI,
// response type, PKCE challenge, state and nonce. A form changed between the page and the POST issues nothing.
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oauthAccessTokens, oauthGrants } from '../../db/schema/index.ts';
import { sha256Hex } from '../../functions/lib/crypto.ts';
import { testDb } from '../helpers/app.ts';
import { formFields, signedIn } from '../helpers/browser.ts';
import { createApplication } from '../factories/oauth.ts';

const CALLBACK = 'https://client.example.test/callback';
const OTHER_CALLBACK = 'https://client.example.test/other-callback';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

const authorizePath = (params: Record<string, string>) => `/oauth/authorize?${new URLSearchParams(params).toString()}`;
const issuedFor = async (applicationIds: number[]) => [
  ...(await testDb().db.select().from(oauthGrants).where(inArray(oauthGrants.applicationId, applicationIds))),
  ...(await testDb().db.select().from(oauthAccessTokens).where(inArray(oauthAccessTokens.applicationId, applicationIds))),
];

async function consentPage(params: Record<string, string>) {
  const app = await createApplication({ scopes: ['api', 'read_user', 'openid'], redirectUris: [CALLBACK, OTHER_CALLBACK] });
  // Another client registered for the same redirect URI: a POST naming it must not borrow this page's consent.
  const twin = await createApplication({ scopes: ['api', 'read_user', 'openid'], redirectUris: [CALLBACK] });
  const session = await signedIn();
  const page = await session.browser.get(authorizePath({ client_id: app.uid, redirect_uri: CALLBACK, ...params }));
  expect(page.status, page.text).toBe(200);
  return { ...session, app, twin, approve: formFields(page.text, '/oauth/authorize'), deny: formFields(page.text, '/oauth/authorize/deny') };
}

describe('POST /oauth/authorize issues what the consent page displayed', () => {
  it('a form changed after the page (scope, state, redirect URI, client, response type, PKCE, nonce) issues nothing', async () => {
    const { browser, app, twin, approve } = await consentPage({
      response_type: 'code',
      scope: 'read_user',
      state: 'shown',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
      nonce: 'n-1',
    });
    const { code_challenge: _c, code_challenge_method: _m, ...withoutPkce } = approve;
    const tampered: Record<string, string>[] = [
      { ...approve, scope: 'api' },
      { ...approve, scope: 'read_user api' },
      // No scope at all asks for the default (api), which the page did not show.
      { ...approve, scope: '' },
      { ...approve, state: 'other' },
      { ...approve, redirect_uri: OTHER_CALLBACK },
      { ...approve, client_id: twin.uid },
      { ...approve, response_type: 'token' },
      { ...approve, code_challenge: 'a'.repeat(43) },
      { ...approve, code_challenge_method: 'plain' },
      withoutPkce,
      { ...approve, nonce: 'n-2' },
    ];
    for (const form of tampered) {
      const res = await browser.post('/oauth/authorize', form);
      expect(res.status, JSON.stringify(form)).toBe(403);
      expect(res.headers.get('location')).toBeNull();
    }
    expect(await issuedFor([app.id, twin.id])).toEqual([]);

    // The form as displayed still works, and issues what was shown.
    const res = await browser.post('/oauth/authorize', approve);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('state')).toBe('shown');
    const [grant] = await testDb()
      .db.select()
      .from(oauthGrants)
      .where(eq(oauthGrants.codeDigest, await sha256Hex(location.searchParams.get('code')!)));
    expect(grant).toMatchObject({
      applicationId: app.id,
      redirectUri: CALLBACK,
      scopes: ['read_user'],
      codeChallenge: CHALLENGE,
      codeChallengeMethod: 'S256',
      nonce: 'n-1',
    });
  });

  it('the implicit flow: a token only for the scopes shown', async () => {
    const { browser, app, approve } = await consentPage({ response_type: 'token', scope: 'read_user', state: 'i' });
    expect((await browser.post('/oauth/authorize', { ...approve, scope: 'api read_user' })).status).toBe(403);
    expect(await issuedFor([app.id])).toEqual([]);
  });

  it("one page's form cannot approve another request, even of the same session and application", async () => {
    const { browser, app, approve } = await consentPage({ response_type: 'code', scope: 'read_user', state: 'a' });
    const wider = formFields(
      (await browser.get(authorizePath({ client_id: app.uid, redirect_uri: CALLBACK, response_type: 'code', scope: 'api', state: 'b' }))).text,
      '/oauth/authorize',
    );
    const res = await browser.post('/oauth/authorize', { ...wider, authenticity_token: approve.authenticity_token! });
    expect(res.status).toBe(403);
    expect(await issuedFor([app.id])).toEqual([]);
  });

  it('a Deny changed after the page (another state or redirect URI) is refused without a redirect', async () => {
    const { browser, app, deny, approve } = await consentPage({ response_type: 'code', scope: 'read_user', state: 'd' });
    for (const [action, form] of [
      ['/oauth/authorize/deny', { ...deny, state: 'forged' }],
      ['/oauth/authorize/deny', { ...deny, redirect_uri: OTHER_CALLBACK }],
      ['/oauth/authorize', { ...approve, state: 'forged', decision: 'deny' }],
    ] as const) {
      const res = await browser.post(action, form);
      expect(res.status, action).toBe(403);
      expect(res.headers.get('location')).toBeNull();
    }
    expect(await issuedFor([app.id])).toEqual([]);
  });
});
