import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../lib/context.ts';
import { authenticated } from '../lib/auth.ts';
import { groupRef, projectRef } from '../lib/ids.ts';
import { isAdministrator } from '../lib/policy.ts';
import { params, path, pathId, schema } from '../lib/validate.ts';
import { toGroupDetail } from '../groups/schemas.ts';
import { detailOf } from '../groups/service.ts';
import { ShareGroupInput, ShareProjectInput, toProjectGroupLink } from './schemas.ts';
import * as sharing from './service.ts';

export const sharingRoutes = new Hono<AppEnv>();

const ProjectPath = schema(() => z.object({ id: projectRef() }));
const ProjectLinkPath = schema(() => z.object({ id: projectRef(), group_id: pathId() }));
const GroupPath = schema(() => z.object({ id: groupRef() }));
const GroupLinkPath = schema(() => z.object({ id: groupRef(), group_id: pathId() }));

sharingRoutes.post('/projects/:id/share', authenticated, path(ProjectPath), params(ShareProjectInput), async (c) => {
  const link = await sharing.shareProject({ ctx: c.var.ctx, input: { ref: c.req.valid('param').id, ...c.req.valid('query') } });
  return c.json(toProjectGroupLink(link), 201);
});

sharingRoutes.delete('/projects/:id/share/:group_id', authenticated, path(ProjectLinkPath), async (c) => {
  const { id, group_id } = c.req.valid('param');
  await sharing.unshareProject({ ctx: c.var.ctx, input: { ref: id, groupId: group_id } });
  return c.body(null, 204);
});

sharingRoutes.post('/groups/:id/share', authenticated, path(GroupPath), params(ShareGroupInput), async (c) => {
  const { ctx } = c.var;
  const shared = await sharing.shareGroup({ ctx, input: { ref: c.req.valid('param').id, ...c.req.valid('query') } });
  return c.json(toGroupDetail(shared, await detailOf(ctx, shared), ctx.config, { admin: isAdministrator(ctx.actor) }), 201);
});

sharingRoutes.delete('/groups/:id/share/:group_id', authenticated, path(GroupLinkPath), async (c) => {
  const { id, group_id } = c.req.valid('param');
  await sharing.unshareGroup({ ctx: c.var.ctx, input: { ref: id, groupId: group_id } });
  return c.body(null, 204);
});
