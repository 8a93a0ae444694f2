// PUT /projects/:id/error_tracking/settings: configuring the integration (GitLab 15.10's PUT, plus the Sentry
// connection GitLab configures on its settings page): api_url validation, the token encrypted at rest and never
// shown, create-or-replace, and an instance without ENCRYPTION_KEY.
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { errorTrackingSettings } from '../../../db/schema/index.ts';
import type { DatabaseProvider } from '../../../db/client.ts';
import { createApp } from '../../../functions/app.ts';
import { updateSettingFlags, upsertSetting } from '../../../db/queries/error-tracking.ts';
import { tokenContext } from '../../../functions/error-tracking/service.ts';
import { decryptSecret, importEncryptionKey } from '../../../functions/lib/encryption.ts';
import { api, queryCount, TEST_PUBLIC_URL, testDb, testEnv } from '../../helpers/app.ts';
import { API_URL, configure, getSettings, patchSettings, projectWithRoles, putSettings } from './helpers.ts';

const SECRET = 'sntrys_secret-token-value';

async function storedRow(projectId: number) {
  const [row] = await testDb().db.select().from(errorTrackingSettings).where(eq(errorTrackingSettings.projectId, projectId));
  return row;
}

async function decryptStored(projectId: number) {
  const row = await storedRow(projectId);
  const key = await importEncryptionKey(testEnv.ENCRYPTION_KEY);
  return decryptSecret(key, row!.encryptedToken!, tokenContext(projectId));
}

