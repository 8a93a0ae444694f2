// Pipeline verbs (GitLab 13.6 lib/api/ci/pipelines.rb over Ci::PipelinesFinder, Ci::CreatePipelineService,
// Ci::RetryPipelineService, Ci::Pipeline#cancel_running, Ci::DestroyPipelineService). REST and GraphQL call these;
// the policy decides (read_pipeline, create_pipeline, update_pipeline, destroy_pipeline, read_pipeline_variable).
import * as q from '../../db/queries/pipelines.ts';
import { findRefs, listRefs, resolveRevision } from '../repositories/lookups.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { PipelineRow } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { recordNotFound, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { COUNT_LIMIT, pagedWithTotal } from '../lib/pagination.ts';
import { assertCan, type Action } from '../lib/policy.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { findUsersByIds } from '../users/lookups.ts';
import { repositoryInfo } from '../repositories/service.ts';
import { createPipeline, type PipelineRequest } from './create.ts';
import { canRunOnRef, protectedRefError } from './ref-access.ts';
import { cancelJobs, retryJobs } from './job-changes.ts';
import { reprocessPipeline } from './process.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** The project, readable, with `action` allowed on it (404 unseen, 403 below the role). */
export async function pipelineProject(ctx: RequestContext, ref: Ref | null, action: Action & `project:${string}`): Promise<ProjectView> {
  const project = await findProject(ctx, ref);
  assertCan(ctx.actor, action as 'project:read_pipeline', projectFacts(project));
  return project;
}

export interface PipelineListInput {
  project: ProjectView;
  filter: Omit<q.PipelineFilter, 'projectId' | 'refNames'>;
  orderBy: q.PipelineOrder;
  sort: 'asc' | 'desc';
}

/** GET /projects/:id/pipelines: one statement per page, its capped total inside. */
export function listPipelines({ ctx, input }: Verb<PipelineListInput>) {
  const projectId = input.project.project.id;
  const filter = async (): Promise<q.PipelineFilter> => {
    const scope = input.filter.scope;
    if (scope !== 'branches' && scope !== 'tags') return { ...input.filter, projectId };
    const prefix = scope === 'tags' ? 'refs/tags/' : 'refs/heads/';
    const refs = await listRefs(ctx.db, projectId, prefix);
    return { ...input.filter, projectId, refNames: refs.map((r) => r.name.slice(prefix.length)) };
  };
  return pagedWithTotal(
    async (limit, offset) => q.pipelinePage(ctx.db, await filter(), { orderBy: input.orderBy, sort: input.sort, limit, offset, countCap: COUNT_LIMIT }),
    async (cap) => q.countPipelines(ctx.db, await filter(), cap),
  );
}

/** One pipeline of the project: 404 `Not found` when it has none with this id. */
export async function getPipeline({ ctx, input }: Verb<{ project: ProjectView; id: number }>): Promise<PipelineRow> {
  const pipeline = await q.findPipeline(ctx.db, input.project.project.id, input.id);
  if (!pipeline) throw recordNotFound();
  return pipeline;
}

export async function getPipelineVariables({ ctx, input }: Verb<{ project: ProjectView; id: number }>) {
  assertCan(ctx.actor, 'project:read_pipeline_variable', projectFacts(input.project));
  const pipeline = await getPipeline({ ctx, input });
  return q.pipelineVariables(ctx.db, pipeline.id);
}

/** A branch or a tag of the project: its commit and whether it is a tag (branches first, as GitLab's ref lookup). */
export async function resolveBranchOrTag(ctx: RequestContext, projectId: number, ref: string): Promise<{ sha: string; tag: boolean } | null> {
  // One statement for both names (POST /pipeline's budget counts it).
  const found = await findRefs(ctx.db, projectId, [`refs/heads/${ref}`, `refs/tags/${ref}`]);
  const branch = found.get(`refs/heads/${ref}`);
  const tag = found.get(`refs/tags/${ref}`);
  if (branch) return { sha: branch, tag: false };
  if (tag) return { sha: await peeledCommit(ctx, projectId, tag), tag: true };
  return null;
}

