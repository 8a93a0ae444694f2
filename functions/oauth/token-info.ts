// GET /oauth/token/info (Doorkeeper's TokenInfoController as GitLab extends it): the token from
// `Authorization: Bearer` or `?access_token=`.
import type { Context } from 'hono';
import { findOAuthTokenByDigest, markOAuthTokenUsed } from '../../db/queries/lib/auth.ts';
import type { AppEnv } from '../lib/context.ts';
import { sha256Hex } from '../lib/crypto.ts';
import { oauthError } from '../lib/errors.ts';
import { NO_STORE } from '../lib/no-store.ts';
import { expiresInSeconds, tokenState } from '../lib/token-state.ts';

const invalid = (description: string) => oauthError('invalid_token', { description });

export async function tokenInfoEndpoint(c: Context<AppEnv>) {
  const ctx = c.var.ctx;
  const bearer = /^bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
  const token = bearer?.[1] ?? c.req.query('access_token');
  if (!token) throw invalid('The access token is invalid');
  const found = await findOAuthTokenByDigest(ctx.db, await sha256Hex(token));
  if (!found || found.user.state !== 'active') throw invalid('The access token is invalid');
  const state = tokenState(found.token);
  if (state === 'revoked') throw invalid('The access token was revoked');
  if (state === 'expired') throw invalid('The access token expired');
  if (!found.token.firstUsedAt) ctx.waitUntil(markOAuthTokenUsed(ctx.db, found.token.id).catch(() => undefined));
  const expiresIn = expiresInSeconds(found.token);
  return c.json(
    {
      resource_owner_id: found.user.id,
      scope: found.token.scopes,
      expires_in: expiresIn,
      application: { uid: found.applicationUid ?? null },
      created_at: Math.floor(found.token.createdAt.getTime() / 1000),
      scopes: found.token.scopes,
      expires_in_seconds: expiresIn,
    },
    200,
    NO_STORE,
  );
}
