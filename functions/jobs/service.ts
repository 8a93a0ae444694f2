// Job verbs (GitLab 13.6 lib/api/jobs.rb): listings, one job, its trace and artifacts, and the changes a person
// makes (play a manual job, cancel, retry, erase), each followed by the pipeline's processing. `authenticate!`
// for every route: anonymous callers get 401 even on public projects.
import { batchRows } from '../../db/queries/lib/raw.ts';
import * as q from '../../db/queries/jobs.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { commitsByOids } from '../repositories/lookups.ts';
import { findRunnersByIds } from '../runners/lookups.ts';
import { findUsersByIds } from '../users/lookups.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { badRequest, forbidden, notFound, recordNotFound } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { COUNT_LIMIT, pagedWithTotal } from '../lib/pagination.ts';
import { assertCan } from '../lib/policy.ts';
import { cancelJobs } from '../pipelines/job-changes.ts';
import { reprocessPipeline } from '../pipelines/process.ts';
import type { JobStatus } from '../pipelines/status.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { artifactDownload } from '../runners/artifacts.ts';
import { commitView } from '../repositories/service.ts';
import type { JobContext } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** The project whose jobs the signed-in actor reads (401 anonymous, 404 unseen, 403 without read_build). */
export async function jobsProject(ctx: RequestContext, ref: Ref | null): Promise<ProjectView> {
  requireUser(ctx);
  const project = await findProject(ctx, ref);
  assertCan(ctx.actor, 'project:read_build', projectFacts(project));
  return project;
}

/** A page of jobs: GET /projects/:id/jobs (every job, retried ones too) or a pipeline's latest jobs. */
export function listJobs({ ctx, input }: Verb<{ project: ProjectView; pipelineId?: number; statuses?: readonly JobStatus[] }>) {
  const filter: q.JobFilter = {
    projectId: input.project.project.id,
    pipelineId: input.pipelineId,
    statuses: input.statuses,
    includeRetried: input.pipelineId === undefined,
  };
  return pagedWithTotal(
    (limit, offset) => q.jobPage(ctx.db, filter, { limit, offset, countCap: COUNT_LIMIT }),
    (cap) => q.countJobs(ctx.db, filter, cap),
  );
}

/**
 * GET /runners/:id/jobs's page (Ci::RunnerJobsFinder, the runner's read rule checked by the caller): the runner's
 * jobs in projects where the reader is a reporter or above, by status, by id (`sort`, newest first by default).
 */
export function listRunnerJobs({ ctx, input }: Verb<{ runnerId: number; statuses?: readonly JobStatus[] | undefined; sort: 'asc' | 'desc' }>) {
  const filter: q.JobFilter = { runnerId: input.runnerId, inProjects: q.reporterProjectsSql(ctx.actor), statuses: input.statuses, includeRetried: true };
  return pagedWithTotal(
    (limit, offset) => q.jobPage(ctx.db, filter, { limit, offset, countCap: COUNT_LIMIT, order: input.sort }),
    (cap) => q.countJobs(ctx.db, filter, cap),
  );
}

/** Jobs of several projects with their contexts (JobBasicWithProject): each project's context as jobContexts reads it. */
export async function jobsWithProjects(ctx: RequestContext, jobs: readonly q.JobWithPipeline[]) {
  const projectIds = [...new Set(jobs.map((j) => j.build.projectId))];
  const views = new Map((await Promise.all(projectIds.map((id) => findProject(ctx, { id })))).map((v) => [v.project.id, v]));
  const contexts = new Map<number, JobContext>();
  for (const view of views.values()) {
    for (const [id, context] of await jobContexts(
      ctx,
      view,
      jobs.filter((j) => j.build.projectId === view.project.id),
    ))
      contexts.set(id, context);
  }
  return jobs.map((j) => ({ job: j, context: contexts.get(j.build.id)!, project: views.get(j.build.projectId)! }));
}

/** What the Job entities of these jobs show beside the rows: commits, users, runners, files (4 statements at once). */
export async function jobContexts(ctx: RequestContext, project: ProjectView, jobs: readonly q.JobWithPipeline[]): Promise<Map<number, JobContext>> {
  const projectId = project.project.id;
  const ids = jobs.map((j) => j.build.id);
  const [commits, users, runners, files] = await Promise.all([
    commitsByOids(ctx.db, projectId, [...new Set(jobs.map((j) => j.pipeline.sha))]),
    findUsersByIds(ctx.db, [...new Set(jobs.flatMap((j) => (j.build.userId ? [j.build.userId] : [])))]),
    findRunnersByIds(ctx.db, [...new Set(jobs.flatMap((j) => (j.build.runnerId ? [j.build.runnerId] : [])))]),
    q.jobFiles(ctx.db, ids),
  ]);
  const commitOf = new Map(commits.map((c) => [c.oid, commitView(c)]));
  const userOf = new Map(users.map((u) => [u.id, u]));
  const runnerOf = new Map(runners.map((r) => [r.id, r]));
  return new Map(
    jobs.map((j) => [
      j.build.id,
      {
        project: project.project,
        commit: commitOf.get(j.pipeline.sha) ?? null,
        user: j.build.userId ? (userOf.get(j.build.userId) ?? null) : null,
        runner: j.build.runnerId ? (runnerOf.get(j.build.runnerId) ?? null) : null,
        files: { traced: files.traced.has(j.build.id), artifacts: files.artifacts.filter((a) => a.jobId === j.build.id) },
      },
    ]),
  );
}

