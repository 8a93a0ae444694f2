// Group epics: GET/POST /groups/:id/epics, GET/PUT/DELETE /groups/:id/epics/:epic_iid, and the epic's issues
// (GET .../issues, POST .../issues/:issue_id, PUT/DELETE .../issues/:epic_issue_id). GitLab mounts them under
// both /groups/:id/epics and /groups/:id/-/epics. Reads of epics take anonymous callers on public groups
// (`authenticate_non_get!`); the epic issues endpoints `authenticate!`.
import { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { toIssue } from '../issues/schemas.ts';
import { authenticated } from '../lib/auth.ts';
import { groupRef } from '../lib/ids.ts';
import { pageRequest, paginate, paginateArray, paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { params, path, schema } from '../lib/validate.ts';
import type { IssueView } from '../../db/queries/issues.ts';
import type { Config } from '../lib/context.ts';
import {
  CreateEpicInput,
  EpicIssuePath,
  EpicPath,
  IssueIdPath,
  ListEpicsInput,
  MoveEpicIssueInput,
  toEpic,
  toEpicIssueLink,
  UpdateEpicInput,
} from './schemas.ts';
import { createEpic } from './create.ts';
import * as epics from './service.ts';
import { updateEpic } from './update.ts';
import * as epicIssues from './epic-issues.ts';
import { mountEpicLinkRoutes } from './epic-links-routes.ts';

export const epicRoutes = new Hono<AppEnv>();

const GroupPath = schema(() => z.object({ id: groupRef() }));
const ItemPath = schema(() => z.object({ id: groupRef(), ...EpicPath() }));
const PageInput = schema(() => z.object(paginationParams()));
const LinkPath = schema(() => z.object({ id: groupRef(), ...EpicIssuePath() }));
const IssuePath = schema(() => z.object({ id: groupRef(), ...IssueIdPath() }));

/** EpicIssue: the Issue entity with its association's id and position. */
const toEpicIssue = (e: { link: { id: number; relativePosition: number | null }; issue: IssueView }, config: Config) => ({
  ...toIssue(e.issue, config),
  epic_issue_id: e.link.id,
  relative_position: e.link.relativePosition,
});

for (const base of ['/groups/:id/epics', '/groups/:id/-/epics']) {
  // Child epics (epic-links-routes.ts).
  mountEpicLinkRoutes(epicRoutes, base);

  epicRoutes.get(base, path(GroupPath), params(ListEpicsInput), async (c) => {
    const { ctx } = c.var;
    const input = c.req.valid('query');
    const list = await epics.listEpics({
      ctx,
      input: {
        ref: c.req.valid('param').id,
        filter: {
          includeDescendants: input.include_descendant_groups ?? true,
          includeAncestors: input.include_ancestor_groups ?? false,
          state: input.state === 'all' ? undefined : input.state,
          authorId: input.author_id,
          labels: input.labels,
          search: input.search || undefined,
          confidential: input.confidential,
          createdAfter: input.created_after,
          createdBefore: input.created_before,
          updatedAfter: input.updated_after,
          updatedBefore: input.updated_before,
        },
        order: { by: input.order_by ?? 'created_at', sort: input.sort ?? 'desc' },
      },
    });
    const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
    const admin = epics.canAdminEpic(ctx, list.group);
    return c.json(rows.map((v) => toEpic(v, ctx.config, { admin, labelDetails: input.with_labels_details === true })));
  });

  epicRoutes.get(`${base}/:epic_iid`, path(ItemPath), async (c) => {
    const { ctx } = c.var;
    const { id, epic_iid } = c.req.valid('param');
    const { group, epic } = await epics.getEpic({ ctx, input: { ref: id, iid: epic_iid } });
    const subscribed = (await epics.subscribedToEpics(ctx, [epic.epic.id])).get(epic.epic.id) ?? false;
    return c.json(toEpic(epic, ctx.config, { admin: epics.canAdminEpic(ctx, group), subscribed }));
  });

  epicRoutes.post(base, authenticated, path(GroupPath), params(CreateEpicInput), async (c) => {
    const { ctx } = c.var;
    const { group, epic } = await createEpic({ ctx, input: { ref: c.req.valid('param').id, ...c.req.valid('query') } });
    return c.json(toEpic(epic, ctx.config, { admin: epics.canAdminEpic(ctx, group) }), 201);
  });

  epicRoutes.put(`${base}/:epic_iid`, authenticated, path(ItemPath), params(UpdateEpicInput), async (c) => {
    const { ctx } = c.var;
    const { id, epic_iid } = c.req.valid('param');
    const { group, epic } = await updateEpic({ ctx, input: { ref: id, iid: epic_iid, ...c.req.valid('query') } });
    return c.json(toEpic(epic, ctx.config, { admin: epics.canAdminEpic(ctx, group) }));
  });

  epicRoutes.delete(`${base}/:epic_iid`, authenticated, path(ItemPath), async (c) => {
    const { id, epic_iid } = c.req.valid('param');
    await epics.deleteEpic({ ctx: c.var.ctx, input: { ref: id, iid: epic_iid } });
    return c.body(null, 204);
  });

  epicRoutes.get(`${base}/:epic_iid/issues`, authenticated, path(ItemPath), params(PageInput), async (c) => {
    const { ctx } = c.var;
    const { id, epic_iid } = c.req.valid('param');
    const list = await epicIssues.listEpicIssues({ ctx, input: { ref: id, iid: epic_iid } });
    // The epic's readable issues, in their order, paged with GitLab's headers (an epic holds few issues).
    return c.json((await paginateArray(c, c.req.valid('query'), list)).map((e) => toEpicIssue(e, ctx.config)));
  });

  epicRoutes.post(`${base}/:epic_iid/issues/:issue_id`, authenticated, path(IssuePath), async (c) => {
    const { ctx } = c.var;
    const { id, epic_iid, issue_id } = c.req.valid('param');
    const r = await epicIssues.addEpicIssue({ ctx, input: { ref: id, iid: epic_iid, issueId: issue_id } });
    return c.json(toEpicIssueLink(r.link, r.epic, toIssue(r.issue, ctx.config), ctx.config), 201);
  });

  epicRoutes.put(`${base}/:epic_iid/issues/:epic_issue_id`, authenticated, path(LinkPath), params(MoveEpicIssueInput), async (c) => {
    const { ctx } = c.var;
    const { id, epic_iid, epic_issue_id } = c.req.valid('param');
    const { move_before_id, move_after_id } = c.req.valid('query');
    const list = await epicIssues.moveEpicIssue({
      ctx,
      input: { ref: id, iid: epic_iid, linkId: epic_issue_id, before: move_before_id, after: move_after_id },
    });
    return c.json(list.map((e) => toEpicIssue(e, ctx.config)));
  });

  epicRoutes.delete(`${base}/:epic_iid/issues/:epic_issue_id`, authenticated, path(LinkPath), async (c) => {
    const { ctx } = c.var;
    const { id, epic_iid, epic_issue_id } = c.req.valid('param');
    const r = await epicIssues.removeEpicIssue({ ctx, input: { ref: id, iid: epic_iid, linkId: epic_issue_id } });
    return c.json(toEpicIssueLink(r.link, r.epic, toIssue(r.issue, ctx.config), ctx.config));
  });
}
