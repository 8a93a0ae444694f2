// The runner side of the API (GitLab 13.6 lib/api/ci/runner.rb): registration with a registration token, the job
// queue, state updates, trace appends and artifacts. Runner tokens and job tokens are random and kept as SHA-256
// digests (compared through the digest lookup, or constant-time where a row is already in hand).
import type { JobWithPipeline } from '../../db/queries/jobs.ts';
import { findJobById, jobFiles } from '../jobs/lookups.ts';
import { findPipelineProject, pipelineJobs, pipelineVariables } from '../pipelines/lookups.ts';
import { commitsByOids } from '../repositories/lookups.ts';
import * as q from '../../db/queries/runners.ts';
import type { RequestContext } from '../lib/context.ts';
import { constantTimeEqual, randomToken, sha256Hex } from '../lib/crypto.ts';
import { badRequest, forbidden, notFound, validationFailed } from '../lib/errors.ts';
import { parseDuration } from '../ci/config/duration.ts';
import { reprocessPipeline } from '../pipelines/process.ts';
import { commitView } from '../repositories/service.ts';
import { visibilityName } from '../lib/policy.ts';
import { jobPayload, jobTimeout, type Dependency } from './job-payload.ts';
import { configPathOf } from '../ci/config-path.ts';
import { projectSettings } from '../projects/settings.ts';
import { isRegistrationToken, tokenScope } from './registration-token.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export interface RunnerInfo {
  name?: string | undefined;
  version?: string | undefined;
  revision?: string | undefined;
  platform?: string | undefined;
  architecture?: string | undefined;
}

const clean = (info: RunnerInfo | undefined) => ({
  name: info?.name,
  version: info?.version,
  revision: info?.revision,
  platform: info?.platform,
  architecture: info?.architecture,
});

export interface RegisterInput {
  token: string;
  description?: string | undefined;
  info?: RunnerInfo | undefined;
  active?: boolean | undefined;
  locked?: boolean | undefined;
  runUntagged?: boolean | undefined;
  tagList?: string[] | undefined;
  accessLevel?: 'not_protected' | 'ref_protected' | undefined;
  maximumTimeout?: number | undefined;
  ipAddress: string | null;
}

/**
 * POST /runners: the instance's registration token makes an instance runner, a project's a project runner of that
 * project, a group's a group runner of that group (a project or group being deleted has none); anything else is 403.
 * The runner's token is returned once.
 */
export async function registerRunner({ ctx, input }: Verb<RegisterInput>): Promise<{ id: number; token: string }> {
  const key = ctx.config.encryptionKey;
  const scope = tokenScope(input.token);
  if (!scope) throw forbidden();
  let projectId: number | null = null;
  let groupId: number | null = null;
  if (scope.kind === 'project') {
    const project = await findPipelineProject(ctx.db, scope.projectId);
    if (!project || !(await isRegistrationToken(key, input.token, scope, project.runnersTokenVersion))) throw forbidden();
    projectId = project.id;
  } else if (scope.kind === 'group') {
    const group = await q.findRunnerGroup(ctx.db, scope.groupId);
    if (!group || !(await isRegistrationToken(key, input.token, scope, group.runnersTokenVersion))) throw forbidden();
    groupId = group.id;
  } else if (!(await isRegistrationToken(key, input.token, scope))) throw forbidden();
  // Ci::Runner validates the tag list: tags without letters are refused as GitLab's tag_constraints do.
  if (input.maximumTimeout !== undefined && input.maximumTimeout < 600) throw validationFailed({ maximum_timeout: ['needs to be at least 10 minutes'] });
  const tagList = [...new Set((input.tagList ?? []).map((t) => t.trim()).filter(Boolean))];
  // Ci::Runner#tag_constraints: a runner that runs no untagged jobs needs tags.
  if (input.runUntagged === false && !tagList.length)
    throw validationFailed({ tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] });
  const token = randomToken();
  const id = await q.insertRunner(ctx.db, {
    tokenDigest: await sha256Hex(token),
    description: input.description ?? null,
    active: input.active ?? true,
    locked: input.locked ?? scope.kind !== 'instance',
    runUntagged: input.runUntagged ?? true,
    tagList,
    accessLevel: input.accessLevel ?? 'not_protected',
    runnerType: scope.kind === 'instance' ? 'instance_type' : scope.kind === 'group' ? 'group_type' : 'project_type',
    maximumTimeout: input.maximumTimeout ?? null,
    info: clean(input.info),
    ipAddress: input.ipAddress,
    projectId,
    groupId,
  });
  return { id, token };
}

/** DELETE /runners: 204, or 403 for a token no runner has. */
export async function unregisterRunner({ ctx, input }: Verb<{ token: string }>): Promise<void> {
  if (!(await q.deleteRunnerByDigest(ctx.db, await sha256Hex(input.token)))) throw forbidden();
}

/** POST /runners/verify: 200, or 403. */
export async function verifyRunner({ ctx, input }: Verb<{ token: string }>): Promise<void> {
  if (!(await q.findRunnerByTokenDigest(ctx.db, await sha256Hex(input.token)))) throw forbidden();
}

export type JobRequestOutcome = { kind: 'none'; lastUpdate: string } | { kind: 'job'; payload: ReturnType<typeof jobPayload> };

/**
 * POST /jobs/request: the oldest pending job the runner may run, claimed in the statement that authenticates the
 * runner (an idle poll is that one statement). 403 for an unknown runner; `none` (204) for a paused one.
 */
