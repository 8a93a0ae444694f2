// Environment verbs (GitLab 13.6 lib/api/environments.rb, Environment, EnvironmentPolicy): list, one, create with
// the generated slug, update, delete (stopped ones only), stop (playing the last deployment's `on_stop` job), and
// the GraphQL readers. `authenticate!` for every REST route: anonymous callers get 401 even on public projects.
import { deployables, lastSuccessfulDeployments, stopJob } from '../deployments/lookups.ts';
import * as q from '../../db/queries/environments.ts';
import { transitionJobs } from '../jobs/statements.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { EnvironmentRow } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { isUniqueViolation, recordNotFound, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { COUNT_LIMIT, pagedWithTotal } from '../lib/pagination.ts';
import { assertCan, can } from '../lib/policy.ts';
import { reprocessPipeline } from '../pipelines/process.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { environmentSlug, environmentType, externalUrlErrors, nameErrors } from './names.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** The project whose environments the signed-in actor reads (401 anonymous, 404 unseen, 403 below reporter). */
export async function environmentsProject(ctx: RequestContext, ref: Ref | null): Promise<ProjectView> {
  requireUser(ctx);
  const project = await findProject(ctx, ref);
  assertCan(ctx.actor, 'project:read_environment', projectFacts(project));
  return project;
}

export function listEnvironments({ ctx, input }: Verb<{ project: ProjectView; name?: string | undefined; search?: string | undefined }>) {
  const filter: q.EnvironmentFilter = { projectId: input.project.project.id, name: input.name, search: input.search };
  return pagedWithTotal(
    (limit, offset) => q.environmentPage(ctx.db, filter, { limit, offset, countCap: COUNT_LIMIT }),
    (cap) => q.countEnvironments(ctx.db, filter, cap),
  );
}

/** One environment of the project: 404 `Not found` otherwise (`environments.find`). */
export async function getEnvironment({ ctx, input }: Verb<{ project: ProjectView; id: number }>): Promise<EnvironmentRow> {
  const environment = await q.findEnvironment(ctx.db, input.project.project.id, input.id);
  if (!environment) throw recordNotFound();
  return environment;
}

/** Environment#last_deployment (the newest successful one) of each environment, by environment id. */
export async function lastDeployments(ctx: RequestContext, environmentIds: readonly number[]) {
  const found = await lastSuccessfulDeployments(ctx.db, environmentIds);
  return new Map(found.map((d) => [d.deployment.environmentId, d]));
}

/** external_url as Environment stores it: blank is nil (nullify_external_url). */
const urlOrNull = (url: string | undefined | null) => (url === undefined || url === null || url.trim() === '' ? null : url);

function fieldErrors(fields: { name?: string[]; slug?: string[]; external_url?: string[] }) {
  const present = Object.fromEntries(Object.entries(fields).filter(([, messages]) => messages?.length));
  if (Object.keys(present).length) throw validationFailed(present);
}

export async function createEnvironment({
  ctx,
  input,
}: Verb<{ project: ProjectView; name: string; externalUrl?: string | undefined }>): Promise<EnvironmentRow> {
  requireUser(ctx);
  assertCan(ctx.actor, 'project:create_environment', projectFacts(input.project));
  const projectId = input.project.project.id;
  const slug = await environmentSlug(input.name);
  const externalUrl = urlOrNull(input.externalUrl);
  const taken = await q.takenKeys(ctx.db, projectId, { name: input.name, slug });
  // Validation order of Environment: name (uniqueness first), slug, external_url.
  fieldErrors({
    name: nameErrors(input.name, taken.name),
    slug: taken.slug ? ['has already been taken'] : [],
    external_url: externalUrl === null ? [] : externalUrlErrors(externalUrl),
  });
  const created = await q.insertEnvironment(ctx.db, { projectId, name: input.name, slug, externalUrl, environmentType: environmentType(input.name) });
  // A concurrent create took the name between the check and the insert: the unique key answered.
  if (!created) throw validationFailed({ name: ['has already been taken'], slug: ['has already been taken'] });
  return created;
}

