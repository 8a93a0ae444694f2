// grant_type=refresh_token (RFC 6749 §6) with rotation, retry and reuse detection (security-bar §7.1). One lookup
// and one rotating statement: 2 round trips.
//  - A refresh revokes the old access token at once and issues a new access + refresh token (same lineage).
//  - Scopes only narrow, bounded by what the application is registered for now.
//  - The reuse rule. A rotated-out refresh token may be presented again only as a retry of the exchange that rotated
//    it out (a response lost on the way): by the same client, asking for the same scopes, within
//    REFRESH_RETRY_GRACE_SECONDS (60 s) of that first rotation, and while no successor has been used (neither a
//    successor's access token nor its refresh token). The retry's answer replaces the successor: the unused set is
//    revoked and a new one takes its place in the same statement, so the lineage never has two live sets. Any other
//    presentation of a revoked refresh token is reuse, whoever sends it: after the window, once a successor was used,
//    with other scopes, or a set that a retry replaced (its holder may be the honest client, and the retry a thief).
//    Reuse revokes the whole lineage (every token descending from the same authorization, the retries' sets
//    included) and answers invalid_grant.
import type { Context } from 'hono';
import { lookupClientAndRefreshToken, revokeLineage, rotateRefreshToken, type RefreshLookup } from '../../../db/queries/oauth.ts';
import type { AppEnv } from '../../lib/context.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { oauthError } from '../../lib/errors.ts';
import { verifyClient, type ClientCredentials } from '../client-auth.ts';
import { optionalParam, requiredParam } from '../params.ts';
import { parseScopes } from '../scopes.ts';
import { newTokenPair, REFRESH_RETRY_GRACE_SECONDS, tokenResponse } from '../service.ts';
import { handOverCount } from '../throttle.ts';

/** A revoked token presented as the retry the reuse rule allows: its successor unused, in the window, same scopes. */
const isRetry = (row: RefreshLookup, scopes: readonly string[]) =>
  row.retry_scopes !== null && row.retry_scopes.length === scopes.length && scopes.every((s) => row.retry_scopes!.includes(s));

export async function refreshTokenGrant(c: Context<AppEnv>, input: Record<string, unknown>, creds: ClientCredentials) {
  const ctx = c.var.ctx;
  const refreshToken = requiredParam(input, 'refresh_token');
  const requested = parseScopes(optionalParam(input, 'scope'));
  const digest = await sha256Hex(refreshToken);
  const lookup = (uid: string) => lookupClientAndRefreshToken(ctx.db, uid, digest, REFRESH_RETRY_GRACE_SECONDS);
  const row = creds.clientId ? await lookup(creds.clientId) : undefined;
  const client = await verifyClient(ctx, creds, row);

  if (!row || row.token_id === null || row.token_app_id !== client.app_id || row.user_state !== 'active') throw oauthError('invalid_grant');
  // Scopes only narrow: a refresh gets at most what the grant had, and no more than the application is registered
  // for now (an application narrowed after the grant no longer hands out what it dropped).
  const original = (row.scopes ?? []).filter((s) => row.app_scopes.includes(s));
  if (!requested.every((s) => original.includes(s)) || !original.length) throw oauthError('invalid_scope');
  const scopes = requested.length ? requested : original;
  if (row.revoked && !isRetry(row, scopes)) {
    await revokeLineage(ctx.db, row.lineage!);
    throw oauthError('invalid_grant');
  }

  const pair = await newTokenPair();
  const release = await handOverCount(ctx);
  const issued = await rotateRefreshToken(ctx.db, {
    tokenId: row.token_id,
    revokedStamp: row.revoked_stamp,
    retry: row.revoked === true,
    scopes,
    release,
    ...pair,
  });
  if (!issued) {
    // A concurrent request changed the token first: another refresh or retry with it (its answer stands), or the use
    // of its successor, which makes this presentation reuse.
    const now = await lookup(client.uid);
    if (now?.revoked && !isRetry(now, scopes)) await revokeLineage(ctx.db, now.lineage!);
    throw oauthError('invalid_grant');
  }
  return tokenResponse(c, {
    accessToken: pair.accessToken,
    refreshToken: pair.refreshToken,
    scopes,
    createdAt: Number(issued.created_at),
    expiresIn: pair.expiresIn,
  });
}