export async function requestJob({ ctx, input }: Verb<{ token: string; info?: RunnerInfo | undefined; ipAddress: string | null }>): Promise<JobRequestOutcome> {
  const jobToken = randomToken();
  const [runnerDigest, jobTokenDigest] = await Promise.all([sha256Hex(input.token), sha256Hex(jobToken)]);
  const claim = await q.claimJob(ctx.db, { runnerDigest, jobTokenDigest, info: clean(input.info), ipAddress: input.ipAddress });
  if (claim.runnerId === null) throw forbidden();
  // X-GitLab-Last-Update: GitLab's runner queue value; every poll here looks at the queue, so any fresh value will do.
  if (claim.jobId === null) return { kind: 'none', lastUpdate: String(Date.now()) };
  await reprocessPipeline(ctx, (await findJobById(ctx.db, claim.jobId))!.build.pipelineId);
  return { kind: 'job', payload: await buildPayload(ctx, claim.jobId, claim.runnerId, jobToken) };
}

/**
 * The jobs whose artifacts a job downloads (Ci::BuildDependencies): its needs with `artifacts: true` for a DAG job,
 * else its `dependencies:` list, else every job of the earlier stages.
 */
function dependenciesOf(job: JobWithPipeline['build'], jobs: Awaited<ReturnType<typeof pipelineJobs>>): typeof jobs {
  const earlier = jobs.filter((j) => j.stageIdx < job.stageIdx);
  if (job.schedulingType === 'dag') {
    const wanted = new Set(
      jobs
        .find((j) => j.id === job.id)
        ?.needs.filter((n) => n.artifacts)
        .map((n) => n.name) ?? [],
    );
    return jobs.filter((j) => wanted.has(j.name) && j.id !== job.id);
  }
  const listed = job.options.dependencies;
  if (Array.isArray(listed)) return earlier.filter((j) => listed.includes(j.name));
  return earlier;
}

async function buildPayload(ctx: RequestContext, jobId: number, runnerId: number, token: string) {
  const found = (await findJobById(ctx.db, jobId))!;
  const { build: job, pipeline } = found;
  const [project, runners, commits, variables, jobs] = await Promise.all([
    findPipelineProject(ctx.db, job.projectId),
    q.findRunnersByIds(ctx.db, [runnerId]),
    commitsByOids(ctx.db, job.projectId, [pipeline.sha]),
    pipelineVariables(ctx.db, pipeline.id),
    pipelineJobs(ctx.db, [pipeline.id]),
  ]);
  const deps = dependenciesOf(job, jobs);
  const files = await jobFiles(
    ctx.db,
    deps.map((d) => d.id),
  );
  const dependencies: Dependency[] = deps.map((d) => {
    const archive = files.artifacts.find((a) => a.jobId === d.id && a.fileType === 'archive');
    return { id: d.id, name: d.name, archive: archive ? { fileName: archive.fileName, size: archive.size } : null };
  });
  const runner = runners[0]!;
  const p = project!;
  return jobPayload(
    {
      job,
      pipeline,
      project: {
        id: p.id,
        name: p.name,
        path: p.path,
        pathWithNamespace: p.pathWithNamespace,
        defaultBranch: p.defaultBranch,
        visibility: visibilityName(p.visibilityLevel),
        ciConfigPath: configPathOf(p),
        gitDepth: projectSettings(p).ci_default_git_depth,
      },
      runner,
      commit: commits[0] ? commitView(commits[0]) : null,
      variables,
      dependencies,
      token,
      publicUrl: ctx.config.publicUrl,
    },
    jobTimeout(job, runner, projectSettings(p).build_timeout, parseDuration),
  );
}

/** A 403 that carries the job's status (`Job-Status`), as GitLab's job_forbidden! answers. */
export class JobForbidden extends Error {
  constructor(
    readonly reason: string,
    readonly jobStatus: string,
  ) {
    super(reason);
  }
}

/**
 * authenticate_job!: 404 for an unknown job, 403 for a token that is not the job's, 403 `Job has been erased!`, and
 * (when `running` is required) 403 `Job is not running` with its status.
 */
export async function authenticateJob(ctx: RequestContext, jobId: number, token: string | undefined, o: { running: boolean }) {
  const job = await q.findJobAuth(ctx.db, jobId);
  if (!job) throw notFound();
  if (!token || !job.tokenDigest || !(await constantTimeEqual(await sha256Hex(token), job.tokenDigest))) throw forbidden();
  if (job.erased) throw forbidden('Job has been erased!');
  if (o.running && job.status !== 'running') throw new JobForbidden('Job is not running', job.status);
  return job;
}

export type JobState = 'running' | 'success' | 'failed';

/** PUT /jobs/:id: the runner's outcome, then the pipeline moves on. */
export async function updateJob({
  ctx,
  input,
}: Verb<{ jobId: number; token: string; state: JobState | undefined; failureReason?: string | undefined; exitCode?: number | undefined }>) {
  const job = await authenticateJob(ctx, input.jobId, input.token, { running: true });
  if (input.state === undefined) throw badRequest();
  if (input.state === 'running') return;
  const finished = await q.finishJob(ctx.db, {
    jobId: job.id,
    status: input.state,
    failureReason: input.state === 'failed' ? (input.failureReason ?? 'unknown_failure') : null,
    exitCode: input.exitCode ?? null,
  });
  if (finished) await reprocessPipeline(ctx, job.pipelineId);
}

/** PATCH /jobs/:id/trace: `{ size }` after the append, or `{ size, mismatch }` when the offset was not the end. */
export async function appendTrace({ ctx, input }: Verb<{ jobId: number; token: string | undefined; start: number; data: Uint8Array }>) {
  const job = await authenticateJob(ctx, input.jobId, input.token, { running: true });
  const size = await q.appendTrace(ctx.db, job.id, input.start, input.data);
  return { size, mismatch: size !== input.start + input.data.length, status: job.status };
}
