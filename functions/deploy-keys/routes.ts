// Deploy keys: GET /deploy_keys (administrators) and /projects/:id/deploy_keys[/:key_id[/enable]]. The v3 paths
// (/projects/:id/keys, DELETE .../deploy_keys/:key_id/disable) are gone in v4 and stay unregistered (404).
// Parameters, the key id included, are read after authorization: GitLab's `before { authorize_admin_project }` runs
// ahead of Grape's validation, so a developer sending a bad key id gets 403 and a stranger 404, never a 400.
import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../lib/context.ts';
import { projectRef, userRef } from '../lib/ids.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { authenticated } from '../lib/auth.ts';
import { toUserPublic } from '../users/schemas.ts';
import * as userKeys from './user-keys.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import { params, parseParams, path, pathId, schema, toValidationError } from '../lib/validate.ts';
import { adminOnly } from '../users/admin-only.ts';
import {
  CreateInput,
  CreateUserKeyInput,
  DeployKeyPath,
  KeysByFingerprintInput,
  ListInput,
  toDeployKey,
  toDeployKeysProject,
  toSshKey,
  UpdateInput,
} from './schemas.ts';
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

// ---- Users' SSH keys (users.rb, keys.rb) ----

const UserPath = schema(() => z.object({ id: userRef() }));
const UserKeyPath = schema(() => z.object({ id: userRef(), key_id: pathId() }));
const OwnKeyPath = schema(() => z.object({ key_id: pathId() }));
const KeyIdPath = schema(() => z.object({ id: pathId() }));

const self = (c: Context<AppEnv>) => userKeys.keyOwner(c.var.ctx, 'self');

async function listKeys(c: Context<AppEnv>, user: UserRow) {
  const input = await parseParams(c, ListInput());
  const { fetch, count } = userKeys.listUserKeys({ ctx: c.var.ctx, input: { user } });
  const rows = await paginate(c, pageRequest(input), fetch, count);
  return c.json(rows.map(toSshKey));
}

async function addKey(c: Context<AppEnv>, user: UserRow) {
  const input = await parseParams(c, CreateUserKeyInput());
  return c.json(toSshKey(await userKeys.addUserKey({ ctx: c.var.ctx, input: { user, ...input } })), 201);
}

deployKeyRoutes.get('/user/keys', authenticated, async (c) => listKeys(c, await self(c)));
deployKeyRoutes.post('/user/keys', authenticated, async (c) => addKey(c, await self(c)));
deployKeyRoutes.delete('/user/keys/:key_id', authenticated, path(OwnKeyPath), async (c) => {
  await userKeys.removeUserKey({ ctx: c.var.ctx, input: { user: await self(c), keyId: c.req.valid('param').key_id } });
  return c.body(null, 204);
});

// Anyone reads a user's public keys; administrators write them (authenticated_as_admin!).
deployKeyRoutes.get('/users/:id/keys', path(UserPath), async (c) => listKeys(c, await userKeys.keyOwner(c.var.ctx, c.req.valid('param').id)));
deployKeyRoutes.post('/users/:id/keys', adminOnly, path(UserPath), async (c) => addKey(c, await userKeys.keyOwner(c.var.ctx, c.req.valid('param').id)));
deployKeyRoutes.delete('/users/:id/keys/:key_id', adminOnly, path(UserKeyPath), async (c) => {
  const { id, key_id } = c.req.valid('param');
  await userKeys.removeUserKey({ ctx: c.var.ctx, input: { user: await userKeys.keyOwner(c.var.ctx, id), keyId: key_id } });
  return c.body(null, 204);
});

deployKeyRoutes.get('/user/keys/:key_id', authenticated, path(OwnKeyPath), async (c) => {
  const user = await userKeys.keyOwner(c.var.ctx, 'self');
  return c.json(toSshKey(await userKeys.getUserKey({ ctx: c.var.ctx, input: { user, keyId: c.req.valid('param').key_id } })));
});

const toKeyWithUser = (c: Context<AppEnv>, found: Awaited<ReturnType<typeof userKeys.keyById>>) => ({
  ...toSshKey(found.key),
  user: found.user ? toUserPublic(found.user, c.var.ctx.config, c.var.ctx.actor) : null,
  ...(found.links
    ? {
        deploy_keys_projects: found.links.map((l) => ({
          id: l.id,
          deploy_key_id: l.deployKeyId,
          project_id: l.projectId,
          created_at: l.createdAt.toISOString(),
          updated_at: l.updatedAt.toISOString(),
          can_push: l.canPush,
        })),
      }
    : {}),
});

deployKeyRoutes.get('/keys/:id', adminOnly, path(KeyIdPath), async (c) => {
  return c.json(toKeyWithUser(c, await userKeys.keyById({ ctx: c.var.ctx, input: { id: c.req.valid('param').id } })));
});

deployKeyRoutes.get('/keys', adminOnly, params(KeysByFingerprintInput), async (c) => {
  return c.json(toKeyWithUser(c, await userKeys.keyByFingerprint({ ctx: c.var.ctx, input: c.req.valid('query') })));
});
