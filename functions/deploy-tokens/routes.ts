import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../lib/context.ts';
import { authenticated } from '../lib/auth.ts';
import { groupRef, projectRef } from '../lib/ids.ts';
import { noStore } from '../lib/no-store.ts';
import { pageRequest, paginate, paginationParams } from '../lib/pagination.ts';
import { commaList, dateTime, params, path, pathId, schema, str } from '../lib/validate.ts';
import { adminOnly } from '../users/admin-only.ts';
import * as tokens from './service.ts';

export const deployTokenRoutes = new Hono<AppEnv>();

const ListInput = schema(() => z.object(paginationParams()));
/** `requires :scopes, type: Array[String], values: DeployToken::AVAILABLE_SCOPES` (comma-separated accepted). */
const CreateInput = schema(() =>
  z.object({
    name: str(255),
    scopes: z.pipe(
      commaList(),
      // Grape reports a value outside the list for the whole parameter (`scopes does not have a valid value`).
      z
        .array(z.string())
        .check(
          z.refine((v: string[]) => v.every((s) => (tokens.DEPLOY_TOKEN_SCOPES as readonly string[]).includes(s)), { message: 'does not have a valid value' }),
        ),
    ),
    expires_at: z.optional(dateTime()),
    username: z.optional(str(255)),
  }),
);

deployTokenRoutes.get('/deploy_tokens', adminOnly, params(ListInput), async (c) => {
  const list = tokens.listAllDeployTokens({ ctx: c.var.ctx });
  const rows = await paginate(c, pageRequest(c.req.valid('query')), list.fetch, list.count);
  return c.json(rows.map(tokens.toDeployToken));
});

const SOURCES = [
  { kind: 'project', prefix: '/projects', ref: projectRef },
  { kind: 'group', prefix: '/groups', ref: groupRef },
] as const;

for (const { kind, prefix, ref } of SOURCES) {
  const OwnerPath = schema(() => z.object({ id: ref() }));
  const TokenPath = schema(() => z.object({ id: ref(), token_id: pathId() }));
  const base = `${prefix}/:id/deploy_tokens`;

  deployTokenRoutes.get(base, authenticated, path(OwnerPath), params(ListInput), async (c) => {
    const list = await tokens.listDeployTokens({ ctx: c.var.ctx, input: { kind, ref: c.req.valid('param').id } });
    const rows = await paginate(c, pageRequest(c.req.valid('query')), list.fetch, list.count);
    return c.json(rows.map(tokens.toDeployToken));
  });

  // The token is in the answer once: no-store.
  deployTokenRoutes.post(base, noStore, authenticated, path(OwnerPath), params(CreateInput), async (c) => {
    const { row, token } = await tokens.createDeployToken({ ctx: c.var.ctx, input: { kind, ref: c.req.valid('param').id, ...c.req.valid('query') } });
    return c.json({ ...tokens.toDeployToken(row), token }, 201);
  });

  deployTokenRoutes.delete(`${base}/:token_id`, authenticated, path(TokenPath), async (c) => {
    const { id, token_id } = c.req.valid('param');
    await tokens.deleteDeployToken({ ctx: c.var.ctx, input: { kind, ref: id, id: token_id } });
    return c.body(null, 204);
  });
}