/** An annotated tag's commit (a lightweight tag names the commit itself). */
async function peeledCommit(ctx: RequestContext, projectId: number, oid: string): Promise<string> {
  return (await resolveRevision(ctx.db, projectId, `${oid}^{commit}`))?.oid ?? oid;
}

/** Chain::Validate errors as the API renders them: 400 `{"message": {"base": [...]}}`. */
const baseErrors = (errors: string[]) => validationFailed({ base: errors });

/**
 * POST /projects/:id/pipeline (and the web's "Run pipeline"): the ref must be a branch or a tag ("Reference not
 * found") the user may write (a protected one needs push or merge access); what the configuration makes is created,
 * or refused with GitLab's base errors.
 */
export async function runPipeline({
  ctx,
  input,
}: Verb<{ project: ProjectView; ref: string; variables: PipelineRequest['variables']; source: 'api' | 'web' }>): Promise<PipelineRow> {
  const user = requireUser(ctx);
  assertCan(ctx.actor, 'project:create_pipeline', projectFacts(input.project));
  const [target, repository] = await Promise.all([resolveBranchOrTag(ctx, input.project.project.id, input.ref), repositoryInfo(ctx, input.project.project.id)]);
  if (!target) throw baseErrors(['Reference not found']);
  if (!canRunOnRef(ctx, projectFacts(input.project), repository, input.ref, target.tag)) throw baseErrors([protectedRefError(input.ref)]);
  const outcome = await createPipeline(ctx, {
    project: input.project.project,
    ref: input.ref,
    tag: target.tag,
    sha: target.sha,
    source: input.source,
    userId: user.id,
    variables: input.variables,
    saveOnErrors: input.source !== 'api',
    repository,
  });
  if (!outcome.ok) throw baseErrors(outcome.errors);
  return outcome.pipeline;
}

/** Ci::RetryPipelineService: failed and canceled jobs run again (as new jobs), skipped ones after them with them. */
export async function retryPipeline({ ctx, input }: Verb<{ project: ProjectView; id: number }>): Promise<PipelineRow> {
  const user = requireUser(ctx);
  assertCan(ctx.actor, 'project:update_pipeline', projectFacts(input.project));
  const pipeline = await getPipeline({ ctx, input });
  await retryJobs(ctx, pipeline.id, user.id, (j) => j.status === 'failed' || j.status === 'canceled');
  await reprocessPipeline(ctx, pipeline.id);
  return (await q.findPipelineById(ctx.db, pipeline.id)) ?? pipeline;
}

/** Ci::Pipeline#cancel_running: every job that has not finished (and is not waiting for a person) is canceled. */
export async function cancelPipeline({ ctx, input }: Verb<{ project: ProjectView; id: number }>): Promise<PipelineRow> {
  requireUser(ctx);
  assertCan(ctx.actor, 'project:update_pipeline', projectFacts(input.project));
  const pipeline = await getPipeline({ ctx, input });
  await cancelJobs(ctx, { pipelineId: pipeline.id });
  await reprocessPipeline(ctx, pipeline.id);
  return (await q.findPipelineById(ctx.db, pipeline.id)) ?? pipeline;
}

export async function destroyPipeline({ ctx, input }: Verb<{ project: ProjectView; id: number }>): Promise<void> {
  requireUser(ctx);
  assertCan(ctx.actor, 'project:destroy_pipeline', projectFacts(input.project));
  const pipeline = await getPipeline({ ctx, input });
  await q.deletePipeline(ctx.db, pipeline.id);
}

/** What the Pipeline entity shows beside the row: its user and whether an allowed failure gives it warnings. */
export async function pipelineDetail(ctx: RequestContext, pipeline: PipelineRow) {
  const [users, warned] = await Promise.all([pipeline.userId ? findUsersByIds(ctx.db, [pipeline.userId]) : [], q.pipelinesWithWarnings(ctx.db, [pipeline.id])]);
  return { pipeline, user: users[0] ?? null, hasWarnings: warned.has(pipeline.id) };
}
