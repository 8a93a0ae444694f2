// Admin REST API for OAuth applications (GitLab lib/api/applications.rb): create (secret once, digest stored),
// list (no secret), delete (grants and tokens go with it), and the one redirect URI rule.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oauthAccessTokens, oauthApplications, oauthGrants } from '../../../db/schema/index.ts';
import { sha256Hex } from '../../../functions/lib/crypto.ts';
import { api, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';

const valid = () => ({ name: unique('app'), redirect_uri: 'https://client.example.test/cb', scopes: 'api read_user' });

describeAuthorization('POST /applications', {
  fixture: async () => ({ allowed: (await createAdmin()).token, nonMember: (await createUser()).token }),
  call: (_fx, token) => api.post('/applications', { token, body: valid() }),
  success: 201,
  nonMember: { status: 403, body: { message: '403 Forbidden' } },
});

describeAuthorization('GET /applications', {
  fixture: async () => ({ allowed: (await createAdmin()).token, nonMember: (await createUser()).token }),
  call: (_fx, token) => api.get('/applications', { token }),
  success: 200,
  nonMember: { status: 403, body: { message: '403 Forbidden' } },
});

describe('POST /applications', () => {
  it('201 ApplicationWithSecret; only the secret digest is stored', async () => {
    const { token } = await createAdmin();
    const input = { ...valid(), redirect_uri: 'https://a.example.test/cb\nhttp://127.0.0.1:8080/cb  com.example.app:/oauth' };
    const res = await api.post('/applications', { token, body: input });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      application_id: expect.stringMatching(/^[0-9a-f]{64}$/),
      application_name: input.name,
      callback_url: 'https://a.example.test/cb\nhttp://127.0.0.1:8080/cb\ncom.example.app:/oauth',
      confidential: true,
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const [row] = await testDb().db.select().from(oauthApplications).where(eq(oauthApplications.id, res.body.id));
    expect(row!.secretDigest).toBe(await sha256Hex(res.body.secret));
    expect(JSON.stringify(row)).not.toContain(res.body.secret);
    expect(row!.scopes).toEqual(['api', 'read_user']);
    expect(row!.redirectUris).toEqual(['https://a.example.test/cb', 'http://127.0.0.1:8080/cb', 'com.example.app:/oauth']);
    expect(row!.ownerId).toBeNull();
  });

  it('confidential=false (form encoded) makes a public client', async () => {
    const { token } = await createAdmin();
    const res = await api.post('/applications', { token, form: { ...valid(), confidential: 'false' } });
    expect(res.status).toBe(201);
    expect(res.body.confidential).toBe(false);
  });

  it('missing parameters: Grape errors', async () => {
    const { token } = await createAdmin();
    const res = await api.post('/applications', { token, body: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'name is missing, redirect_uri is missing, scopes is missing' });
    const blank = await api.post('/applications', { token, body: { ...valid(), scopes: ' ' } });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ error: 'scopes is empty' });
  });

  it('unknown scope: 400 with Doorkeeper message', async () => {
    const { token } = await createAdmin();
    const res = await api.post('/applications', { token, body: { ...valid(), scopes: 'api admin_everything' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { scopes: ["doesn't match those configured on the server."] } });
  });

  const bad: [string, string][] = [
    ['/relative/cb', 'must be an absolute URI.'],
    ['client.example.test/cb', 'must be an absolute URI.'],
    ['https:/no-authority', 'must be an absolute URI.'],
    ['https://client.example.test/cb#frag', 'cannot contain a fragment.'],
    ['javascript:alert(1)', 'is forbidden by the server.'],
    ['JavaScript://x.test/%0aalert(1)', 'is forbidden by the server.'],
    ['data:text/html,<script>alert(1)</script>', 'is forbidden by the server.'],
    ['vbscript:msgbox(1)', 'is forbidden by the server.'],
    ['file:///etc/passwd', 'is forbidden by the server.'],
    ['https://client.example.test/c\u0000b', 'must be a valid URI.'],
    ['https://client.example.test/c\u0085b', 'must be a valid URI.'],
  ];
  for (const [uri, message] of bad) {
    it(`refuses ${JSON.stringify(uri)}: ${message}`, async () => {
      const { token } = await createAdmin();
      const body = { ...valid(), redirect_uri: uri };
      const res = await api.post('/applications', { token, body });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toEqual({ message: { redirect_uri: [message] } });
      // Other files create applications concurrently: only this request's name is counted.
      expect(await testDb().db.select({ id: oauthApplications.id }).from(oauthApplications).where(eq(oauthApplications.name, body.name))).toEqual([]);
    });
  }

  it('one bad URI among good ones refuses the whole application', async () => {
    const { token } = await createAdmin();
    const res = await api.post('/applications', { token, body: { ...valid(), redirect_uri: 'https://ok.example.test/cb\njavascript:alert(1)' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { redirect_uri: ['is forbidden by the server.'] } });
  });
});

describe('GET /applications', () => {
  it('lists applications without secrets, paginated', async () => {
    const { token } = await createAdmin();
    const created = await api.post('/applications', { token, body: valid() });
    // Oldest first: the new application is on the last page (other files add applications to the same database).
    const first = await api.get('/applications', { token, query: { per_page: 100 } });
    const res = await api.get('/applications', { token, query: { per_page: 100, page: first.headers.get('x-total-pages')! } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-per-page')).toBe('100');
    const entry = res.body.find((a: any) => a.id === created.body.id);
    expect(entry).toEqual({
      id: created.body.id,
      application_id: created.body.application_id,
      application_name: created.body.application_name,
      callback_url: 'https://client.example.test/cb',
      confidential: true,
    });
    expect(res.text).not.toContain(created.body.secret);
    for (const a of res.body) expect(a).not.toHaveProperty('secret');
  });
});

describe('DELETE /applications/:id', () => {
  it('204; grants and tokens go with it and the token stops working', async () => {
    const { token } = await createAdmin();
    const { user } = await createUser();
    const created = await api.post('/applications', { token, body: valid() });
    const appId: number = created.body.id;
    const accessToken = 'oauth-access-token-' + unique('t');
    await testDb()
      .db.insert(oauthAccessTokens)
      .values({ tokenDigest: await sha256Hex(accessToken), applicationId: appId, userId: user.id, scopes: ['api'], expiresIn: 7200, lineage: unique('l') });
    await testDb()
      .db.insert(oauthGrants)
      .values({
        codeDigest: await sha256Hex(unique('code')),
        applicationId: appId,
        userId: user.id,
        redirectUri: 'https://client.example.test/cb',
        scopes: ['api'],
        expiresAt: new Date(Date.now() + 600_000),
      });
    expect((await api.get('/user', { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(200);

    const res = await api.delete(`/applications/${appId}`, { token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await testDb().db.select().from(oauthApplications).where(eq(oauthApplications.id, appId))).toEqual([]);
    expect(await testDb().db.select().from(oauthAccessTokens).where(eq(oauthAccessTokens.applicationId, appId))).toEqual([]);
    expect(await testDb().db.select().from(oauthGrants).where(eq(oauthGrants.applicationId, appId))).toEqual([]);
    expect((await api.get('/user', { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(401);
  });

  it('404 Application Not Found (unknown and out-of-range ids)', async () => {
    const { token } = await createAdmin();
    for (const id of ['999999999', '99999999999']) {
      const res = await api.delete(`/applications/${id}`, { token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Application Not Found' });
    }
  });

  it('401 anonymous, 403 non-admin (the application stays)', async () => {
    const { token } = await createAdmin();
    const created = await api.post('/applications', { token, body: valid() });
    expect((await api.delete(`/applications/${created.body.id}`)).status).toBe(401);
    const other = await api.delete(`/applications/${created.body.id}`, { token: (await createUser()).token });
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ message: '403 Forbidden' });
    expect(await testDb().db.select().from(oauthApplications).where(eq(oauthApplications.id, created.body.id))).toHaveLength(1);
  });
});
