// A response that carries a secret shown once (a new personal access token, an application's client secret) must
// not be kept by a browser or a proxy cache: `Cache-Control: no-store` and `Pragma: no-cache`, as the OAuth token
// responses send.
import { describe, expect, it } from 'vitest';
import { api, type TestResponse } from '../../helpers/app.ts';
import { csrfToken, signedIn } from '../../helpers/browser.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';

const expectNoStore = (res: TestResponse) => {
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('pragma')).toBe('no-cache');
};

describe('secret-bearing responses are not cacheable', () => {
  it('POST /users/:id/personal_access_tokens', async () => {
    const { token: admin } = await createAdmin();
    const { user } = await createUser();
    const res = await api.post(`/users/${user.id}/personal_access_tokens`, { token: admin, body: { name: 'pat', scopes: ['api'] } });
    expect(res.status).toBe(201);
    expect(res.body.token).toBeTruthy();
    expectNoStore(res);
  });

  it('POST /applications', async () => {
    const { token: admin } = await createAdmin();
    const res = await api.post('/applications', { token: admin, body: { name: unique('app'), redirect_uri: 'https://client.example.test/cb', scopes: 'api' } });
    expect(res.status).toBe(201);
    expect(res.body.secret).toBeTruthy();
    expectNoStore(res);
  });

  it('the application pages that show a secret: create and renew', async () => {
    const { browser } = await signedIn();
    const page = await browser.get('/oauth/applications');
    const created = await browser.post('/oauth/applications', [
      ['authenticity_token', csrfToken(page.text)],
      ['doorkeeper_application[name]', unique('app')],
      ['doorkeeper_application[redirect_uri]', 'https://client.example.test/cb'],
      ['doorkeeper_application[scopes][]', 'api'],
    ]);
    expect(created.status).toBe(201);
    expectNoStore(created);
    const id = /action="\/oauth\/applications\/(\d+)\/renew"/.exec(created.text)![1];
    const renewed = await browser.post(`/oauth/applications/${id}/renew`, { authenticity_token: csrfToken(created.text) });
    expect(renewed.status).toBe(200);
    expect(renewed.text).toContain('id="secret"');
    expectNoStore(renewed);
  });
});
