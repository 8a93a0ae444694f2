// grant_type=authorization_code (RFC 6749 §4.1.3, PKCE RFC 7636 §4.6). One lookup (client + grant) and one
// statement that consumes the code and inserts the token set: 2 round trips. A failed exchange leaves the code as it
// was; a second exchange of a real code revokes what the first one issued (security-bar §7.2).
import type { Context } from 'hono';
import { consumeCodeAndIssue, lookupClientAndCode, revokeGrantLineage } from '../../../db/queries/oauth.ts';
import type { AppEnv } from '../../lib/context.ts';
import { constantTimeEqual, sha256Hex } from '../../lib/crypto.ts';
import { oauthError } from '../../lib/errors.ts';
import { verifyClient, type ClientCredentials } from '../client-auth.ts';
import { optionalParam, requiredParam } from '../params.ts';
import { newTokenPair, tokenResponse } from '../service.ts';
import { handOverCount } from '../throttle.ts';

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

async function s256(verifier: string) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  let bin = '';
  for (const b of digest) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export async function authorizationCodeGrant(c: Context<AppEnv>, input: Record<string, unknown>, creds: ClientCredentials) {
  const ctx = c.var.ctx;
  const code = requiredParam(input, 'code');
  const redirectUri = requiredParam(input, 'redirect_uri');
  const verifier = optionalParam(input, 'code_verifier');
  const row = creds.clientId ? await lookupClientAndCode(ctx.db, creds.clientId, await sha256Hex(code)) : undefined;
  const client = await verifyClient(ctx, creds, row);
  const invalidGrant = () => oauthError('invalid_grant');

  if (!row || row.grant_id === null || row.grant_app_id !== client.app_id) throw invalidGrant();
  if (row.consumed) {
    await revokeGrantLineage(ctx.db, row.grant_id);
    throw invalidGrant();
  }
  if (row.grant_revoked || row.expired || row.user_state !== 'active') throw invalidGrant();
  // RFC 6749 §4.1.3: identical to the redirect_uri of the authorization request the code was issued for (which
  // /oauth/authorize matched against the registered URIs, a loopback IP literal's port aside). Not the looser
  // authorize-time rule: a code for one loopback port is no good on another.
  if (row.redirect_uri === null || redirectUri !== row.redirect_uri) throw invalidGrant();
  if (row.code_challenge) {
    if (verifier === null) throw oauthError('invalid_request', { description: 'Missing required parameter: code_verifier.' });
    const computed = row.code_challenge_method === 'S256' ? await s256(verifier) : verifier;
    if (!VERIFIER.test(verifier) || !(await constantTimeEqual(computed, row.code_challenge))) throw invalidGrant();
  } else if (verifier !== null || !client.confidential) {
    // A verifier with no stored challenge is a PKCE downgrade (RFC 9700 §4.8.2); public clients must use PKCE.
    throw invalidGrant();
  }

  const pair = await newTokenPair();
  const issued = await consumeCodeAndIssue(ctx.db, row.grant_id, pair, await handOverCount(ctx));
  if (!issued) {
    // A concurrent exchange consumed it first: this one is a replay.
    await revokeGrantLineage(ctx.db, row.grant_id);
    throw invalidGrant();
  }
  return tokenResponse(c, {
    accessToken: pair.accessToken,
    refreshToken: pair.refreshToken,
    scopes: row.scopes ?? [],
    createdAt: Number(issued.created_at),
    expiresIn: pair.expiresIn,
  });
}
