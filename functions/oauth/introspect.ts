// POST /oauth/introspect (RFC 7662). The caller is a client (its credentials) or, as Doorkeeper allows, the holder of
// another valid access token (`Authorization: Bearer`); either sees only its own application's tokens, and
// everything else is `{"active":false}`.
import type { Context } from 'hono';
import { findOAuthTokenByDigest } from '../../db/queries/lib/auth.ts';
import { findTokenByAnyDigest } from '../../db/queries/oauth.ts';
import type { AppEnv } from '../lib/context.ts';
import { sha256Hex } from '../lib/crypto.ts';
import { oauthError } from '../lib/errors.ts';
import { authenticateClient, readClientCredentials } from './client-auth.ts';
import { optionalParam, readOAuthInput, requiredParam } from './params.ts';
import { REFRESH_RETRY_GRACE_SECONDS } from './service.ts';
import { NO_STORE } from '../lib/no-store.ts';
import { passThrottle } from './throttle.ts';
import { tokenState } from '../lib/token-state.ts';

export async function introspectEndpoint(c: Context<AppEnv>) {
  const ctx = c.var.ctx;
  const input = await readOAuthInput(c);
  const creds = readClientCredentials(c, input);
  const token = requiredParam(input, 'token');
  const digest = await sha256Hex(token);
  const requester = creds.clientId ? (await authenticateClient(ctx, creds)).app_id : await bearerApplication(c, digest);
  const hint = optionalParam(input, 'token_type_hint');
  const found = await findTokenByAnyDigest(ctx.db, digest, hint === 'refresh_token' ? 'refresh_token' : undefined, REFRESH_RETRY_GRACE_SECONDS);
  const inactive = () => c.json({ active: false }, 200, NO_STORE);
  if (!found || found.application_id !== requester || found.user_state !== 'active') return inactive();
  const isAccess = found.token_digest === digest;
  if (isAccess && (found.revoked || found.expired)) return inactive();
  // A refresh token is live until revoked, and after its rotation while it may still be presented as a retry
  // (grants/refresh-token.ts).
  if (!isAccess && found.revoked && found.retry_scopes === null) return inactive();
  const iat = Number(found.created_at);
  return c.json(
    {
      active: true,
      scope: found.scopes.join(' '),
      client_id: found.app_uid,
      token_type: 'Bearer',
      ...(isAccess && found.expires_in !== null ? { exp: iat + found.expires_in } : {}),
      iat,
      username: found.username,
    },
    200,
    NO_STORE,
  );
}

/**
 * The application of the access token in `Authorization: Bearer`, which must be active and not the token being
 * introspected (Doorkeeper's rule: a token cannot vouch for itself). No credentials at all: 401 invalid_client with
 * a challenge (RFC 7662 §2.1 requires authorization; RFC 6749 §5.2 words the refusal).
 */
async function bearerApplication(c: Context<AppEnv>, introspectedDigest: string): Promise<number | null> {
  await passThrottle(c.var.ctx);
  const bearer = /^bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
  if (!bearer) throw oauthError('invalid_client', { challenge: 'Basic' });
  const digest = await sha256Hex(bearer[1]!);
  const found = digest === introspectedDigest ? undefined : await findOAuthTokenByDigest(c.var.ctx.db, digest);
  if (!found || found.user.state !== 'active' || tokenState(found.token) !== 'active') {
    throw oauthError('invalid_token', { description: 'The access token is invalid' });
  }
  return found.token.applicationId;
}
