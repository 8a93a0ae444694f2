// GET /-/graphql-explorer: GraphiQL (yoga's page) pointed at /api/graphql, its assets served by us (no CDN: the
// page works offline). A signed-in browser gets its session's CSRF token in the request headers, so its queries and
// mutations run as the user (without it GraphQL treats a session as anonymous).
import { Hono } from 'hono';
import type { AppEnv } from '../../lib/context.ts';
import { csrfTokenFor, currentSession } from '../../lib/session.ts';

export const EXPLORER_PATH = '/-/graphql-explorer';
export const EXPLORER_ASSETS = `${EXPLORER_PATH}/assets/`;

const CDN = /https:\/\/unpkg\.com\/@graphql-yoga\/graphiql@[^/]+\/dist\//g;
const FAVICON = /https:\/\/raw\.githubusercontent\.com\/[^"' >]+favicon\.ico/g;

const DEFAULT_QUERY = `# GitLab's GraphQL API. Press the run button (or Ctrl-Enter).
{
  currentUser {
    username
  }
  metadata {
    version
  }
}
`;

export const explorerRoutes = new Hono<AppEnv>();

// GraphiQL's page is loaded with the page, not at module top level: importing it evaluates all of yoga (cold start).
let graphiql: Promise<typeof import('./graphiql.ts')> | undefined;
const loadGraphiQL = () => (graphiql ??= import('./graphiql.ts'));

explorerRoutes.get(EXPLORER_PATH, async (c) => {
  const session = await currentSession(c, c.var.ctx);
  const headers = session ? JSON.stringify({ 'X-CSRF-Token': await csrfTokenFor(session.value) }) : undefined;
  const { renderGraphiQL } = await loadGraphiQL();
  const html = renderGraphiQL({ endpoint: '/api/graphql', title: 'GraphiQL', defaultQuery: DEFAULT_QUERY, ...(headers ? { headers } : {}) })
    .replace(CDN, EXPLORER_ASSETS)
    .replace(FAVICON, 'data:,');
  c.header('Cache-Control', 'no-store');
  return c.html(html);
});
