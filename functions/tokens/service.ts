import * as q from '../../db/queries/tokens.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { randomToken, sha256Hex } from '../lib/crypto.ts';
import { ApiError, notFound, unauthorized } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { can, isAdministrator } from '../lib/policy.ts';
import type { z } from '../lib/validate.ts';
import { findUser, requireAdmin } from '../users/service.ts';
import type { CreateTokenInput } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** Admin creates a token for a user; the plaintext is returned here once and only its digest is stored. */
export async function createToken({ ctx, input }: Verb<{ ref: Ref | null } & z.output<typeof CreateTokenInput>>) {
  requireAdmin(ctx);
  const user = await findUser(ctx, input.ref);
  const token = randomToken('glpat-');
  const row = await q.insertPersonalAccessToken(ctx.db, {
    userId: user.id,
    name: input.name,
    scopes: [...new Set(input.scopes)],
    expiresAt: input.expires_at ?? null,
    tokenDigest: await sha256Hex(token),
  });
  return { row, token };
}

/** Administrators list every token (or one user's); everyone else their own. */
export function listTokens({ ctx, input }: Verb<{ user_id?: number | undefined }>) {
  const user = requireUser(ctx);
  const userId = isAdministrator(ctx.actor) ? input.user_id : user.id;
  return {
    fetch: (limit: number, offset: number) => q.listPersonalAccessTokens(ctx.db, { userId }, limit, offset),
    count: () => q.countPersonalAccessTokens(ctx.db, { userId }),
  };
}

/** GitLab tells only administrators whether a token exists; others get 401 for a token they may not read. */
async function findReadableToken(ctx: RequestContext, id: number) {
  requireUser(ctx);
  const token = await q.findPersonalAccessToken(ctx.db, id);
  if (token && can(ctx.actor, 'user:read_tokens', { kind: 'user', id: token.userId, state: 'active' })) return token;
  throw isAdministrator(ctx.actor) ? notFound() : unauthorized();
}

export const getToken = ({ ctx, input }: Verb<{ id: number }>) => findReadableToken(ctx, input.id);

/** The token this request is authenticated with. */
export async function getSelfToken({ ctx }: Verb<unknown>) {
  const user = requireUser(ctx);
  if (ctx.actor.via !== 'personal_access_token' || !ctx.actor.tokenId) throw unauthorized();
  const token = await q.findPersonalAccessToken(ctx.db, ctx.actor.tokenId);
  if (!token || token.userId !== user.id) throw unauthorized();
  return token;
}

/** Revoke: 204. A missing token is 404; one the caller may not revoke is GitLab's bare `400 Bad request`. */
export async function revokeToken({ ctx, input }: Verb<{ id: number }>) {
  requireUser(ctx);
  const token = await q.findPersonalAccessToken(ctx.db, input.id);
  if (!token) throw notFound();
  if (!can(ctx.actor, 'user:read_tokens', { kind: 'user', id: token.userId, state: 'active' })) {
    throw new ApiError(400, { message: '400 Bad request' });
  }
  await q.revokePersonalAccessToken(ctx.db, token.id);
}
