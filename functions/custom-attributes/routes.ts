// /users/:id/custom_attributes, /groups/:id/custom_attributes and /projects/:id/custom_attributes[/:key].
import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../lib/context.ts';
import { groupRef, projectRef, userRef } from '../lib/ids.ts';
import { params, path, schema, str, text } from '../lib/validate.ts';
import { adminOnly } from '../users/admin-only.ts';
import * as attributes from './service.ts';

export const customAttributeRoutes = new Hono<AppEnv>();

const SOURCES = [
  { kind: 'user', prefix: '/users', ref: userRef },
  { kind: 'group', prefix: '/groups', ref: groupRef },
  { kind: 'project', prefix: '/projects', ref: projectRef },
] as const;

const SetInput = schema(() => z.object({ value: text(10_000) }));

for (const { kind, prefix, ref } of SOURCES) {
  const OwnerPath = schema(() => z.object({ id: ref() }));
  const KeyPath = schema(() => z.object({ id: ref(), key: str(255) }));
  const base = `${prefix}/:id/custom_attributes`;

  customAttributeRoutes.get(base, adminOnly, path(OwnerPath), async (c) => {
    return c.json(await attributes.listAttributes({ ctx: c.var.ctx, input: { kind, ref: c.req.valid('param').id } }));
  });
  customAttributeRoutes.get(`${base}/:key`, adminOnly, path(KeyPath), async (c) => {
    const { id, key } = c.req.valid('param');
    return c.json(await attributes.getAttribute({ ctx: c.var.ctx, input: { kind, ref: id, key } }));
  });
  customAttributeRoutes.put(`${base}/:key`, adminOnly, path(KeyPath), params(SetInput), async (c) => {
    const { id, key } = c.req.valid('param');
    return c.json(await attributes.setAttribute({ ctx: c.var.ctx, input: { kind, ref: id, key, value: c.req.valid('query').value } }));
  });
  customAttributeRoutes.delete(`${base}/:key`, adminOnly, path(KeyPath), async (c) => {
    const { id, key } = c.req.valid('param');
    await attributes.deleteAttribute({ ctx: c.var.ctx, input: { kind, ref: id, key } });
    return c.body(null, 204);
  });
}
