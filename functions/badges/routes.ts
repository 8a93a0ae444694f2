import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../lib/context.ts';
import { authenticated } from '../lib/auth.ts';
import { groupRef, projectRef } from '../lib/ids.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import { params, path, pathId, schema } from '../lib/validate.ts';
import { CreateBadgeInput, ListBadgesInput, RenderBadgeInput, toBadge, toBasicBadge, UpdateBadgeInput } from './schemas.ts';
import * as badges from './service.ts';

export const badgeRoutes = new Hono<AppEnv>();

const SOURCES = [
  { kind: 'project', prefix: '/projects', ref: projectRef },
  { kind: 'group', prefix: '/groups', ref: groupRef },
] as const;

for (const { kind, prefix, ref } of SOURCES) {
  const SourcePath = schema(() => z.object({ id: ref() }));
  const BadgePath = schema(() => z.object({ id: ref(), badge_id: pathId() }));
  const base = `${prefix}/:id/badges`;

  badgeRoutes.get(base, path(SourcePath), params(ListBadgesInput), async (c) => {
    const { ctx } = c.var;
    const input = c.req.valid('query');
    const list = await badges.listBadges({ ctx, input: { kind, ref: c.req.valid('param').id, name: input.name } });
    const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
    const project = await list.render();
    return c.json(rows.map((b) => toBadge(b, project)));
  });

  // Registered before `/badges/:badge_id`, which would otherwise take "render" as an id.
  badgeRoutes.get(`${base}/render`, path(SourcePath), params(RenderBadgeInput), async (c) => {
    const { ctx } = c.var;
    const { badge, project } = await badges.renderBadge({ ctx, input: { kind, ref: c.req.valid('param').id, ...c.req.valid('query') } });
    return c.json(toBasicBadge(badge, project));
  });

  badgeRoutes.get(`${base}/:badge_id`, path(BadgePath), async (c) => {
    const { id, badge_id } = c.req.valid('param');
    const { badge, project } = await badges.getBadge({ ctx: c.var.ctx, input: { kind, ref: id, badgeId: badge_id } });
    return c.json(toBadge(badge, project));
  });

  badgeRoutes.post(base, authenticated, path(SourcePath), params(CreateBadgeInput), async (c) => {
    const { badge, project } = await badges.createBadge({ ctx: c.var.ctx, input: { kind, ref: c.req.valid('param').id, ...c.req.valid('query') } });
    return c.json(toBadge(badge, project), 201);
  });

  badgeRoutes.put(`${base}/:badge_id`, authenticated, path(BadgePath), params(UpdateBadgeInput), async (c) => {
    const { id, badge_id } = c.req.valid('param');
    const { badge, project } = await badges.updateBadge({ ctx: c.var.ctx, input: { kind, ref: id, badgeId: badge_id, ...c.req.valid('query') } });
    return c.json(toBadge(badge, project));
  });

  badgeRoutes.delete(`${base}/:badge_id`, authenticated, path(BadgePath), async (c) => {
    const { id, badge_id } = c.req.valid('param');
    await badges.deleteBadge({ ctx: c.var.ctx, input: { kind, ref: id, badgeId: badge_id } });
    return c.body(null, 204);
  });
}
