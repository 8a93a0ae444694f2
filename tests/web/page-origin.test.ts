// Every state-changing page POST is refused when the browser says it comes from another site (issue 12, item 4):
// an Origin that is neither the request's own nor PUBLIC_URL's, or Sec-Fetch-Site other than same-origin, even with a valid CSRF token.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oauthAccessTokens, oauthApplications, oauthGrants } from '../../db/schema/index.ts';
import { sha256Hex } from '../../functions/lib/crypto.ts';
import { api, TEST_PUBLIC_URL, testDb } from '../helpers/app.ts';
import { Browser, createUserWithPassword, csrfToken, formFields, PASSWORD, signedIn } from '../helpers/browser.ts';
import { createApplication } from '../factories/oauth.ts';
import { unique } from '../factories/users.ts';

const EVIL = 'https://evil.example';
/** What browsers send with a POST another site's page makes to us (or, for the first, a client without Sec-Fetch-Site). */
const CROSS_SITE: Record<string, string | undefined>[] = [
  { origin: EVIL },
  { origin: EVIL, 'sec-fetch-site': 'cross-site' },
  // A page elsewhere with Referrer-Policy no-referrer, or a sandboxed frame: an opaque origin.
  { origin: 'null', 'sec-fetch-site': 'cross-site' },
  { 'sec-fetch-site': 'cross-site' },
  // A sibling subdomain is another origin.
  { origin: 'https://pages.gitlab.example.test', 'sec-fetch-site': 'same-site' },
  // Headers that contradict each other are not trusted either way.
  { origin: TEST_PUBLIC_URL, 'sec-fetch-site': 'cross-site' },
  { origin: EVIL, 'sec-fetch-site': 'same-origin' },
  // Neither header: nothing vouches for the request.
  { origin: undefined, 'sec-fetch-site': undefined },
];

const sessionWorks = (cookie: string) => api.get('/user', { headers: { cookie: `_gitlab_session=${cookie}` } }).then((r) => r.status === 200);

