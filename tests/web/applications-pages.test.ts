// /oauth/applications and /oauth/authorized_applications: create (secret once, digest stored), errors on the form,
// renew, delete, another user's application, CSRF on every POST; authorized applications list and revoke.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oauthAccessTokens, oauthApplications, oauthGrants } from '../../db/schema/index.ts';
import { sha256Hex } from '../../functions/lib/crypto.ts';
import { OAUTH_SCOPES } from '../../functions/oauth/scopes.ts';
import { api, testDb } from '../helpers/app.ts';
import { Browser, csrfToken, signedIn } from '../helpers/browser.ts';
import { unique } from '../factories/users.ts';

const appRow = async (id: number) => (await testDb().db.select().from(oauthApplications).where(eq(oauthApplications.id, id)))[0];

async function createThroughPage(browser: Browser, fields: { name?: string; redirectUri?: string; confidential?: boolean; scopes?: string[] } = {}) {
  const page = await browser.get('/oauth/applications');
  const form: [string, string][] = [
    ['authenticity_token', csrfToken(page.text)],
    ['doorkeeper_application[name]', fields.name ?? unique('My app ')],
    ['doorkeeper_application[redirect_uri]', fields.redirectUri ?? 'https://client.example.test/callback\r\nhttp://127.0.0.1:9000/cb'],
    ...(fields.confidential === false ? [] : ([['doorkeeper_application[confidential]', '1']] as [string, string][])),
    ...(fields.scopes ?? ['api', 'read_user']).map((s): [string, string] => ['doorkeeper_application[scopes][]', s]),
  ];
  return browser.post('/oauth/applications', form);
}

const shown = (html: string, id: string) => new RegExp(`<code id="${id}">([^<]+)</code>`).exec(html)?.[1];

