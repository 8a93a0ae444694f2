// Repository housekeeping (GitLab's Projects::HousekeepingService): after a push (PostReceive runs it), a project
// that gained GIT_GC_AUTO objects since its last pack gets a git_garbage_collect job, whose repack
// (transport/repack.ts, loaded only by that job) writes the pack its clones stream; the test is the current pack's
// row and a count of the project's readable objects (an index-only count, which grows with the repository: it runs
// in the post_receive job, after the push's response). A maintainer may also start one (POST /projects/:id/housekeeping).
import { currentPack, readableObjectCount } from '../../db/queries/repositories/packs.ts';
import { projectJobByIdStatement } from '../background-jobs/enqueue.ts';
import type { JobContext } from '../housekeeping/service.ts';
import { jobContext, type RequestContext } from '../lib/context.ts';
import { batchRows } from '../../db/queries/lib/raw.ts';
import { conflict } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan } from '../lib/policy.ts';
import { takeLease } from '../lib/rate-limit.ts';
import { findProject, projectFacts } from '../projects/service.ts';

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

/** Projects::HousekeepingService::LEASE_TIMEOUT (13.6): a day. */
const LEASE_SECONDS = 86_400;

/**
 * POST /projects/:id/housekeeping (GitLab 13.6: authorize_admin_project, then HousekeepingService(:gc)): the
 * project's repack is enqueued now, once a day per project at most (409 with GitLab's words inside the lease).
 * Answers the job's id, where GitLab answers Sidekiq's jid. The automatic repacks after pushes take no lease: they
 * follow the objects a project gains (GIT_GC_AUTO), not GitLab's push counter.
 */
export async function startHousekeeping({ ctx, input }: { ctx: RequestContext; input: { project: Ref | null } }): Promise<string> {
  const view = await findProject(ctx, input.project);
  assertCan(ctx.actor, 'project:update', projectFacts(view));
  const id = view.project.id;
  if (!(await takeLease(ctx, `project_housekeeping:${id}`, LEASE_SECONDS))) {
    throw conflict(`Somebody already triggered housekeeping for this project in the past ${LEASE_SECONDS / 60} minutes`);
  }
  const [enqueued] = await ctx.batch((db) => [projectJobByIdStatement(db, ctx, 'git_garbage_collect', id, { project_id: id })] as const);
  return String(batchRows<{ id: number }>(enqueued)[0]!.id);
}
