// Refresh-token reuse (security-bar §7.1, rule in functions/oauth/grants/refresh-token.ts): a rotated-out refresh
// token is honoured again only as a retry of its own exchange (same client, same scopes, within the grace window,
// successor unused), and the retry replaces that successor; any other presentation revokes the whole lineage.
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { oauthAccessTokens } from '../../db/schema/index.ts';
import { api, testDb } from '../helpers/app.ts';
import { createUser } from '../factories/users.ts';
import { createApplication, issueCode, tokenRow, tokensOfApplication } from '../factories/oauth.ts';
import { tokenPost } from './client.ts';

async function lineage() {
  const { user } = await createUser();
  const app = await createApplication({ scopes: ['api', 'read_user'] });
  const code = await issueCode({ application: app, userId: user.id, scopes: ['api', 'read_user'] });
  const client = { client_id: app.uid, client_secret: app.secret };
  const rt0 = (await tokenPost({ grant_type: 'authorization_code', code, redirect_uri: app.redirectUris[0]!, ...client })).body;
  const refresh = (refreshToken: string, extra: Record<string, string> = {}) =>
    tokenPost({ grant_type: 'refresh_token', refresh_token: refreshToken, ...client, ...extra });
  return { app, rt0, refresh };
}

/** Moves the rotation of `accessToken`'s set into the past, as if the grace window had run out since. */
async function afterTheWindow(accessToken: string) {
  const id = (await tokenRow(accessToken))!.id;
  await testDb()
    .db.update(oauthAccessTokens)
    .set({ createdAt: sql`created_at - interval '10 minutes'` })
    .where(eq(oauthAccessTokens.previousTokenId, id));
}

const works = async (accessToken: string) => (await api.get('/user', { headers: { Authorization: `Bearer ${accessToken}` } })).status === 200;

async function expectLineageDead(
  appId: number,
  sets: { access_token: string; refresh_token: string }[],
  refresh: (rt: string) => ReturnType<typeof tokenPost>,
) {
  expect((await tokensOfApplication(appId)).every((t) => t.revokedAt !== null)).toBe(true);
  for (const set of sets) {
    expect(await works(set.access_token)).toBe(false);
    const res = await refresh(set.refresh_token);
    expect([res.status, res.body.error]).toEqual([400, 'invalid_grant']);
  }
}

describe('refresh token reuse', () => {
  it('a thief: the rotated-out token presented after the grace window revokes the lineage, though its successor was never used', async () => {
    const { app, rt0, refresh } = await lineage();
    const set1 = (await refresh(rt0.refresh_token)).body;
    expect(set1.access_token).toBeDefined();
    await afterTheWindow(rt0.access_token);
    const stolen = await refresh(rt0.refresh_token);
    expect([stolen.status, stolen.body.error]).toEqual([400, 'invalid_grant']);
    expect(stolen.headers.get('cache-control')).toBe('no-store');
    await expectLineageDead(app.id, [rt0, set1], refresh);
  });

  it('a thief after a retry: set 1, then set 2 within the window, then the old token again after it: sets 1 and 2 die', async () => {
    const { app, rt0, refresh } = await lineage();
    const set1 = (await refresh(rt0.refresh_token)).body;
    const set2 = (await refresh(rt0.refresh_token)).body;
    expect(set2.access_token).toBeDefined();
    expect(await works(set1.access_token)).toBe(false);
    await afterTheWindow(rt0.access_token);
    const stolen = await refresh(rt0.refresh_token);
    expect([stolen.status, stolen.body.error]).toEqual([400, 'invalid_grant']);
    await expectLineageDead(app.id, [set1, set2], refresh);
  });

  it('a presentation that is not the same exchange (other scopes) is reuse, even inside the window', async () => {
    const { app, rt0, refresh } = await lineage();
    const set1 = (await refresh(rt0.refresh_token, { scope: 'read_user' })).body;
    expect(set1.scope).toBe('read_user');
    const other = await refresh(rt0.refresh_token);
    expect([other.status, other.body.error]).toEqual([400, 'invalid_grant']);
    await expectLineageDead(app.id, [set1], refresh);
  });

  it('the holder of a set a retry replaced presents its refresh token: the lineage dies (the retry may have been a thief)', async () => {
    const { app, rt0, refresh } = await lineage();
    const set1 = (await refresh(rt0.refresh_token)).body;
    const set2 = (await refresh(rt0.refresh_token)).body;
    const res = await refresh(set1.refresh_token);
    expect([res.status, res.body.error]).toEqual([400, 'invalid_grant']);
    await expectLineageDead(app.id, [set2], refresh);
  });

  it('an honest retry: the same exchange repeated within the window leaves the client exactly one working set', async () => {
    const { app, rt0, refresh } = await lineage();
    const lost = (await refresh(rt0.refresh_token)).body;
    const retry = await refresh(rt0.refresh_token);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('cache-control')).toBe('no-store');
    expect(retry.body.scope).toBe('api read_user');
    // The retry's answer replaced the lost set: one live set in the lineage, and it is the retry's.
    expect(await works(lost.access_token)).toBe(false);
    expect((await tokensOfApplication(app.id)).filter((t) => t.revokedAt === null)).toHaveLength(1);
    expect(await works(retry.body.access_token)).toBe(true);
    const next = await refresh(retry.body.refresh_token);
    expect(next.status).toBe(200);
    expect(await works(next.body.access_token)).toBe(true);
  });
});
