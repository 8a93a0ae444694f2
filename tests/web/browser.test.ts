// The pages in a real browser: headless Debian chromium driven by playwright-core (no browser download; `.ci/run`
// installs chromium). Sign in, register an application on the applications page, start the code flow with PKCE,
// click Authorize, follow the redirect to a local callback, exchange the code, call /api/v4/user; and Deny.
// This also proves the strict CSP lets the consent form's redirect reach another origin (form-action).
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTestApp } from '../helpers/app.ts';
import { createUserWithPassword, PASSWORD } from '../helpers/browser.ts';

const CHROMIUM = '/usr/bin/chromium';

describe.skipIf(!existsSync(CHROMIUM))('browser: sign-in, applications page, consent (chromium)', () => {
  let served: Awaited<ReturnType<typeof serveTestApp>>;
  let callback: Server;
  let callbackUrl: string;
  let context: BrowserContext;
  let userDataDir: string;

  beforeAll(async () => {
    served = await serveTestApp();
    callback = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`callback ${req.url}`);
    });
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
    const address = callback.address();
    callbackUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/callback`;
    userDataDir = mkdtempSync(join(tmpdir(), 'chromium-test-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await new Promise<void>((resolve) => (callback ? callback.close(() => resolve()) : resolve()));
    await served?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  });

  it(
    'signs in, registers an application, authorizes (code + PKCE), exchanges the code and calls the API; Deny returns access_denied',
    { timeout: 90_000 },
    async () => {
      const { user } = await createUserWithPassword();
      const page = await context.newPage();
      const violations: string[] = [];
      page.on('console', (m) => m.text().includes('Content Security Policy') && violations.push(m.text()));

      // Sign in (the CSRF cookie and hidden field come from the page itself).
      await page.goto(`${served.url}/users/sign_in`);
      await page.fill('#user_login', user.username);
      await page.fill('#user_password', PASSWORD);
      await Promise.all([page.waitForURL(`${served.url}/oauth/applications`), page.click('button[type=submit]:has-text("Sign in")')]);

      // Register an application.
      await page.fill('#doorkeeper_application_name', 'Browser test app');
      await page.fill('#doorkeeper_application_redirect_uri', callbackUrl);
      await page.check('#doorkeeper_application_scopes_read_user');
      await page.click('button:has-text("Save application")');
      const clientId = (await page.textContent('#application_id'))!.trim();
      const secret = (await page.textContent('#secret'))!.trim();
      expect(clientId).toMatch(/^[0-9a-f]{64}$/);
      expect(secret).toMatch(/^[0-9a-f]{64}$/);

      // Code flow with PKCE.
      const verifier = randomBytes(32).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const state = 'st ate/ü+1';
      const authorize = new URL(`${served.url}/oauth/authorize`);
      for (const [k, v] of Object.entries({
        client_id: clientId,
        redirect_uri: callbackUrl,
        response_type: 'code',
        scope: 'read_user',
        state,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      })) {
        authorize.searchParams.set(k, v);
      }
      await page.goto(authorize.toString());
      expect(await page.textContent('h1')).toContain('Browser test app');
      expect(await page.textContent('#oauth-scopes')).toContain('read_user');
      await Promise.all([page.waitForURL((u) => u.toString().startsWith(callbackUrl)), page.click('button:has-text("Authorize")')]);
      const landed = new URL(page.url());
      expect(landed.searchParams.get('state')).toBe(state);
      const code = landed.searchParams.get('code')!;
      expect(code).toBeTruthy();
      expect(await page.textContent('body')).toContain('callback /callback?code=');

      const tokenRes = await fetch(`${served.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: callbackUrl,
          client_id: clientId,
          client_secret: secret,
          code_verifier: verifier,
        }),
      });
      const token = (await tokenRes.json()) as { access_token: string; scope: string };
      expect(tokenRes.status).toBe(200);
      expect(token.scope).toBe('read_user');
      const me = await fetch(`${served.url}/api/v4/user`, { headers: { authorization: `Bearer ${token.access_token}` } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { username: string }).username).toBe(user.username);

      // Granted once: the same request skips the consent page (Doorkeeper's matching_token?) and lands with a code.
      authorize.searchParams.set('state', 'again');
      await page.goto(authorize.toString());
      await page.waitForURL((u) => u.toString().startsWith(callbackUrl));
      expect(new URL(page.url()).searchParams.get('state')).toBe('again');
      expect(new URL(page.url()).searchParams.get('code')).toBeTruthy();

      // Revoke it on the authorized applications page: the token stops working and consent is asked again.
      await page.goto(`${served.url}/oauth/authorized_applications`);
      expect(await page.textContent('body')).toContain('Browser test app');
      await page.click('button:has-text("Revoke")');
      expect((await fetch(`${served.url}/api/v4/user`, { headers: { authorization: `Bearer ${token.access_token}` } })).status).toBe(401);

      // Deny.
      authorize.searchParams.set('state', 'deny-state');
      await page.goto(authorize.toString());
      await Promise.all([page.waitForURL((u) => u.toString().startsWith(callbackUrl)), page.click('button:has-text("Deny")')]);
      const denied = new URL(page.url());
      expect(denied.searchParams.get('error')).toBe('access_denied');
      expect(denied.searchParams.get('state')).toBe('deny-state');
      expect(denied.searchParams.get('code')).toBeNull();
      expect(violations).toEqual([]);
      await page.close();
    },
  );
});
