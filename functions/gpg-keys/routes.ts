// GPG keys (GitLab 13.6 lib/api/users.rb): the caller's own under /user/gpg_keys (`before { authenticate! }`), a
// user's under /users/:id/gpg_keys (`authenticate_non_get!`: reads are public; writes are authenticated_as_admin!,
// checked here before the parameters, as the SSH key routes do). `:id` is digits only (the resource's requirement
// `id: /[0-9]*/`: a username matches no route).
import { Hono, type Context } from 'hono';
import type { UserRow } from '../../db/schema/index.ts';
import { authenticated, requireUser } from '../lib/auth.ts';
import type { AppEnv } from '../lib/context.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import { params, path, type Output } from '../lib/validate.ts';
import { adminOnly } from '../users/admin-only.ts';
import { USER_ID_ROUTE, UserIdPath } from '../users/schemas.ts';
import { findUserById } from '../users/service.ts';
import { CreateInput, ListInput, OwnKeyPath, toGpgKey, UserKeyPath } from './schemas.ts';
import * as gpgKeys from './service.ts';

export const gpgKeyRoutes = new Hono<AppEnv>();

/** The caller's own row, as authentication loaded it. */
const self = (c: Context<AppEnv>) => requireUser(c.var.ctx);

async function list(c: Context<AppEnv>, user: UserRow, input: Output<typeof ListInput>) {
  const { fetch, count } = gpgKeys.listGpgKeys({ ctx: c.var.ctx, input: { user } });
  const rows = await paginate(c, pageRequest(input), fetch, count);
  return c.json(rows.map(toGpgKey));
}

// ---- /user/gpg_keys ----

gpgKeyRoutes.get('/user/gpg_keys', authenticated, params(ListInput), async (c) => list(c, self(c), c.req.valid('query')));
gpgKeyRoutes.get('/user/gpg_keys/:key_id', authenticated, path(OwnKeyPath), async (c) => {
  return c.json(toGpgKey(await gpgKeys.getGpgKey({ ctx: c.var.ctx, input: { user: self(c), keyId: c.req.valid('param').key_id } })));
});
gpgKeyRoutes.post('/user/gpg_keys', authenticated, params(CreateInput), async (c) => {
  return c.json(toGpgKey(await gpgKeys.addGpgKey({ ctx: c.var.ctx, input: { user: self(c), key: c.req.valid('query').key } })), 201);
});
// `key.revoke; status :accepted`: the block's value, 202, is the body.
gpgKeyRoutes.post('/user/gpg_keys/:key_id/revoke', authenticated, path(OwnKeyPath), async (c) => {
  await gpgKeys.revokeGpgKey({ ctx: c.var.ctx, input: { user: self(c), keyId: c.req.valid('param').key_id } });
  return c.json(202, 202);
});
gpgKeyRoutes.delete('/user/gpg_keys/:key_id', authenticated, path(OwnKeyPath), async (c) => {
  const input = { user: self(c), keyId: c.req.valid('param').key_id, ifUnmodifiedSince: c.req.header('if-unmodified-since') };
  await gpgKeys.removeGpgKey({ ctx: c.var.ctx, input });
  return c.body(null, 204);
});

// ---- /users/:id/gpg_keys ----

const USER_KEYS = `/users/${USER_ID_ROUTE}/gpg_keys`;

gpgKeyRoutes.get(USER_KEYS, path(UserIdPath), params(ListInput), async (c) =>
  list(c, await findUserById(c.var.ctx, c.req.valid('param').id), c.req.valid('query')),
);
gpgKeyRoutes.get(`${USER_KEYS}/:key_id`, path(UserKeyPath), async (c) => {
  const { id, key_id } = c.req.valid('param');
  const user = await findUserById(c.var.ctx, id);
  return c.json(toGpgKey(await gpgKeys.getGpgKey({ ctx: c.var.ctx, input: { user, keyId: key_id } })));
});
gpgKeyRoutes.post(USER_KEYS, adminOnly, path(UserIdPath), params(CreateInput), async (c) => {
  const user = await findUserById(c.var.ctx, c.req.valid('param').id);
  return c.json(toGpgKey(await gpgKeys.addGpgKey({ ctx: c.var.ctx, input: { user, key: c.req.valid('query').key } })), 201);
});
gpgKeyRoutes.delete(`${USER_KEYS}/:key_id`, adminOnly, path(UserKeyPath), async (c) => {
  const { id, key_id } = c.req.valid('param');
  const user = await findUserById(c.var.ctx, id);
  await gpgKeys.removeGpgKey({ ctx: c.var.ctx, input: { user, keyId: key_id, ifUnmodifiedSince: c.req.header('if-unmodified-since') } });
  return c.body(null, 204);
});
gpgKeyRoutes.post(`${USER_KEYS}/:key_id/revoke`, adminOnly, path(UserKeyPath), async (c) => {
  const { id, key_id } = c.req.valid('param');
  await gpgKeys.revokeGpgKey({ ctx: c.var.ctx, input: { user: await findUserById(c.var.ctx, id), keyId: key_id } });
  return c.json(202, 202);
});
