import { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { groupRef } from '../lib/ids.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { params, path, schema } from '../lib/validate.ts';
import { ListNamespacesInput, toNamespace } from './schemas.ts';
import * as namespaces from './service.ts';

export const namespaceRoutes = new Hono<AppEnv>();
// `:id`: an id or a URL-encoded full path, as for groups.
const NamespacePath = schema(() => z.object({ id: groupRef() }));

namespaceRoutes.get('/namespaces', params(ListNamespacesInput), async (c) => {
  const { ctx } = c.var;
  const input = c.req.valid('query');
  const list = namespaces.listNamespaces({ ctx, input });
  const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
  return c.json(rows.map((v) => toNamespace(v, ctx.config, { membersCount: namespaces.showsMembersCount(ctx, v) })));
});

namespaceRoutes.get('/namespaces/:id', path(NamespacePath), async (c) => {
  const { ctx } = c.var;
  const view = await namespaces.findNamespace({ ctx, input: { ref: c.req.valid('param').id } });
  return c.json(toNamespace(view, ctx.config, { membersCount: namespaces.showsMembersCount(ctx, view) }));
});
