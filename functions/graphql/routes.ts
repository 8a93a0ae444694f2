// POST /api/graphql (and GET for queries): the caller is resolved as for REST (tokens; a browser session only with
// its X-CSRF-Token, else anonymous), then yoga runs the operation(s).
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { resolveActor, scopeDecision } from '../lib/auth.ts';
import { isDomainError } from '../lib/errors.ts';
import { secretShown, setNoStore } from '../lib/no-store.ts';

// The GraphQL server (graphql-js, yoga, the schema and every resolver) is loaded on the first GraphQL request and
// kept for the isolate: the bundle still carries it, but a REST-only isolate never evaluates it (cold start).
let server: Promise<typeof import('./yoga.ts')> | undefined;
const loadServer = () => (server ??= import('./yoga.ts'));

export const graphqlRoutes = new Hono<AppEnv>();

graphqlRoutes.on(['GET', 'POST'], '/api/graphql', async (c) => {
  const res = await answer(c);
  // GitLab's GraphQL answers are `max-age=0, private, must-revalidate` (Rails' default for a dynamic response); one
  // that carries a secret shown once (a new alert integration or cluster agent token) is no-store (resolvers mark it).
  if (secretShown(c.var.ctx)) setNoStore(res.headers);
  else res.headers.set('Cache-Control', 'max-age=0, private, must-revalidate');
  return res;
});

async function answer(c: Context<AppEnv>): Promise<Response> {
  const ctx = c.var.ctx;
  try {
    ctx.actor = await resolveActor(c, ctx, 'graphql');
  } catch (e) {
    // A token that matches nothing is 401 (GitLab's later controller: `render_error('Invalid token', status: :unauthorized)`).
    if (isDomainError(e, 'unauthorized')) return c.json({ errors: [{ message: 'Invalid token' }] }, 401);
    if (isDomainError(e, 'forbidden')) return c.json({ errors: [{ message: 'API not accessible for user.' }] }, 403);
    throw e;
  }
  // A token that may not even read through GraphQL is refused before parsing; writes are decided per operation (yoga.ts).
  if (!scopeDecision(ctx.actor, 'read', { api: 'graphql' }).allowed) return c.json({ errors: [{ message: 'Insufficient scope' }] }, 403);
  // Variables (or extensions) in a GET's query string that are not JSON: GitLab's Gitlab::Graphql::Variables::Invalid,
  // a 422 with the parser's message (yoga would throw the SyntaxError: a 500).
  if (c.req.method === 'GET') {
    for (const name of ['variables', 'extensions']) {
      const raw = c.req.query(name);
      if (!raw) continue;
      try {
        JSON.parse(raw);
      } catch (e) {
        return c.json({ errors: [{ message: e instanceof Error ? e.message : 'Invalid JSON' }] }, 422);
      }
    }
  }
  const { graphqlServer } = await loadServer();
  return graphqlServer().fetch(c.req.raw, { ctx });
}
