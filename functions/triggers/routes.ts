// Pipeline triggers (GitLab 13.6 lib/api/triggers.rb): CRUD under /projects/:id/triggers and the trigger call itself,
// POST /projects/:id/(ref/:ref/)trigger/pipeline. Grape validates each route's parameters before its body runs
// `authenticate!`: an anonymous read with a bad parameter is a 400 (writes need a user app-wide first). The token is
// whole only in the answer that creates it (stored as a digest, later shown by its first characters): that answer
// goes out no-store.
import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../lib/context.ts';
import { paramErrors } from '../lib/errors.ts';
import { NO_STORE } from '../lib/no-store.ts';
import { projectRef } from '../lib/ids.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import { parseParams, path, readInput, schema, toValidationError } from '../lib/validate.ts';
import { toPipeline } from '../pipelines/schemas.ts';
import { pipelineDetail } from '../pipelines/service.ts';
import { CreateTriggerInput, ListTriggersInput, toTrigger, TriggerPipelineInput, UpdateTriggerInput } from './schemas.ts';
import * as triggers from './service.ts';

export const triggerRoutes = new Hono<AppEnv>();
const ProjectPath = schema(() => z.object({ id: projectRef() }));
const BASE = '/projects/:id/triggers';

/** `requires :trigger_id, type: Integer`: any integer is accepted (no row has a negative one: 404), else 400. */
function triggerId(c: Context<AppEnv>): number | null {
  const raw = c.req.param('trigger_id') ?? '';
  if (!/^[+-]?\d+$/.test(raw)) throw paramErrors(['trigger_id is invalid']);
  const n = Number(raw);
  return n >= 1 && n <= 2_147_483_647 ? n : null;
}

triggerRoutes.get(BASE, path(ProjectPath), async (c) => {
  const input = await parseParams(c, ListTriggersInput());
  const project = await triggers.triggersProject(c.var.ctx, c.req.valid('param').id);
  const { fetch, count } = triggers.listTriggers({ ctx: c.var.ctx, input: { project } });
  const rows = await paginate(c, pageRequest(input), fetch, count);
  return c.json(rows.map((r) => toTrigger(r.trigger, r.owner, triggers.shownToken(r.trigger), c.var.ctx.config)));
});

triggerRoutes.get(`${BASE}/:trigger_id`, path(ProjectPath), async (c) => {
  const id = triggerId(c);
  const project = await triggers.triggersProject(c.var.ctx, c.req.valid('param').id);
  const found = await triggers.getTrigger({ ctx: c.var.ctx, input: { project, id } });
  return c.json(toTrigger(found.trigger, found.owner, triggers.shownToken(found.trigger), c.var.ctx.config));
});

triggerRoutes.post(BASE, path(ProjectPath), async (c) => {
  const input = await parseParams(c, CreateTriggerInput());
  const project = await triggers.triggersProject(c.var.ctx, c.req.valid('param').id);
  const created = await triggers.createTrigger({ ctx: c.var.ctx, input: { project, description: input.description } });
  return c.json(toTrigger(created.trigger, created.owner, created.token, c.var.ctx.config), 201, NO_STORE);
});

triggerRoutes.put(`${BASE}/:trigger_id`, path(ProjectPath), async (c) => {
  const id = triggerId(c);
  const input = await parseParams(c, UpdateTriggerInput());
  const project = await triggers.triggersProject(c.var.ctx, c.req.valid('param').id);
  const found = await triggers.updateTrigger({ ctx: c.var.ctx, input: { project, id, description: input.description } });
  return c.json(toTrigger(found.trigger, found.owner, triggers.shownToken(found.trigger), c.var.ctx.config));
});

triggerRoutes.delete(`${BASE}/:trigger_id`, path(ProjectPath), async (c) => {
  const id = triggerId(c);
  const project = await triggers.triggersProject(c.var.ctx, c.req.valid('param').id);
  await triggers.deleteTrigger({ ctx: c.var.ctx, input: { project, id, ifUnmodifiedSince: c.req.header('if-unmodified-since') } });
  return c.body(null, 204);
});

/**
 * The trigger call. Grape's params are the request's (query, then body) with the route's captures merged in after
 * them (`id`, and `ref` from the URL over any `ref` sent), then `variables` made a Hash: that is TRIGGER_PAYLOAD.
 */
async function triggerCall(c: Context<AppEnv>) {
  const params: Record<string, unknown> = await readInput(c);
  params.id = c.req.param('id');
  const urlRef = c.req.param('ref');
  if (urlRef !== undefined) params.ref = urlRef;
  const parsed = TriggerPipelineInput().safeParse(params);
  if (!parsed.success) throw toValidationError(parsed.error.issues);
  const variables = parsed.data.variables ?? {};
  params.variables = variables;
  const { project, pipeline } = await triggers.triggerPipeline({
    ctx: c.var.ctx,
    input: {
      projectRef: projectRef().parse(c.req.param('id')),
      ref: parsed.data.ref,
      token: parsed.data.token,
      variables,
      payload: params,
      pipelineHook: c.req.header('x-gitlab-event') === 'Pipeline Hook',
    },
  });
  const d = await pipelineDetail(c.var.ctx, pipeline);
  return c.json(toPipeline(d.pipeline, project.project, d.user, c.var.ctx.config, d.hasWarnings), 201);
}

triggerRoutes.post('/projects/:id/trigger/pipeline', triggerCall);
triggerRoutes.post('/projects/:id/ref/:ref{.+}/trigger/pipeline', triggerCall);
