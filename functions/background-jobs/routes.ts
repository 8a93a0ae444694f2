// REST over the queues for administrators: GitLab's API::SidekiqMetrics (`authenticated_as_admin!`: 401 anonymous,
// 403 others): queue_metrics, process_metrics, job_stats and compound_metrics, answered from the job queue.
import { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { jobStatsOf, processMetrics, queueMetrics } from './service.ts';

export const backgroundJobRoutes = new Hono<AppEnv>();

backgroundJobRoutes.get('/sidekiq/queue_metrics', async (c) => c.json({ queues: await queueMetrics({ ctx: c.var.ctx }) }));
backgroundJobRoutes.get('/sidekiq/process_metrics', async (c) => c.json({ processes: await processMetrics({ ctx: c.var.ctx }) }));
backgroundJobRoutes.get('/sidekiq/job_stats', async (c) => c.json({ jobs: await jobStatsOf({ ctx: c.var.ctx }) }));
backgroundJobRoutes.get('/sidekiq/compound_metrics', async (c) => {
  const ctx = c.var.ctx;
  const queues = await queueMetrics({ ctx });
  const [processes, jobs] = await Promise.all([processMetrics({ ctx }), jobStatsOf({ ctx })]);
  return c.json({ queues, processes, jobs });
});
