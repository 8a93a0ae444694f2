import { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { groupRef, projectRef } from '../lib/ids.ts';
import { pageRequest, paginate, paginateArray, paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { params, path, schema } from '../lib/validate.ts';
import { requireUser } from '../lib/auth.ts';
import { toTodo } from '../todos/schemas.ts';
import { CreateIssueInput, IssuePath, ListIssuesInput, toIssue, UpdateIssueInput } from './schemas.ts';
import { DurationInput, toTimeStats } from '../issuables/schemas.ts';
import * as issues from './service.ts';
import { createIssue } from './create.ts';
import { updateIssue } from './update.ts';
import * as tracking from './tracking.ts';
import * as related from './related-merge-requests.ts';
import { participantsOfIssues } from './reads.ts';
import { canMerge } from '../merge-requests/merge.ts';
import { toMergeRequest, toMergeRequestBasic } from '../merge-requests/schemas.ts';
import { toUserBasic } from '../users/schemas.ts';

export const issueRoutes = new Hono<AppEnv>();

const ProjectPath = schema(() => z.object({ id: projectRef() }));
const GroupPath = schema(() => z.object({ id: groupRef() }));
const SingleIssuePath = schema(() => z.object({ id: projectRef(), ...IssuePath() }));
const PageInput = schema(() => z.object(paginationParams()));

issueRoutes.get('/issues', params(ListIssuesInput), async (c) => {
  const { ctx } = c.var;
  const input = c.req.valid('query');
  const list = await issues.listIssues({ ctx, input: { source: { kind: 'all' }, params: input } });
  const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
  return c.json(rows.map((r) => toIssue(r, ctx.config, { labelDetails: input.with_labels_details === true })));
});

issueRoutes.get('/projects/:id/issues', path(ProjectPath), params(ListIssuesInput), async (c) => {
  const { ctx } = c.var;
  const input = c.req.valid('query');
  const list = await issues.listIssues({ ctx, input: { source: { kind: 'project', ref: c.req.valid('param').id }, params: input } });
  const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
  return c.json(rows.map((r) => toIssue(r, ctx.config, { labelDetails: input.with_labels_details === true })));
});

issueRoutes.get('/groups/:id/issues', path(GroupPath), params(ListIssuesInput), async (c) => {
  const { ctx } = c.var;
  const input = c.req.valid('query');
  const list = await issues.listIssues({ ctx, input: { source: { kind: 'group', ref: c.req.valid('param').id }, params: input } });
  const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
  return c.json(rows.map((r) => toIssue(r, ctx.config, { labelDetails: input.with_labels_details === true })));
});

issueRoutes.post('/projects/:id/issues', path(ProjectPath), params(CreateIssueInput), async (c) => {
  const { ctx } = c.var;
  const { view } = await createIssue({ ctx, input: { project: c.req.valid('param').id, params: c.req.valid('query') } });
  return c.json(toIssue(view, ctx.config, { subscribed: view.subscribed }), 201);
});

issueRoutes.get('/projects/:id/issues/:issue_iid', path(SingleIssuePath), async (c) => {
  const { ctx } = c.var;
  const { id, issue_iid } = c.req.valid('param');
  const view = await issues.getIssue({ ctx, input: { project: id, iid: issue_iid } });
  return c.json(toIssue(view, ctx.config, { subscribed: view.subscribed }));
});

issueRoutes.put('/projects/:id/issues/:issue_iid', path(SingleIssuePath), params(UpdateIssueInput), async (c) => {
  const { ctx } = c.var;
  const { id, issue_iid } = c.req.valid('param');
  const view = await updateIssue({ ctx, input: { project: id, iid: issue_iid, params: c.req.valid('query') } });
  return c.json(toIssue(view, ctx.config, { subscribed: view.subscribed }));
});

issueRoutes.delete('/projects/:id/issues/:issue_iid', path(SingleIssuePath), async (c) => {
  const { id, issue_iid } = c.req.valid('param');
  await issues.deleteIssue({ ctx: c.var.ctx, input: { project: id, iid: issue_iid } });
  return c.body(null, 204);
});

// ---- Time tracking (GitLab's TimeTrackingEndpoints: 200, except add_spent_time's 201) ----

const single = `/projects/:id/issues/:issue_iid`;

issueRoutes.post(`${single}/time_estimate`, path(SingleIssuePath), params(DurationInput), async (c) => {
  const { id, issue_iid } = c.req.valid('param');
  const issue = await tracking.setTimeEstimate({ ctx: c.var.ctx, input: { project: id, iid: issue_iid, duration: c.req.valid('query').duration } });
  return c.json(toTimeStats(issue), 200);
});

issueRoutes.post(`${single}/reset_time_estimate`, path(SingleIssuePath), async (c) => {
  const { id, issue_iid } = c.req.valid('param');
  const issue = await tracking.setTimeEstimate({ ctx: c.var.ctx, input: { project: id, iid: issue_iid, duration: null } });
  return c.json(toTimeStats(issue), 200);
});

issueRoutes.post(`${single}/add_spent_time`, path(SingleIssuePath), params(DurationInput), async (c) => {
  const { id, issue_iid } = c.req.valid('param');
  const issue = await tracking.addSpentTime({ ctx: c.var.ctx, input: { project: id, iid: issue_iid, duration: c.req.valid('query').duration } });
  return c.json(toTimeStats(issue), 201);
});

issueRoutes.post(`${single}/reset_spent_time`, path(SingleIssuePath), async (c) => {
  const { id, issue_iid } = c.req.valid('param');
  const issue = await tracking.addSpentTime({ ctx: c.var.ctx, input: { project: id, iid: issue_iid, duration: null } });
  return c.json(toTimeStats(issue), 200);
});

issueRoutes.get(`${single}/time_stats`, path(SingleIssuePath), async (c) => {
  const { id, issue_iid } = c.req.valid('param');
  return c.json(toTimeStats(await tracking.getTimeStats({ ctx: c.var.ctx, input: { project: id, iid: issue_iid } })));
});

// ---- Subscriptions and to-dos ----

for (const [action, subscribed] of [
  ['subscribe', true],
  ['unsubscribe', false],
] as const) {
  issueRoutes.post(`${single}/${action}`, path(SingleIssuePath), async (c) => {
    const { ctx } = c.var;
    const { id, issue_iid } = c.req.valid('param');
    const { view } = await tracking.setSubscribed({ ctx, input: { project: id, iid: issue_iid, subscribed } });
    return c.json(toIssue(view, ctx.config, { subscribed: view.subscribed }), 201);
  });
}

issueRoutes.post(`${single}/todo`, path(SingleIssuePath), async (c) => {
  const { ctx } = c.var;
  const { id, issue_iid } = c.req.valid('param');
  const { todo, project, view } = await tracking.markTodo({ ctx, input: { project: id, iid: issue_iid } });
  return c.json(toTodo({ todo, project, author: requireUser(ctx), noteBody: null, issue: view }, ctx.config), 201);
});

// ---- Merge requests around the issue, participants ----

issueRoutes.get(`${single}/related_merge_requests`, path(SingleIssuePath), params(PageInput), async (c) => {
  const { ctx } = c.var;
  const { id, issue_iid } = c.req.valid('param');
  const found = await related.relatedMergeRequests({ ctx, input: { project: id, iid: issue_iid } });
  const page = await paginateArray(c, c.req.valid('query'), found);
  // Entities::MergeRequest with include_subscribed: false.
  return c.json(
    await Promise.all(
      page.map(async ({ project, view }) => {
        const { subscribed: _, ...entity } = toMergeRequest(view, ctx.config, { subscribed: false, canMerge: await canMerge(ctx, project, view) });
        return entity;
      }),
    ),
  );
});

issueRoutes.get(`${single}/closed_by`, path(SingleIssuePath), params(PageInput), async (c) => {
  const { ctx } = c.var;
  const { id, issue_iid } = c.req.valid('param');
  const found = await related.mergeRequestsClosingIssue({ ctx, input: { project: id, iid: issue_iid } });
  return c.json((await paginateArray(c, c.req.valid('query'), found)).map((v) => toMergeRequestBasic(v, ctx.config)));
});

issueRoutes.get(`${single}/participants`, path(SingleIssuePath), params(PageInput), async (c) => {
  const { ctx } = c.var;
  const { id, issue_iid } = c.req.valid('param');
  const found = await issues.findIssue(ctx, { project: id, iid: issue_iid });
  const [users] = await participantsOfIssues(ctx, [found]);
  return c.json((await paginateArray(c, c.req.valid('query'), users!)).map((u) => toUserBasic(u, ctx.config)));
});