describe('/oauth/applications', () => {
  it('signed out: redirects to sign in and back', async () => {
    const res = await new Browser().get('/oauth/applications');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/users/sign_in?return_to=%2Foauth%2Fapplications');
  });

  it('the form offers every scope with its description, and the confidential checkbox checked', async () => {
    const { browser } = await signedIn();
    const res = await browser.get('/oauth/applications');
    expect(res.status).toBe(200);
    for (const [scope, description] of Object.entries(OAUTH_SCOPES)) {
      expect(res.text).toContain(`value="${scope}"`);
      expect(res.text).toContain(description.replace(/'/g, '&#39;'));
    }
    expect(res.text).toMatch(/name="doorkeeper_application\[confidential\]" value="1" checked/);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('creates an application: Application ID and secret shown once, only the digest stored, owned by the user', async () => {
    const { browser, user } = await signedIn();
    const res = await createThroughPage(browser, { name: 'Page app', scopes: ['read_user', 'openid'] });
    expect(res.status, res.text).toBe(201);
    const uid = shown(res.text, 'application_id')!;
    const secret = shown(res.text, 'secret')!;
    expect(uid).toMatch(/^[0-9a-f]{64}$/);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(res.text).toContain('This is the only time the secret is accessible.');
    const [row] = await testDb().db.select().from(oauthApplications).where(eq(oauthApplications.uid, uid));
    expect(row).toMatchObject({
      name: 'Page app',
      ownerId: user.id,
      confidential: true,
      scopes: ['read_user', 'openid'],
      redirectUris: ['https://client.example.test/callback', 'http://127.0.0.1:9000/cb'],
    });
    expect(row!.secretDigest).toBe(await sha256Hex(secret));
    // Listed, and the show page no longer has the secret.
    const list = await browser.get('/oauth/applications');
    expect(list.text).toContain('Page app');
    expect(list.text).not.toContain(secret);
    const show = await browser.get(`/oauth/applications/${row!.id}`);
    expect(show.status).toBe(200);
    expect(show.text).toContain(uid);
    expect(show.text).not.toContain(secret);
  });

  it('unchecked confidential makes a public client', async () => {
    const { browser } = await signedIn();
    const res = await createThroughPage(browser, { confidential: false });
    const [row] = await testDb()
      .db.select()
      .from(oauthApplications)
      .where(eq(oauthApplications.uid, shown(res.text, 'application_id')!));
    expect(row!.confidential).toBe(false);
  });

  const refused: [string, string][] = [
    ['javascript:alert(document.cookie)', 'Redirect URI is forbidden by the server.'],
    ['data:text/html;base64,PHNjcmlwdD4=', 'Redirect URI is forbidden by the server.'],
    ['vbscript:msgbox', 'Redirect URI is forbidden by the server.'],
    ['file:///etc/passwd', 'Redirect URI is forbidden by the server.'],
    ['https://client.example.test/cb#token', 'Redirect URI cannot contain a fragment.'],
    ['/callback', 'Redirect URI must be an absolute URI.'],
    ['https://client.example.test/c\u0001b', 'Redirect URI must be a valid URI.'],
  ];
  for (const [uri, message] of refused) {
    it(`refuses ${JSON.stringify(uri)} with a message on the form, keeping the input`, async () => {
      const { browser, user } = await signedIn();
      const name = unique('Refused ');
      const res = await createThroughPage(browser, { name, redirectUri: uri });
      expect(res.status).toBe(400);
      expect(res.text).toContain(message);
      expect(res.text).toContain(`value="${name}"`);
      expect(await testDb().db.select().from(oauthApplications).where(eq(oauthApplications.ownerId, user.id))).toEqual([]);
    });
  }

  it('name and scopes are required; an unknown scope is refused', async () => {
    const { browser } = await signedIn();
    const res = await createThroughPage(browser, { name: ' ', scopes: [] });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Name can&#39;t be blank');
    expect(res.text).toContain('Scopes can&#39;t be blank');
    const unknown = await createThroughPage(browser, { scopes: ['api', 'admin_mode_everything'] });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('Scopes doesn&#39;t match those configured on the server.');
  });

  it('renews the secret: a new one shown once, the old digest replaced', async () => {
    const { browser } = await signedIn();
    const created = await createThroughPage(browser);
    const uid = shown(created.text, 'application_id')!;
    const [before] = await testDb().db.select().from(oauthApplications).where(eq(oauthApplications.uid, uid));
    const res = await browser.post(`/oauth/applications/${before!.id}/renew`, { authenticity_token: csrfToken(created.text) });
    expect(res.status).toBe(200);
    const secret = shown(res.text, 'secret')!;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(secret).not.toBe(shown(created.text, 'secret'));
    expect((await appRow(before!.id))!.secretDigest).toBe(await sha256Hex(secret));
  });

  it('deletes an application (its grants and tokens with it)', async () => {
    const { browser, user } = await signedIn();
    const created = await createThroughPage(browser);
    const [row] = await testDb()
      .db.select()
      .from(oauthApplications)
      .where(eq(oauthApplications.uid, shown(created.text, 'application_id')!));
    await testDb()
      .db.insert(oauthAccessTokens)
      .values({ tokenDigest: await sha256Hex(unique('t')), applicationId: row!.id, userId: user.id, scopes: ['api'], expiresIn: 7200, lineage: unique('l') });
    const res = await browser.post(`/oauth/applications/${row!.id}/delete`, { authenticity_token: csrfToken(created.text) });
    expect(res.status).toBe(200);
    expect(res.text).toContain('The application was deleted successfully.');
    expect(await appRow(row!.id)).toBeUndefined();
    expect(await testDb().db.select().from(oauthAccessTokens).where(eq(oauthAccessTokens.applicationId, row!.id))).toEqual([]);
  });

  it("another user's application: 404 for show, renew and delete, and nothing changes", async () => {
    const owner = await signedIn();
    const created = await createThroughPage(owner.browser);
    const [row] = await testDb()
      .db.select()
      .from(oauthApplications)
      .where(eq(oauthApplications.uid, shown(created.text, 'application_id')!));
    const other = await signedIn();
    const token = csrfToken((await other.browser.get('/oauth/applications')).text);
    expect((await other.browser.get(`/oauth/applications/${row!.id}`)).status).toBe(404);
    expect((await other.browser.post(`/oauth/applications/${row!.id}/renew`, { authenticity_token: token })).status).toBe(404);
    expect((await other.browser.post(`/oauth/applications/${row!.id}/delete`, { authenticity_token: token })).status).toBe(404);
    expect(await appRow(row!.id)).toEqual(row);
    expect((await other.browser.get('/oauth/applications')).text).not.toContain(row!.uid);
  });

  it("every POST needs the session CSRF token (missing, wrong, or another session's): 403 and nothing changes", async () => {
    const { browser, user } = await signedIn();
    const other = await signedIn();
    const otherToken = csrfToken((await other.browser.get('/oauth/applications')).text);
    const created = await createThroughPage(browser);
    const [row] = await testDb()
      .db.select()
      .from(oauthApplications)
      .where(eq(oauthApplications.uid, shown(created.text, 'application_id')!));
    for (const token of [undefined, 'x'.repeat(64), otherToken]) {
      const form: Record<string, string> = token ? { authenticity_token: token } : {};
      const create = await browser.post('/oauth/applications', {
        ...form,
        'doorkeeper_application[name]': 'csrf',
        'doorkeeper_application[redirect_uri]': 'https://a.test/cb',
        'doorkeeper_application[scopes][]': 'api',
      });
      expect(create.status).toBe(403);
      expect((await browser.post(`/oauth/applications/${row!.id}/renew`, form)).status).toBe(403);
      expect((await browser.post(`/oauth/applications/${row!.id}/delete`, form)).status).toBe(403);
    }
    expect(await appRow(row!.id)).toEqual(row);
    expect(await testDb().db.select().from(oauthApplications).where(eq(oauthApplications.ownerId, user.id))).toHaveLength(1);
  });
});

describe('/oauth/authorized_applications', () => {
  it('lists applications with live tokens; Revoke kills the tokens and unexchanged codes', async () => {
    const { browser, user } = await signedIn();
    const dev = await signedIn();
    const created = await createThroughPage(dev.browser, { name: unique('Granted ') });
    const [app] = await testDb()
      .db.select()
      .from(oauthApplications)
      .where(eq(oauthApplications.uid, shown(created.text, 'application_id')!));
    const accessToken = unique('access-');
    await testDb()
      .db.insert(oauthAccessTokens)
      .values([
        {
          tokenDigest: await sha256Hex(accessToken),
          applicationId: app!.id,
          userId: user.id,
          scopes: ['api', 'read_user'],
          expiresIn: 7200,
          lineage: unique('l'),
        },
        // Someone else's token for the same application survives the revoke.
        { tokenDigest: await sha256Hex(unique('other-')), applicationId: app!.id, userId: dev.user.id, scopes: ['api'], expiresIn: 7200, lineage: unique('l') },
      ]);
    const codeDigest = await sha256Hex(unique('code-'));
    await testDb()
      .db.insert(oauthGrants)
      .values({
        codeDigest,
        applicationId: app!.id,
        userId: user.id,
        redirectUri: app!.redirectUris[0]!,
        scopes: ['api'],
        expiresAt: new Date(Date.now() + 600_000),
      });
    expect((await api.get('/user', { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(200);

    const page = await browser.get('/oauth/authorized_applications');
    expect(page.status).toBe(200);
    expect(page.text).toContain(app!.name);
    expect(page.text).toContain('api, read_user');
    expect((await browser.post(`/oauth/authorized_applications/${app!.id}/revoke`, {})).status).toBe(403);

    const res = await browser.post(`/oauth/authorized_applications/${app!.id}/revoke`, { authenticity_token: csrfToken(page.text) });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(app!.name);
    expect((await api.get('/user', { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(401);
    const [grant] = await testDb().db.select().from(oauthGrants).where(eq(oauthGrants.codeDigest, codeDigest));
    expect(grant!.revokedAt).not.toBeNull();
    const tokens = await testDb().db.select().from(oauthAccessTokens).where(eq(oauthAccessTokens.applicationId, app!.id));
    expect(tokens.find((t) => t.userId === dev.user.id)!.revokedAt).toBeNull();
    expect(tokens.find((t) => t.userId === user.id)!.revokedAt).not.toBeNull();
  });
});
