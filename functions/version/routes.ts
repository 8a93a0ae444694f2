import { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { requireUser } from '../lib/auth.ts';

export const versionRoutes = new Hono<AppEnv>();

/** The GitLab version whose API this service implements (clients gate features on it). */
export const GITLAB_VERSION = { version: '13.6.0', revision: 'edge' } as const;

versionRoutes.get('/version', (c) => {
  requireUser(c.var.ctx);
  return c.json(GITLAB_VERSION);
});
