import { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { authenticated } from '../lib/auth.ts';
import { groupRef, projectRef } from '../lib/ids.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { oneOf, params, path, pathId, schema } from '../lib/validate.ts';
import { paginationParams } from '../lib/pagination.ts';
import { adminOnly } from '../users/admin-only.ts';
import {
  AddMemberInput,
  ApproveAccessRequestInput,
  ListAccessRequestsInput,
  ListMembersInput,
  MemberUserPath,
  toAccessRequester,
  toMember,
  UpdateMemberInput,
} from './schemas.ts';
import * as accessRequests from './access-requests.ts';
import * as members from './service.ts';

export const memberRoutes = new Hono<AppEnv>();

const SOURCES = [
  { kind: 'project', prefix: '/projects', ref: projectRef },
  { kind: 'group', prefix: '/groups', ref: groupRef },
] as const;

for (const { kind, prefix, ref } of SOURCES) {
  const SourcePath = schema(() => z.object({ id: ref() }));
  const MemberPath = schema(() => z.object({ id: ref(), ...MemberUserPath() }));
  const base = `${prefix}/:id/members`;

  // `/members/all` is registered before `/members/:user_id`, which would otherwise take "all" as a user id.
  for (const all of [true, false]) {
    memberRoutes.get(all ? `${base}/all` : base, authenticated, path(SourcePath), params(ListMembersInput), async (c) => {
      const { ctx } = c.var;
      const input = c.req.valid('query');
      const list = await members.listMembers({ ctx, input: { kind, ref: c.req.valid('param').id, all, query: input.query, user_ids: input.user_ids } });
      const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
      return c.json(rows.map((r) => toMember(r, ctx.config)));
    });
  }

  for (const all of [true, false]) {
    memberRoutes.get(all ? `${base}/all/:user_id` : `${base}/:user_id`, authenticated, path(MemberPath), async (c) => {
      const { ctx } = c.var;
      const { id, user_id } = c.req.valid('param');
      return c.json(toMember(await members.getMember({ ctx, input: { kind, ref: id, all, userId: user_id } }), ctx.config));
    });
  }

  memberRoutes.post(base, authenticated, path(SourcePath), params(AddMemberInput), async (c) => {
    const { ctx } = c.var;
    const row = await members.addMember({ ctx, input: { kind, ref: c.req.valid('param').id, ...c.req.valid('query') } });
    return c.json(toMember(row, ctx.config), 201);
  });

  memberRoutes.put(`${base}/:user_id`, authenticated, path(MemberPath), params(UpdateMemberInput), async (c) => {
    const { ctx } = c.var;
    const { id, user_id } = c.req.valid('param');
    const row = await members.updateMember({ ctx, input: { kind, ref: id, userId: user_id, ...c.req.valid('query') } });
    return c.json(toMember(row, ctx.config));
  });

  memberRoutes.delete(`${base}/:user_id`, authenticated, path(MemberPath), async (c) => {
    const { id, user_id } = c.req.valid('param');
    await members.removeMember({ ctx: c.var.ctx, input: { kind, ref: id, userId: user_id } });
    return c.body(null, 204);
  });

  const requests = `${prefix}/:id/access_requests`;
  memberRoutes.get(requests, authenticated, path(SourcePath), params(ListAccessRequestsInput), async (c) => {
    const { ctx } = c.var;
    const input = c.req.valid('query');
    const list = await accessRequests.listAccessRequests({ ctx, input: { kind, ref: c.req.valid('param').id } });
    const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
    return c.json(rows.map((r) => toAccessRequester(r, ctx.config)));
  });

  memberRoutes.post(requests, authenticated, path(SourcePath), async (c) => {
    const { ctx } = c.var;
    const row = await accessRequests.requestAccess({ ctx, input: { kind, ref: c.req.valid('param').id } });
    return c.json(toAccessRequester(row, ctx.config), 201);
  });

  memberRoutes.put(`${requests}/:user_id/approve`, authenticated, path(MemberPath), params(ApproveAccessRequestInput), async (c) => {
    const { ctx } = c.var;
    const { id, user_id } = c.req.valid('param');
    const row = await accessRequests.approveAccessRequest({ ctx, input: { kind, ref: id, userId: user_id, ...c.req.valid('query') } });
    return c.json(toMember(row, ctx.config));
  });

  memberRoutes.delete(`${requests}/:user_id`, authenticated, path(MemberPath), async (c) => {
    const { id, user_id } = c.req.valid('param');
    await accessRequests.removeAccessRequest({ ctx: c.var.ctx, input: { kind, ref: id, userId: user_id } });
    return c.body(null, 204);
  });
}

// GET /users/:user_id/memberships: administrators (authenticated_as_admin!), every membership of the user.
const MembershipsPath = schema(() => z.object({ user_id: pathId() }));
const MembershipsInput = schema(() => z.object({ ...paginationParams(), type: z.optional(oneOf(['Project', 'Namespace'])) }));

memberRoutes.get('/users/:user_id/memberships', adminOnly, path(MembershipsPath), params(MembershipsInput), async (c) => {
  const { ctx } = c.var;
  const input = c.req.valid('query');
  const list = await members.listUserMemberships({ ctx, input: { userId: c.req.valid('param').user_id, type: input.type } });
  const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
  return c.json(rows.map((r) => ({ source_id: r.sourceId, source_name: r.sourceName, source_type: r.sourceType, access_level: r.accessLevel })));
});
