// On Node (`npm start`, tests): serve the explorer's GraphiQL assets from disk in front of the app, as the Worker's
// static assets ([assets] in wrangler.toml) do in production. Not part of the Worker bundle.
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { EXPLORER_ASSETS } from './routes.ts';

export const EXPLORER_PUBLIC_DIR = './functions/web/explorer/public';

export function withExplorerAssets(fetch: (request: Request) => Response | Promise<Response>) {
  const app = new Hono();
  app.use(`${EXPLORER_ASSETS}*`, serveStatic({ root: EXPLORER_PUBLIC_DIR }));
  app.all('*', (c) => fetch(c.req.raw));
  return (request: Request) => app.fetch(request);
}
