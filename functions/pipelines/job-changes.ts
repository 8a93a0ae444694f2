// The job changes pipelines and jobs share: cancel what has not finished, retry what failed. Each is a status
// change guarded by the status it leaves (db/queries/jobs.ts), followed by the pipeline's processing.
import { retryJobsStatements, transitionJobs } from '../jobs/statements.ts';
import { pipelineJobs, type PipelineJobRow } from '../../db/queries/pipelines.ts';
import type { CiStatus } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';

/** Ci::HasStatus::CANCELABLE_STATUSES. */
export const CANCELABLE: readonly CiStatus[] = ['running', 'waiting_for_resource', 'preparing', 'pending', 'created', 'scheduled'];

export async function cancelJobs(ctx: Pick<RequestContext, 'db'>, target: { pipelineId: number } | { ids: readonly number[] }): Promise<number[]> {
  return transitionJobs(ctx.db, { ...target, from: CANCELABLE, to: 'canceled' });
}

/**
 * Copies the latest jobs `which` selects as new created jobs (the originals kept as retried) and reopens the
 * skipped jobs after the earliest of them, so processing runs them again (Ci::RetryPipelineService).
 */
export async function retryJobs(
  ctx: Pick<RequestContext, 'db' | 'batch'>,
  pipelineId: number,
  userId: number,
  which: (j: PipelineJobRow) => boolean,
): Promise<void> {
  const jobs = (await pipelineJobs(ctx.db, [pipelineId])).filter(which);
  if (!jobs.length) return;
  await ctx.batch((db) =>
    retryJobsStatements(
      db,
      jobs.map((j) => j.id),
      'created',
      userId,
      pipelineId,
      Math.min(...jobs.map((j) => j.stageIdx)),
    ),
  );
}
