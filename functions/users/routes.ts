import { Hono } from 'hono';
import type { AppEnv } from '../env.ts';
import { requireUser } from '../lib/auth.ts';
import { userRef } from '../lib/ids.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import { isAdministrator } from '../lib/policy.ts';
import { params, path, z } from '../lib/validate.ts';
import { CreateUserInput, DeleteUserInput, ListUsersInput, toUser, toUserBasic, toUserPublic, toUserWithAdmin, UpdateUserInput } from './schemas.ts';
import * as users from './service.ts';

export const userRoutes = new Hono<AppEnv>();
const UserPath = z.object({ id: userRef });

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
  const entity = isAdministrator(ctx.actor) ? toUserWithAdmin : (u: (typeof rows)[number]) => toUserBasic(u, ctx.config);
  return c.json(rows.map((u) => entity(u, ctx.config, ctx.actor)));
});

userRoutes.get('/users/:id', path(UserPath), async (c) => {
  const { ctx } = c.var;
  const user = await users.findUser(ctx, c.req.valid('param').id);
  return c.json(isAdministrator(ctx.actor) ? toUserWithAdmin(user, ctx.config, ctx.actor) : toUser(user, ctx.config, ctx.actor));
});

userRoutes.post('/users', params(CreateUserInput), async (c) => {
  const { ctx } = c.var;
  const user = await users.createUser({ ctx, input: c.req.valid('query') });
  return c.json(toUserWithAdmin(user, ctx.config, ctx.actor), 201);
});

userRoutes.put('/users/:id', path(UserPath), params(UpdateUserInput), async (c) => {
  const { ctx } = c.var;
  const user = await users.updateUser({ ctx, input: { ref: c.req.valid('param').id, ...c.req.valid('query') } });
  return c.json(toUserWithAdmin(user, ctx.config, ctx.actor));
});

userRoutes.delete('/users/:id', path(UserPath), params(DeleteUserInput), async (c) => {
  await users.deleteUser({ ctx: c.var.ctx, input: { ref: c.req.valid('param').id } });
  return c.body(null, 204);
});

userRoutes.post('/users/:id/block', path(UserPath), async (c) => {
  return c.json(await users.blockUser({ ctx: c.var.ctx, input: { ref: c.req.valid('param').id } }), 201);
});

userRoutes.post('/users/:id/unblock', path(UserPath), async (c) => {
  return c.json(await users.unblockUser({ ctx: c.var.ctx, input: { ref: c.req.valid('param').id } }), 201);
});