/** One job of the project (builds only): 404 `Not found` otherwise. */
export async function getJob({ ctx, input }: Verb<{ project: ProjectView; id: number }>): Promise<q.JobWithPipeline> {
  const job = await q.findJob(ctx.db, input.project.project.id, input.id);
  if (!job || job.build.type === 'GenericCommitStatus') throw recordNotFound();
  return job;
}

export async function jobTrace({ ctx, input }: Verb<{ project: ProjectView; id: number }>): Promise<Uint8Array> {
  const job = await getJob({ ctx, input });
  return (await q.readTrace(ctx.db, job.build.id)) ?? new Uint8Array();
}

/** The job's archive (GET .../jobs/:id/artifacts): 404 when it has none (erased, expired, never uploaded). */
export async function jobArtifactsArchive({ ctx, input }: Verb<{ project: ProjectView; id: number }>) {
  const job = await getJob({ ctx, input });
  return artifactDownload(ctx, job.build.id, 'archive');
}

async function updatable(ctx: RequestContext, project: ProjectView, id: number) {
  assertCan(ctx.actor, 'project:update_build', projectFacts(project));
  return getJob({ ctx, input: { project, id } });
}

async function reread(ctx: RequestContext, project: ProjectView, id: number) {
  return getJob({ ctx, input: { project, id } });
}

/** POST .../cancel: a job that can still be canceled is; any other is returned as it is. */
export async function cancelJob({ ctx, input }: Verb<{ project: ProjectView; id: number }>) {
  const job = await updatable(ctx, input.project, input.id);
  if ((await cancelJobs(ctx, { ids: [job.build.id] })).length) await reprocessPipeline(ctx, job.build.pipelineId);
  return reread(ctx, input.project, job.build.id);
}

/** Ci::Build#retryable?: finished as success, failed or canceled. */
const RETRYABLE: readonly JobStatus[] = ['success', 'failed', 'canceled'];

/** POST .../retry: a copy of the job, pending at once (Ci::RetryBuildService), the skipped jobs after it reopened. */
export async function retryJob({ ctx, input }: Verb<{ project: ProjectView; id: number }>) {
  const user = requireUser(ctx);
  const job = await updatable(ctx, input.project, input.id);
  if (job.build.retried || !RETRYABLE.includes(job.build.status) || job.build.type !== 'Ci::Build') throw forbidden('Job is not retryable');
  const [cloned] = await ctx.batch((db) => q.retryJobsStatements(db, [job.build.id], 'pending', user.id, job.build.pipelineId, job.build.stageIdx));
  const [copy] = batchRows<{ id: number }>(cloned);
  if (!copy) throw forbidden('Job is not retryable');
  await reprocessPipeline(ctx, job.build.pipelineId);
  return reread(ctx, input.project, copy.id);
}

/** POST .../play: a manual job (or a delayed one) is queued now; anything else is 400 `Unplayable Job`. */
export async function playJob({ ctx, input }: Verb<{ project: ProjectView; id: number }>) {
  const user = requireUser(ctx);
  const job = await updatable(ctx, input.project, input.id);
  const moved = await q.transitionJobs(ctx.db, { ids: [job.build.id], from: ['manual', 'scheduled'], to: 'pending', userId: user.id });
  if (!moved.length) throw badRequest('Unplayable Job');
  await reprocessPipeline(ctx, job.build.pipelineId);
  return reread(ctx, input.project, job.build.id);
}

/** POST .../erase: a finished job with a trace or artifacts loses them (403 `Job is not erasable!` otherwise). */
export async function eraseJob({ ctx, input }: Verb<{ project: ProjectView; id: number }>) {
  const user = requireUser(ctx);
  assertCan(ctx.actor, 'project:update_build', projectFacts(input.project));
  const job = await getJob({ ctx, input });
  assertCan(ctx.actor, 'project:erase_build', { ...projectFacts(input.project), buildUserId: job.build.userId });
  const files = await q.jobFiles(ctx.db, [job.build.id]);
  const finished = ['success', 'failed', 'canceled', 'skipped'].includes(job.build.status);
  if (!finished || (!files.traced.size && !files.artifacts.length)) throw forbidden('Job is not erasable!');
  await ctx.batch((db) => q.eraseJobStatements(db, job.build.id, user.id));
  return reread(ctx, input.project, job.build.id);
}
