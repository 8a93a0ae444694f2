// GitLab's `before { authenticated_as_admin! }` as middleware: who may call is checked before the parameters are
// (401 anonymous, 403 for a non-admin), through the policy module (requireAdmin).
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../lib/context.ts';
import { requireAdmin } from './service.ts';

export const adminOnly = createMiddleware<AppEnv>(async (c, next) => {
  requireAdmin(c.var.ctx);
  await next();
});
