import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../lib/context.ts';
import { noStore } from '../lib/no-store.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { params, path, schema } from '../lib/validate.ts';
import { lookupId } from '../users/schemas.ts';
import { CreateTokenInput, ListTokensInput, toNewToken, toToken } from './schemas.ts';
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
