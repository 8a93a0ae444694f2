// Repository housekeeping after a push (GitLab's Repositories::HousekeepingService, which PostReceive runs): a
// project that gained GIT_GC_AUTO objects since its last pack gets a git_garbage_collect job, whose repack
// (transport/repack.ts, loaded only by that job) writes the pack its clones stream. The test is one count, so a
// push that is not due costs one statement.
import { currentPack, readableObjectCount } from '../../db/queries/repositories/packs.ts';
import { projectJobByIdStatement } from '../background-jobs/enqueue.ts';
import type { JobContext } from '../housekeeping/service.ts';
import { jobContext } from '../lib/context.ts';

/** git's gc.auto default is 6,700 loose objects; a clone here pays for unpacked objects sooner. */
export const DEFAULT_GC_AUTO = 1000;

/** Enqueues a repack of each project that is due one; answers the projects. */
export async function repackIfDue(job: JobContext, projectIds: readonly number[]): Promise<number[]> {
  const config = job.config;
  const gcAuto = config?.gitGcAuto ?? DEFAULT_GC_AUTO;
  if (!config || gcAuto <= 0) return [];
  const due: number[] = [];
  for (const projectId of new Set(projectIds)) {
    const current = await currentPack(job.ctx.db, projectId);
    if ((await readableObjectCount(job.ctx.db, projectId)) - (current?.objectCount ?? 0) >= gcAuto) due.push(projectId);
  }
  if (!due.length) return [];
  const ctx = jobContext(job.ctx, config, { user: null, scopes: [], via: null }, 'housekeeping');
  await ctx.batch((db) => due.map((projectId) => projectJobByIdStatement(db, ctx, 'git_garbage_collect', projectId, { project_id: projectId })) as never);
  return due;
}
