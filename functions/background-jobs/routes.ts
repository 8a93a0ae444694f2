// REST over the queues for administrators: GitLab's GET /sidekiq/queue_metrics (API::SidekiqMetrics,
// `authenticated_as_admin!`: 401 anonymous, 403 others).
import { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { queueMetrics } from './service.ts';

export const backgroundJobRoutes = new Hono<AppEnv>();

backgroundJobRoutes.get('/sidekiq/queue_metrics', async (c) => c.json({ queues: await queueMetrics({ ctx: c.var.ctx }) }));
