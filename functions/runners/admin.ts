// The runner administration API (GitLab 13.6's lib/api/ci/runners.rb): the runners a user owns (GET /runners),
// every runner for administrators (GET /runners/all), one runner's details, changes and deletion, a project's runners
// (list, enable, disable) and a group's (list). Who may do what is RunnerPolicy in lib/policy.ts; the messages are
// the API's.
import * as q from '../../db/queries/runners/admin.ts';
import type { RunnerRow } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { forbidden, notFound, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, can, type RunnerFacts } from '../lib/policy.ts';
import { findGroup, groupFacts } from '../groups/service.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { requireAdmin } from '../users/service.ts';
import * as jobs from '../jobs/service.ts';
import type { JobStatus } from '../pipelines/status.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export function listOwnedRunners({ ctx, input }: Verb<{ all: boolean; filter: q.RunnerFilter }>) {
  if (input.all) requireAdmin(ctx);
  else requireUser(ctx);
  const scope: q.RunnerScope = input.all ? { kind: 'all' } : { kind: 'owned', actor: ctx.actor };
  return {
    fetch: (limit: number, offset: number) => q.listRunners(ctx.db, scope, input.filter, limit, offset),
    count: (limit: number) => q.countRunners(ctx.db, scope, input.filter, limit),
  };
}

/** The runner with RunnerPolicy's facts (404 `Runner Not Found` for an id no runner has). */
async function runnerWithFacts(ctx: RequestContext, id: number | null) {
  requireUser(ctx);
  const found = id === null ? undefined : await q.findRunnerFacts(ctx.db, ctx.actor, id);
  if (!found) throw notFound('Runner');
  const facts: RunnerFacts = {
    kind: 'runner',
    runnerType: found.runner.runnerType,
    locked: found.runner.locked,
    ownerLevel: found.ownerLevel,
    projectCount: found.projectCount,
  };
  return { runner: found.runner, facts };
}

/** RunnerDetails' projects and groups: those the actor is authorized in (all of them for administrators). */
async function detailsOf(ctx: RequestContext, runner: RunnerRow) {
  const [projects, groups] = await Promise.all([q.runnerProjects(ctx.db, ctx.actor, runner.id), q.runnerGroups(ctx.db, ctx.actor, runner.id)]);
  return { runner, projects, groups: groups.map((g) => g.namespace) };
}

/** authenticate_show_runner!: shared runners and one's own; `403 No access granted` otherwise. */
export async function getRunner({ ctx, input }: Verb<{ id: number | null }>) {
  const { runner, facts } = await runnerWithFacts(ctx, input.id);
  if (!can(ctx.actor, 'runner:read', facts)) throw forbidden('No access granted');
  return detailsOf(ctx, runner);
}

/** GET /runners/:id/jobs: authenticate_list_runners_jobs! (read_runner, `403 No access granted`), then the jobs. */
export async function listRunnerJobs({ ctx, input }: Verb<{ id: number | null; status?: JobStatus | undefined; sort: 'asc' | 'desc' }>) {
  const { runner, facts } = await runnerWithFacts(ctx, input.id);
  if (!can(ctx.actor, 'runner:read', facts)) throw forbidden('No access granted');
  return jobs.listRunnerJobs({ ctx, input: { runnerId: runner.id, statuses: input.status ? [input.status] : undefined, sort: input.sort } });
}

/** authenticate_update_runner! and authenticate_delete_runner!, with their messages. */
function assertMayChange(ctx: RequestContext, facts: RunnerFacts, action: 'runner:update' | 'runner:delete') {
  if (can(ctx.actor, action, facts)) return;
  if (facts.runnerType === 'instance_type') throw forbidden('Runner is shared');
  if (action === 'runner:delete' && facts.projectCount > 1 && can(ctx.actor, 'runner:update', facts)) {
    throw forbidden('Runner associated with more than one project');
  }
  throw forbidden('No access granted');
}

export interface RunnerChanges {
  description?: string | undefined;
  active?: boolean | undefined;
  tag_list?: string[] | undefined;
  run_untagged?: boolean | undefined;
  locked?: boolean | undefined;
  access_level?: 'not_protected' | 'ref_protected' | undefined;
  maximum_timeout?: number | null | undefined;
}