describe('page POSTs from another site are refused, whatever token they carry', () => {
  it('consent (Authorize and Deny): 403, no redirect, nothing issued', async () => {
    const app = await createApplication();
    const { browser } = await signedIn();
    const page = await browser.get(
      `/oauth/authorize?${new URLSearchParams({ client_id: app.uid, redirect_uri: app.redirectUris[0]!, response_type: 'code', scope: 'read_user', state: 's' })}`,
    );
    const approve = formFields(page.text, '/oauth/authorize');
    const deny = formFields(page.text, '/oauth/authorize/deny');
    for (const headers of CROSS_SITE) {
      for (const [action, form] of [
        ['/oauth/authorize', approve],
        ['/oauth/authorize/deny', deny],
      ] as const) {
        const res = await browser.post(action, form, headers);
        expect(res.status, `${action} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.headers.get('location')).toBeNull();
      }
    }
    expect(await testDb().db.select().from(oauthGrants).where(eq(oauthGrants.applicationId, app.id))).toEqual([]);
  });

  it('sign-in: 403 and no session', async () => {
    const { user } = await createUserWithPassword();
    const browser = new Browser();
    const token = csrfToken((await browser.get('/users/sign_in')).text);
    for (const headers of CROSS_SITE) {
      const res = await browser.post('/users/sign_in', { authenticity_token: token, 'user[login]': user.username, 'user[password]': PASSWORD }, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(browser.cookies.has('_gitlab_session')).toBe(false);
    }
  });

  it('sign-out: 403 and the session lives on', async () => {
    const { browser } = await signedIn();
    const token = csrfToken((await browser.get('/oauth/applications')).text);
    for (const headers of CROSS_SITE)
      expect((await browser.post('/users/sign_out', { authenticity_token: token }, headers)).status, JSON.stringify(headers)).toBe(403);
    expect(await sessionWorks(browser.cookies.get('_gitlab_session')!)).toBe(true);
  });

  it('applications: create, renew and delete are refused and change nothing', async () => {
    const { browser, user } = await signedIn();
    const token = csrfToken((await browser.get('/oauth/applications')).text);
    const own = await createApplication({ ownerId: user.id });
    const [before] = await testDb().db.select().from(oauthApplications).where(eq(oauthApplications.id, own.id));
    const create = {
      authenticity_token: token,
      'doorkeeper_application[name]': unique('Forged '),
      'doorkeeper_application[redirect_uri]': 'https://evil.example/cb',
      'doorkeeper_application[scopes][]': 'api',
    };
    for (const headers of CROSS_SITE) {
      expect((await browser.post('/oauth/applications', create, headers)).status).toBe(403);
      expect((await browser.post(`/oauth/applications/${own.id}/renew`, { authenticity_token: token }, headers)).status).toBe(403);
      expect((await browser.post(`/oauth/applications/${own.id}/delete`, { authenticity_token: token }, headers)).status).toBe(403);
    }
    expect(await testDb().db.select().from(oauthApplications).where(eq(oauthApplications.ownerId, user.id))).toEqual([before]);
  });

  it('authorized applications: Revoke is refused and the token keeps working', async () => {
    const { browser, user } = await signedIn();
    const app = await createApplication();
    const accessToken = unique('access-');
    await testDb()
      .db.insert(oauthAccessTokens)
      .values({ tokenDigest: await sha256Hex(accessToken), applicationId: app.id, userId: user.id, scopes: ['api'], expiresIn: 7200, lineage: unique('l') });
    const token = csrfToken((await browser.get('/oauth/authorized_applications')).text);
    for (const headers of CROSS_SITE)
      expect((await browser.post(`/oauth/authorized_applications/${app.id}/revoke`, { authenticity_token: token }, headers)).status).toBe(403);
    expect((await api.get('/user', { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(200);
  });
});

describe('page POSTs from our own pages pass', () => {
  it('with Sec-Fetch-Site same-origin and an opaque Origin (what browsers send from our no-referrer pages), or our Origin alone', async () => {
    const app = await createApplication();
    const { browser } = await signedIn();
    for (const headers of [{ origin: 'null', 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'same-origin' }, { origin: TEST_PUBLIC_URL }]) {
      const page = await browser.get(
        `/oauth/authorize?${new URLSearchParams({ client_id: app.uid, redirect_uri: app.redirectUris[0]!, response_type: 'code', scope: 'read_user', state: 'ok' })}`,
      );
      expect(page.status).toBe(200);
      const res = await browser.post('/oauth/authorize', formFields(page.text, '/oauth/authorize'), headers);
      expect(res.status, JSON.stringify(headers)).toBe(302);
      expect(new URL(res.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    }
  });
});

describe('our own origin is the one the request was sent to, as Rails compares it (issue 28, item 14)', () => {
  // `npm start` answers on localhost and 127.0.0.1 alike; PUBLIC_URL names one of them.
  const LOOPBACK = 'http://127.0.0.1:8080';

  it('sign-in on another address of this server than PUBLIC_URL: the session is made', async () => {
    const { user } = await createUserWithPassword();
    for (const headers of [{ origin: LOOPBACK, 'sec-fetch-site': 'same-origin' }, { origin: LOOPBACK }]) {
      const browser = new Browser();
      const page = await browser.get(`${LOOPBACK}/users/sign_in`);
      expect(page.status).toBe(200);
      const res = await browser.post(
        `${LOOPBACK}/users/sign_in`,
        { authenticity_token: csrfToken(page.text), 'user[login]': user.username, 'user[password]': PASSWORD },
        headers,
      );
      expect([res.status, JSON.stringify(headers)]).toEqual([302, JSON.stringify(headers)]);
      expect(await sessionWorks(browser.cookies.get('_gitlab_session')!)).toBe(true);
    }
  });

  it("still refuses what another site posts there, and an Origin that is neither the request's nor PUBLIC_URL's", async () => {
    const { user } = await createUserWithPassword();
    const browser = new Browser();
    const token = csrfToken((await browser.get(`${LOOPBACK}/users/sign_in`)).text);
    const form = { authenticity_token: token, 'user[login]': user.username, 'user[password]': PASSWORD };
    for (const headers of [
      ...CROSS_SITE,
      { origin: 'http://localhost:8080' },
      { origin: 'http://127.0.0.1:9090', 'sec-fetch-site': 'same-origin' },
      { origin: 'https://127.0.0.1:8080' },
    ]) {
      const res = await browser.post(`${LOOPBACK}/users/sign_in`, form, headers);
      expect([res.status, JSON.stringify(headers)]).toEqual([403, JSON.stringify(headers)]);
      expect(browser.cookies.has('_gitlab_session')).toBe(false);
    }
  });
});
