import { Hono } from 'hono';
import type { Context } from 'hono';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { AppEnv } from '../lib/context.ts';
import { projectRef, userRef } from '../lib/ids.ts';
import { NO_STORE } from '../lib/no-store.ts';
import { assertOffsetWithinLimit, pageRequest, paginate, paginateKeyset } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { params, path, schema, type Output } from '../lib/validate.ts';
import {
  CreateProjectInput,
  ForkProjectInput,
  ListProjectsInput,
  ProjectUsersInput,
  StarrersInput,
  TransferProjectInput,
  toBasicProject,
  toStarrer,
  toProject,
  toProjectWithAccess,
  UpdateProjectInput,
} from './schemas.ts';
import { createProject, createProjectForUser } from './create.ts';
import { forkProject, linkForkedFrom, unlinkForkedFrom } from './fork.ts';
import { transferProject } from './transfer.ts';
import { requireUser } from '../lib/auth.ts';
import { parseRef } from '../lib/ids.ts';
import { toUserBasic } from '../users/schemas.ts';
import * as projects from './service.ts';
import { updateProject } from './update.ts';

export const projectRoutes = new Hono<AppEnv>();
const ProjectPath = schema(() => z.object({ id: projectRef() }));
const UserPath = schema(() => z.object({ user_id: userRef() }));

/** A project answer that shows `runners_token` (to its maintainers) is a secret: no-store. */
const cacheFor = (runnersToken: string | null | undefined) => (runnersToken ? NO_STORE : {});

/** Lists: ProjectWithAccess for signed-in callers, BasicProjectDetails for anonymous ones or `simple=true`. */
async function presentList(c: Context<AppEnv>, input: Output<typeof ListProjectsInput>, list: ReturnType<typeof projects.listProjects>) {
  const { ctx } = c.var;
  // GitLab's present_projects paginates with strategies: offset pages past the limit are refused, keyset is offered.
  if (!list.keyset) assertOffsetWithinLimit(c, input, 'Project');
  const rows: ProjectView[] = list.keyset
    ? await paginateKeyset(
        c,
        pageRequest(input).perPage,
        input.sort,
        (limit) => list.fetch(limit, 0),
        (v) => v.project.id,
      )
    : await paginate(c, pageRequest(input), list.fetch, list.count);
  const simple = input.simple || !ctx.actor.user;
  return c.json(
    rows.map((v) =>
      simple
        ? toBasicProject(v.project, v.namespace, ctx.config, v.forksCount, v.repository)
        : toProjectWithAccess(v, ctx.config, { featureOpen: projects.featureOpenTo(ctx, v) }),
    ),
  );
}

projectRoutes.get('/projects', params(ListProjectsInput), (c) => {
  const input = c.req.valid('query');
  return presentList(c, input, projects.listProjects({ ctx: c.var.ctx, input }));
});

// A user's personal projects and starred projects, as the reader may see them (404 `User Not Found` for nobody).
projectRoutes.get('/users/:user_id/projects', path(UserPath), params(ListProjectsInput), async (c) => {
  const input = c.req.valid('query');
  return presentList(c, input, await projects.listUserProjects({ ctx: c.var.ctx, input: { ...input, user: c.req.valid('param').user_id } }, 'personal'));
});

projectRoutes.get('/users/:user_id/starred_projects', path(UserPath), params(ListProjectsInput), async (c) => {
  const input = c.req.valid('query');
  return presentList(c, input, await projects.listUserProjects({ ctx: c.var.ctx, input: { ...input, user: c.req.valid('param').user_id } }, 'starred'));
});

projectRoutes.get('/projects/:id', path(ProjectPath), async (c) => {
  const { ctx } = c.var;
  const view = await projects.findProject(ctx, c.req.valid('param').id);
  const extra = await projects.entityExtrasFor(ctx, view);
  return c.json(ctx.actor.user ? toProjectWithAccess(view, ctx.config, extra) : toProject(view, ctx.config, extra), 200, cacheFor(extra.runnersToken));
});

projectRoutes.post('/projects', params(CreateProjectInput), async (c) => {
  const { ctx } = c.var;
  const view = await createProject({ ctx, input: c.req.valid('query') });
  const extra = await projects.entityExtrasFor(ctx, view);
  return c.json(toProject(view, ctx.config, extra), 201, cacheFor(extra.runnersToken));
});

projectRoutes.post('/projects/user/:user_id', path(UserPath), params(CreateProjectInput), async (c) => {
  const { ctx } = c.var;
  const view = await createProjectForUser({ ctx, input: { userRef: c.req.valid('param').user_id, ...c.req.valid('query') } });
  const extra = await projects.entityExtrasFor(ctx, view);
  return c.json(toProject(view, ctx.config, extra), 201, cacheFor(extra.runnersToken));
});

