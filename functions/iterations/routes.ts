// GET /groups/:id/iterations and /projects/:id/iterations (GitLab EE 13.6; no authentication required: public
// parents list theirs to anyone where iterations are licensed).
import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../lib/context.ts';
import { groupRef, projectRef } from '../lib/ids.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import { params, path, schema } from '../lib/validate.ts';
import { ListIterationsInput, toIteration } from './schemas.ts';
import * as iterations from './service.ts';

export const iterationRoutes = new Hono<AppEnv>();

const SOURCES = [
  { kind: 'project', prefix: '/projects', ref: projectRef },
  { kind: 'group', prefix: '/groups', ref: groupRef },
] as const;

for (const { kind, prefix, ref } of SOURCES) {
  const SourcePath = schema(() => z.object({ id: ref() }));
  iterationRoutes.get(`${prefix}/:id/iterations`, path(SourcePath), params(ListIterationsInput), async (c) => {
    const { ctx } = c.var;
    const input = c.req.valid('query');
    const list = await iterations.listIterations({
      ctx,
      input: {
        kind,
        ref: c.req.valid('param').id,
        includeAncestors: input.include_ancestors,
        filter: { state: input.state, search: input.search || undefined },
      },
    });
    const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
    return c.json(rows.map((r) => toIteration(r, ctx.config)));
  });
}
