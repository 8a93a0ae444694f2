// Commit statuses (GitLab 13.6 lib/api/commit_statuses.rb): GET /projects/:id/repository/commits/:sha/statuses and
// POST /projects/:id/statuses/:sha. `before { authenticate! }` runs ahead of Grape's parameter validation: an
// anonymous caller is 401 whatever it sends.
import { Hono } from 'hono';
import * as z from 'zod/mini';
import { requireUser } from '../lib/auth.ts';
import type { AppEnv } from '../lib/context.ts';
import { projectRef } from '../lib/ids.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import { parseParams, path, schema } from '../lib/validate.ts';
import { ListStatusesInput, PostStatusInput, toCommitStatus } from './schemas.ts';
import * as statuses from './service.ts';

export const commitStatusRoutes = new Hono<AppEnv>();
const ShaPath = schema(() => z.object({ id: projectRef(), sha: z.string() }));

commitStatusRoutes.get('/projects/:id/repository/commits/:sha/statuses', path(ShaPath), async (c) => {
  const ctx = c.var.ctx;
  requireUser(ctx);
  const { id, sha } = c.req.valid('param');
  const input = await parseParams(c, ListStatusesInput());
  const { fetch, count } = await statuses.listStatuses({
    ctx,
    input: { projectRef: id, sha, ref: input.ref, stage: input.stage, name: input.name, all: input.all },
  });
  const rows = await paginate(c, pageRequest(input), fetch, count);
  return c.json(rows.map((r) => toCommitStatus(r, ctx.config)));
});

commitStatusRoutes.post('/projects/:id/statuses/:sha', path(ShaPath), async (c) => {
  const ctx = c.var.ctx;
  requireUser(ctx);
  const { id, sha } = c.req.valid('param');
  const input = await parseParams(c, PostStatusInput());
  const row = await statuses.postStatus({
    ctx,
    input: {
      projectRef: id,
      sha,
      state: input.state,
      ref: input.ref,
      targetUrl: input.target_url,
      description: input.description,
      name: input.name,
      context: input.context,
      coverage: input.coverage,
      pipelineId: input.pipeline_id,
    },
  });
  return c.json(toCommitStatus(row, ctx.config), 201);
});
