// REST for child epics (GitLab 13.6 ee/lib/api/epic_links.rb), mounted by routes.ts under both /groups/:id/epics and
// /groups/:id/-/epics: GET .../epics/:epic_iid/epics, POST .../epics/:epic_iid/epics(/:child_epic_id),
// PUT/DELETE .../epics/:epic_iid/epics/:child_epic_id. Every endpoint `authenticate!`s first.
import type { Hono, MiddlewareHandler } from 'hono';
import * as z from 'zod/mini';
import { authenticated } from '../lib/auth.ts';
import type { AppEnv } from '../lib/context.ts';
import { groupRef } from '../lib/ids.ts';
import { paginateArray, paginationParams } from '../lib/pagination.ts';
import { bool, modelRule, params, path, schema, str } from '../lib/validate.ts';
import * as links from './epic-links.ts';
import { ChildEpicPath, EpicPath, MoveChildEpicInput, toEpic, toLinkedChildEpic } from './schemas.ts';
import { canAdminEpic } from './service.ts';

const ItemPath = schema(() => z.object({ id: groupRef(), ...EpicPath() }));
const ChildPath = schema(() => z.object({ id: groupRef(), ...ChildEpicPath() }));
const PageInput = schema(() => z.object(paginationParams()));
const CreateChildInput = schema(() =>
  z.object({
    title: z.pipe(str(255), z.string().check(modelRule((s: string) => s.trim() !== '', "can't be blank"))),
    confidential: z.optional(bool()),
    // Grape's `type: String` takes a JSON number too.
    subgroup_id: z.optional(
      z.pipe(
        z.transform((v: unknown) => (typeof v === 'number' ? String(v) : v)),
        groupRef(),
      ),
    ),
  }),
);

export function mountEpicLinkRoutes(app: Hono<AppEnv>, base: string) {
  app.get(`${base}/:epic_iid/epics`, authenticated, path(ItemPath), params(PageInput), async (c) => {
    const { ctx } = c.var;
    const { id, epic_iid } = c.req.valid('param');
    const { group, children } = await links.listChildEpics({ ctx, input: { ref: id, iid: epic_iid } });
    const admin = canAdminEpic(ctx, group);
    return c.json((await paginateArray(c, c.req.valid('query'), children)).map((v) => toEpic(v, ctx.config, { admin })));
  });

  app.post(`${base}/:epic_iid/epics/:child_epic_id`, authenticated, path(ChildPath), async (c) => {
    const { ctx } = c.var;
    const { id, epic_iid, child_epic_id } = c.req.valid('param');
    const { group, child } = await links.addChildEpic({ ctx, input: { ref: id, iid: epic_iid, childId: child_epic_id } });
    return c.json(toEpic(child, ctx.config, { admin: canAdminEpic(ctx, group) }), 201);
  });

  app.post(`${base}/:epic_iid/epics`, authenticated, path(ItemPath), params(CreateChildInput), async (c) => {
    const { ctx } = c.var;
    const { id, epic_iid } = c.req.valid('param');
    const { parent, child } = await links.createChildEpic({ ctx, input: { ref: id, iid: epic_iid, ...c.req.valid('query') } });
    return c.json(toLinkedChildEpic(child, parent, await links.relationFlags(ctx, child.epic.id), ctx.config), 201);
  });

  app.put(`${base}/:epic_iid/epics/:child_epic_id`, authenticated, path(ChildPath), params(MoveChildEpicInput), async (c) => {
    const { ctx } = c.var;
    const { id, epic_iid, child_epic_id } = c.req.valid('param');
    const { move_before_id, move_after_id } = c.req.valid('query');
    const { group, children } = await links.moveChildEpic({
      ctx,
      input: { ref: id, iid: epic_iid, childId: child_epic_id, before: move_before_id, after: move_after_id },
    });
    const admin = canAdminEpic(ctx, group);
    return c.json(children.map((v) => toEpic(v, ctx.config, { admin })));
  });

  app.delete(`${base}/:epic_iid/epics/:child_epic_id`, authenticated, path(ChildPath), async (c) => {
    const { ctx } = c.var;
    const { id, epic_iid, child_epic_id } = c.req.valid('param');
    const { group, child } = await links.removeChildEpic({ ctx, input: { ref: id, iid: epic_iid, childId: child_epic_id } });
    return c.json(toEpic(child, ctx.config, { admin: canAdminEpic(ctx, group) }));
  });
}
