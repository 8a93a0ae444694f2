// Environments (GitLab 13.6 lib/api/environments.rb): list (name or prefix search), one with its last deployment,
// create, update, delete (stopped ones), stop. Every route needs a signed-in user (`authenticate!`).
import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { EnvironmentRow } from '../../db/schema/index.ts';
import type { AppEnv } from '../lib/context.ts';
import { projectRef } from '../lib/ids.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import { parseParams, path, schema, toValidationError } from '../lib/validate.ts';
import { presentDeployments } from '../deployments/service.ts';
import { CreateEnvironmentInput, EnvironmentPath, ListEnvironmentsInput, toEnvironment, UpdateEnvironmentInput } from './schemas.ts';
import * as environments from './service.ts';

export const environmentRoutes = new Hono<AppEnv>();
const ProjectPath = schema(() => z.object({ id: projectRef() }));
const EnvironmentIdPath = schema(() => z.object(EnvironmentPath()));
const BASE = '/projects/:id/environments';

/** `requires :environment_id, type: Integer`: 400 `environment_id is invalid`; a number no row has is 404. */
function environmentId(c: Context<AppEnv>): number {
  const result = EnvironmentIdPath().safeParse({ environment_id: c.req.param('environment_id') });
  if (!result.success) throw toValidationError(result.error.issues);
  return result.data.environment_id ?? 0;
}

const present = (c: Context<AppEnv>, project: ProjectView, e: EnvironmentRow, status: 200 | 201 = 200) =>
  c.json(toEnvironment(e, { project, config: c.var.ctx.config }), status);

environmentRoutes.get(BASE, path(ProjectPath), async (c) => {
  const ctx = c.var.ctx;
  const project = await environments.environmentsProject(ctx, c.req.valid('param').id);
  const input = await parseParams(c, ListEnvironmentsInput());
  const { fetch, count } = environments.listEnvironments({ ctx, input: { project, name: input.name, search: input.search } });
  const rows = await paginate(c, pageRequest(input), fetch, count);
  return c.json(rows.map((e) => toEnvironment(e, { project, config: ctx.config })));
});

environmentRoutes.get(`${BASE}/:environment_id`, path(ProjectPath), async (c) => {
  const ctx = c.var.ctx;
  const project = await environments.environmentsProject(ctx, c.req.valid('param').id);
  const environment = await environments.getEnvironment({ ctx, input: { project, id: environmentId(c) } });
  const last = (await environments.lastDeployments(ctx, [environment.id])).get(environment.id);
  // `except: [:project, {last_deployment: [:environment]}]`.
  const lastDeployment = last ? (await presentDeployments(ctx, project, [last], { withEnvironment: false }))[0] : null;
  return c.json(toEnvironment(environment, { config: ctx.config, lastDeployment }));
});

environmentRoutes.post(BASE, path(ProjectPath), async (c) => {
  const ctx = c.var.ctx;
  const project = await environments.environmentsProject(ctx, c.req.valid('param').id);
  const input = await parseParams(c, CreateEnvironmentInput());
  const created = await environments.createEnvironment({ ctx, input: { project, name: input.name, externalUrl: input.external_url ?? undefined } });
  return present(c, project, created, 201);
});

environmentRoutes.put(`${BASE}/:environment_id`, path(ProjectPath), async (c) => {
  const ctx = c.var.ctx;
  const project = await environments.environmentsProject(ctx, c.req.valid('param').id);
  const id = environmentId(c);
  const input = await parseParams(c, UpdateEnvironmentInput());
  const externalUrl = input.external_url === null ? '' : input.external_url;
  return present(c, project, await environments.updateEnvironment({ ctx, input: { project, id, name: input.name, externalUrl } }));
});

environmentRoutes.delete(`${BASE}/:environment_id`, path(ProjectPath), async (c) => {
  const ctx = c.var.ctx;
  const project = await environments.environmentsProject(ctx, c.req.valid('param').id);
  await environments.deleteEnvironment({ ctx, input: { project, id: environmentId(c) } });
  return c.body(null, 204);
});

environmentRoutes.post(`${BASE}/:environment_id/stop`, path(ProjectPath), async (c) => {
  const ctx = c.var.ctx;
  const project = await environments.environmentsProject(ctx, c.req.valid('param').id);
  return present(c, project, await environments.stopEnvironment({ ctx, input: { project, id: environmentId(c) } }));
});