export async function updateRunner({ ctx, input }: Verb<{ id: number | null } & RunnerChanges>) {
  const { runner, facts } = await runnerWithFacts(ctx, input.id);
  assertMayChange(ctx, facts, 'runner:update');
  // Ci::Runner: a runner without tags must run untagged jobs; maximum_timeout at least 600 seconds.
  const tags = input.tag_list ?? runner.tagList;
  const untagged = input.run_untagged ?? runner.runUntagged;
  const errors: Record<string, string[]> = {};
  if (!tags.length && !untagged) errors.tags_list = ['can not be empty when runner is not allowed to pick untagged jobs'];
  if (input.maximum_timeout != null && input.maximum_timeout < 600) errors.maximum_timeout = ['should be greater than or equal to 600'];
  if (Object.keys(errors).length) throw validationFailed(errors);
  const updated = await q.updateRunner(ctx.db, runner.id, {
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.active !== undefined ? { active: input.active } : {}),
    ...(input.tag_list !== undefined ? { tagList: [...new Set(input.tag_list)] } : {}),
    ...(input.run_untagged !== undefined ? { runUntagged: input.run_untagged } : {}),
    ...(input.locked !== undefined ? { locked: input.locked } : {}),
    ...(input.access_level !== undefined ? { accessLevel: input.access_level } : {}),
    ...(input.maximum_timeout !== undefined ? { maximumTimeout: input.maximum_timeout } : {}),
  });
  if (!updated) throw notFound('Runner');
  return detailsOf(ctx, updated);
}

export async function deleteRunner({ ctx, input }: Verb<{ id: number | null }>) {
  const { runner, facts } = await runnerWithFacts(ctx, input.id);
  assertMayChange(ctx, facts, 'runner:delete');
  await q.deleteRunner(ctx.db, runner.id);
}

/** GET/POST/DELETE /projects/:id/runners: the project's maintainers (admin_build). */
async function adminProject(ctx: RequestContext, ref: Ref | null) {
  requireUser(ctx);
  const project = await findProject(ctx, ref);
  assertCan(ctx.actor, 'project:update', projectFacts(project));
  return project;
}

export async function listProjectRunners({ ctx, input }: Verb<{ ref: Ref | null; filter: q.RunnerFilter }>) {
  const project = await adminProject(ctx, input.ref);
  const scope: q.RunnerScope = { kind: 'project', projectId: project.project.id };
  return {
    fetch: (limit: number, offset: number) => q.listRunners(ctx.db, scope, input.filter, limit, offset),
    count: (limit: number) => q.countRunners(ctx.db, scope, input.filter, limit),
  };
}

/**
 * POST /projects/:id/runners: a project runner the actor may assign (not locked elsewhere). authenticate_enable_runner!
 * says why not, in its order: a group runner (to everyone, administrators included), a locked runner, one the actor
 * does not own (403 whether the runner is seen or not: the id is all the caller gave).
 */
export async function enableProjectRunner({ ctx, input }: Verb<{ ref: Ref | null; runnerId: number | null }>): Promise<RunnerRow> {
  const project = await adminProject(ctx, input.ref);
  const { runner, facts } = await runnerWithFacts(ctx, input.runnerId);
  if (!can(ctx.actor, 'runner:assign', facts)) {
    throw forbidden(facts.runnerType === 'group_type' ? 'Runner is a group runner' : facts.locked ? 'Runner is locked' : 'No access granted');
  }
  if (!(await q.assignRunner(ctx.db, runner.id, project.project.id))) throw validationFailed({ runner: ['has already been taken'] });
  return runner;
}

/** DELETE /projects/:id/runners/:runner_id: never the runner's last project (remove the runner instead). */
export async function disableProjectRunner({ ctx, input }: Verb<{ ref: Ref | null; runnerId: number | null }>) {
  const project = await adminProject(ctx, input.ref);
  const { runner, facts } = await runnerWithFacts(ctx, input.runnerId);
  if (!(await q.projectHasRunner(ctx.db, runner.id, project.project.id))) throw notFound('Runner');
  if (facts.projectCount <= 1) throw forbidden('Only one project associated with the runner. Please remove the runner instead');
  await q.unassignRunner(ctx.db, runner.id, project.project.id);
}

/**
 * GET /groups/:id/runners: the group runners of the group and of the groups above it (Ci::Runner.belonging_to_group
 * with include_ancestors), for those who administer the group (authorize_admin_group): 404 for a group the actor
 * cannot see, 403 for one it cannot administer.
 */
export async function listGroupRunners({ ctx, input }: Verb<{ ref: Ref | null; filter: q.RunnerFilter }>) {
  requireUser(ctx);
  const group = await findGroup(ctx, input.ref);
  assertCan(ctx.actor, 'group:admin_runners', groupFacts(group));
  const scope: q.RunnerScope = { kind: 'group', groupId: group.namespace.id };
  return {
    fetch: (limit: number, offset: number) => q.listRunners(ctx.db, scope, input.filter, limit, offset),
    count: (limit: number) => q.countRunners(ctx.db, scope, input.filter, limit),
  };
}