describe('PUT /projects/:id/error_tracking/settings', () => {
  it('configures the connection; GET returns the derived fields; the token is stored encrypted and never returned', async () => {
    const fx = await projectWithRoles();
    const res = await putSettings(fx.project.id, { token: fx.maintainer.token, body: { active: true, integrated: false, api_url: API_URL, token: SECRET } });
    const expected = {
      active: true,
      project_name: 'myproject',
      tracker_external_url: 'https://sentry.example.com/myorg/myproject',
      api_url: API_URL,
      integrated: false,
    };
    expect(res).toMatchObject({ status: 200, body: expected });
    expect(res.text).not.toContain(SECRET);
    const get = await getSettings(fx.project.id, { token: fx.maintainer.token });
    expect(get.body).toEqual(expected);
    expect(get.text).not.toContain(SECRET);

    const row = await storedRow(fx.project.id);
    expect(row).toMatchObject({ enabled: true, integrated: false, apiUrl: API_URL, projectName: 'myproject', organizationName: 'myorg' });
    expect(row!.encryptedToken).not.toContain(SECRET);
    expect(atob(row!.encryptedToken!)).not.toContain(SECRET);
    expect(await decryptStored(fx.project.id)).toBe(SECRET);
  });

  it('a form body works as well; repeated slashes and no trailing slash derive the same names', async () => {
    const fx = await projectWithRoles();
    const url = 'https://errors.example.org:8443/api/0/projects//acme-inc//web-app';
    const res = await putSettings(fx.project.id, { token: fx.maintainer.token, form: { active: 'true', integrated: 'false', api_url: url, token: SECRET } });
    expect(res).toMatchObject({
      status: 200,
      body: {
        active: true,
        project_name: 'web-app',
        tracker_external_url: 'https://errors.example.org:8443/acme-inc/web-app',
        api_url: url,
        integrated: false,
      },
    });
    expect((await storedRow(fx.project.id))!.organizationName).toBe('acme-inc');
  });

  it('each encryption uses a fresh IV, and the ciphertext is bound to its project', async () => {
    const a = await projectWithRoles();
    const b = await projectWithRoles();
    await configure(a.project.id, a.maintainer.token);
    await configure(b.project.id, b.maintainer.token);
    const rowA = await storedRow(a.project.id);
    const rowB = await storedRow(b.project.id);
    expect(rowA!.encryptedToken).not.toBe(rowB!.encryptedToken);
    // Copying A's ciphertext into B's row does not give B the token.
    const key = await importEncryptionKey(testEnv.ENCRYPTION_KEY);
    await expect(decryptSecret(key, rowA!.encryptedToken!, tokenContext(b.project.id))).rejects.toThrow();
  });

  it('replaces what is given: a new api_url and token; omitted, the token is kept; empty, it is cleared', async () => {
    const fx = await projectWithRoles();
    const token = fx.maintainer.token;
    await configure(fx.project.id, token);
    const other = 'https://sentry.io/api/0/projects/other-org/other-project/';
    const moved = await putSettings(fx.project.id, { token, body: { active: true, integrated: false, api_url: other } });
    expect(moved).toMatchObject({
      status: 200,
      body: { api_url: other, project_name: 'other-project', tracker_external_url: 'https://sentry.io/other-org/other-project' },
    });
    expect(await decryptStored(fx.project.id)).toBe(SECRET);

    expect(await putSettings(fx.project.id, { token, body: { active: true, integrated: false, token: 'sntrys_rotated' } })).toMatchObject({
      status: 200,
      body: { api_url: other },
    });
    expect(await decryptStored(fx.project.id)).toBe('sntrys_rotated');

    // Flags only (what @gitbeaker's ErrorTrackingSettings.create sends): the connection stays.
    expect(await putSettings(fx.project.id, { token, query: { active: 'false', integrated: 'false' } })).toMatchObject({
      status: 200,
      body: { active: false, api_url: other },
    });
    expect(await decryptStored(fx.project.id)).toBe('sntrys_rotated');

    // Clearing the token of an enabled Sentry setting is refused; of a disabled one it is allowed.
    expect(await putSettings(fx.project.id, { token, body: { active: true, integrated: false, token: '' } })).toMatchObject({
      status: 400,
      body: { message: { token: ['is a required field'] } },
    });
    expect(await putSettings(fx.project.id, { token, body: { active: false, integrated: false, token: '', api_url: '' } })).toMatchObject({
      status: 200,
      body: { active: false, api_url: null, project_name: null, tracker_external_url: null, integrated: false },
    });
    expect((await storedRow(fx.project.id))!.encryptedToken).toBeNull();
  });

  it('integrated error tracking needs no api_url nor token (GitLab’s integrated backend)', async () => {
    const fx = await projectWithRoles();
    const res = await putSettings(fx.project.id, { token: fx.maintainer.token, body: { active: true, integrated: true } });
    expect(res).toMatchObject({ status: 200, body: { active: true, project_name: null, tracker_external_url: null, api_url: null, integrated: true } });
    expect((await getSettings(fx.project.id, { token: fx.maintainer.token })).body).toEqual(res.body);
  });

  it('an enabled Sentry setting needs api_url and token; a disabled one may be created empty', async () => {
    const fx = await projectWithRoles();
    const token = fx.maintainer.token;
    expect(await putSettings(fx.project.id, { token, body: { active: true, integrated: false } })).toMatchObject({
      status: 400,
      body: { message: { api_url: ['is a required field'], token: ['is a required field'] } },
    });
    expect(await putSettings(fx.project.id, { token, body: { active: true, integrated: false, api_url: API_URL } })).toMatchObject({
      status: 400,
      body: { message: { token: ['is a required field'] } },
    });
    expect(await getSettings(fx.project.id, { token })).toMatchObject({ status: 404, body: { message: '404 Error Tracking Setting Not Found' } });
    expect(await putSettings(fx.project.id, { token, body: { active: false, integrated: false } })).toMatchObject({
      status: 200,
      body: { active: false, project_name: null, tracker_external_url: null, api_url: null, integrated: false },
    });
  });

  it('requires active and integrated, as GitLab’s PUT does', async () => {
    const fx = await projectWithRoles();
    const token = fx.maintainer.token;
    expect(await putSettings(fx.project.id, { token, body: {} })).toMatchObject({ status: 400, body: { error: 'active is missing, integrated is missing' } });
    expect(await putSettings(fx.project.id, { token, body: { active: true } })).toMatchObject({ status: 400, body: { error: 'integrated is missing' } });
    expect(await putSettings(fx.project.id, { token, body: { active: true, integrated: 'invalid_string' } })).toMatchObject({
      status: 400,
      body: { error: 'integrated is invalid' },
    });
    expect(await putSettings(fx.project.id, { token, form: { active: '', integrated: 'true' } })).toMatchObject({
      status: 400,
      body: { error: 'active is empty' },
    });
    expect(await putSettings(fx.project.id, { token, form: { active: 'randomstring', integrated: 'true' } })).toMatchObject({
      status: 400,
      body: { error: 'active is invalid' },
    });
  });

  describe('api_url validation (400 with the model message)', () => {
    const cases: Array<[string, Record<string, string[]>]> = [
      ['http://sentry.example.com/api/0/projects/myorg/myproject/', { api_url: ['is blocked: Only allowed schemes are https'] }],
      ['ftp://sentry.example.com/api/0/projects/myorg/myproject/', { api_url: ['is blocked: Only allowed schemes are https'] }],
      ['https://sentry.example.com/myorg/myproject/', { api_url: ['is invalid'] }],
      ['https://sentry.example.com/api/0/projects/myorg', { api_url: ['is invalid'] }],
      ['https://sentry.example.com/api/0/projects/myorg/myproject/extra', { api_url: ['is invalid'] }],
      ['https://sentry.example.com/api/0/projects/', { project: ['is a required field'] }],
      ['not a url', { api_url: ['must be a valid URL'] }],
      ['garbage', { api_url: ['must be a valid URL'] }],
      ['https://', { api_url: ['must be a valid URL'] }],
      ['sentry.example.com/api/0/projects/myorg/myproject/', { api_url: ['must be a valid URL'] }],
      ['https://sentry.example.com/api/0/projects/myorg/myproject€/', { api_url: ['is blocked: URI must be ascii only'] }],
      ["https://replaceme.com/'><script>alert(document.cookie)</script>", { api_url: ['is blocked: HTML/CSS/JS tags are not allowed'] }],
      ['https://localhost/api/0/projects/o/p/', { api_url: ['is blocked: Requests to localhost are not allowed'] }],
      ['https://127.0.0.1/api/0/projects/o/p/', { api_url: ['is blocked: Requests to localhost are not allowed'] }],
      ['https://[::1]/api/0/projects/o/p/', { api_url: ['is blocked: Requests to localhost are not allowed'] }],
      ['https://10.1.2.3/api/0/projects/o/p/', { api_url: ['is blocked: Requests to the local network are not allowed'] }],
      ['https://192.168.0.1/api/0/projects/o/p/', { api_url: ['is blocked: Requests to the local network are not allowed'] }],
      ['https://169.254.169.254/api/0/projects/o/p/', { api_url: ['is blocked: Requests to the link local network are not allowed'] }],
      [`https://sentry.example.com/api/0/projects/myorg/${'p'.repeat(250)}/`, { api_url: ['is too long (maximum is 255 characters)'] }],
    ];
    it.each(cases)('%s', async (url, message) => {
      const fx = await projectWithRoles();
      const res = await putSettings(fx.project.id, { token: fx.maintainer.token, body: { active: true, integrated: false, api_url: url, token: SECRET } });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toEqual({ message });
      expect(res.text).not.toContain(SECRET);
    });

    it('a rejected PUT leaves the previous configuration unchanged', async () => {
      const fx = await projectWithRoles();
      await configure(fx.project.id, fx.maintainer.token);
      const before = await storedRow(fx.project.id);
      for (const api_url of ['http://sentry.example.com/api/0/projects/a/b/', 'https://sentry.example.com/nope', 'garbage']) {
        const res = await putSettings(fx.project.id, {
          token: fx.maintainer.token,
          body: { active: false, integrated: false, api_url, token: 'sntrys_other' },
        });
        expect(res.status).toBe(400);
      }
      expect(await storedRow(fx.project.id)).toEqual(before);
      expect(await decryptStored(fx.project.id)).toBe(SECRET);
    });

    it('a disabled setting still refuses an invalid api_url (stricter than GitLab, which checks it only when enabled)', async () => {
      const fx = await projectWithRoles();
      const res = await putSettings(fx.project.id, {
        token: fx.maintainer.token,
        body: { active: false, integrated: false, api_url: 'https://sentry.example.com/x' },
      });
      expect(res).toMatchObject({ status: 400, body: { message: { api_url: ['is invalid'] } } });
    });
  });

  it('401 anonymous, 404 stranger (id and path), 403 reporter and developer, and they change nothing', async () => {
    const fx = await projectWithRoles();
    await configure(fx.project.id, fx.maintainer.token);
    const body = { active: false, integrated: true, api_url: '', token: '' };
    expect(await putSettings(fx.project.id, { body })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await putSettings(fx.project.id, { token: fx.stranger.token, body })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await putSettings(fx.project.path_with_namespace, { token: fx.stranger.token, body })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
    for (const who of [fx.reporter, fx.developer])
      expect(await putSettings(fx.project.id, { token: who.token, body })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    // Authorization comes before parameters: a developer's invalid request is still 403.
    expect(await putSettings(fx.project.id, { token: fx.developer.token, body: { active: 'x' } })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect(await decryptStored(fx.project.id)).toBe(SECRET);
    expect((await getSettings(fx.project.id, { token: fx.maintainer.token })).body.active).toBe(true);
  });

  it('costs at most 4 queries, creating and replacing', async () => {
    const fx = await projectWithRoles();
    await api.get('/user', { token: fx.maintainer.token }); // records the token's first use
    const created = await putSettings(fx.project.id, {
      token: fx.maintainer.token,
      body: { active: true, integrated: false, api_url: API_URL, token: SECRET },
    });
    expect(created.status).toBe(200);
    expect(queryCount(created)).toBeLessThanOrEqual(4);
    const replaced = await putSettings(fx.project.id, { token: fx.maintainer.token, body: { active: false, integrated: true } });
    expect(replaced.status).toBe(200);
    expect(queryCount(replaced)).toBeLessThanOrEqual(4);
    const patched = await patchSettings(fx.project.id, { token: fx.maintainer.token, body: { active: true } });
    expect(patched.status).toBe(200);
    expect(queryCount(patched)).toBeLessThanOrEqual(4);
  });

  describe('an instance without ENCRYPTION_KEY', () => {
    /** The same app and database, served with an environment that lacks the key (or has a malformed one). */
    async function putWithEnv(env: Record<string, string | undefined>, projectId: number, token: string, body: unknown) {
      const provider: DatabaseProvider = { open: () => testDb() };
      const app = createApp({ database: () => provider });
      const res = await app.fetch(
        new Request(`${TEST_PUBLIC_URL}/api/v4/projects/${projectId}/error_tracking/settings`, {
          method: 'PUT',
          headers: { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
        { ...testEnv, ...env },
        { waitUntil: () => undefined, passThroughOnException() {}, props: {} },
      );
      return { status: res.status, body: (await res.json()) as unknown };
    }

    it('answers 503 naming the missing configuration, logs it, and stores nothing', async () => {
      const fx = await projectWithRoles();
      const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        const res = await putWithEnv({ ENCRYPTION_KEY: undefined }, fx.project.id, fx.maintainer.token, {
          active: true,
          integrated: false,
          api_url: API_URL,
          token: SECRET,
        });
        expect(res).toEqual({ status: 503, body: { message: '503 Service Unavailable - ENCRYPTION_KEY is not configured' } });
        const logged = errors.mock.calls.map((c) => String(c[0])).join('\n');
        expect(logged).toContain('ENCRYPTION_KEY');
        expect(logged).not.toContain(SECRET);
        const malformed = await putWithEnv({ ENCRYPTION_KEY: 'c2hvcnQ=' }, fx.project.id, fx.maintainer.token, {
          active: true,
          integrated: false,
          api_url: API_URL,
          token: SECRET,
        });
        expect(malformed).toEqual({ status: 503, body: { message: '503 Service Unavailable - ENCRYPTION_KEY is not 32 bytes of base64' } });
      } finally {
        errors.mockRestore();
      }
      expect(await storedRow(fx.project.id)).toBeUndefined();
    });

    it('still serves what needs no key: reads, PATCH, and a PUT without a token', async () => {
      const fx = await projectWithRoles();
      await configure(fx.project.id, fx.maintainer.token);
      const res = await putWithEnv({ ENCRYPTION_KEY: undefined }, fx.project.id, fx.maintainer.token, { active: false, integrated: false });
      expect(res).toMatchObject({ status: 200, body: { active: false, api_url: API_URL } });
    });
  });

  it('the writes re-check the rule themselves: a row changed after it was read cannot end up enabled without its connection', async () => {
    // What a request that read the row before a concurrent PUT cleared its token would write (it then answers 409).
    const fx = await projectWithRoles();
    const token = fx.maintainer.token;
    await putSettings(fx.project.id, { token, body: { active: false, integrated: false, api_url: API_URL } }); // no token
    const { db } = testDb();
    expect(await updateSettingFlags(db, fx.project.id, { enabled: true })).toBeUndefined();
    expect(await upsertSetting(db, { projectId: fx.project.id, enabled: true, integrated: false })).toBeUndefined();
    expect((await storedRow(fx.project.id))!.enabled).toBe(false);
    expect(await updateSettingFlags(db, fx.project.id, { enabled: true, integrated: true })).toMatchObject({ enabled: true, integrated: true });
    expect(await upsertSetting(db, { projectId: fx.project.id, enabled: true, integrated: false, encryptedToken: 'c2VhbGVk' })).toMatchObject({
      enabled: true,
      integrated: false,
      apiUrl: API_URL,
    });
  });
});
