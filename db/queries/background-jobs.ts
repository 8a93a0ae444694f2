// The background job queue's statements (db/schema/background-jobs.ts). A job is pending while it is not dead and
// no live lease holds it; the runner claims due pending jobs with FOR UPDATE SKIP LOCKED (two runners never take the
// same job), and the administrator's deletion takes pending jobs the same way, so a job is either run or deleted,
// never both: a row a runner has locked is skipped, and under READ COMMITTED a row claimed since the deletion's
// snapshot is re-read when locked and no longer matches `pending` (and the reverse for the claim).
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { backgroundJobCounters, backgroundJobs, type BackgroundJobRow, type JobMeta } from '../schema/index.ts';
import { rows, textArray } from './lib/raw.ts';

export interface NewJob {
  queue: string;
  workerClass: string;
  args: Record<string, unknown>;
  meta: JobMeta;
}

const j = backgroundJobs;
/** Not dead and not held by a live lease (an expired lease is a runner that died: the job is pending again). */
const pending = sql`NOT ${j.dead} AND (${j.claimedUntil} IS NULL OR ${j.claimedUntil} < now())`;

/** The job's row, as a statement for the change's batch or transaction (enqueued exactly when the change commits). */
export const enqueueJobStatement = (db: Db, job: NewJob) =>
  db.insert(backgroundJobs).values({ queue: job.queue, workerClass: job.workerClass, args: job.args, meta: job.meta });

/**
 * A job about a project known by id (a push knows its project's id, not its path): its meta gains the project's
 * full path and root namespace, read in the same statement.
 */
export const enqueueProjectJobStatement = (db: Db, job: NewJob, projectId: number) =>
  db.execute(
    sql`INSERT INTO ${j} (queue, worker_class, args, meta)
        SELECT ${job.queue}, ${job.workerClass}, ${JSON.stringify(job.args)}::jsonb,
               ${JSON.stringify(job.meta)}::jsonb || jsonb_build_object('project', p.path_with_namespace, 'root_namespace', split_part(p.path_with_namespace, '/', 1))
        FROM projects p WHERE p.id = ${projectId}
        RETURNING id`,
  );

/**
 * Enqueues the job unless one of the same worker is pending already, as a statement for the change's batch: the
 * periodic jobs (a cron tick while the last one waits adds nothing) and the workers that drain an outbox (a change
 * that adds to the outbox wakes its worker once). A job being run holds a live lease and is not pending, so a change
 * committed while it runs enqueues the next. Two at the same instant may both enqueue; these workers are idempotent.
 */
export const enqueueUnlessPendingStatement = (db: Db, job: NewJob) => db.execute(unlessPending(job));

const unlessPending = (job: NewJob) =>
  sql`INSERT INTO ${j} (queue, worker_class, args, meta)
      SELECT ${job.queue}, ${job.workerClass}, ${JSON.stringify(job.args)}::jsonb, ${JSON.stringify(job.meta)}::jsonb
      WHERE NOT EXISTS (SELECT 1 FROM ${j} WHERE ${j.workerClass} = ${job.workerClass} AND ${pending})
      RETURNING id`;

/** enqueueUnlessPendingStatement on its own: whether a job was enqueued. */
export async function enqueueUnlessPending(db: Db, job: NewJob): Promise<boolean> {
  return (await rows<{ id: unknown }>(db, unlessPending(job))).length > 0;
}

/**
 * Claims up to `limit` due jobs of `queues` (oldest due first) for the run `runner`: each gets a lease of
 * `leaseSeconds` and one more attempt, in the statement that takes it.
 */
export async function claimJobs(db: Db, queues: readonly string[], runner: string, limit: number, leaseSeconds: number): Promise<BackgroundJobRow[]> {
  const due = db
    .select({ id: j.id })
    .from(j)
    .where(sql`${j.queue} = ANY(${textArray(queues)}) AND ${pending} AND ${j.runAt} <= now()`)
    .orderBy(j.runAt, j.id)
    .limit(limit)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(j)
    .set({ attempts: sql`${j.attempts} + 1`, claimedAt: sql`now()`, claimedUntil: sql`now() + make_interval(secs => ${leaseSeconds})`, claimedBy: runner })
    .where(sql`${j.id} IN ${due}`)
    .returning();
  return claimed.sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || a.id - b.id);
}

/** Adds the rows of `done` (a CTE of the statement) to a counter, in the statement that changed them. */
const countInto = (name: 'processed' | 'failed') =>
  sql`UPDATE ${backgroundJobCounters} SET value = value + (SELECT count(*) FROM done) WHERE ${backgroundJobCounters.name} = ${name} AND EXISTS (SELECT 1 FROM done)`;

/** A job its run finished: gone, and counted as processed (Sidekiq's counter) in the same statement. */
export async function completeJob(db: Db, id: number, runner: string): Promise<void> {
  await db.execute(sql`WITH done AS (DELETE FROM ${j} WHERE ${j.id} = ${id} AND ${j.claimedBy} = ${runner} RETURNING 1) ${countInto('processed')}`);
}

