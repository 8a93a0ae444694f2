// Deploy keys: GET /deploy_keys (administrators) and /projects/:id/deploy_keys[/:key_id[/enable]]. The v3 paths
// (/projects/:id/keys, DELETE .../deploy_keys/:key_id/disable) are gone in v4 and stay unregistered (404).
// Parameters, the key id included, are read after authorization: GitLab's `before { authorize_admin_project }` runs
// ahead of Grape's validation, so a developer sending a bad key id gets 403 and a stranger 404, never a 400.
import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../lib/context.ts';
import { projectRef } from '../lib/ids.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import { parseParams, path, schema, toValidationError } from '../lib/validate.ts';
import { adminOnly } from '../users/admin-only.ts';
import { CreateInput, DeployKeyPath, ListInput, toDeployKey, toDeployKeysProject, UpdateInput } from './schemas.ts';
import * as deployKeys from './service.ts';

export const deployKeyRoutes = new Hono<AppEnv>();
const ProjectPath = schema(() => z.object({ id: projectRef() }));
const KEYS = '/projects/:id/deploy_keys';

/** `requires :key_id, type: Integer`: 400 `key_id is invalid` for anything but digits (after authorization). */
function keyId(c: Context<AppEnv>): number | null {
  const result = DeployKeyPath().safeParse({ key_id: c.req.param('key_id') });
  if (!result.success) throw toValidationError(result.error.issues);
  return result.data.key_id;
}

deployKeyRoutes.get('/deploy_keys', adminOnly, async (c) => {
  const input = await parseParams(c, ListInput());
  const { fetch, count } = deployKeys.listAllDeployKeys({ ctx: c.var.ctx, input: {} });
  const rows = await paginate(c, pageRequest(input), fetch, count);
  return c.json(rows.map(toDeployKey));
});

deployKeyRoutes.get(KEYS, path(ProjectPath), async (c) => {
  const target = await deployKeys.authorizeProject(c.var.ctx, c.req.valid('param').id);
  const input = await parseParams(c, ListInput());
  const { fetch, count } = deployKeys.listProjectDeployKeys({ ctx: c.var.ctx, input: { project: target } });
  const rows = await paginate(c, pageRequest(input), fetch, count);
  return c.json(rows.map((r) => toDeployKeysProject({ key: r.key, canPush: r.link.canPush })));
});

deployKeyRoutes.get(`${KEYS}/:key_id`, path(ProjectPath), async (c) => {
  const target = await deployKeys.authorizeProject(c.var.ctx, c.req.valid('param').id);
  const link = await deployKeys.getProjectDeployKey({ ctx: c.var.ctx, input: { project: target, keyId: keyId(c) } });
  return c.json(toDeployKeysProject({ key: link.key, canPush: link.link.canPush }));
});

deployKeyRoutes.post(KEYS, path(ProjectPath), async (c) => {
  const target = await deployKeys.authorizeProject(c.var.ctx, c.req.valid('param').id);
  const input = await parseParams(c, CreateInput());
  const link = await deployKeys.addDeployKey({
    ctx: c.var.ctx,
    input: { project: target, key: input.key, title: input.title, canPush: input.can_push ?? false },
  });
  return c.json(toDeployKeysProject({ key: link.key, canPush: link.link.canPush }), 201);
});

deployKeyRoutes.put(`${KEYS}/:key_id`, path(ProjectPath), async (c) => {
  const target = await deployKeys.authorizeProject(c.var.ctx, c.req.valid('param').id);
  const id = keyId(c);
  const input = await parseParams(c, UpdateInput());
  const link = await deployKeys.updateDeployKey({ ctx: c.var.ctx, input: { project: target, keyId: id, title: input.title, canPush: input.can_push } });
  return c.json(toDeployKeysProject({ key: link.key, canPush: link.link.canPush }));
});

deployKeyRoutes.post(`${KEYS}/:key_id/enable`, path(ProjectPath), async (c) => {
  const target = await deployKeys.authorizeProject(c.var.ctx, c.req.valid('param').id);
  const key = await deployKeys.enableDeployKey({ ctx: c.var.ctx, input: { project: target, keyId: keyId(c) } });
  return c.json(toDeployKey(key), 201);
});

deployKeyRoutes.delete(`${KEYS}/:key_id`, path(ProjectPath), async (c) => {
  const target = await deployKeys.authorizeProject(c.var.ctx, c.req.valid('param').id);
  await deployKeys.removeDeployKey({ ctx: c.var.ctx, input: { project: target, keyId: keyId(c), ifUnmodifiedSince: c.req.header('if-unmodified-since') } });
  return c.body(null, 204);
});
