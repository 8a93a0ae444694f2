// The background job queue: work GitLab does in Sidekiq (project and group destruction, the cron jobs, mail) as rows
// of one table, claimed with FOR UPDATE SKIP LOCKED by the scheduled runner (functions/background-jobs/runner.ts).
// A job carries GitLab's context metadata (Gitlab::ApplicationContext: who asked, for which project, from which
// endpoint), so an administrator can find and drop the jobs of one user or project (adminBackgroundQueuesDeleteJobs).
// A job is pending until a runner claims it (a lease: claimed_until), deleted when it succeeds, rescheduled with
// Sidekiq's backoff when it fails, and kept as dead once its retries are exhausted.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Gitlab::ApplicationContext's keys (13.6 KNOWN_KEYS) as a job's `meta.<key>`. */
export const JOB_META_KEYS = ['user', 'project', 'root_namespace', 'subscription_plan', 'caller_id', 'related_class', 'feature_category'] as const;
export type JobMetaKey = (typeof JOB_META_KEYS)[number];
export type JobMeta = Partial<Record<JobMetaKey, string>>;

export const backgroundJobs = pgTable(
  'background_jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The named queue (GitLab's queue names: `project_destroy`, `cronjob:prune_old_events`, `mailers`...). */
    queue: text('queue').notNull(),
    /** The worker that runs it (GitLab's worker class name: `ProjectDestroyWorker`). */
    workerClass: text('worker_class').notNull(),
    args: jsonb('args').$type<Record<string, unknown>>().notNull().default({}),
    meta: jsonb('meta').$type<JobMeta>().notNull().default({}),
    /** Runs started (a claim counts one). */
    attempts: integer('attempts').notNull().default(0),
    /** Due from (enqueue time, or the retry's backoff); for a dead job, when it died. */
    runAt: timestamp('run_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** The running claim: set by the runner that took it; a lease past `claimed_until` is abandoned (that runner died). */
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }),
    claimedUntil: timestamp('claimed_until', { withTimezone: true, mode: 'date' }),
    /** The claiming run's id: only that run completes or fails the job (a lease taken over since is not its own). */
    claimedBy: text('claimed_by'),
    lastError: text('last_error'),
    /** Retries exhausted: never run again, kept for the administrator (Sidekiq's dead set). */
    dead: boolean('dead').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // The runner's claim and the deletion's scan: a queue's live jobs by due time.
    index('background_jobs_queue_due_idx')
      .on(t.queue, t.runAt)
      .where(sql`NOT ${t.dead}`),
    // The pending-job-of-this-kind test of the periodic enqueue, and the dead jobs' retention.
    index('background_jobs_worker_idx')
      .on(t.workerClass)
      .where(sql`NOT ${t.dead}`),
    index('background_jobs_dead_idx')
      .on(t.runAt)
      .where(sql`${t.dead}`),
  ],
);

export type BackgroundJobRow = typeof backgroundJobs.$inferSelect;

/**
 * Sidekiq's cumulative counters (`processed`, `failed`), kept by the statements that complete or fail a job, for
 * GET /sidekiq/job_stats. One row per counter, created by the migration.
 */
export const backgroundJobCounters = pgTable('background_job_counters', {
  name: text('name').$type<'processed' | 'failed'>().primaryKey(),
  value: bigint('value', { mode: 'number' }).notNull().default(0),
});
