// POST /oauth/introspect (RFC 7662): client-authenticated; a client sees only its own tokens, everything else is
// `{"active":false}`.
import type { Context } from 'hono';
import { findTokenByAnyDigest } from '../../db/queries/oauth.ts';
import type { AppEnv } from '../env.ts';
import { sha256Hex } from '../lib/crypto.ts';
import { oauthError } from '../lib/errors.ts';
import { authenticateClient, readClientCredentials } from './client-auth.ts';
import { optionalParam, readOAuthInput, requiredParam } from './params.ts';
import { NO_STORE } from './service.ts';

export async function introspectEndpoint(c: Context<AppEnv>) {
  const ctx = c.var.ctx;
  const input = await readOAuthInput(c);
  const creds = readClientCredentials(c, input);
  if (!creds.clientId) throw oauthError('invalid_request', { description: 'Request needs to be authorized with client credentials.' });
  const client = await authenticateClient(ctx, creds);
  const token = requiredParam(input, 'token');
  const hint = optionalParam(input, 'token_type_hint');
  const digest = await sha256Hex(token);
  const found = await findTokenByAnyDigest(ctx.db, digest, hint === 'refresh_token' ? 'refresh_token' : undefined);
  const inactive = () => c.json({ active: false }, 200, NO_STORE);
  if (!found || found.application_id !== client.app_id || found.user_state !== 'active') return inactive();
  const isAccess = found.token_digest === digest;
  if (isAccess && (found.revoked || found.expired)) return inactive();
  // A refresh token is live until revoked, or while superseded within its grace (refresh-token.ts).
  if (!isAccess && found.revoked && !(found.has_active_child && !found.has_used_child)) return inactive();
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
