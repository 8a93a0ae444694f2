import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../lib/context.ts';
import { noStore } from '../lib/no-store.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { params, path, schema } from '../lib/validate.ts';
import { lookupId } from '../users/schemas.ts';
import {
  CreateImpersonationTokenInput,
  CreateTokenInput,
  ListImpersonationTokensInput,
  ListTokensInput,
  toImpersonationToken,
  toNewToken,
  toToken,
} from './schemas.ts';
import * as tokens from './service.ts';

export const tokenRoutes = new Hono<AppEnv>();
// Looked up: ids no token can have (out of the integer range) are tokens that do not exist.
const TokenPath = schema(() => z.object({ id: lookupId() }));
const UserPath = schema(() => z.object({ user_id: lookupId() }));

// GitLab's `before` blocks run ahead of parameter validation: who may call comes first.
const adminOnly = createMiddleware<AppEnv>(async (c, next) => {
  tokens.requireTokenAdmin(c.var.ctx);
  await next();
});
const mayListTokens = createMiddleware<AppEnv>(async (c, next) => {
  await tokens.assertMayListTokens(c.var.ctx, c.req.query('user_id'));
  await next();
});

// GitLab 13.6: `segment ':user_id'` with `requires :user_id, type: Integer` (a username is `user_id is invalid`).
tokenRoutes.post('/users/:user_id/personal_access_tokens', noStore, adminOnly, path(UserPath), params(CreateTokenInput), async (c) => {
  const { row, token } = await tokens.createToken({ ctx: c.var.ctx, input: { userId: c.req.valid('param').user_id, ...c.req.valid('query') } });
  return c.json(toNewToken(row, token), 201);
});

tokenRoutes.get('/personal_access_tokens', mayListTokens, params(ListTokensInput), async (c) => {
  const input = c.req.valid('query');
  const { fetch, count } = tokens.listTokens({ ctx: c.var.ctx, input });
  const rows = await paginate(c, pageRequest(input), fetch, count);
  return c.json(rows.map(toToken));
});

tokenRoutes.get('/personal_access_tokens/self', async (c) => {
  return c.json(toToken(await tokens.getSelfToken({ ctx: c.var.ctx, input: {} })));
});

tokenRoutes.get('/personal_access_tokens/:id', mayListTokens, path(TokenPath), async (c) => {
  return c.json(toToken(await tokens.getToken({ ctx: c.var.ctx, input: c.req.valid('param') })));
});

tokenRoutes.delete('/personal_access_tokens/:id', mayListTokens, path(TokenPath), async (c) => {
  await tokens.revokeToken({ ctx: c.var.ctx, input: c.req.valid('param') });
  return c.body(null, 204);
});

// Impersonation tokens: administrators only (`before { authenticated_as_admin! }`), for a user named by id.
const ImpersonationPath = schema(() => z.object({ user_id: lookupId(), impersonation_token_id: lookupId() }));
const IMPERSONATION = '/users/:user_id/impersonation_tokens';

tokenRoutes.get(IMPERSONATION, adminOnly, path(UserPath), params(ListImpersonationTokensInput), async (c) => {
  const input = c.req.valid('query');
  const { fetch, count } = await tokens.listImpersonationTokens({ ctx: c.var.ctx, input: { userId: c.req.valid('param').user_id, state: input.state } });
  const rows = await paginate(c, pageRequest(input), fetch, count);
  return c.json(rows.map(toImpersonationToken));
});

tokenRoutes.post(IMPERSONATION, noStore, adminOnly, path(UserPath), params(CreateImpersonationTokenInput), async (c) => {
  const { row, token } = await tokens.createImpersonationToken({ ctx: c.var.ctx, input: { userId: c.req.valid('param').user_id, ...c.req.valid('query') } });
  return c.json({ ...toNewToken(row, token), impersonation: true }, 201);
});

tokenRoutes.get(`${IMPERSONATION}/:impersonation_token_id`, adminOnly, path(ImpersonationPath), async (c) => {
  const { user_id, impersonation_token_id } = c.req.valid('param');
  return c.json(toImpersonationToken(await tokens.getImpersonationToken({ ctx: c.var.ctx, input: { userId: user_id, id: impersonation_token_id } })));
});

tokenRoutes.delete(`${IMPERSONATION}/:impersonation_token_id`, adminOnly, path(ImpersonationPath), async (c) => {
  const { user_id, impersonation_token_id } = c.req.valid('param');
  await tokens.revokeImpersonationToken({ ctx: c.var.ctx, input: { userId: user_id, id: impersonation_token_id } });
  return c.body(null, 204);
});
