// Personal access token verbs. Only the SHA-256 digest of a token is ever stored; the value is returned once.
import * as q from '../../db/queries/tokens.ts';
import { findUserByRef } from '../users/lookups.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { randomToken, sha256Hex } from '../lib/crypto.ts';
import { badRequest, notFound, recordNotFound, unauthorized, unprocessable, validationFailed } from '../lib/errors.ts';
import { can, isAdministrator } from '../lib/policy.ts';
import { findUserById, requireAdmin } from '../users/service.ts';
import type { Output } from '../lib/validate.ts';
import { PAT_SCOPES, type CreateTokenInput } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** `before { authenticated_as_admin! }` of /users/:id/personal_access_tokens: runs before parameters are checked. */
export const requireTokenAdmin = (ctx: RequestContext) => void requireAdmin(ctx);

/**
 * POST /users/:id/personal_access_tokens (admin). Model failures are GitLab's 422 with the sentence of full
 * messages (`{"message":"Name can't be blank"}`), one of the few 422s of the API.
 */
export async function createToken({ ctx, input }: Verb<{ userId: number | null } & Output<typeof CreateTokenInput>>) {
  requireAdmin(ctx);
  const user = await findUserById(ctx, input.userId);
  const errors = [input.name.trim() === '' ? "Name can't be blank" : null, input.scopes.length === 0 ? "Scopes can't be blank" : null].filter(
    (e) => e !== null,
  );
  if (errors.length) throw unprocessable(errors);
  const token = randomToken('glpat-');
  const row = await q.insertPersonalAccessToken(ctx.db, {
    userId: user.id,
    name: input.name,
    scopes: input.scopes,
    expiresAt: input.expires_at ?? null,
    tokenDigest: await sha256Hex(token),
  });
  return { row, token };
}

/**
 * `before { authenticate!; restrict_non_admins! }` of /personal_access_tokens: a non-administrator naming another
 * user's `user_id` is 401, before anything else is checked.
 */
export async function assertMayListTokens(ctx: RequestContext, rawUserId: string | undefined) {
  requireUser(ctx);
  if (isAdministrator(ctx.actor) || !rawUserId) return;
  const owner = /^\d+$/.test(rawUserId) ? await findUserByRef(ctx.db, rawUserId) : undefined;
  if (!owner || !can(ctx.actor, 'user:read_tokens', { kind: 'user', id: owner.id, state: owner.state })) throw unauthorized();
}

/** Administrators list every token (or one user's); everyone else their own. Oldest first, as GitLab pages by id. */
export function listTokens({ ctx, input }: Verb<{ user_id?: number | undefined }>) {
  const user = requireUser(ctx);
  const userId = isAdministrator(ctx.actor) ? input.user_id : user.id;
  return {
    fetch: (limit: number, offset: number) => q.listPersonalAccessTokens(ctx.db, { userId }, limit, offset),
    count: (limit: number) => q.countPersonalAccessTokens(ctx.db, { userId }, limit),
  };
}

/** GitLab tells only administrators whether a token exists; others get 401 for a token they may not read. */
export async function getToken({ ctx, input }: Verb<{ id: number | null }>) {
  requireUser(ctx);
  const token = input.id === null ? undefined : await q.findPersonalAccessToken(ctx.db, input.id);
  if (token && can(ctx.actor, 'user:read_tokens', { kind: 'user', id: token.userId, state: 'active' })) return token;
  throw isAdministrator(ctx.actor) ? notFound() : unauthorized();
}

/** The token this request is authenticated with. */
export async function getSelfToken({ ctx }: Verb<unknown>) {
  const user = requireUser(ctx);
  if (ctx.actor.via !== 'personal_access_token' || !ctx.actor.tokenId) throw unauthorized();
  const token = await q.findPersonalAccessToken(ctx.db, ctx.actor.tokenId);
  if (!token || token.userId !== user.id) throw unauthorized();
  return token;
}

/**
 * Revoke: 204, effective at once (the next request with the token is 401 invalid_token). A missing token is the
 * `RecordNotFound` answer `404 Not found`; one the caller may not revoke is GitLab's bare `400 Bad request`.
 */
export async function revokeToken({ ctx, input }: Verb<{ id: number | null }>) {
  requireUser(ctx);
  const token = input.id === null ? undefined : await q.findPersonalAccessToken(ctx.db, input.id);
  if (!token) throw recordNotFound();
  if (!can(ctx.actor, 'user:read_tokens', { kind: 'user', id: token.userId, state: 'active' })) {
    throw badRequest();
  }
  await q.revokePersonalAccessToken(ctx.db, token.id);
}

// ---- Impersonation tokens (GitLab 13.6's /users/:user_id/impersonation_tokens, administrators only) ----

/** The user whose impersonation tokens are managed: administrators only, then 404 `User Not Found`. */
async function impersonated(ctx: RequestContext, userId: number | null) {
  requireAdmin(ctx);
  return findUserById(ctx, userId);
}

export async function listImpersonationTokens({ ctx, input }: Verb<{ userId: number | null; state: 'all' | 'active' | 'inactive' }>) {
  const user = await impersonated(ctx, input.userId);
  const filter = { userId: user.id, impersonation: true, state: input.state === 'all' ? undefined : input.state };
  return {
    fetch: (limit: number, offset: number) => q.listPersonalAccessTokens(ctx.db, filter, limit, offset),
    count: (limit: number) => q.countPersonalAccessTokens(ctx.db, filter, limit),
  };
}

/**
 * A token that authenticates as the user (ImpersonationToken): the model's validations as 400 model errors
 * (render_validation_error!), unlike personal access tokens' 422.
 */
export async function createImpersonationToken({
  ctx,
  input,
}: Verb<{ userId: number | null; name: string; scopes?: string[] | undefined; expires_at?: string | undefined }>) {
  const user = await impersonated(ctx, input.userId);
  const errors: Record<string, string[]> = {};
  if (!input.name.trim()) errors.name = ["can't be blank"];
  if (!input.scopes?.length) errors.scopes = ["can't be blank"];
  else if (!input.scopes.every((s) => (PAT_SCOPES as readonly string[]).includes(s))) errors.scopes = ['can only contain available scopes'];
  if (Object.keys(errors).length) throw validationFailed(errors);
  const token = randomToken('glpat-');
  const row = await q.insertPersonalAccessToken(ctx.db, {
    userId: user.id,
    name: input.name,
    scopes: [...new Set(input.scopes)],
    expiresAt: input.expires_at ?? null,
    impersonation: true,
    tokenDigest: await sha256Hex(token),
  });
  return { row, token };
}

async function findImpersonationToken(ctx: RequestContext, userId: number | null, id: number | null) {
  const user = await impersonated(ctx, userId);
  const token = id === null ? undefined : await q.findPersonalAccessToken(ctx.db, id);
  if (!token || token.userId !== user.id || !token.impersonation) throw notFound('Impersonation Token');
  return token;
}

export const getImpersonationToken = ({ ctx, input }: Verb<{ userId: number | null; id: number | null }>) =>
  findImpersonationToken(ctx, input.userId, input.id);

export async function revokeImpersonationToken({ ctx, input }: Verb<{ userId: number | null; id: number | null }>) {
  const token = await findImpersonationToken(ctx, input.userId, input.id);
  await q.revokePersonalAccessToken(ctx.db, token.id);
}
