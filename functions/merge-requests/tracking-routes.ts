// GitLab 13.6 time tracking (TimeTrackingEndpoints: 200, except add_spent_time's 201), subscriptions
// (lib/api/subscriptions.rb: 201 with Entities::MergeRequest, 304 when unchanged), the to-do action (lib/api/todos.rb:
// 201 with Entities::Todo, 304) and the participants (paginated Entities::UserBasic) of one merge request.
import { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import type { Ref } from '../lib/ids.ts';
import { requireUser } from '../lib/auth.ts';
import { paginateArray, paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { params, path, schema } from '../lib/validate.ts';
import { DurationInput, toTimeStats } from '../issuables/schemas.ts';
import { toTodo } from '../todos/schemas.ts';
import { toUserBasic } from '../users/schemas.ts';
import { canMerge } from './merge.ts';
import { SingleMergeRequestPath } from './routes.ts';
import { toMergeRequest } from './schemas.ts';
import * as tracking from './tracking.ts';

export const mergeRequestTrackingRoutes = new Hono<AppEnv>();

const single = '/projects/:id/merge_requests/:merge_request_iid';
const PageInput = schema(() => z.object(paginationParams()));

/** The MR the path names. */
const ref = (p: { id: Ref | null; merge_request_iid: number | null }) => ({ project: p.id, iid: p.merge_request_iid });

mergeRequestTrackingRoutes.post(`${single}/time_estimate`, path(SingleMergeRequestPath), params(DurationInput), async (c) => {
  const mr = await tracking.setMergeRequestTimeEstimate({ ctx: c.var.ctx, input: { ...ref(c.req.valid('param')), duration: c.req.valid('query').duration } });
  return c.json(toTimeStats(mr), 200);
});

mergeRequestTrackingRoutes.post(`${single}/reset_time_estimate`, path(SingleMergeRequestPath), async (c) => {
  const mr = await tracking.setMergeRequestTimeEstimate({ ctx: c.var.ctx, input: { ...ref(c.req.valid('param')), duration: null } });
  return c.json(toTimeStats(mr), 200);
});

mergeRequestTrackingRoutes.post(`${single}/add_spent_time`, path(SingleMergeRequestPath), params(DurationInput), async (c) => {
  const mr = await tracking.addMergeRequestSpentTime({ ctx: c.var.ctx, input: { ...ref(c.req.valid('param')), duration: c.req.valid('query').duration } });
  return c.json(toTimeStats(mr), 201);
});

mergeRequestTrackingRoutes.post(`${single}/reset_spent_time`, path(SingleMergeRequestPath), async (c) => {
  const mr = await tracking.addMergeRequestSpentTime({ ctx: c.var.ctx, input: { ...ref(c.req.valid('param')), duration: null } });
  return c.json(toTimeStats(mr), 200);
});

mergeRequestTrackingRoutes.get(`${single}/time_stats`, path(SingleMergeRequestPath), async (c) => {
  return c.json(toTimeStats(await tracking.getMergeRequestTimeStats({ ctx: c.var.ctx, input: ref(c.req.valid('param')) })));
});

for (const [action, subscribed] of [
  ['subscribe', true],
  ['unsubscribe', false],
] as const) {
  mergeRequestTrackingRoutes.post(`${single}/${action}`, path(SingleMergeRequestPath), async (c) => {
    const { ctx } = c.var;
    const { project, view } = await tracking.setMergeRequestSubscribed({ ctx, input: { ...ref(c.req.valid('param')), subscribed } });
    return c.json(toMergeRequest(view, ctx.config, { subscribed: view.subscribed, canMerge: await canMerge(ctx, project, view) }), 201);
  });
}

mergeRequestTrackingRoutes.post(`${single}/todo`, path(SingleMergeRequestPath), async (c) => {
  const { ctx } = c.var;
  const { todo, project, view } = await tracking.markMergeRequestTodo({ ctx, input: ref(c.req.valid('param')) });
  return c.json(toTodo({ todo, project, author: requireUser(ctx), noteBody: null, mergeRequest: view }, ctx.config), 201);
});

mergeRequestTrackingRoutes.get(`${single}/participants`, path(SingleMergeRequestPath), params(PageInput), async (c) => {
  const { ctx } = c.var;
  const users = await tracking.mergeRequestParticipants({ ctx, input: ref(c.req.valid('param')) });
  return c.json((await paginateArray(c, c.req.valid('query'), users)).map((u) => toUserBasic(u, ctx.config)));
});
