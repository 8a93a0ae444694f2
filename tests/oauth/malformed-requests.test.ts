// Requests the OAuth endpoints must refuse whole: introspection without client authentication (RFC 7662 §2.1: 401
// with a challenge) and form bodies whose percent-encoding does not decode (invalid_request, not a lenient guess).
import { describe, expect, it } from 'vitest';
import { appFetch, request, TEST_PUBLIC_URL } from '../helpers/app.ts';
import { createUser } from '../factories/users.ts';
import { createApplication, grantRow, issueCode } from '../factories/oauth.ts';
import { tokenPost } from './client.ts';

async function codeForm() {
  const { user } = await createUser();
  const app = await createApplication();
  const code = await issueCode({ application: app, userId: user.id });
  return { app, code, form: { grant_type: 'authorization_code', code, redirect_uri: app.redirectUris[0]!, client_id: app.uid, client_secret: app.secret } };
}

/** A POST whose form body is sent byte for byte (URLSearchParams would re-encode the broken escapes). */
async function rawPost(path: string, body: string, query = '') {
  const res = await appFetch(`${TEST_PUBLIC_URL}${path}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'cf-connecting-ip': '203.0.113.9' },
    body,
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

const encode = (form: Record<string, string>) => new URLSearchParams(form).toString();

describe('POST /oauth/introspect without client authentication', () => {
  it('is 401 invalid_client with a WWW-Authenticate challenge and no-store', async () => {
    const { form } = await codeForm();
    const tokens = (await tokenPost(form)).body;
    const res = await request('POST', '/oauth/introspect', { form: { token: tokens.access_token } });
    expect([res.status, res.body.error]).toEqual([401, 'invalid_client']);
    expect(res.headers.get('www-authenticate')).toMatch(/^(Basic|Bearer) /);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('malformed percent-encoding in a form body', () => {
  const broken = ['co%zzde=1', 'x=%', 'x=%4', 'x=%C3%28'];

  it('is invalid_request at /oauth/token, and the code stays redeemable', async () => {
    const { code, form } = await codeForm();
    for (const junk of broken) {
      const res = await rawPost('/oauth/token', `${encode(form)}&${junk}`);
      expect([res.status, res.body.error], junk).toEqual([400, 'invalid_request']);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    const inQuery = await rawPost('/oauth/token', encode(form), '?co%zzde=1');
    expect([inQuery.status, inQuery.body.error]).toEqual([400, 'invalid_request']);
    expect((await grantRow(code))!.consumedAt).toBeNull();
    expect((await rawPost('/oauth/token', encode(form))).status).toBe(200);
  });

  it('is invalid_request at /oauth/revoke and /oauth/introspect', async () => {
    const { app, form } = await codeForm();
    const tokens = (await tokenPost(form)).body;
    const client = { client_id: app.uid, client_secret: app.secret };
    for (const path of ['/oauth/revoke', '/oauth/introspect']) {
      for (const junk of broken) {
        const res = await rawPost(path, `${encode({ token: tokens.access_token, ...client })}&${junk}`);
        expect([res.status, res.body.error], `${path} ${junk}`).toEqual([400, 'invalid_request']);
        expect(res.headers.get('cache-control')).toBe('no-store');
      }
    }
    // Nothing was revoked; the well-formed request is answered.
    const ok = await rawPost('/oauth/introspect', encode({ token: tokens.access_token, ...client }));
    expect([ok.status, ok.body.active]).toEqual([200, true]);
  });
});
