// The runner: claims due jobs (FOR UPDATE SKIP LOCKED, with a lease), runs each job's worker, deletes the job when
// it succeeds and reschedules it with Sidekiq's backoff when it fails, until its retries are exhausted and it is
// kept as dead. One run is bounded (jobs and time) so a cron invocation ends; what is left waits for the next tick.
import { sql } from 'drizzle-orm';
import { claimJobs, completeJob, deleteDeadJobsBefore, failJob } from '../../db/queries/background-jobs.ts';
import type { BackgroundJobRow } from '../../db/schema/index.ts';
import type { JobContext } from '../housekeeping/service.ts';
import { log } from '../lib/log.ts';
import { isQueueName, QUEUES, type QueueName } from './queues.ts';
import { WORKERS } from './workers.ts';

/** Jobs claimed per statement. */
export const CLAIM_BATCH = 10;
/** A run claims no more once it has run this many jobs or for this long. */
export const MAX_JOBS_PER_RUN = 500;
export const RUN_BUDGET_MS = 60_000;
/**
 * A claim's lease: past it, the job is pending again (its runner is taken for dead). Well above a run's budget, so
 * a live runner's job is never taken over (nor deleted by an administrator) while it runs.
 */
export const LEASE_SECONDS = 15 * 60;
/** Dead jobs are kept 6 months (Sidekiq's dead set), then deleted. */
export const DEAD_RETENTION = sql`now() - interval '6 months'`;

/**
 * Sidekiq's retry delay in seconds after the `retryCount`-th failure (0 for the first):
 * `count ** 4 + 15 + rand(10) * (count + 1)`.
 */
export const retryDelaySeconds = (retryCount: number, random = Math.random) => retryCount ** 4 + 15 + Math.floor(random() * 10) * (retryCount + 1);

export interface JobOutcome {
  id: number;
  queue: string;
  workerClass: string;
  outcome: 'done' | 'retry' | 'dead';
  result?: Record<string, unknown>;
  error?: string;
}

async function runOne(job: JobContext, row: BackgroundJobRow, runner: string): Promise<JobOutcome> {
  const base = { id: row.id, queue: row.queue, workerClass: row.workerClass };
  // A job of a queue this build does not know (renamed, or removed) can never run: it dies at once.
  const queue: QueueName | null = isQueueName(row.queue) && QUEUES[row.queue].workerClass === row.workerClass ? row.queue : null;
  try {
    if (!queue) throw new Error(`unknown worker ${row.workerClass} in queue ${row.queue}`);
    const result = await WORKERS[queue](job, row.args);
    await completeJob(job.ctx.db, row.id, runner);
    return { ...base, outcome: 'done', result };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // attempts counts this run: the retry count Sidekiq keeps is one less.
    const retries = queue ? QUEUES[queue].retry : 0;
    const retryIn = row.attempts <= retries ? retryDelaySeconds(row.attempts - 1) : null;
    await failJob(job.ctx.db, row.id, runner, message, retryIn);
    log('error', 'background job failed', {
      job_id: row.id,
      queue: row.queue,
      class: row.workerClass,
      attempts: row.attempts,
      retry_in: retryIn ?? undefined,
      error: error instanceof Error ? (error.stack ?? message) : message,
    });
    return { ...base, outcome: retryIn === null ? 'dead' : 'retry', error: message };
  }
}

/**
 * Runs due jobs of `queues` (every queue by default) until none is due or the run's bounds are reached; the outcome
 * of each job it ran. Safe beside other runs: each job is claimed by one run.
 */
export async function runJobs(
  job: JobContext,
  options: { queues?: readonly string[]; maxJobs?: number; budgetMs?: number; claimBatch?: number } = {},
): Promise<JobOutcome[]> {
  const queues = options.queues ?? Object.keys(QUEUES);
  const maxJobs = options.maxJobs ?? MAX_JOBS_PER_RUN;
  const deadline = Date.now() + (options.budgetMs ?? RUN_BUDGET_MS);
  const runner = crypto.randomUUID();
  const outcomes: JobOutcome[] = [];
  while (outcomes.length < maxJobs && Date.now() < deadline) {
    const claimed = await claimJobs(job.ctx.db, queues, runner, Math.min(options.claimBatch ?? CLAIM_BATCH, maxJobs - outcomes.length), LEASE_SECONDS);
    if (!claimed.length) break;
    for (const row of claimed) outcomes.push(await runOne(job, row, runner));
  }
  await deleteDeadJobsBefore(job.ctx.db, DEAD_RETENTION, 1000);
  return outcomes;
}
