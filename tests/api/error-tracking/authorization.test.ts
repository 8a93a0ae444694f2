// The shared authorization suite on every error-tracking settings endpoint, and the token scopes: read_api reads,
// writes need api.
import { describe, expect, it } from 'vitest';
import { createToken } from '../../factories/users.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { configure, getSettings, patchSettings, projectWithRoles, putSettings } from './helpers.ts';

const PROJECT_NOT_FOUND = { status: 404, body: { message: '404 Project Not Found' } };
const FORBIDDEN = { status: 403, body: { message: '403 Forbidden' } };

async function fixture() {
  const fx = await projectWithRoles();
  await configure(fx.project.id, fx.maintainer.token);
  return { ...fx, allowed: fx.maintainer.token, nonMember: fx.stranger.token, insufficientRole: fx.developer.token };
}

type Fx = Awaited<ReturnType<typeof fixture>>;

const endpoints: Array<[string, (fx: Fx, token: string | undefined) => ReturnType<typeof getSettings>]> = [
  ['GET /projects/:id/error_tracking/settings', (fx, token) => getSettings(fx.project.id, { token })],
  ['PATCH /projects/:id/error_tracking/settings', (fx, token) => patchSettings(fx.project.id, { token, body: { active: false } })],
  ['PUT /projects/:id/error_tracking/settings', (fx, token) => putSettings(fx.project.id, { token, body: { active: true, integrated: true } })],
  ['PATCH by URL-encoded path', (fx, token) => patchSettings(fx.project.path_with_namespace, { token, body: { active: true } })],
];

for (const [title, call] of endpoints) {
  describeAuthorization(title, {
    fixture,
    call,
    success: 200,
    nonMember: PROJECT_NOT_FOUND,
    insufficientRole: FORBIDDEN,
  });
}

describe('token scopes', () => {
  it('read_api reads the setting; PATCH and PUT with it are 403 insufficient_scope and change nothing', async () => {
    const fx = await fixture();
    const readApi = await createToken(fx.maintainer.user, ['read_api']);
    expect((await getSettings(fx.project.id, { token: readApi })).status).toBe(200);
    for (const res of [
      await patchSettings(fx.project.id, { token: readApi, body: { active: false } }),
      await putSettings(fx.project.id, { token: readApi, body: { active: false, integrated: false } }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges than provided by the access token.',
        scope: 'api read_api',
      });
    }
    expect((await getSettings(fx.project.id, { token: readApi })).body.active).toBe(true);
  });

  it('read_user does not reach these endpoints', async () => {
    const fx = await fixture();
    const readUser = await createToken(fx.maintainer.user, ['read_user']);
    const res = await getSettings(fx.project.id, { token: readUser });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('insufficient_scope');
  });
});