/** PUT: name and external_url change; the slug stays what it was made as. */
export async function updateEnvironment({
  ctx,
  input,
}: Verb<{ project: ProjectView; id: number; name?: string | undefined; externalUrl?: string | undefined }>) {
  requireUser(ctx);
  assertCan(ctx.actor, 'project:update_environment', projectFacts(input.project));
  const environment = await getEnvironment({ ctx, input });
  const name = input.name ?? environment.name;
  const externalUrl = input.externalUrl === undefined ? environment.externalUrl : urlOrNull(input.externalUrl);
  const taken = name === environment.name ? { name: false } : await q.takenKeys(ctx.db, environment.projectId, { name }, environment.id);
  fieldErrors({
    name: nameErrors(name, taken.name),
    external_url: externalUrl === null ? [] : externalUrlErrors(externalUrl),
  });
  try {
    return (await q.updateEnvironment(ctx.db, environment.id, { name, externalUrl, environmentType: environmentType(name) })) ?? environment;
  } catch (e) {
    if (isUniqueViolation(e)) throw validationFailed({ name: ['has already been taken'] });
    throw e;
  }
}

/** DELETE: only a stopped environment (EnvironmentPolicy prevents destroying an available one: 403). */
export async function deleteEnvironment({ ctx, input }: Verb<{ project: ProjectView; id: number }>): Promise<void> {
  requireUser(ctx);
  const environment = await getEnvironment({ ctx, input });
  assertCan(ctx.actor, 'project:destroy_stopped_environment', { ...projectFacts(input.project), environmentStopped: environment.state === 'stopped' });
  if (!(await q.deleteStoppedEnvironment(ctx.db, environment.id))) throw recordNotFound();
}

/**
 * POST .../stop (Environment#stop_with_action!): an available environment becomes stopped and the `on_stop` job of
 * its last successful deployment, when that job waits to be played, is queued for the actor. A stopped one is
 * returned as it is.
 */
export async function stopEnvironment({ ctx, input }: Verb<{ project: ProjectView; id: number }>): Promise<EnvironmentRow> {
  const user = requireUser(ctx);
  const environment = await getEnvironment({ ctx, input });
  assertCan(ctx.actor, 'project:stop_environment', projectFacts(input.project));
  if (environment.state === 'stopped') return environment;
  const stopped = await q.setEnvironmentState(ctx.db, environment.id, 'stopped');
  const last = (await lastDeployments(ctx, [environment.id])).get(environment.id)?.deployment;
  const pipelineId = last?.deployableId && last.onStop ? (await deployables(ctx.db, [last.deployableId]))[0]?.pipeline.id : undefined;
  if (pipelineId !== undefined && last?.onStop) {
    const job = await stopJob(ctx.db, pipelineId, last.onStop);
    if (job && (await transitionJobs(ctx.db, { ids: [job.id], from: ['manual'], to: 'pending', userId: user.id })).length)
      await reprocessPipeline(ctx, pipelineId);
  }
  return stopped ?? environment;
}

// ---- GraphQL readers ----

export interface EnvironmentModel {
  project: ProjectView;
  environment: EnvironmentRow;
}

export interface EnvironmentArgs {
  name?: string | null | undefined;
  search?: string | null | undefined;
  states?: readonly string[] | null | undefined;
}

/** An environment by id with its project, when the actor reads the project's environments (404 otherwise). */
export async function readableEnvironment(ctx: RequestContext, id: number): Promise<EnvironmentModel> {
  const environment = await q.findEnvironmentById(ctx.db, id);
  if (!environment) throw recordNotFound();
  const project = await findProject(ctx, { id: environment.projectId });
  assertCan(ctx.actor, 'project:read_environment', projectFacts(project));
  return { project, environment };
}
