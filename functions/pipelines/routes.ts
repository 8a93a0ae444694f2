// Pipelines (GitLab 13.6 lib/api/pipelines.rb): list, one, its variables, run one on a ref, retry, cancel, delete.
// `authenticate_non_get!`: reads are open to whoever reads the project (public_builds), changes need a user.
import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import type { ProjectView } from '../../db/queries/projects.ts';
import { requireUser } from '../lib/auth.ts';
import type { AppEnv } from '../lib/context.ts';
import { projectRef } from '../lib/ids.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import { parseParams, path, schema, toValidationError } from '../lib/validate.ts';
import { CreatePipelineInput, ListPipelinesInput, PipelinePath, toPipeline, toPipelineBasic, toPipelineVariable } from './schemas.ts';
import * as pipelines from './service.ts';

export const pipelineRoutes = new Hono<AppEnv>();
const ProjectPath = schema(() => z.object({ id: projectRef() }));
const PipelineIdPath = schema(() => z.object(PipelinePath()));
const BASE = '/projects/:id/pipelines';

/** `requires :pipeline_id, type: Integer`: 400 `pipeline_id is invalid`; a number no row has is 404 `Not found`. */
function pipelineId(c: Context<AppEnv>): number {
  const result = PipelineIdPath().safeParse({ pipeline_id: c.req.param('pipeline_id') });
  if (!result.success) throw toValidationError(result.error.issues);
  return result.data.pipeline_id ?? 0;
}

async function present(c: Context<AppEnv>, project: ProjectView, row: Awaited<ReturnType<typeof pipelines.getPipeline>>, status: 200 | 201 = 200) {
  const d = await pipelines.pipelineDetail(c.var.ctx, row);
  return c.json(toPipeline(d.pipeline, project.project, d.user, c.var.ctx.config, d.hasWarnings), status);
}

pipelineRoutes.get(BASE, path(ProjectPath), async (c) => {
  const ctx = c.var.ctx;
  const project = await pipelines.pipelineProject(ctx, c.req.valid('param').id, 'project:read_pipeline');
  const input = await parseParams(c, ListPipelinesInput());
  const { fetch, count } = pipelines.listPipelines({
    ctx,
    input: {
      project,
      filter: {
        scope: input.scope,
        status: input.status,
        ref: input.ref,
        sha: input.sha,
        yamlErrors: input.yaml_errors,
        username: input.username,
        updatedAfter: input.updated_after === undefined ? undefined : new Date(input.updated_after),
        updatedBefore: input.updated_before === undefined ? undefined : new Date(input.updated_before),
      },
      orderBy: input.order_by,
      sort: input.sort,
    },
  });
  const rows = await paginate(c, pageRequest(input), fetch, count);
  return c.json(rows.map((p) => toPipelineBasic(p, project.project, ctx.config)));
});

pipelineRoutes.post('/projects/:id/pipeline', path(ProjectPath), async (c) => {
  const ctx = c.var.ctx;
  requireUser(ctx);
  const project = await pipelines.pipelineProject(ctx, c.req.valid('param').id, 'project:read_pipeline');
  const input = await parseParams(c, CreatePipelineInput());
  const variables = (input.variables ?? []).map((v) => ({ key: v.key, value: v.value, variableType: v.variable_type }));
  const row = await pipelines.runPipeline({ ctx, input: { project, ref: input.ref, variables, source: 'api' } });
  return present(c, project, row, 201);
});

pipelineRoutes.get(`${BASE}/:pipeline_id`, path(ProjectPath), async (c) => {
  const project = await pipelines.pipelineProject(c.var.ctx, c.req.valid('param').id, 'project:read_pipeline');
  return present(c, project, await pipelines.getPipeline({ ctx: c.var.ctx, input: { project, id: pipelineId(c) } }));
});

pipelineRoutes.get(`${BASE}/:pipeline_id/variables`, path(ProjectPath), async (c) => {
  const project = await pipelines.pipelineProject(c.var.ctx, c.req.valid('param').id, 'project:read_pipeline');
  const variables = await pipelines.getPipelineVariables({ ctx: c.var.ctx, input: { project, id: pipelineId(c) } });
  return c.json(variables.map(toPipelineVariable));
});

pipelineRoutes.post(`${BASE}/:pipeline_id/retry`, path(ProjectPath), async (c) => {
  requireUser(c.var.ctx);
  const project = await pipelines.pipelineProject(c.var.ctx, c.req.valid('param').id, 'project:read_pipeline');
  return present(c, project, await pipelines.retryPipeline({ ctx: c.var.ctx, input: { project, id: pipelineId(c) } }), 201);
});

pipelineRoutes.post(`${BASE}/:pipeline_id/cancel`, path(ProjectPath), async (c) => {
  requireUser(c.var.ctx);
  const project = await pipelines.pipelineProject(c.var.ctx, c.req.valid('param').id, 'project:read_pipeline');
  return present(c, project, await pipelines.cancelPipeline({ ctx: c.var.ctx, input: { project, id: pipelineId(c) } }));
});

pipelineRoutes.delete(`${BASE}/:pipeline_id`, path(ProjectPath), async (c) => {
  requireUser(c.var.ctx);
  const project = await pipelines.pipelineProject(c.var.ctx, c.req.valid('param').id, 'project:read_pipeline');
  await pipelines.destroyPipeline({ ctx: c.var.ctx, input: { project, id: pipelineId(c) } });
  return c.body(null, 204);
});
