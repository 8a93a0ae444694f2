// The shared authorization suite on every project deploy key endpoint (maintainers: `authorize_admin_project`),
// each role in turn, and the token scopes: read_api reads, writes need api.
import { describe, expect, it } from 'vitest';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createToken } from '../../factories/users.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import type { TestResponse } from '../../helpers/app.ts';
import { addKey, createDeployKey, enableKey, generateKey, getKey, linkCount, listKeys, projectWithRoles, removeKey, updateKey } from './helpers.ts';

const PROJECT_NOT_FOUND = { status: 404, body: { message: '404 Project Not Found' } };
const FORBIDDEN = { status: 403, body: { message: '403 Forbidden' } };

async function fixture() {
  const fx = await projectWithRoles();
  const key = await createDeployKey(fx.project.id, fx.maintainer.token);
  // A key of another project the maintainer also maintains, to enable here.
  const elsewhere = await createProject(fx.maintainer.token);
  const other = await createDeployKey(elsewhere.id, fx.maintainer.token);
  return { ...fx, key, other, allowed: fx.maintainer.token, nonMember: fx.stranger.token, insufficientRole: fx.developer.token };
}

type Fx = Awaited<ReturnType<typeof fixture>>;

const endpoints: Array<[string, number, (fx: Fx, token: string | undefined) => Promise<TestResponse>]> = [
  ['GET /projects/:id/deploy_keys', 200, (fx, token) => listKeys(fx.project.id, { token })],
  ['GET /projects/:id/deploy_keys/:key_id', 200, (fx, token) => getKey(fx.project.id, fx.key.id, { token })],
  ['POST /projects/:id/deploy_keys', 201, (fx, token) => addKey(fx.project.id, { token, body: { title: 'new', key: generateKey().pub } })],
  ['PUT /projects/:id/deploy_keys/:key_id', 200, (fx, token) => updateKey(fx.project.id, fx.key.id, { token, body: { can_push: true } })],
  ['POST /projects/:id/deploy_keys/:key_id/enable', 201, (fx, token) => enableKey(fx.project.id, fx.other.id, { token })],
  ['DELETE /projects/:id/deploy_keys/:key_id', 204, (fx, token) => removeKey(fx.project.id, fx.key.id, { token })],
  ['by URL-encoded path', 200, (fx, token) => listKeys(fx.project.path_with_namespace, { token })],
];

for (const [title, success, call] of endpoints) {
  describeAuthorization(title, { fixture, call, success, nonMember: PROJECT_NOT_FOUND, insufficientRole: FORBIDDEN });
}

describe('each role', () => {
  it('guests, reporters and developers get 403 everywhere and change nothing; owners and administrators pass', async () => {
    const fx = await fixture();
    for (const user of [fx.guest, fx.reporter, fx.developer]) {
      for (const [name, , call] of endpoints) expect((await call(fx, user.token)).status, `${name} as ${user.user.username}`).toBe(403);
    }
    expect(await linkCount(fx.project.id)).toBe(1);
    const admin = await createAdmin();
    for (const token of [fx.owner.token, admin.token]) {
      expect((await listKeys(fx.project.id, { token })).status).toBe(200);
      expect((await updateKey(fx.project.id, fx.key.id, { token, body: { title: 'renamed' } })).status).toBe(200);
    }
  });

  it('a deploy key of a project that is not readable is 404 Project Not Found, whatever the key', async () => {
    const fx = await fixture();
    expect(await getKey(fx.project.id, 'abc', { token: fx.stranger.token })).toMatchObject(PROJECT_NOT_FOUND);
    expect(await getKey(fx.project.id, 'abc', { token: fx.developer.token })).toMatchObject(FORBIDDEN);
  });
});

describe('token scopes', () => {
  it('read_api reads; writes with it are 403 insufficient_scope and change nothing', async () => {
    const fx = await fixture();
    const readApi = await createToken(fx.maintainer.user, ['read_api']);
    expect((await listKeys(fx.project.id, { token: readApi })).status).toBe(200);
    expect((await getKey(fx.project.id, fx.key.id, { token: readApi })).status).toBe(200);
    for (const res of [
      await addKey(fx.project.id, { token: readApi, body: { title: 'x', key: generateKey().pub } }),
      await updateKey(fx.project.id, fx.key.id, { token: readApi, body: { title: 'x' } }),
      await enableKey(fx.project.id, fx.other.id, { token: readApi }),
      await removeKey(fx.project.id, fx.key.id, { token: readApi }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('insufficient_scope');
    }
    expect((await getKey(fx.project.id, fx.key.id, { token: fx.maintainer.token })).body).toEqual(fx.key);
    expect(await linkCount(fx.project.id)).toBe(1);
  });
});
