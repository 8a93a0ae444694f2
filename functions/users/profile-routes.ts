// A user's secondary emails and status: /user/emails, /users/:id/emails (administrators), /user/status and
// /users/:id/status (GitLab 13.6's users.rb).
import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import type { UserRow } from '../../db/schema/index.ts';
import type { AppEnv } from '../lib/context.ts';
import { authenticated, requireUser } from '../lib/auth.ts';
import { userRef } from '../lib/ids.ts';
import { pageRequest, paginate, paginationParams } from '../lib/pagination.ts';
import { bool, dateTime, params, path, pathId, schema, str, text, type Output } from '../lib/validate.ts';
import { adminOnly } from './admin-only.ts';
import * as profile from './profile.ts';
import { findUser, findUserById } from './service.ts';

export const userProfileRoutes = new Hono<AppEnv>();

const ListInput = schema(() => z.object(paginationParams()));
const AddEmailInput = schema(() => z.object({ email: str(255), skip_confirmation: z.optional(bool()) }));
const OwnEmailPath = schema(() => z.object({ email_id: pathId() }));
const UserIdPath = schema(() => z.object({ id: pathId() }));
const UserEmailPath = schema(() => z.object({ id: pathId(), email_id: pathId() }));
const UserRefPath = schema(() => z.object({ user_id: userRef() }));
const SetStatusInput = schema(() => z.object({ emoji: z.optional(str(255)), message: z.optional(text(10_000)) }));

/** The caller's own row, as authentication loaded it. */
const self = (c: Context<AppEnv>) => requireUser(c.var.ctx);

async function listEmails(c: Context<AppEnv>, user: UserRow, input: Output<typeof ListInput>) {
  const list = profile.listEmails({ ctx: c.var.ctx, input: { user } });
  const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
  return c.json(rows.map(profile.toEmail));
}

userProfileRoutes.get('/user/emails', authenticated, params(ListInput), async (c) => listEmails(c, await self(c), c.req.valid('query')));
userProfileRoutes.get('/user/emails/:email_id', authenticated, path(OwnEmailPath), async (c) => {
  const email = await profile.getEmail({ ctx: c.var.ctx, input: { user: await self(c), id: c.req.valid('param').email_id } });
  return c.json(profile.toEmail(email));
});
// The owner's own email starts unconfirmed (skip_confirmation is for administrators' route only).
userProfileRoutes.post('/user/emails', authenticated, params(schema(() => z.object({ email: str(255) }))), async (c) => {
  const email = await profile.addEmail({ ctx: c.var.ctx, input: { user: await self(c), email: c.req.valid('query').email, confirmed: false } });
  return c.json(profile.toEmail(email), 201);
});
userProfileRoutes.delete('/user/emails/:email_id', authenticated, path(OwnEmailPath), async (c) => {
  await profile.removeEmail({ ctx: c.var.ctx, input: { user: await self(c), id: c.req.valid('param').email_id } });
  return c.body(null, 204);
});

userProfileRoutes.get('/users/:id/emails', adminOnly, path(UserIdPath), params(ListInput), async (c) =>
  listEmails(c, await findUserById(c.var.ctx, c.req.valid('param').id), c.req.valid('query')),
);
userProfileRoutes.post('/users/:id/emails', adminOnly, path(UserIdPath), params(AddEmailInput), async (c) => {
  const user = await findUserById(c.var.ctx, c.req.valid('param').id);
  const input = c.req.valid('query');
  const email = await profile.addEmail({ ctx: c.var.ctx, input: { user, email: input.email, confirmed: input.skip_confirmation === true } });
  return c.json(profile.toEmail(email), 201);
});
userProfileRoutes.delete('/users/:id/emails/:email_id', adminOnly, path(UserEmailPath), async (c) => {
  const { id, email_id } = c.req.valid('param');
  await profile.removeEmail({ ctx: c.var.ctx, input: { user: await findUserById(c.var.ctx, id), id: email_id } });
  return c.body(null, 204);
});

userProfileRoutes.get('/user/status', authenticated, async (c) => {
  return c.json(profile.toUserStatus(await profile.getStatus({ ctx: c.var.ctx, input: { user: await self(c) } })));
});
userProfileRoutes.put('/user/status', authenticated, params(SetStatusInput), async (c) => {
  const status = await profile.setStatus({ ctx: c.var.ctx, input: { user: await self(c), ...c.req.valid('query') } });
  return c.json(profile.toUserStatus(status));
});
userProfileRoutes.get('/users/:user_id/status', path(UserRefPath), async (c) => {
  const user = await findUser(c.var.ctx, c.req.valid('param').user_id);
  return c.json(profile.toUserStatus(await profile.getStatus({ ctx: c.var.ctx, input: { user } })));
});

const ActivitiesInput = schema(() => z.object({ ...paginationParams(), from: z.optional(dateTime()) }));

userProfileRoutes.get('/user/activities', adminOnly, params(ActivitiesInput), async (c) => {
  const input = c.req.valid('query');
  const list = profile.listActivities({ ctx: c.var.ctx, input });
  const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
  return c.json(rows.map(profile.toUserActivity));
});