/** A job its run failed: due again after `retryInSeconds`, or dead (null) and kept for the administrator. */
export async function failJob(db: Db, id: number, runner: string, error: string, retryInSeconds: number | null): Promise<void> {
  // A dead job's run_at says when it died (its retention counts from there). Each failure counts (Sidekiq's `failed`).
  const runAt = retryInSeconds === null ? sql`now()` : sql`now() + make_interval(secs => ${retryInSeconds})`;
  await db.execute(sql`WITH done AS (
      UPDATE ${j} SET claimed_at = NULL, claimed_until = NULL, claimed_by = NULL, last_error = ${error}, run_at = ${runAt}, dead = ${retryInSeconds === null}
      WHERE ${j.id} = ${id} AND ${j.claimedBy} = ${runner} RETURNING 1)
    ${countInto('failed')}`);
}

/** Jobs whose meta holds every given key with the given value (`meta @> {...}`). */
const metaMatches = (meta: JobMeta): SQL => sql`${j.meta} @> ${JSON.stringify(meta)}::jsonb`;

/**
 * Deletes up to `limit` pending jobs of the queue matching `meta`; the ids deleted. Rows a runner is claiming are
 * skipped (SKIP LOCKED), and one claimed since this statement's snapshot no longer matches when re-read at the lock.
 */
export async function deletePendingJobs(db: Db, queue: string, meta: JobMeta, limit: number): Promise<number[]> {
  const found = db
    .select({ id: j.id })
    .from(j)
    .where(sql`${j.queue} = ${queue} AND ${pending} AND ${metaMatches(meta)}`)
    .orderBy(j.id)
    .limit(limit)
    .for('update', { skipLocked: true });
  const deleted = await db
    .delete(j)
    .where(sql`${j.id} IN ${found}`)
    .returning({ id: j.id });
  return deleted.map((d) => Number(d.id));
}

/** Pending jobs of the queue (Sidekiq's queue size: what waits, not what runs or is dead). */
export async function pendingJobCount(db: Db, queue: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(j)
    .where(sql`${j.queue} = ${queue} AND ${pending}`);
  return row?.n ?? 0;
}

/** Deletes up to `limit` dead jobs that died before `before`; the number deleted. */
export async function deleteDeadJobsBefore(db: Db, before: SQL, limit: number): Promise<number> {
  const old = db
    .select({ id: j.id })
    .from(j)
    .where(sql`${j.dead} AND ${j.runAt} < ${before}`)
    .limit(limit)
    .for('update', { skipLocked: true });
  return (
    await db
      .delete(j)
      .where(sql`${j.id} IN ${old}`)
      .returning({ id: j.id })
  ).length;
}

/**
 * Per queue with pending jobs: how many wait (`backlog`) and how long the oldest due one has waited, whole seconds
 * (`latency`, Sidekiq's Queue#latency; 0 when none is due).
 */
export async function queueBacklogs(db: Db): Promise<Map<string, { backlog: number; latency: number }>> {
  const found = await rows<{ queue: string; backlog: unknown; latency: unknown }>(
    db,
    sql`SELECT ${j.queue} AS queue, count(*) AS backlog,
          coalesce(floor(extract(epoch from now() - min(${j.runAt}) FILTER (WHERE ${j.runAt} <= now()))), 0) AS latency
        FROM ${j} WHERE ${pending} GROUP BY ${j.queue}`,
  );
  return new Map(found.map((r) => [r.queue, { backlog: Number(r.backlog), latency: Number(r.latency) }]));
}

/** Sidekiq's Stats: the counters, the pending jobs (`enqueued`) and the dead ones. */
export async function jobStats(db: Db): Promise<{ processed: number; failed: number; enqueued: number; dead: number }> {
  const [row] = await rows<{ processed: unknown; failed: unknown; enqueued: unknown; dead: unknown }>(
    db,
    sql`SELECT (SELECT value FROM ${backgroundJobCounters} WHERE name = 'processed') AS processed,
          (SELECT value FROM ${backgroundJobCounters} WHERE name = 'failed') AS failed,
          (SELECT count(*) FROM ${j} WHERE ${pending}) AS enqueued,
          (SELECT count(*) FROM ${j} WHERE ${j.dead}) AS dead`,
  );
  return { processed: Number(row?.processed ?? 0), failed: Number(row?.failed ?? 0), enqueued: Number(row?.enqueued ?? 0), dead: Number(row?.dead ?? 0) };
}

/** The runs holding live leases (Sidekiq's processes): each with when its oldest lease began, its queues and jobs. */
export async function liveRuns(db: Db) {
  const found = await rows<{ runner: string; started_at: Date | string; queues: string[]; busy: unknown }>(
    db,
    sql`SELECT ${j.claimedBy} AS runner, min(${j.claimedAt}) AS started_at, array_agg(DISTINCT ${j.queue} ORDER BY ${j.queue}) AS queues, count(*) AS busy
        FROM ${j} WHERE ${j.claimedBy} IS NOT NULL AND ${j.claimedUntil} > now() GROUP BY ${j.claimedBy} ORDER BY min(${j.claimedAt})`,
  );
  return found.map((r) => ({ runner: r.runner, startedAt: new Date(r.started_at), queues: r.queues, busy: Number(r.busy) }));
}
