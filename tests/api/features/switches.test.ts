// The instance switches behind feature flags (both default enabled): `oauth_password_grant` (POST /oauth/token
// grant_type=password -> unsupported_grant_type when off) and `oauth_implicit_grant` (response_type=token ->
// unsupported_response_type redirect when off); the discovery document leaves disabled flows out. Each test puts
// the flag back to its default (DELETE) so other files sharing a PostgreSQL database are not affected for long.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, queryCount, request } from '../../helpers/app.ts';
import { signedIn } from '../../helpers/browser.ts';
import { tokenPost } from '../../oauth/client.ts';
import { createApplication } from '../../factories/oauth.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { hashPassword } from '../../../functions/lib/crypto.ts';
import { isFeatureEnabled } from '../../../functions/features/evaluate.ts';
import { createRequestContextForTest } from './helpers.ts';

const CALLBACK = 'https://client.example.test/callback';
let admin: string;
beforeAll(async () => {
  admin = (await createAdmin()).token;
});
afterEach(async () => {
  await api.delete('/features/oauth_password_grant', { token: admin });
  await api.delete('/features/oauth_implicit_grant', { token: admin });
});

const setFlag = async (name: string, value: string) => {
  const res = await api.post(`/features/${name}`, { token: admin, form: { value } });
  expect(res.status, res.text).toBe(201);
  return res.body;
};
const randomIp = () => `10.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`;

const discovery = async () => (await request('GET', '/.well-known/oauth-authorization-server')).body;

describe('oauth_password_grant', () => {
  it('disabled: the password grant is unsupported_grant_type (400); enabled again: tokens are issued', async () => {
    const { user } = await createUser({ passwordHash: await hashPassword('correct horse') });
    const app = await createApplication({ scopes: ['api'] });
    const form = { grant_type: 'password', username: user.username, password: 'correct horse', client_id: app.uid, client_secret: app.secret };

    expect(await isFeatureEnabled(createRequestContextForTest(), 'oauth_password_grant')).toBe(true);
    expect(await setFlag('oauth_password_grant', 'false')).toEqual({ name: 'oauth_password_grant', state: 'off', gates: [{ key: 'boolean', value: false }] });
    expect(await isFeatureEnabled(createRequestContextForTest(), 'oauth_password_grant')).toBe(false);
    const refused = await tokenPost(form, { 'cf-connecting-ip': randomIp() });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: 'unsupported_grant_type',
      error_description: 'The authorization grant type is not supported by the authorization server.',
    });
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect((await discovery()).grant_types_supported).toEqual(['authorization_code', 'implicit', 'refresh_token']);

    await setFlag('oauth_password_grant', 'true');
    const issued = await tokenPost(form, { 'cf-connecting-ip': randomIp() });
    expect(issued.status, issued.text).toBe(200);
    expect(issued.body).toMatchObject({ access_token: expect.any(String), scope: 'api' });
    console.log(`password grant with the switch read: ${queryCount(issued)} queries; refused: ${queryCount(refused)}`);
    expect((await discovery()).grant_types_supported).toEqual(['authorization_code', 'implicit', 'password', 'refresh_token']);
  });

  it('back to the default after DELETE (never persisted: default_enabled)', async () => {
    await setFlag('oauth_password_grant', 'false');
    expect((await api.delete('/features/oauth_password_grant', { token: admin })).status).toBe(204);
    expect(await isFeatureEnabled(createRequestContextForTest(), 'oauth_password_grant')).toBe(true);
  });
});

describe('oauth_implicit_grant', () => {
  it('disabled: response_type=token gets the unsupported_response_type redirect, and discovery drops it', async () => {
    const app = await createApplication({ redirectUris: [CALLBACK], scopes: ['read_user'] });
    const { browser } = await signedIn();
    const path = `/oauth/authorize?${new URLSearchParams({ client_id: app.uid, redirect_uri: CALLBACK, response_type: 'token', state: 'st', scope: 'read_user' })}`;
    expect((await browser.get(path)).status).toBe(200); // the consent page

    await setFlag('oauth_implicit_grant', 'false');
    const res = await browser.get(path);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(
      `${CALLBACK}?error=unsupported_response_type&error_description=The+authorization+server+does+not+support+this+response+type.&state=st`,
    );
    const doc = await discovery();
    expect(doc.response_types_supported).toEqual(['code']);
    expect(doc.grant_types_supported).toEqual(['authorization_code', 'password', 'refresh_token']);

    await setFlag('oauth_implicit_grant', 'true');
    expect((await browser.get(path)).status).toBe(200);
    expect((await discovery()).response_types_supported).toEqual(['code', 'token']);
  });
});
