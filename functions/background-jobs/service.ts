// The administrator's verbs on the queues: each queue's backlog and latency (GitLab's GET /sidekiq/queue_metrics),
// and deleting the pending jobs of one queue that match the context metadata given (Gitlab::SidekiqQueue#drop_jobs!,
// behind adminSidekiqQueuesDeleteJobs). Jobs a runner has claimed are never deleted (db/queries/background-jobs.ts
// says why a job is run or deleted, never both).
import { deletePendingJobs, jobStats, liveRuns, pendingJobCount, queueBacklogs } from '../../db/queries/background-jobs.ts';
import { JOB_META_KEYS, type JobMeta } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { forbidden, invalidMessage, notFoundMessage } from '../lib/errors.ts';
import { requireUser } from '../lib/auth.ts';
import { can } from '../lib/policy.ts';
import { isQueueName, QUEUES } from './queues.ts';

/** Jobs deleted per statement: each is a short statement holding few row locks. */
export const DELETE_BATCH = 1000;
/** GitLab's `drop_jobs!(…, timeout: 30)`: past it the answer says `completed: false` (retrying is safe). */
export const DELETE_TIMEOUT_MS = 30_000;

export const ADMIN_ONLY = 'You must be an admin to use this mutation';
export const NO_METADATA = 'No metadata provided';

export interface DeleteJobsInput {
  queueName: string;
  meta: JobMeta;
}

export interface DeleteJobsResult {
  completed: boolean;
  deletedJobs: number;
  queueSize: number;
}

/**
 * Deletes the queue's pending jobs whose metadata holds every key given, in bounded batches until none is left or
 * the time limit is reached. Refusals in GitLab's order: not an administrator, no metadata, unknown queue.
 */
export async function deleteJobs(
  { ctx, input }: { ctx: RequestContext; input: DeleteJobsInput },
  limits: { batch?: number; timeoutMs?: number } = {},
): Promise<DeleteJobsResult> {
  if (!can(ctx.actor, 'instance:admin_background_jobs', null)) throw forbidden(ADMIN_ONLY);
  const meta = Object.fromEntries(JOB_META_KEYS.flatMap((k) => (input.meta[k] != null ? [[k, input.meta[k]]] : []))) as JobMeta;
  if (!Object.keys(meta).length) throw invalidMessage(NO_METADATA);
  if (!isQueueName(input.queueName)) throw notFoundMessage(`Queue ${input.queueName} not found`);
  const batch = limits.batch ?? DELETE_BATCH;
  const deadline = Date.now() + (limits.timeoutMs ?? DELETE_TIMEOUT_MS);
  let deletedJobs = 0;
  let completed = false;
  while (Date.now() < deadline) {
    const deleted = await deletePendingJobs(ctx.db, input.queueName, meta, batch);
    deletedJobs += deleted.length;
    if (deleted.length < batch) {
      completed = true;
      break;
    }
  }
  return { completed, deletedJobs, queueSize: await pendingJobCount(ctx.db, input.queueName) };
}

/** API::SidekiqMetrics' `authenticated_as_admin!`: 401 anonymous, 403 others. */
function requireQueueAdmin(ctx: RequestContext) {
  requireUser(ctx);
  if (!can(ctx.actor, 'instance:admin_background_jobs', null)) throw forbidden();
}

/** Every queue of the catalog with its backlog (pending jobs) and latency (seconds the oldest due job has waited). */
export async function queueMetrics({ ctx }: { ctx: RequestContext }): Promise<Record<string, { backlog: number; latency: number }>> {
  requireQueueAdmin(ctx);
  const found = await queueBacklogs(ctx.db);
  return Object.fromEntries(Object.keys(QUEUES).map((name) => [name, found.get(name) ?? { backlog: 0, latency: 0 }]));
}

/**
 * Sidekiq's processes, as the runs now holding jobs: a run is a short-lived invocation (a cron tick or a request's
 * waitUntil), not a daemon, so it has no host or pid of its own; its id stands as the hostname.
 */
export async function processMetrics({ ctx }: { ctx: RequestContext }) {
  requireQueueAdmin(ctx);
  return (await liveRuns(ctx.db)).map((r) => ({
    hostname: r.runner,
    pid: null,
    tag: null,
    started_at: r.startedAt.toISOString(),
    queues: r.queues,
    labels: [],
    concurrency: r.busy,
    busy: r.busy,
  }));
}

/** Sidekiq::Stats: processed and failed (cumulative), enqueued (pending) and dead jobs. */
export async function jobStatsOf({ ctx }: { ctx: RequestContext }) {
  requireQueueAdmin(ctx);
  return jobStats(ctx.db);
}
