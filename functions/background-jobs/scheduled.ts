// The scheduled work, as every runtime triggers it: the Worker's cron (`scheduled()` in functions/index.ts) and the
// timer of `npm start` (functions/local-schedule.ts). Each tick enqueues the periodic jobs (sidekiq-cron's part: one
// per cron queue, none while one still waits) and then runs the queue (runner.ts): those, and the jobs requests
// enqueued since (project_destroy, group_destroy...).
import { enqueueUnlessPending } from '../../db/queries/background-jobs.ts';
import type { JobContext } from '../housekeeping/service.ts';
import { log } from '../lib/log.ts';
import { PERIODIC_QUEUES, QUEUES } from './queues.ts';
import { runJobs, type JobOutcome } from './runner.ts';

/** Enqueues each periodic job that has none pending; the queues given one. */
export async function enqueuePeriodicJobs({ ctx }: JobContext): Promise<string[]> {
  const enqueued: string[] = [];
  for (const queue of PERIODIC_QUEUES) {
    const spec = QUEUES[queue];
    // A cron job runs in no request: its context is the worker's feature category alone.
    if (await enqueueUnlessPending(ctx.db, { queue, workerClass: spec.workerClass, args: {}, meta: { feature_category: spec.featureCategory } }))
      enqueued.push(queue);
  }
  return enqueued;
}

/** One tick. A failure is logged with what triggered it, then rethrown for the trigger to report. */
export async function runScheduledWork(ctx: JobContext['ctx'], trigger: string, config?: JobContext['config']): Promise<JobOutcome[]> {
  try {
    await enqueuePeriodicJobs({ ctx });
    const outcomes = await runJobs({ ctx, config });
    log('info', 'background jobs run', {
      cron: trigger,
      jobs: outcomes.map((o) => ({ id: o.id, queue: o.queue, outcome: o.outcome, ...(o.result ? { result: o.result } : {}) })),
    });
    return outcomes;
  } catch (error) {
    log('error', 'scheduled work failed', { cron: trigger, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    throw error;
  }
}
