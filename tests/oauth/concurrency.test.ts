// Races on the token endpoint. Under TEST_DB=postgres these run on a real PostgreSQL server with concurrent
// connections (the Neon drivers); on PGlite they run interleaved on one connection.
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { oauthAccessTokens, rateLimits } from '../../db/schema/index.ts';
import { hashPassword, randomToken, sha256Hex } from '../../functions/lib/crypto.ts';
import { api, testDb } from '../helpers/app.ts';
import { createUser } from '../factories/users.ts';
import { createApplication, issueCode, tokenRow, tokensOfApplication } from '../factories/oauth.ts';
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
    const first = await tokenPost({
      grant_type: 'authorization_code',
      code,
      redirect_uri: app.redirectUris[0]!,
      client_id: app.uid,
      client_secret: app.secret,
    });
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

  it('retries of a rotated-out refresh token racing refreshes with its successor never leave two live sets', async () => {
    const { user } = await createUser();
    for (let round = 0; round < 5; round++) {
      // An application per round: each round's failures count against its own client.
      const app = await createApplication();
      const client = { client_id: app.uid, client_secret: app.secret };
      const code = await issueCode({ application: app, userId: user.id });
      const rt0 = (await tokenPost({ grant_type: 'authorization_code', code, redirect_uri: app.redirectUris[0]!, ...client })).body.refresh_token;
      const rt1 = (await tokenPost({ grant_type: 'refresh_token', refresh_token: rt0, ...client })).body.refresh_token;
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => tokenPost({ grant_type: 'refresh_token', refresh_token: i % 2 ? rt0 : rt1, ...client })),
      );
      for (const r of results) if (r.status !== 200) expect([r.status, r.body.error]).toEqual([400, 'invalid_grant']);
      const working = [];
      for (const r of results.filter((r) => r.status === 200)) {
        if ((await api.get('/user', { headers: { Authorization: `Bearer ${r.body.access_token}` } })).status === 200) working.push(r);
      }
      expect(working.length).toBeLessThanOrEqual(1);
      expect((await tokensOfApplication(app.id)).filter((t) => tokenState(t) === 'active').length).toBeLessThanOrEqual(1);
    }
  });

  it('a retry that waits on its successor while the successor is rotated issues nothing, and the lineage is revoked', async () => {
    const { user } = await createUser();
    const app = await createApplication();
    const client = { client_id: app.uid, client_secret: app.secret };
    const code = await issueCode({ application: app, userId: user.id });
    const set0 = (await tokenPost({ grant_type: 'authorization_code', code, redirect_uri: app.redirectUris[0]!, ...client })).body;
    const set1 = (await tokenPost({ grant_type: 'refresh_token', refresh_token: set0.refresh_token, ...client })).body;
    const successor = (await tokenRow(set1.access_token))!;
    let retry: ReturnType<typeof tokenPost> | undefined;
    // Another connection holds the successor's row while the retry of the old token starts (on PostgreSQL the retry
    // reads it unused, then waits for the row), and meanwhile rotates it as a refresh with its token would.
    await testDb().transaction(async (tx) => {
      await tx.execute(sql`SELECT id FROM oauth_access_tokens WHERE id = ${successor.id} FOR UPDATE`);
      retry = tokenPost({ grant_type: 'refresh_token', refresh_token: set0.refresh_token, ...client });
      await new Promise((resolve) => setTimeout(resolve, 500));
      await tx
        .update(oauthAccessTokens)
        .set({ revokedAt: sql`clock_timestamp()`, firstUsedAt: sql`now()` })
        .where(eq(oauthAccessTokens.id, successor.id));
      await tx.insert(oauthAccessTokens).values({
        tokenDigest: await sha256Hex(randomToken()),
        refreshTokenDigest: await sha256Hex(randomToken()),
        applicationId: app.id,
        userId: user.id,
        scopes: successor.scopes,
        expiresIn: 7200,
        grantId: successor.grantId,
        lineage: successor.lineage,
        previousTokenId: successor.id,
      });
    });
    const res = await retry!;
    expect([res.status, res.body.error]).toEqual([400, 'invalid_grant']);
    // The successor was used: the retry was reuse, and no set of the lineage is live (never two).
    expect((await tokensOfApplication(app.id)).filter((t) => tokenState(t) === 'active')).toHaveLength(0);
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
    const [counter] = await testDb()
      .db.select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `signin:user:${user.id}`));
    expect(counter?.count).toBe(25);
    const locked = await tokenPost({ ...base, username: user.username, password: 'correct horse' }, { 'cf-connecting-ip': '198.51.100.200' });
    expect([locked.status, locked.body.error]).toEqual([400, 'invalid_grant']);
  });
});
