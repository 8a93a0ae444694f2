// Races on the token endpoint. Under TEST_DB=postgres these run on a real PostgreSQL server with concurrent
// connections (the Neon drivers); on PGlite they run interleaved on one connection.
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { rateLimits } from '../../db/schema/index.ts';
import { hashPassword } from '../../functions/lib/crypto.ts';
import { api, testDb } from '../helpers/app.ts';
import { createUser } from '../factories/users.ts';
import { createApplication, issueCode, tokensOfApplication } from '../factories/oauth.ts';
import { tokenPost } from './client.ts';
import { tokenState } from '../../functions/lib/token-state.ts';

describe('concurrency', () => {
  it('20 parallel exchanges of one code: exactly one 200, and no second token set is valid', async () => {
    const { user } = await createUser();
    const app = await createApplication();
    const code = await issueCode({ application: app, userId: user.id });
    const form = { grant_type: 'authorization_code', code, redirect_uri: app.redirectUris[0]!, client_id: app.uid, client_secret: app.secret };
    const results = await Promise.all(Array.from({ length: 20 }, () => tokenPost(form)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of results) if (r.status !== 200) expect([r.status, r.body.error]).toEqual([400, 'invalid_grant']);
    const rows = await tokensOfApplication(app.id);
    expect(rows).toHaveLength(1);
    // The losers were replays of a real code: what the winner got is revoked too (security-bar §7.2).
    expect(rows.filter((t) => tokenState(t) === 'active')).toHaveLength(0);
    expect((await api.get('/user', { headers: { Authorization: `Bearer ${ok[0]!.body.access_token}` } })).status).toBe(401);
  });

  it('10 parallel refreshes with one refresh token leave exactly one valid lineage member', async () => {
    const { user } = await createUser();
    const app = await createApplication();
    const code = await issueCode({ application: app, userId: user.id });
    const first = await tokenPost({ grant_type: 'authorization_code', code, redirect_uri: app.redirectUris[0]!, client_id: app.uid, client_secret: app.secret });
    expect(first.status).toBe(200);
    const form = { grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id: app.uid, client_secret: app.secret };
    const results = await Promise.all(Array.from({ length: 10 }, () => tokenPost(form)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of results) if (r.status !== 200) expect([r.status, r.body.error]).toEqual([400, 'invalid_grant']);
    const active = (await tokensOfApplication(app.id)).filter((t) => tokenState(t) === 'active');
    expect(active).toHaveLength(1);
    // Exactly one of the issued access tokens works, and its refresh token is the one that still refreshes.
    const working = [];
    for (const r of ok) if ((await api.get('/user', { headers: { Authorization: `Bearer ${r.body.access_token}` } })).status === 200) working.push(r);
    expect(working).toHaveLength(1);
    const next = await tokenPost({ ...form, refresh_token: working[0]!.body.refresh_token });
    expect(next.status).toBe(200);
  });

  it('25 parallel wrong passwords through username and email: every attempt counted on one account counter, then locked', async () => {
    const { user } = await createUser({ passwordHash: await hashPassword('correct horse') });
    const app = await createApplication({ scopes: ['api'] });
    const base = { grant_type: 'password', client_id: app.uid, client_secret: app.secret };
    // A distinct client IP each, so only the account limit is in play.
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        tokenPost({ ...base, username: i % 2 ? user.username : user.email, password: `wrong-${i}` }, { 'cf-connecting-ip': `198.51.100.${i + 1}` }),
      ),
    );
    for (const r of results) expect([r.status, r.body.error]).toEqual([400, 'invalid_grant']);
    // One atomic upsert per attempt: no increment is lost to a concurrent one.
    const [counter] = await testDb().db.select().from(rateLimits).where(eq(rateLimits.key, `signin:user:${user.id}`));
    expect(counter?.count).toBe(25);
    const locked = await tokenPost({ ...base, username: user.username, password: 'correct horse' }, { 'cf-connecting-ip': '198.51.100.200' });
    expect([locked.status, locked.body.error]).toEqual([400, 'invalid_grant']);
  });
});
