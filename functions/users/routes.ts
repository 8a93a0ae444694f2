import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../lib/context.ts';
import { requireUser } from '../lib/auth.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import { isAdministrator } from '../lib/policy.ts';
import { params, path } from '../lib/validate.ts';
import {
  CreateUserInput,
  DeleteUserInput,
  ListUsersInput,
  toUser,
  toUserBasic,
  toUserDetailsWithAdmin,
  toUserPublic,
  toUserWithAdmin,
  UpdateUserInput,
  USER_ID_ROUTE,
  UserIdPath,
} from './schemas.ts';
import { createUser } from './create.ts';
import * as users from './service.ts';
import { updateUser } from './update.ts';
import { deleteIdentity } from './delete-identity.ts';

export const userRoutes = new Hono<AppEnv>();

/** GitLab's `before { authenticate_non_get! }` on /users: 401 before parameters are even looked at. */
const signedIn = createMiddleware<AppEnv>(async (c, next) => {
  users.requireSignedIn(c.var.ctx);
  await next();
});

userRoutes.get('/user', (c) => {
  const { ctx } = c.var;
  const user = requireUser(ctx);
  const entity = user.admin ? toUserWithAdmin : toUserPublic;
  return c.json(entity(user, ctx.config, ctx.actor));
});

userRoutes.get('/users', params(ListUsersInput), async (c) => {
  const { ctx } = c.var;
  const input = c.req.valid('query');
  const { fetch, count } = users.listUsers({ ctx, input });
  const rows = await paginate(c, pageRequest(input), fetch, count);
  if (isAdministrator(ctx.actor)) return c.json(rows.map((u) => toUserWithAdmin(u, ctx.config, ctx.actor)));
  return c.json(rows.map((u) => toUserBasic(u, ctx.config)));
});

userRoutes.get(`/users/${USER_ID_ROUTE}`, path(UserIdPath), async (c) => {
  const { ctx } = c.var;
  const { user, highestRole } = await users.getUser({ ctx, input: { id: c.req.valid('param').id } });
  if (isAdministrator(ctx.actor)) return c.json(toUserDetailsWithAdmin(user, ctx.config, ctx.actor, highestRole));
  return c.json(toUser(user, ctx.config, ctx.actor));
});

userRoutes.post('/users', signedIn, params(CreateUserInput), async (c) => {
  const { ctx } = c.var;
  const user = await createUser({ ctx, input: c.req.valid('query') });
  return c.json(toUserWithAdmin(user, ctx.config, ctx.actor), 201);
});

userRoutes.put(`/users/${USER_ID_ROUTE}`, signedIn, path(UserIdPath), params(UpdateUserInput), async (c) => {
  const { ctx } = c.var;
  const user = await updateUser({ ctx, input: { id: c.req.valid('param').id, ...c.req.valid('query') } });
  return c.json(toUserWithAdmin(user, ctx.config, ctx.actor));
});

userRoutes.delete(`/users/${USER_ID_ROUTE}`, signedIn, path(UserIdPath), params(DeleteUserInput), async (c) => {
  const ifUnmodifiedSince = c.req.header('if-unmodified-since');
  await users.deleteUser({ ctx: c.var.ctx, input: { id: c.req.valid('param').id, ifUnmodifiedSince, ...c.req.valid('query') } });
  return c.body(null, 204);
});

userRoutes.post(`/users/${USER_ID_ROUTE}/block`, signedIn, path(UserIdPath), async (c) => {
  return c.json(await users.blockUser({ ctx: c.var.ctx, input: { id: c.req.valid('param').id } }), 201);
});

userRoutes.post(`/users/${USER_ID_ROUTE}/unblock`, signedIn, path(UserIdPath), async (c) => {
  return c.json(await users.unblockUser({ ctx: c.var.ctx, input: { id: c.req.valid('param').id } }), 201);
});

userRoutes.delete(`/users/${USER_ID_ROUTE}/identities/:provider`, signedIn, path(UserIdPath), async (c) => {
  const input = { id: c.req.valid('param').id, provider: c.req.param('provider'), ifUnmodifiedSince: c.req.header('if-unmodified-since') };
  await deleteIdentity({ ctx: c.var.ctx, input });
  return c.body(null, 204);
});
