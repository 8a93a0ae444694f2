// Deployments (GitLab 13.6 lib/api/deployments.rb): list with DeploymentsFinder's filters and orders, one, create
// by the API, update an API-made one's status. Every route needs a signed-in user (`authenticate!`).
import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import type { DeploymentWithEnvironment } from '../../db/queries/deployments.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { AppEnv } from '../lib/context.ts';
import { projectRef } from '../lib/ids.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import { parseParams, path, schema, toValidationError } from '../lib/validate.ts';
import { CreateDeploymentInput, DeploymentPath, ListDeploymentsInput, UpdateDeploymentInput } from './schemas.ts';
import * as deployments from './service.ts';

export const deploymentRoutes = new Hono<AppEnv>();
const ProjectPath = schema(() => z.object({ id: projectRef() }));
const DeploymentIdPath = schema(() => z.object(DeploymentPath()));
const BASE = '/projects/:id/deployments';

function deploymentId(c: Context<AppEnv>): number {
  const result = DeploymentIdPath().safeParse({ deployment_id: c.req.param('deployment_id') });
  if (!result.success) throw toValidationError(result.error.issues);
  return result.data.deployment_id ?? 0;
}

const present = async (c: Context<AppEnv>, project: ProjectView, d: DeploymentWithEnvironment, status: 200 | 201 = 200) =>
  c.json((await deployments.presentDeployments(c.var.ctx, project, [d], { withEnvironment: true }))[0], status);

deploymentRoutes.get(BASE, path(ProjectPath), async (c) => {
  const ctx = c.var.ctx;
  const project = await deployments.deploymentsProject(ctx, c.req.valid('param').id);
  const input = await parseParams(c, ListDeploymentsInput());
  const { fetch, count } = deployments.listDeployments({
    ctx,
    input: {
      project,
      filter: { environmentName: input.environment, status: input.status, updatedAfter: input.updated_after, updatedBefore: input.updated_before },
      orderBy: input.order_by,
      sort: input.sort,
    },
  });
  const rows = await paginate(c, pageRequest(input), fetch, count);
  return c.json(await deployments.presentDeployments(ctx, project, rows, { withEnvironment: true }));
});

deploymentRoutes.get(`${BASE}/:deployment_id`, path(ProjectPath), async (c) => {
  const ctx = c.var.ctx;
  const project = await deployments.deploymentsProject(ctx, c.req.valid('param').id);
  return present(c, project, await deployments.getDeployment({ ctx, input: { project, id: deploymentId(c) } }));
});

deploymentRoutes.post(BASE, path(ProjectPath), async (c) => {
  const ctx = c.var.ctx;
  const project = await deployments.deploymentsProject(ctx, c.req.valid('param').id);
  const input = await parseParams(c, CreateDeploymentInput());
  return present(c, project, await deployments.createDeployment({ ctx, input: { project, ...input } }), 201);
});

deploymentRoutes.put(`${BASE}/:deployment_id`, path(ProjectPath), async (c) => {
  const ctx = c.var.ctx;
  const project = await deployments.deploymentsProject(ctx, c.req.valid('param').id);
  const id = deploymentId(c);
  const input = await parseParams(c, UpdateDeploymentInput());
  return present(c, project, await deployments.updateDeployment({ ctx, input: { project, id, status: input.status } }));
});
