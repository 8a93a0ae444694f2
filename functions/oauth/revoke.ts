// POST /oauth/revoke (RFC 7009). Revoking an access or a refresh token revokes its whole lineage (every token
// descending from the same authorization, superseded or current). Unknown tokens and
// tokens of another client answer 200 {} and change nothing (no oracle; security-bar §7.5).
import type { Context } from 'hono';
import { findTokenByAnyDigest, revokeLineage } from '../../db/queries/oauth.ts';
import type { AppEnv } from '../lib/context.ts';
import { sha256Hex } from '../lib/crypto.ts';
import { oauthError } from '../lib/errors.ts';
import { authenticateClient, readClientCredentials } from './client-auth.ts';
import { optionalParam, readOAuthInput, requiredParam } from './params.ts';
import { NO_STORE } from '../lib/no-store.ts';

export async function revokeEndpoint(c: Context<AppEnv>) {
  const ctx = c.var.ctx;
  const input = await readOAuthInput(c);
  const token = requiredParam(input, 'token');
  const hint = optionalParam(input, 'token_type_hint');
  const creds = readClientCredentials(c, input);
  // GitLab (TokensController#validate_presence_of_client): no client at all is 403 unauthorized_client.
  if (!creds.clientId) throw oauthError('unauthorized_client', { status: 403, description: 'You are not authorized to revoke this token' });
  const client = await authenticateClient(ctx, creds);
  const found = await findTokenByAnyDigest(
    ctx.db,
    await sha256Hex(token),
    hint === 'refresh_token' ? 'refresh_token' : hint === 'access_token' ? 'access_token' : undefined,
  );
  if (found && found.application_id === client.app_id) await revokeLineage(ctx.db, found.lineage);
  return c.json({}, 200, NO_STORE);
}
