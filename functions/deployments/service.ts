// Deployment verbs (GitLab 13.6 lib/api/deployments.rb, DeploymentsFinder, Deployments::CreateService and
// UpdateService): list, one, create by the API (the environment found or created by name) and status changes of
// API-made deployments along Deployment's state machine. `authenticate!` for every route.
import * as q from '../../db/queries/deployments.ts';
import { findEnvironmentByName } from '../environments/lookups.ts';
import { insertEnvironment } from '../environments/statements.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { findUsersByIds } from '../users/lookups.ts';
import type { EnvironmentRow } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { forbidden, recordNotFound, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { COUNT_LIMIT, pagedWithTotal } from '../lib/pagination.ts';
import { assertCan } from '../lib/policy.ts';
import { toJob, type JobContext } from '../jobs/schemas.ts';
import { jobContexts } from '../jobs/service.ts';
import { environmentSlug, environmentType, nameErrors } from '../environments/names.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { toDeployment } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };
type Settable = 'running' | 'success' | 'failed' | 'canceled';

/** The project whose deployments the signed-in actor reads (401 anonymous, 404 unseen, 403 below reporter). */
export async function deploymentsProject(ctx: RequestContext, ref: Ref | null): Promise<ProjectView> {
  requireUser(ctx);
  const project = await findProject(ctx, ref);
  assertCan(ctx.actor, 'project:read_deployment', projectFacts(project));
  return project;
}

export function listDeployments({
  ctx,
  input,
}: Verb<{ project: ProjectView; filter: Omit<q.DeploymentFilter, 'projectId'>; orderBy: q.DeploymentOrder; sort: 'asc' | 'desc' }>) {
  const filter: q.DeploymentFilter = { ...input.filter, projectId: input.project.project.id };
  return pagedWithTotal(
    (limit, offset) => q.deploymentPage(ctx.db, filter, { orderBy: input.orderBy, sort: input.sort, limit, offset, countCap: COUNT_LIMIT }),
    (cap) => q.countDeployments(ctx.db, filter, cap),
  );
}

export async function getDeployment({ ctx, input }: Verb<{ project: ProjectView; id: number }>): Promise<q.DeploymentWithEnvironment> {
  const found = await q.findDeployment(ctx.db, input.project.project.id, input.id);
  if (!found) throw recordNotFound();
  return found;
}

/** Environment.find_or_create_by_name: an unknown name makes an environment (its validations answer first). */
async function environmentNamed(ctx: RequestContext, project: ProjectView, name: string): Promise<EnvironmentRow> {
  const projectId = project.project.id;
  const existing = await findEnvironmentByName(ctx.db, projectId, name);
  if (existing) return existing;
  const errors = nameErrors(name);
  if (errors.length) throw validationFailed({ name: errors });
  const values = { projectId, name, slug: await environmentSlug(name), externalUrl: null, environmentType: environmentType(name) };
  // A concurrent create of the same name wins the insert: read what it made.
  return (await insertEnvironment(ctx.db, values)) ?? (await findEnvironmentByName(ctx.db, projectId, name))!;
}

const FINISHED = new Set(['success', 'failed', 'canceled', 'skipped']);

/** POST: a deployment without a job, moved from `created` to the status asked for (every event allows that). */
export async function createDeployment({
  ctx,
  input,
}: Verb<{ project: ProjectView; environment: string; sha: string; ref: string; tag: boolean; status: Settable }>) {
  const user = requireUser(ctx);
  assertCan(ctx.actor, 'project:create_deployment', projectFacts(input.project));
  assertCan(ctx.actor, 'project:create_environment', projectFacts(input.project));
  const blank = Object.fromEntries((['sha', 'ref'] as const).filter((k) => input[k].trim() === '').map((k) => [k, ["can't be blank"]]));
  const environment = await environmentNamed(ctx, input.project, input.environment);
  if (Object.keys(blank).length) throw validationFailed(blank);
  const deployment = await ctx.transaction((tx) =>
    q.insertDeployment(tx, {
      projectId: input.project.project.id,
      environmentId: environment.id,
      ref: input.ref,
      tag: input.tag,
      sha: input.sha,
      userId: user.id,
      status: input.status,
      finishedAt: FINISHED.has(input.status) ? new Date() : null,
    }),
  );
  return { deployment, environment };
}

/** Deployment's state machine: run from created only; succeed, drop and cancel from any other status. */
const EVENT: Record<Settable, { name: string; from: readonly q.DeploymentStatus[] }> = {
  running: { name: 'run', from: ['created'] },
  success: { name: 'succeed', from: ['created', 'running', 'failed', 'canceled', 'skipped'] },
  failed: { name: 'drop', from: ['created', 'running', 'success', 'canceled', 'skipped'] },
  canceled: { name: 'cancel', from: ['created', 'running', 'success', 'failed', 'skipped'] },
};

/** PUT: only deployments made through the API change here; CI's follow their jobs. */
export async function updateDeployment({ ctx, input }: Verb<{ project: ProjectView; id: number; status: Settable }>) {
  requireUser(ctx);
  const found = await getDeployment({ ctx, input });
  assertCan(ctx.actor, 'project:update_deployment', projectFacts(input.project));
  if (found.deployment.deployableId !== null) throw forbidden('Deployments created using GitLab CI can not be updated using the API');
  const event = EVENT[input.status];
  const moved = await q.transitionDeployment(ctx.db, found.deployment.id, event.from, input.status);
  if (!moved) throw validationFailed({ status: [`cannot transition via "${event.name}"`] });
  return { deployment: moved, environment: found.environment };
}

/** The Deployment entities of these deployments: users, deploying jobs and the jobs' contexts, loaded together. */
export async function presentDeployments(
  ctx: RequestContext,
  project: ProjectView,
  list: readonly q.DeploymentWithEnvironment[],
  o: { withEnvironment: boolean },
) {
  const jobIds = [...new Set(list.flatMap((d) => (d.deployment.deployableId ? [d.deployment.deployableId] : [])))];
  const [users, jobs] = await Promise.all([
    findUsersByIds(ctx.db, [...new Set(list.flatMap((d) => (d.deployment.userId ? [d.deployment.userId] : [])))]),
    q.deployables(ctx.db, jobIds),
  ]);
  const contexts = jobs.length ? await jobContexts(ctx, project, jobs) : new Map<number, JobContext>();
  const userOf = new Map(users.map((u) => [u.id, u]));
  const jobOf = new Map(jobs.map((j) => [j.build.id, j]));
  return list.map((d) => {
    const job = d.deployment.deployableId ? jobOf.get(d.deployment.deployableId) : undefined;
    const deployable = job ? toJob(job, contexts.get(job.build.id)!, ctx.config, ctx.actor) : null;
    return toDeployment(
      d,
      { user: d.deployment.userId ? (userOf.get(d.deployment.userId) ?? null) : null, deployable, withEnvironment: o.withEnvironment },
      ctx.config,
    );
  });
}
