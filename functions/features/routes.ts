// Features API (GitLab `lib/api/features.rb`), administrators only: who may call is checked before the parameters.
import { Hono } from 'hono';
import { validator } from 'hono/validator';
import type { AppEnv } from '../lib/context.ts';
import { paramErrors } from '../lib/errors.ts';
import { pageRequest, paginate, paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { params, readInput, schema, toValidationError } from '../lib/validate.ts';
import { adminOnly } from '../users/admin-only.ts';
import { ACTOR_PARAMS, SetFeatureInput, toFeature, toFeatureDefinition, type SetFeatureParams } from './schemas.ts';
import * as features from './service.ts';

export const featureRoutes = new Hono<AppEnv>();

const ListInput = schema(() => z.object({ ...paginationParams() }));

/**
 * The POST parameters (query, form or JSON), with Grape's messages: the schema's, then one
 * `key, <param> are mutually exclusive` per actor parameter sent together with `key`.
 */
const setParams = validator('query', async (_value, c): Promise<SetFeatureParams> => {
  const input = await readInput(c);
  const result = SetFeatureInput().safeParse(input);
  const messages: string[] = [];
  if (!result.success) {
    const error = toValidationError(result.error.issues);
    if (error.problem.kind !== 'params') throw error;
    messages.push(...error.problem.params);
  }
  if (input.key !== undefined) for (const p of ACTOR_PARAMS) if (input[p] !== undefined) messages.push(`key, ${p} are mutually exclusive`);
  if (messages.length) throw paramErrors(messages);
  return result.data!;
});

// GitLab answers these lists whole; here they carry the pagination headers every list has (default 20 a page, as
// everywhere), which clients that follow Link/X-Next-Page (gitbeaker, python-gitlab's get_all) walk transparently.
featureRoutes.get('/features', adminOnly, params(ListInput), async (c) => {
  const list = features.listFeatures({ ctx: c.var.ctx, input: {} });
  const page = await paginate(c, pageRequest(c.req.valid('query')), list.fetch, list.count);
  return c.json(page.map((f) => toFeature(f.name, f.gates)));
});

featureRoutes.get('/features/definitions', adminOnly, params(ListInput), async (c) => {
  const list = features.listDefinitions({ ctx: c.var.ctx, input: {} });
  const page = await paginate(c, pageRequest(c.req.valid('query')), list.fetch, list.count);
  return c.json(page.map(toFeatureDefinition));
});

featureRoutes.post('/features/:name', adminOnly, setParams, async (c) => {
  const feature = await features.setFeature({ ctx: c.var.ctx, input: { name: c.req.param('name'), params: c.req.valid('query') } });
  return c.json(toFeature(feature.name, feature.gates), 201);
});

featureRoutes.delete('/features/:name', adminOnly, async (c) => {
  await features.removeFeature({ ctx: c.var.ctx, input: { name: c.req.param('name') } });
  return c.body(null, 204);
});