projectRoutes.put('/projects/:id', path(ProjectPath), params(UpdateProjectInput), async (c) => {
  const { ctx } = c.var;
  const view = await updateProject({ ctx, input: { ref: c.req.valid('param').id, ...c.req.valid('query') } });
  const extra = await projects.entityExtrasFor(ctx, view);
  return c.json(toProjectWithAccess(view, ctx.config, extra), 200, cacheFor(extra.runnersToken));
});

projectRoutes.delete('/projects/:id', path(ProjectPath), async (c) => {
  await projects.deleteProject({ ctx: c.var.ctx, input: { ref: c.req.valid('param').id } });
  return c.json({ message: '202 Accepted' }, 202);
});

for (const [action, archived] of [
  ['archive', true],
  ['unarchive', false],
] as const) {
  projectRoutes.post(`/projects/:id/${action}`, path(ProjectPath), async (c) => {
    const { ctx } = c.var;
    const view = await projects.setArchived({ ctx, input: { ref: c.req.valid('param').id, archived } });
    const extra = await projects.entityExtrasFor(ctx, view);
    return c.json(toProject(view, ctx.config, extra), 201, cacheFor(extra.runnersToken));
  });
}

projectRoutes.post('/projects/:id/star', path(ProjectPath), async (c) => {
  const { ctx } = c.var;
  return c.json(toProject(await projects.setStar({ ctx, input: { ref: c.req.valid('param').id, starred: true } }), ctx.config), 201);
});

projectRoutes.post('/projects/:id/unstar', path(ProjectPath), async (c) => {
  const { ctx } = c.var;
  return c.json(toProject(await projects.setStar({ ctx, input: { ref: c.req.valid('param').id, starred: false } }), ctx.config), 201);
});

projectRoutes.get('/projects/:id/starrers', path(ProjectPath), params(StarrersInput), async (c) => {
  const { ctx } = c.var;
  const input = c.req.valid('query');
  const list = await projects.listStarrers({ ctx, input: { ref: c.req.valid('param').id, search: input.search } });
  const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
  return c.json(rows.map((r) => toStarrer(r, ctx.config)));
});

projectRoutes.get('/projects/:id/users', path(ProjectPath), params(ProjectUsersInput), async (c) => {
  const { ctx } = c.var;
  const input = c.req.valid('query');
  const list = await projects.listProjectUsers({ ctx, input: { ref: c.req.valid('param').id, search: input.search, skip_users: input.skip_users } });
  const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
  return c.json(rows.map((u) => toUserBasic(u, ctx.config)));
});

projectRoutes.put('/projects/:id/transfer', path(ProjectPath), params(TransferProjectInput), async (c) => {
  const { ctx } = c.var;
  requireUser(ctx);
  const view = await projects.findProject(ctx, c.req.valid('param').id);
  const moved = await transferProject(ctx, view, parseRef(c.req.valid('query').namespace));
  const extra = await projects.entityExtrasFor(ctx, moved);
  return c.json(toProject(moved, ctx.config, extra), 200, cacheFor(extra.runnersToken));
});

const ForkLinkPath = schema(() => z.object({ id: projectRef(), forked_from_id: projectRef() }));

projectRoutes.post('/projects/:id/fork/:forked_from_id', path(ForkLinkPath), async (c) => {
  const { ctx } = c.var;
  const { id, forked_from_id } = c.req.valid('param');
  return c.json(toProject(await linkForkedFrom({ ctx, input: { ref: id, sourceRef: forked_from_id } }), ctx.config), 201);
});

projectRoutes.delete('/projects/:id/fork', path(ProjectPath), async (c) => {
  await unlinkForkedFrom({ ctx: c.var.ctx, input: { ref: c.req.valid('param').id } });
  return c.body(null, 204);
});

projectRoutes.post('/projects/:id/fork', path(ProjectPath), params(ForkProjectInput), async (c) => {
  const { ctx } = c.var;
  const view = await forkProject({ ctx, input: { ref: c.req.valid('param').id, ...c.req.valid('query') } });
  return c.json(toProject(view, ctx.config), 201);
});

projectRoutes.get('/projects/:id/forks', path(ProjectPath), params(ListProjectsInput), async (c) => {
  const input = c.req.valid('query');
  return presentList(c, input, await projects.listForks({ ctx: c.var.ctx, input: { ref: c.req.valid('param').id, ...input } }));
});
