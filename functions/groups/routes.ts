import { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { isAdministrator } from '../lib/policy.ts';
import { authenticated } from '../lib/auth.ts';
import { groupRef, projectRef } from '../lib/ids.ts';
import { forbidden } from '../lib/errors.ts';
import { NO_STORE } from '../lib/no-store.ts';
import { findProject } from '../projects/service.ts';
import { transferProject } from '../projects/transfer.ts';
import { pageRequest, paginate, paginateKeyset } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { params, path, schema } from '../lib/validate.ts';
import { toBasicProject, toProject } from '../projects/schemas.ts';
import { CreateGroupInput, GetGroupInput, GroupProjectsInput, ListGroupsInput, toGroup, toGroupDetail, UpdateGroupInput } from './schemas.ts';
import * as groups from './service.ts';

export const groupRoutes = new Hono<AppEnv>();
const GroupPath = schema(() => z.object({ id: groupRef() }));

groupRoutes.get('/groups', params(ListGroupsInput), async (c) => {
  const { ctx } = c.var;
  const input = c.req.valid('query');
  const list = groups.listGroups({ ctx, input });
  const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
  return c.json(rows.map((v) => toGroup(v, ctx.config)));
});

groupRoutes.post('/groups', authenticated, params(CreateGroupInput), async (c) => {
  const { ctx } = c.var;
  const view = await groups.createGroup({ ctx, input: c.req.valid('query') });
  return c.json(toGroupDetail(view, await groups.detailOf(ctx, view), ctx.config, { admin: isAdministrator(ctx.actor) }), 201);
});

// 13.6 presents GroupDetail with user_can_admin_group here only: the one group answer with runners_token, which makes
// it a secret (no-store).
groupRoutes.get('/groups/:id', path(GroupPath), params(GetGroupInput), async (c) => {
  const { ctx } = c.var;
  const view = await groups.findGroup(ctx, c.req.valid('param').id);
  if (!c.req.valid('query').with_projects) return c.json(toGroup(view, ctx.config));
  const [detail, runnersToken] = await Promise.all([groups.detailOf(ctx, view), groups.runnersTokenFor(ctx, view)]);
  return c.json(toGroupDetail(view, detail, ctx.config, { admin: isAdministrator(ctx.actor), runnersToken }), 200, runnersToken ? NO_STORE : {});
});

groupRoutes.put('/groups/:id', authenticated, path(GroupPath), params(UpdateGroupInput), async (c) => {
  const { ctx } = c.var;
  const view = await groups.updateGroup({ ctx, input: { ref: c.req.valid('param').id, ...c.req.valid('query') } });
  return c.json(toGroupDetail(view, await groups.detailOf(ctx, view), ctx.config, { admin: isAdministrator(ctx.actor) }));
});

groupRoutes.delete('/groups/:id', authenticated, path(GroupPath), async (c) => {
  await groups.deleteGroup({ ctx: c.var.ctx, input: { ref: c.req.valid('param').id } });
  return c.json({ message: '202 Accepted' }, 202);
});

groupRoutes.get('/groups/:id/subgroups', path(GroupPath), params(ListGroupsInput), async (c) => {
  const { ctx } = c.var;
  const input = c.req.valid('query');
  const list = await groups.listSubgroups({ ctx, input: { ref: c.req.valid('param').id, ...input } });
  const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
  return c.json(rows.map((v) => toGroup(v, ctx.config)));
});

groupRoutes.get('/groups/:id/projects', path(GroupPath), params(GroupProjectsInput), async (c) => {
  const { ctx } = c.var;
  const input = c.req.valid('query');
  const list = await groups.listGroupProjects({ ctx, input: { ref: c.req.valid('param').id, ...input } });
  const rows = list.keyset
    ? await paginateKeyset(
        c,
        pageRequest(input).perPage,
        input.sort,
        (limit) => list.fetch(limit, 0),
        (v) => v.project.id,
      )
    : await paginate(c, pageRequest(input), list.fetch, list.count);
  // GitLab 13.6 presents Entities::Project here (BasicProjectDetails with `simple=true`), signed in or not.
  return c.json(rows.map((v) => (input.simple ? toBasicProject(v.project, v.namespace, ctx.config, v.forksCount) : toProject(v, ctx.config))));
});

const GroupProjectPath = schema(() => z.object({ id: groupRef(), project_id: projectRef() }));

// Transfer a project into the group: administrators only (13.6's authenticated_as_admin!), 201 with the group.
groupRoutes.post('/groups/:id/projects/:project_id', authenticated, path(GroupProjectPath), async (c) => {
  const { ctx } = c.var;
  if (!isAdministrator(ctx.actor)) throw forbidden();
  const { id, project_id } = c.req.valid('param');
  const group = await groups.findGroup(ctx, id);
  await transferProject(ctx, await findProject(ctx, project_id), { id: group.namespace.id });
  const view = await groups.findGroup(ctx, id);
  return c.json(toGroupDetail(view, await groups.detailOf(ctx, view), ctx.config, { admin: true }), 201);
});
