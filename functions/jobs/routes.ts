// Jobs (GitLab 13.6 lib/api/jobs.rb): the project's jobs, a pipeline's jobs, one job, its trace and artifacts
// archive, and play/cancel/retry/erase. Every route needs a signed-in user (`authenticate!`).
import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { JobWithPipeline } from '../../db/queries/jobs.ts';
import type { AppEnv } from '../lib/context.ts';
import { projectRef } from '../lib/ids.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import { parseParams, path, schema, str, toValidationError } from '../lib/validate.ts';
import { getPipeline } from '../pipelines/service.ts';
import { PipelinePath } from '../pipelines/schemas.ts';
import { JobPath, ListJobsInput, toJob } from './schemas.ts';
import * as jobs from './service.ts';
import { archiveForRef, artifactEntryForRef, artifactsProject, entryContentType, keepArtifacts } from './artifacts.ts';

export const jobRoutes = new Hono<AppEnv>();
const ProjectPath = schema(() => z.object({ id: projectRef() }));
const JobIdPath = schema(() => z.object(JobPath()));
const PipelineIdPath = schema(() => z.object(PipelinePath()));
const JOB = '/projects/:id/jobs/:job_id';

function pathNumber(c: Context<AppEnv>, s: typeof JobIdPath | typeof PipelineIdPath, name: 'job_id' | 'pipeline_id'): number {
  const result = s().safeParse({ [name]: c.req.param(name) });
  if (!result.success) throw toValidationError(result.error.issues);
  return (result.data as Record<string, number | null>)[name] ?? 0;
}
const jobId = (c: Context<AppEnv>) => pathNumber(c, JobIdPath, 'job_id');

async function presentJobs(c: Context<AppEnv>, project: ProjectView, list: readonly JobWithPipeline[]) {
  const contexts = await jobs.jobContexts(c.var.ctx, project, list);
  return list.map((j) => toJob(j, contexts.get(j.build.id)!, c.var.ctx.config, c.var.ctx.actor));
}

const presentJob = async (c: Context<AppEnv>, project: ProjectView, job: JobWithPipeline, status: 200 | 201 = 200) =>
  c.json((await presentJobs(c, project, [job]))[0], status);

jobRoutes.get('/projects/:id/jobs', path(ProjectPath), async (c) => {
  const project = await jobs.jobsProject(c.var.ctx, c.req.valid('param').id);
  const input = await parseParams(c, ListJobsInput());
  const { fetch, count } = jobs.listJobs({ ctx: c.var.ctx, input: { project, statuses: input.scope } });
  return c.json(await presentJobs(c, project, await paginate(c, pageRequest(input), fetch, count)));
});

jobRoutes.get('/projects/:id/pipelines/:pipeline_id/jobs', path(ProjectPath), async (c) => {
  const project = await jobs.jobsProject(c.var.ctx, c.req.valid('param').id);
  const pipeline = await getPipeline({ ctx: c.var.ctx, input: { project, id: pathNumber(c, PipelineIdPath, 'pipeline_id') } });
  const input = await parseParams(c, ListJobsInput());
  const { fetch, count } = jobs.listJobs({ ctx: c.var.ctx, input: { project, pipelineId: pipeline.id, statuses: input.scope } });
  return c.json(await presentJobs(c, project, await paginate(c, pageRequest(input), fetch, count)));
});

jobRoutes.get(JOB, path(ProjectPath), async (c) => {
  const project = await jobs.jobsProject(c.var.ctx, c.req.valid('param').id);
  return presentJob(c, project, await jobs.getJob({ ctx: c.var.ctx, input: { project, id: jobId(c) } }));
});

jobRoutes.get(`${JOB}/trace`, path(ProjectPath), async (c) => {
  const project = await jobs.jobsProject(c.var.ctx, c.req.valid('param').id);
  const id = jobId(c);
  const trace = await jobs.jobTrace({ ctx: c.var.ctx, input: { project, id } });
  return c.body(trace as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': 'text/plain', 'Content-Disposition': `infile; filename="${id}.log"` });
});

/** present_carrierwave_file!: the archive as an attachment. */
const archiveResponse = (c: Context<AppEnv>, archive: { body: ReadableStream<Uint8Array>; size: number; fileName: string }) =>
  c.body(archive.body, 200, {
    'Content-Type': 'application/octet-stream',
    'Content-Length': String(archive.size),
    'Content-Disposition': `attachment; filename="${archive.fileName}"; filename*=UTF-8''${encodeURIComponent(archive.fileName)}`,
  });

jobRoutes.get(`${JOB}/artifacts`, path(ProjectPath), async (c) => {
  const project = await jobs.jobsProject(c.var.ctx, c.req.valid('param').id);
  return archiveResponse(c, await jobs.jobArtifactsArchive({ ctx: c.var.ctx, input: { project, id: jobId(c) } }));
});

// lib/api/job_artifacts.rb: `job` is required; the ref may hold slashes (requirements: { ref_name: /.+/ }).
const JobNameInput = schema(() => z.object({ job: str() }));
const ARTIFACTS_BY_REF = '/projects/:id/jobs/artifacts/:ref_name{.+}';

jobRoutes.get(`${ARTIFACTS_BY_REF}/download`, path(ProjectPath), async (c) => {
  const { job } = await parseParams(c, JobNameInput());
  const project = await artifactsProject(c.var.ctx, c.req.valid('param').id);
  return archiveResponse(c, await archiveForRef({ ctx: c.var.ctx, input: { project, ref: c.req.param('ref_name'), job } }));
});

jobRoutes.get(`${ARTIFACTS_BY_REF}/raw/:artifact_path{.+}`, path(ProjectPath), async (c) => {
  const { job } = await parseParams(c, JobNameInput());
  const project = await artifactsProject(c.var.ctx, c.req.valid('param').id);
  const entry = await artifactEntryForRef({ ctx: c.var.ctx, input: { project, ref: c.req.param('ref_name'), job, path: c.req.param('artifact_path') } });
  return c.body(entry.data as Uint8Array<ArrayBuffer>, 200, {
    'Content-Type': entryContentType(entry.fileName),
    'Content-Disposition': `attachment; filename="${entry.fileName.replace(/"/g, '\\"')}"`,
  });
});

jobRoutes.post(`${JOB}/artifacts/keep`, path(ProjectPath), async (c) => {
  const project = await jobs.jobsProject(c.var.ctx, c.req.valid('param').id);
  return presentJob(c, project, await keepArtifacts({ ctx: c.var.ctx, input: { project, id: jobId(c) } }));
});

const change =
  (verb: 'cancelJob' | 'retryJob' | 'eraseJob' | 'playJob', status: 200 | 201) =>
  async (c: Context<AppEnv, string, { out: { param: { id: ReturnType<typeof projectRef>['_zod']['output'] } } }>) => {
    const project = await jobs.jobsProject(c.var.ctx, c.req.valid('param').id);
    return presentJob(c, project, await jobs[verb]({ ctx: c.var.ctx, input: { project, id: jobId(c) } }), status);
  };

jobRoutes.post(`${JOB}/cancel`, path(ProjectPath), change('cancelJob', 201));
jobRoutes.post(`${JOB}/retry`, path(ProjectPath), change('retryJob', 201));
jobRoutes.post(`${JOB}/erase`, path(ProjectPath), change('eraseJob', 201));
jobRoutes.post(`${JOB}/play`, path(ProjectPath), change('playJob', 200));
