import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env.ts';
import { userRef } from '../lib/ids.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import { id, params, path, z } from '../lib/validate.ts';
import { CreateTokenInput, ListTokensInput, toNewToken, toToken } from './schemas.ts';
import * as tokens from './service.ts';

export const tokenRoutes = new Hono<AppEnv>();
const TokenPath = z.object({ id: id() });

// GitLab's `before` blocks run ahead of parameter validation: who may call comes first.
const adminOnly = createMiddleware<AppEnv>(async (c, next) => {
  tokens.requireTokenAdmin(c.var.ctx);
  await next();
});
const mayListTokens = createMiddleware<AppEnv>(async (c, next) => {
  await tokens.assertMayListTokens(c.var.ctx, c.req.query('user_id'));
  await next();
});

tokenRoutes.post('/users/:id/personal_access_tokens', adminOnly, path(z.object({ id: userRef })), params(CreateTokenInput), async (c) => {
  const { row, token } = await tokens.createToken({ ctx: c.var.ctx, input: { ref: c.req.valid('param').id, ...c.req.valid('query') } });
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
