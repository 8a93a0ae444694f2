// Brute-force throttle at /oauth/token, /oauth/revoke and /oauth/introspect (RFC 6749 §2.3.1 / OAuth 2.1: endpoints
// that take client secrets MUST resist brute force): failed client authentication and failed grants are counted per
// client IP, as the sign-in form counts its attempts; past the limit the answer is 429 with Retry-After, in RFC 6749's
// shape, no-store. Successes are never counted, and never per client id alone: a stranger who names an application's
// public client id cannot lock it out (issue 28, item 6).
import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.ts';
import { createUser } from '../factories/users.ts';
import { createApplication, issueCode } from '../factories/oauth.ts';
import { tokenPost } from './client.ts';

let ipCounter = 0;
const freshIp = () => `192.0.2.${(ipCounter++ % 250) + 1}-${Math.random().toString(36).slice(2, 10)}`;
const post = (path: string, form: Record<string, string>, ip: string) => request('POST', path, { form, headers: { 'cf-connecting-ip': ip } });

function expectThrottled(res: Awaited<ReturnType<typeof post>>) {
  expect([res.status, res.body]).toEqual([429, { error: 'too_many_requests', error_description: 'Too many requests. Retry later.' }]);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('pragma')).toBe('no-cache');
}

async function liveTokens() {
  const { user } = await createUser();
  const app = await createApplication();
  const code = await issueCode({ application: app, userId: user.id });
  const tokens = (
    await tokenPost({ grant_type: 'authorization_code', code, redirect_uri: app.redirectUris[0]!, client_id: app.uid, client_secret: app.secret })
  ).body;
  return { user, app, tokens };
}

describe('throttling failed client authentication', () => {
  it('100 wrong client secrets in a row from one IP at /oauth/token: 30 x 401, then 429 (even for the right secret)', async () => {
    const { app, tokens } = await liveTokens();
    const ip = freshIp();
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 100; i++) {
      last = await post(
        '/oauth/token',
        { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: app.uid, client_secret: `wrong-${i}` },
        ip,
      );
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(30).every((s) => s === 429)).toBe(true);
    expectThrottled(last!);
    // Past the limit the secret is not even checked: the right one is refused too, and nothing was rotated.
    expectThrottled(
      await post('/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: app.uid, client_secret: app.secret }, ip),
    );
    // The application's own traffic from its own address goes on.
    const elsewhere = await post(
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: app.uid, client_secret: app.secret },
      freshIp(),
    );
    expect(elsewhere.status).toBe(200);
  });

  it('a stranger naming the client id cannot lock the application out: 100 failures from elsewhere, then its own requests pass', async () => {
    const { app, tokens } = await liveTokens();
    const attacker = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      const forms: Record<string, string>[] = [
        { grant_type: 'authorization_code', code: `x-${i}`, redirect_uri: app.redirectUris[0]!, client_id: app.uid, client_secret: 'wrong' },
        // A public client's way in (no secret) and a confidential one's without its secret: both fail for the stranger.
        { grant_type: 'authorization_code', code: `x-${i}`, redirect_uri: app.redirectUris[0]!, client_id: app.uid },
      ];
      statuses.push((await post('/oauth/token', forms[i % 2]!, i < 50 ? attacker : freshIp())).status);
    }
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(statuses.slice(30, 50)).toEqual(Array(20).fill(429));
    expect(statuses.slice(50)).toEqual(Array(50).fill(401));
    const own = freshIp();
    const refreshed = await post(
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: app.uid, client_secret: app.secret },
      own,
    );
    expect(refreshed.status).toBe(200);
    expect((await post('/oauth/introspect', { token: refreshed.body.access_token, client_id: app.uid, client_secret: app.secret }, own)).body.active).toBe(
      true,
    );
    expect((await post('/oauth/revoke', { token: refreshed.body.access_token, client_id: app.uid, client_secret: app.secret }, freshIp())).status).toBe(200);
  });

  it('/oauth/revoke and /oauth/introspect count wrong secrets too', async () => {
    for (const path of ['/oauth/revoke', '/oauth/introspect']) {
      const { app, tokens } = await liveTokens();
      const ip = freshIp();
      for (let i = 0; i < 30; i++) {
        const res = await post(path, { token: tokens.access_token, client_id: app.uid, client_secret: 'wrong' }, ip);
        expect([res.status, res.body.error], path).toEqual([401, 'invalid_client']);
      }
      expectThrottled(await post(path, { token: tokens.access_token, client_id: app.uid, client_secret: 'wrong' }, ip));
    }
  });
});

describe('throttling failed grants', () => {
  it('invalid codes presented with the right client secret: 30 x invalid_grant, then 429', async () => {
    const app = await createApplication();
    const ip = freshIp();
    const form = (i: number) => ({
      grant_type: 'authorization_code',
      code: `guess-${i}`,
      redirect_uri: app.redirectUris[0]!,
      client_id: app.uid,
      client_secret: app.secret,
    });
    for (let i = 0; i < 30; i++) {
      const res = await post('/oauth/token', form(i), ip);
      expect([res.status, res.body.error]).toEqual([400, 'invalid_grant']);
    }
    expectThrottled(await post('/oauth/token', form(30), ip));
  });
});

describe('successful requests', () => {
  it('are not counted: 40 successes in a row from one IP, then a failing client still gets its 30 answers before 429', async () => {
    const { app, tokens } = await liveTokens();
    const ip = freshIp();
    let refresh = tokens.refresh_token;
    for (let i = 0; i < 20; i++) {
      const res = await post('/oauth/token', { grant_type: 'refresh_token', refresh_token: refresh, client_id: app.uid, client_secret: app.secret }, ip);
      expect(res.status).toBe(200);
      refresh = res.body.refresh_token;
      const info = await post('/oauth/introspect', { token: res.body.access_token, client_id: app.uid, client_secret: app.secret }, ip);
      expect([info.status, info.body.active]).toEqual([200, true]);
    }
    for (let i = 0; i < 30; i++) {
      expect((await post('/oauth/revoke', { token: 'whatever', client_id: app.uid, client_secret: 'wrong' }, ip)).status).toBe(401);
    }
    expectThrottled(await post('/oauth/revoke', { token: 'whatever', client_id: app.uid, client_secret: 'wrong' }, ip));
  });
});
