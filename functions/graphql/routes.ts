// POST /api/graphql (and GET for queries): the caller is resolved as for REST (tokens; a browser session only with
// its X-CSRF-Token, else anonymous), then yoga runs the operation(s).
import { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { resolveActor } from '../lib/auth.ts';
import { ApiError } from '../lib/errors.ts';
import { graphqlServer } from './yoga.ts';

export const graphqlRoutes = new Hono<AppEnv>();

graphqlRoutes.on(['GET', 'POST'], '/api/graphql', async (c) => {
  const ctx = c.var.ctx;
  try {
    ctx.actor = await resolveActor(c, ctx);
  } catch (e) {
    // A token that matches nothing is 401 (GitLab's later controller: `render_error('Invalid token', status: :unauthorized)`).
    if (e instanceof ApiError && e.status === 401) return c.json({ errors: [{ message: 'Invalid token' }] }, 401);
    if (e instanceof ApiError && e.status === 403) return c.json({ errors: [{ message: 'API not accessible for user.' }] }, 403);
    throw e;
  }
  // GraphQL takes `api` and `read_api` tokens (read_user, read_repository, ... do not reach it).
  if (ctx.actor.via && ctx.actor.via !== 'session' && !ctx.actor.scopes.some((s) => s === 'api' || s === 'read_api')) {
    return c.json({ errors: [{ message: 'Insufficient scope' }] }, 403);
  }
  return graphqlServer().fetch(c.req.raw, { ctx });
});
