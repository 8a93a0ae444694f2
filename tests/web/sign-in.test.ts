// Sign-in and sign-out pages: session cookie, one failure sentence for every failure, lockout after 10 failures,
// per-IP 429, CSRF (double-submit cookie before sign-in, session-derived after), safe return_to, strict headers.
import { describe, expect, it } from 'vitest';
import { api } from '../helpers/app.ts';
import { Browser, createUserWithPassword, csrfToken, PASSWORD, signedIn } from '../helpers/browser.ts';
import { unique } from '../factories/users.ts';

const INVALID = 'Invalid login or password.';

describe('GET /users/sign_in', () => {
  it('renders the form with a CSRF token and strict security headers', async () => {
    const browser = new Browser();
    const res = await browser.get('/users/sign_in');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('name="user[login]"');
    expect(csrfToken(res.text)).toMatch(/^[\w-]{43}$/);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toMatch(/script-src/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.text).not.toContain('<script');
  });
});

describe('POST /users/sign_in', () => {
  it('signs in by username or email; the session cookie is HttpOnly, Secure, SameSite=Lax and works on the API', async () => {
    const { user } = await createUserWithPassword();
    for (const login of [user.username, user.email.toUpperCase()]) {
      const browser = new Browser();
      const page = await browser.get('/users/sign_in');
      const res = await browser.post('/users/sign_in', { authenticity_token: csrfToken(page.text), 'user[login]': login, 'user[password]': PASSWORD });
      expect(res.status, res.text).toBe(302);
      expect(res.headers.get('location')).toBe('/oauth/applications');
      const cookie = res.headers
        .getSetCookie()
        .filter((c) => c.startsWith('_gitlab_session='))
        .at(-1)!;
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/Secure/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      const me = await api.get('/user', { headers: { cookie: `_gitlab_session=${browser.cookies.get('_gitlab_session')}` } });
      expect(me.status).toBe(200);
      expect(me.body.username).toBe(user.username);
    }
  });

  it('wrong password, unknown user and blocked user all get the same sentence and no session', async () => {
    const { user } = await createUserWithPassword();
    const { user: blocked } = await createUserWithPassword({ state: 'blocked' });
    const bodies: string[] = [];
    for (const [login, password] of [
      [user.username, 'wrong password'],
      [unique('nobody'), PASSWORD],
      [blocked.username, PASSWORD],
    ] as const) {
      const browser = new Browser();
      const res = await browser.signIn(login, password);
      expect(res.status).toBe(401);
      expect(res.text).toContain(INVALID);
      expect(browser.cookies.has('_gitlab_session')).toBe(false);
      bodies.push(res.text.replace(/value="[^"]*"/g, ''));
    }
    // Apart from the echoed login and the token, the pages are the same.
    expect(bodies[0]!.replace(user.username, 'X')).toBe(bodies[1]!.replace(/nobody\w+/, 'X'));
  });

  it('locks the account after 10 failures: the right password then fails with the same sentence', async () => {
    const { user } = await createUserWithPassword();
    const browser = new Browser();
    for (let i = 0; i < 10; i++) expect((await browser.signIn(user.username, `wrong-${i}`)).text).toContain(INVALID);
    const res = await browser.signIn(user.username, PASSWORD);
    expect(res.status).toBe(401);
    expect(res.text).toContain(INVALID);
    expect(browser.cookies.has('_gitlab_session')).toBe(false);
    // Another browser (another IP) is locked out of that account too: the counter is per account.
    const other = await new Browser().signIn(user.username, PASSWORD);
    expect(other.text).toContain(INVALID);
  });

  it('username and email share one counter: 5 failures through each lock the account', async () => {
    const { user } = await createUserWithPassword();
    for (let i = 0; i < 10; i++) {
      const res = await new Browser().signIn(i % 2 ? user.username : user.email.toUpperCase(), `wrong-${i}`);
      expect(res.text).toContain(INVALID);
    }
    const res = await new Browser().signIn(user.email, PASSWORD);
    expect([res.status, res.text.includes(INVALID)]).toEqual([401, true]);
  });

  it('more than 30 attempts a minute from one IP: 429 page with Retry-After', async () => {
    const browser = new Browser();
    const token = csrfToken((await browser.get('/users/sign_in')).text);
    let last;
    for (let i = 0; i < 30; i++) {
      last = await browser.post('/users/sign_in', { authenticity_token: token, 'user[login]': unique('nobody'), 'user[password]': 'x' });
      expect(last.status).toBe(401);
    }
    last = await browser.post('/users/sign_in', { authenticity_token: token, 'user[login]': unique('nobody'), 'user[password]': 'x' });
    expect(last.status).toBe(429);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last.headers.get('content-type')).toMatch(/^text\/html/);
    expect(last.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('403 without the CSRF token, with a wrong one, or without the CSRF cookie', async () => {
    const { user } = await createUserWithPassword();
    const browser = new Browser();
    const token = csrfToken((await browser.get('/users/sign_in')).text);
    const form = { 'user[login]': user.username, 'user[password]': PASSWORD };
    expect((await browser.post('/users/sign_in', form)).status).toBe(403);
    expect((await browser.post('/users/sign_in', { ...form, authenticity_token: token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A') })).status).toBe(403);
    const fresh = new Browser(); // a token copied from another browser, without its cookie
    const res = await fresh.post('/users/sign_in', { ...form, authenticity_token: token });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(fresh.cookies.has('_gitlab_session')).toBe(false);
  });

  it('return_to: own paths only; open-redirect attempts fall back to /oauth/applications', async () => {
    const { user } = await createUserWithPassword();
    const cases: [string, string][] = [
      ['/oauth/authorized_applications', '/oauth/authorized_applications'],
      ['/oauth/authorize?client_id=a&state=x%20y', '/oauth/authorize?client_id=a&state=x%20y'],
      ['//evil.example/x', '/oauth/applications'],
      ['/\\evil.example/x', '/oauth/applications'],
      ['\\\\evil.example', '/oauth/applications'],
      ['https://evil.example/x', '/oauth/applications'],
      ['javascript:alert(1)', '/oauth/applications'],
      ['/\t/evil.example', '/oauth/applications'],
      ['/\n/evil.example', '/oauth/applications'],
      ['evil.example', '/oauth/applications'],
      ['', '/oauth/applications'],
    ];
    for (const [returnTo, expected] of cases) {
      const browser = new Browser();
      const res = await browser.signIn(user.username, PASSWORD, returnTo);
      expect(res.status, returnTo).toBe(302);
      expect(res.headers.get('location'), returnTo).toBe(expected);
    }
    // A crafted form field is held to the same rule as the query parameter.
    const browser = new Browser();
    const token = csrfToken((await browser.get('/users/sign_in')).text);
    const res = await browser.post('/users/sign_in', {
      authenticity_token: token,
      'user[login]': user.username,
      'user[password]': PASSWORD,
      return_to: '//evil.example',
    });
    expect(res.headers.get('location')).toBe('/oauth/applications');
  });

  it('signing in again replaces the session (the old session id stops working)', async () => {
    const { browser, user } = await signedIn();
    const old = browser.cookies.get('_gitlab_session')!;
    // Post the sign-in form while still holding the old session cookie (a fixation attempt would reuse it).
    const fresh = new Browser();
    fresh.cookies.set('_gitlab_session', old);
    const page = await fresh.request('GET', '/users/sign_in', { headers: {} });
    expect(page.status).toBe(302); // already signed in with that cookie
    fresh.cookies.set('_gitlab_signin_csrf', 'A'.repeat(43));
    const res = await fresh.post('/users/sign_in', { authenticity_token: 'A'.repeat(43), 'user[login]': user.username, 'user[password]': PASSWORD });
    expect(res.status).toBe(302);
    const now = fresh.cookies.get('_gitlab_session')!;
    expect(now).not.toBe(old);
    expect((await api.get('/user', { headers: { cookie: `_gitlab_session=${old}` } })).status).toBe(401);
    expect((await api.get('/user', { headers: { cookie: `_gitlab_session=${now}` } })).status).toBe(200);
  });

  it('a signed-in visit to the sign-in page goes to return_to', async () => {
    const { browser } = await signedIn();
    const res = await browser.get('/users/sign_in?return_to=%2Foauth%2Fauthorized_applications');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/oauth/authorized_applications');
  });
});

describe('POST /users/sign_out', () => {
  it('needs the session CSRF token; then ends the session (the old cookie no longer works)', async () => {
    const { browser } = await signedIn();
    const session = browser.cookies.get('_gitlab_session')!;
    const page = await browser.get('/oauth/applications');
    expect((await browser.post('/users/sign_out', {})).status).toBe(403);
    const res = await browser.post('/users/sign_out', { authenticity_token: csrfToken(page.text) });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/users/sign_in');
    expect(browser.cookies.has('_gitlab_session')).toBe(false);
    expect((await api.get('/user', { headers: { cookie: `_gitlab_session=${session}` } })).status).toBe(401);
    expect((await browser.get('/oauth/applications')).status).toBe(302);
  });
});
