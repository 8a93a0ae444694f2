import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../lib/context.ts';
import { authenticated } from '../lib/auth.ts';
import { pageRequest, paginate, paginationParams } from '../lib/pagination.ts';
import { bool, dateTime, oneOf, params, path, pathId, schema, str, text } from '../lib/validate.ts';
import * as messages from './service.ts';

export const broadcastMessageRoutes = new Hono<AppEnv>();

const IdPath = schema(() => z.object({ id: pathId() }));
const fields = () => ({
  starts_at: z.optional(dateTime()),
  ends_at: z.optional(dateTime()),
  color: z.optional(str(255)),
  font: z.optional(str(255)),
  target_path: z.optional(str(255)),
  broadcast_type: z.optional(oneOf(['banner', 'notification'])),
  dismissable: z.optional(bool()),
});
const CreateInput = schema(() => z.object({ message: text(10_000), ...fields() }));
const UpdateInput = schema(() => z.object({ message: z.optional(text(10_000)), ...fields() }));
const ListInput = schema(() => z.object(paginationParams()));

// Reads need no authentication (since GitLab 12.8); writes are for administrators.
broadcastMessageRoutes.get('/broadcast_messages', params(ListInput), async (c) => {
  const list = messages.listMessages({ ctx: c.var.ctx, input: {} });
  const rows = await paginate(c, pageRequest(c.req.valid('query')), list.fetch, list.count);
  return c.json(rows.map((m) => messages.toBroadcastMessage(m)));
});

broadcastMessageRoutes.post('/broadcast_messages', authenticated, params(CreateInput), async (c) => {
  return c.json(messages.toBroadcastMessage(await messages.createMessage({ ctx: c.var.ctx, input: c.req.valid('query') })), 201);
});

broadcastMessageRoutes.get('/broadcast_messages/:id', path(IdPath), async (c) => {
  return c.json(messages.toBroadcastMessage(await messages.getMessage({ ctx: c.var.ctx, input: { id: c.req.valid('param').id } })));
});

broadcastMessageRoutes.put('/broadcast_messages/:id', authenticated, path(IdPath), params(UpdateInput), async (c) => {
  const row = await messages.updateMessage({ ctx: c.var.ctx, input: { id: c.req.valid('param').id, ...c.req.valid('query') } });
  return c.json(messages.toBroadcastMessage(row));
});

broadcastMessageRoutes.delete('/broadcast_messages/:id', authenticated, path(IdPath), async (c) => {
  await messages.deleteMessage({ ctx: c.var.ctx, input: { id: c.req.valid('param').id } });
  return c.body(null, 204);
});
