// grant_type=refresh_token (RFC 6749 §6) with rotation, grace and reuse detection (security-bar §7.1). One lookup
// and one rotating statement: 2 round trips.
//  - A refresh revokes the old access token at once and issues a new access + refresh token (same lineage).
//  - The old refresh token stays usable until the new set is first used (a lost response can be retried); a retry
//    revokes the unused set it replaces, so one refresh token never has two valid descendants.
//  - A superseded refresh token presented after the new set was used revokes the whole lineage.
//  - Scopes only narrow, bounded by what the application is registered for now.
import type { Context } from 'hono';
import { lookupClientAndRefreshToken, revokeLineage, rotateRefreshToken } from '../../../db/queries/oauth.ts';
import type { AppEnv } from '../../lib/context.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { oauthError } from '../../lib/errors.ts';
import { verifyClient, type ClientCredentials } from '../client-auth.ts';
import { optionalParam, requiredParam } from '../params.ts';
import { parseScopes } from '../scopes.ts';
import { newTokenPair, tokenResponse } from '../service.ts';

export async function refreshTokenGrant(c: Context<AppEnv>, input: Record<string, unknown>, creds: ClientCredentials) {
  const ctx = c.var.ctx;
  const refreshToken = requiredParam(input, 'refresh_token');
  const requested = parseScopes(optionalParam(input, 'scope'));
  const row = creds.clientId ? await lookupClientAndRefreshToken(ctx.db, creds.clientId, await sha256Hex(refreshToken)) : undefined;
  const client = await verifyClient(creds, row);

  if (!row || row.token_id === null || row.token_app_id !== client.app_id || row.user_state !== 'active') throw oauthError('invalid_grant');
  // Scopes only narrow: a refresh gets at most what the grant had, and no more than the application is registered
  // for now (an application narrowed after the grant no longer hands out what it dropped).
  const original = (row.scopes ?? []).filter((s) => row.app_scopes.includes(s));
  if (!requested.every((s) => original.includes(s)) || !original.length) throw oauthError('invalid_scope');
  if (row.revoked) {
    if (row.has_used_child) {
      await revokeLineage(ctx.db, row.lineage!);
      throw oauthError('invalid_grant');
    }
    // Revoked outright (not superseded), or its whole lineage was revoked.
    if (!row.has_active_child) throw oauthError('invalid_grant');
  }

  const scopes = requested.length ? requested : original;
  const pair = await newTokenPair();
  const issued = await rotateRefreshToken(ctx.db, { tokenId: row.token_id, revokedStamp: row.revoked_stamp, scopes, ...pair });
  // A concurrent refresh with the same token won, or the grace ended in between: nothing was issued here.
  if (!issued) throw oauthError('invalid_grant');
  return tokenResponse(c, { accessToken: pair.accessToken, refreshToken: pair.refreshToken, scopes, createdAt: Number(issued.created_at), expiresIn: pair.expiresIn });
}
