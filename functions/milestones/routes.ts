// Project and group milestones: GET/POST /{projects,groups}/:id/milestones, GET/PUT/DELETE .../:milestone_id (the
// global id), GET .../:milestone_id/issues and .../:milestone_id/merge_requests.
import { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { toIssue } from '../issues/schemas.ts';
import { toMergeRequestBasic } from '../merge-requests/schemas.ts';
import { authenticated } from '../lib/auth.ts';
import { groupRef, projectRef } from '../lib/ids.ts';
import { paginationParams, pageRequest, paginate } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { params, path, schema, type Output } from '../lib/validate.ts';
import { CreateMilestoneInput, ListGroupMilestonesInput, ListProjectMilestonesInput, MilestonePath, toMilestone, UpdateMilestoneInput } from './schemas.ts';
import * as milestones from './service.ts';

export const milestoneRoutes = new Hono<AppEnv>();

const SOURCES = [
  { kind: 'project', prefix: '/projects', ref: projectRef, List: ListProjectMilestonesInput },
  { kind: 'group', prefix: '/groups', ref: groupRef, List: ListGroupMilestonesInput },
] as const;

const Pagination = schema(() => z.object(paginationParams()));

for (const { kind, prefix, ref, List } of SOURCES) {
  const SourcePath = schema(() => z.object({ id: ref() }));
  const ItemPath = schema(() => z.object({ id: ref(), ...MilestonePath() }));
  const base = `${prefix}/:id/milestones`;

  milestoneRoutes.get(base, authenticated, path(SourcePath), params<ReturnType<typeof List>>(List), async (c) => {
    const { ctx } = c.var;
    const input = c.req.valid('query') as Output<typeof ListProjectMilestonesInput> & Output<typeof ListGroupMilestonesInput>;
    const includeParents = Boolean(input.include_parent_milestones || input.include_parent_group_milestones || input.include_ancestors);
    const list = await milestones.listMilestones({
      ctx,
      input: {
        kind,
        ref: c.req.valid('param').id,
        includeParents,
        filter: { state: input.state, iids: input.iids, title: input.title, search: input.search || undefined },
      },
    });
    const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
    return c.json(rows.map((r) => toMilestone(r.milestone, r.owner, ctx.config)));
  });

  milestoneRoutes.get(`${base}/:milestone_id`, authenticated, path(ItemPath), async (c) => {
    const { ctx } = c.var;
    const { id, milestone_id } = c.req.valid('param');
    const r = await milestones.getMilestone({ ctx, input: { kind, ref: id, id: milestone_id } });
    return c.json(toMilestone(r.milestone, r.owner, ctx.config));
  });

  milestoneRoutes.post(base, authenticated, path(SourcePath), params(CreateMilestoneInput), async (c) => {
    const { ctx } = c.var;
    const r = await milestones.createMilestone({ ctx, input: { kind, ref: c.req.valid('param').id, ...c.req.valid('query') } });
    return c.json(toMilestone(r.milestone, r.owner, ctx.config), 201);
  });

  milestoneRoutes.put(`${base}/:milestone_id`, authenticated, path(ItemPath), params(UpdateMilestoneInput), async (c) => {
    const { ctx } = c.var;
    const { id, milestone_id } = c.req.valid('param');
    const r = await milestones.updateMilestone({ ctx, input: { kind, ref: id, id: milestone_id, ...c.req.valid('query') } });
    return c.json(toMilestone(r.milestone, r.owner, ctx.config));
  });

  milestoneRoutes.delete(`${base}/:milestone_id`, authenticated, path(ItemPath), async (c) => {
    const { id, milestone_id } = c.req.valid('param');
    await milestones.deleteMilestone({ ctx: c.var.ctx, input: { kind, ref: id, id: milestone_id } });
    return c.body(null, 204);
  });

  milestoneRoutes.get(`${base}/:milestone_id/issues`, authenticated, path(ItemPath), params(Pagination), async (c) => {
    const { ctx } = c.var;
    const { id, milestone_id } = c.req.valid('param');
    const list = await milestones.milestoneIssues({ ctx, input: { kind, ref: id, id: milestone_id } });
    const rows = await paginate(c, pageRequest(c.req.valid('query')), list.fetch, list.count);
    return c.json(rows.map((v) => toIssue(v, ctx.config)));
  });

  milestoneRoutes.get(`${base}/:milestone_id/merge_requests`, authenticated, path(ItemPath), params(Pagination), async (c) => {
    const { ctx } = c.var;
    const { id, milestone_id } = c.req.valid('param');
    const list = await milestones.milestoneMergeRequests({ ctx, input: { kind, ref: id, id: milestone_id } });
    const rows = await paginate(c, pageRequest(c.req.valid('query')), list.fetch, list.count);
    return c.json(rows.map((v) => toMergeRequestBasic(v, ctx.config)));
  });
}
