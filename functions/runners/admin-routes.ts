// The runner administration API (users and administrators, not gitlab-runner): /runners, /runners/all,
// /runners/:id, /projects/:id/runners, /groups/:id/runners. Registered before routes.ts's runner API, whose paths it
// never takes.
import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../lib/context.ts';
import { groupRef, projectRef } from '../lib/ids.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import { params, path, pathId, schema, type Output } from '../lib/validate.ts';
import { lookupId } from '../users/schemas.ts';
import * as admin from './admin.ts';
import { ListGroupRunnersInput, ListRunnersInput, toRunner, toRunnerDetails, UpdateRunnerInput } from './schemas.ts';
import { jobsWithProjects } from '../jobs/service.ts';
import { toJobBasicWithProject } from '../jobs/schemas.ts';
import { JOB_STATUSES } from '../pipelines/status.ts';
import { oneOf } from '../lib/validate.ts';
import { paginationParams } from '../lib/pagination.ts';

export const runnerAdminRoutes = new Hono<AppEnv>();

const RunnerPath = schema(() => z.object({ id: pathId() }));
const ProjectPath = schema(() => z.object({ id: projectRef() }));
const ProjectRunnerPath = schema(() => z.object({ id: projectRef(), runner_id: pathId() }));
const GroupPath = schema(() => z.object({ id: groupRef() }));
const EnableInput = schema(() => z.object({ runner_id: lookupId() }));
const RunnerJobsInput = schema(() =>
  z.object({
    ...paginationParams(),
    status: z.optional(oneOf(JOB_STATUSES)),
    order_by: z._default(oneOf(['id']), 'id'),
    sort: z._default(oneOf(['asc', 'desc']), 'desc'),
  }),
);
const ListOwned = ListRunnersInput(false);
const ListAll = ListRunnersInput(true);

/** `scope` (deprecated) and `status` filter alike; `type` and `tag_list` narrow further. */
const filterOf = (input: Output<typeof ListAll>) => ({ type: input.type, status: input.status ?? input.scope, tagList: input.tag_list });

async function present(c: Context<AppEnv>, input: Output<typeof ListGroupRunnersInput>, list: ReturnType<typeof admin.listOwnedRunners>) {
  const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
  return c.json(rows.map((r) => toRunner(r)));
}

runnerAdminRoutes.get('/runners', params(ListOwned), async (c) => {
  const input = c.req.valid('query');
  return present(c, input, admin.listOwnedRunners({ ctx: c.var.ctx, input: { all: false, filter: filterOf(input) } }));
});

runnerAdminRoutes.get('/runners/all', params(ListAll), async (c) => {
  const input = c.req.valid('query');
  return present(c, input, admin.listOwnedRunners({ ctx: c.var.ctx, input: { all: true, filter: filterOf(input) } }));
});

runnerAdminRoutes.get('/runners/:id', path(RunnerPath), async (c) => {
  const { runner, projects, groups } = await admin.getRunner({ ctx: c.var.ctx, input: { id: c.req.valid('param').id } });
  return c.json(toRunnerDetails(runner, projects, groups, c.var.ctx.config));
});

runnerAdminRoutes.put('/runners/:id', path(RunnerPath), params(UpdateRunnerInput), async (c) => {
  const { runner, projects, groups } = await admin.updateRunner({ ctx: c.var.ctx, input: { id: c.req.valid('param').id, ...c.req.valid('query') } });
  return c.json(toRunnerDetails(runner, projects, groups, c.var.ctx.config));
});

runnerAdminRoutes.delete('/runners/:id', path(RunnerPath), async (c) => {
  await admin.deleteRunner({ ctx: c.var.ctx, input: { id: c.req.valid('param').id } });
  return c.body(null, 204);
});

runnerAdminRoutes.get('/projects/:id/runners', path(ProjectPath), params(ListAll), async (c) => {
  const input = c.req.valid('query');
  return present(c, input, await admin.listProjectRunners({ ctx: c.var.ctx, input: { ref: c.req.valid('param').id, filter: filterOf(input) } }));
});

runnerAdminRoutes.post('/projects/:id/runners', path(ProjectPath), params(EnableInput), async (c) => {
  const runner = await admin.enableProjectRunner({ ctx: c.var.ctx, input: { ref: c.req.valid('param').id, runnerId: c.req.valid('query').runner_id } });
  return c.json(toRunner(runner), 201);
});

runnerAdminRoutes.delete('/projects/:id/runners/:runner_id', path(ProjectRunnerPath), async (c) => {
  const { id, runner_id } = c.req.valid('param');
  await admin.disableProjectRunner({ ctx: c.var.ctx, input: { ref: id, runnerId: runner_id } });
  return c.body(null, 204);
});

runnerAdminRoutes.get('/groups/:id/runners', path(GroupPath), params(ListGroupRunnersInput), async (c) => {
  const input = c.req.valid('query');
  const filter = { type: input.type, status: input.status, tagList: input.tag_list };
  return present(c, input, await admin.listGroupRunners({ ctx: c.var.ctx, input: { ref: c.req.valid('param').id, filter } }));
});

// GET /runners/:id/jobs: the runner's jobs as JobBasicWithProject (Ci::RunnerJobsFinder).
runnerAdminRoutes.get('/runners/:id/jobs', path(RunnerPath), params(RunnerJobsInput), async (c) => {
  const { ctx } = c.var;
  const input = c.req.valid('query');
  const list = await admin.listRunnerJobs({ ctx, input: { id: c.req.valid('param').id, status: input.status, sort: input.sort } });
  const page = await jobsWithProjects(ctx, await paginate(c, pageRequest(input), list.fetch, list.count));
  return c.json(page.map((r) => toJobBasicWithProject(r.job, r.context, r.project, ctx.config, ctx.actor)));
});
