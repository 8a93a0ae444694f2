// GET and PATCH /projects/:id/error_tracking/settings (GitLab's spec/requests/api/error_tracking/project_settings_spec.rb).
import { describe, expect, it } from 'vitest';
import { createUser } from '../../factories/users.ts';
import { api, queryCount } from '../../helpers/app.ts';
import { API_URL, configure, getSettings, patchSettings, projectWithRoles, putSettings } from './helpers.ts';

const NOT_CONFIGURED = { status: 404, body: { message: '404 Error Tracking Setting Not Found' } };
const PROJECT_NOT_FOUND = { status: 404, body: { message: '404 Project Not Found' } };
const FORBIDDEN = { status: 403, body: { message: '403 Forbidden' } };
const UNAUTHORIZED = { status: 401, body: { message: '401 Unauthorized' } };

const CONFIGURED = {
  active: true,
  project_name: 'myproject',
  tracker_external_url: 'https://sentry.example.com/myorg/myproject',
  api_url: API_URL,
  integrated: false,
};

describe('GET /projects/:id/error_tracking/settings', () => {
  it('returns the configured setting to a maintainer, fields in the spec order then integrated', async () => {
    const fx = await projectWithRoles();
    await configure(fx.project.id, fx.maintainer.token);
    const res = await getSettings(fx.project.id, { token: fx.maintainer.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(CONFIGURED);
    expect(Object.keys(res.body)).toEqual(['active', 'project_name', 'tracker_external_url', 'api_url', 'integrated']);
    expect(res.text).not.toContain('sntrys_');
  });

  it('by URL-encoded path too (case-insensitive), and to the owner', async () => {
    const fx = await projectWithRoles();
    await configure(fx.project.id, fx.owner.token);
    const res = await getSettings(fx.project.path_with_namespace.toUpperCase(), { token: fx.owner.token });
    expect(res).toMatchObject({ status: 200, body: CONFIGURED });
  });

  it('404 Error Tracking Setting Not Found before configuration', async () => {
    const fx = await projectWithRoles();
    expect(await getSettings(fx.project.id, { token: fx.maintainer.token })).toMatchObject(NOT_CONFIGURED);
  });

  it('401 anonymous (even on a public project), 404 to strangers of a private one, 403 below maintainer', async () => {
    const fx = await projectWithRoles();
    const pub = await projectWithRoles('public');
    await configure(fx.project.id, fx.maintainer.token);
    await configure(pub.project.id, pub.maintainer.token);
    expect(await getSettings(fx.project.id)).toMatchObject(UNAUTHORIZED);
    expect(await getSettings(pub.project.id)).toMatchObject(UNAUTHORIZED);
    expect(await getSettings(fx.project.id, { token: fx.stranger.token })).toMatchObject(PROJECT_NOT_FOUND);
    expect(await getSettings(fx.project.path_with_namespace, { token: fx.stranger.token })).toMatchObject(PROJECT_NOT_FOUND);
    for (const who of [fx.guest, fx.reporter, fx.developer]) expect(await getSettings(fx.project.id, { token: who.token })).toMatchObject(FORBIDDEN);
    // A public project is visible to anyone signed in, so a stranger is refused with 403, not 404.
    expect(await getSettings(pub.project.id, { token: pub.stranger.token })).toMatchObject(FORBIDDEN);
  });

  it('hides whether a setting exists: a developer gets 403 and a stranger 404 whether or not it is configured', async () => {
    const fx = await projectWithRoles();
    expect(await getSettings(fx.project.id, { token: fx.developer.token })).toMatchObject(FORBIDDEN);
    expect(await getSettings(fx.project.id, { token: fx.stranger.token })).toMatchObject(PROJECT_NOT_FOUND);
  });

  it('unknown and unreadable references are 404 Project Not Found', async () => {
    const { token } = await createUser();
    expect(await getSettings(2_000_000_000, { token })).toMatchObject(PROJECT_NOT_FOUND);
    expect(await getSettings('nobody/nothing', { token })).toMatchObject(PROJECT_NOT_FOUND);
    expect(await getSettings('99999999999', { token })).toMatchObject(PROJECT_NOT_FOUND);
  });

  it('administrators see any project’s setting', async () => {
    const fx = await projectWithRoles();
    await configure(fx.project.id, fx.maintainer.token);
    const admin = await createUser({ admin: true });
    expect(await getSettings(fx.project.id, { token: admin.token })).toMatchObject({ status: 200, body: CONFIGURED });
  });

  it('costs at most 2 queries (token + project with its setting)', async () => {
    const fx = await projectWithRoles();
    await configure(fx.project.id, fx.maintainer.token); // also records the token's first use
    const res = await getSettings(fx.project.id, { token: fx.maintainer.token });
    expect(res.status).toBe(200);
    expect(queryCount(res)).toBeLessThanOrEqual(2);
    const missing = await projectWithRoles();
    await api.get('/user', { token: missing.maintainer.token });
    const none = await getSettings(missing.project.id, { token: missing.maintainer.token });
    expect(none.status).toBe(404);
    expect(queryCount(none)).toBeLessThanOrEqual(2);
  });
});

describe('PATCH /projects/:id/error_tracking/settings', () => {
  it('active=false disables, active=true enables again; the rest is unchanged', async () => {
    const fx = await projectWithRoles();
    await configure(fx.project.id, fx.maintainer.token);
    const off = await patchSettings(fx.project.id, { token: fx.maintainer.token, form: { active: 'false' } });
    expect(off).toMatchObject({ status: 200, body: { ...CONFIGURED, active: false } });
    expect((await getSettings(fx.project.id, { token: fx.maintainer.token })).body.active).toBe(false);
    const on = await patchSettings(fx.project.id, { token: fx.maintainer.token, body: { active: true } });
    expect(on).toMatchObject({ status: 200, body: CONFIGURED });
    expect(on.text).not.toContain('sntrys_');
    expect((await getSettings(fx.project.id, { token: fx.maintainer.token })).body).toEqual(CONFIGURED);
  });

  it('takes active from the query string too, and switches integrated when given', async () => {
    const fx = await projectWithRoles();
    await configure(fx.project.id, fx.maintainer.token);
    const res = await patchSettings(fx.project.id, { token: fx.maintainer.token, query: { active: 'true', integrated: 'true' } });
    expect(res).toMatchObject({ status: 200, body: { ...CONFIGURED, integrated: true } });
    const back = await patchSettings(fx.project.id, { token: fx.maintainer.token, body: { active: true } });
    expect(back.body.integrated).toBe(true); // omitted: unchanged
    expect((await patchSettings(fx.project.id, { token: fx.maintainer.token, body: { active: true, integrated: false } })).body.integrated).toBe(false);
  });

  it('404 Error Tracking Setting Not Found before configuration (and nothing is created)', async () => {
    const fx = await projectWithRoles();
    expect(await patchSettings(fx.project.id, { token: fx.maintainer.token, body: { active: true } })).toMatchObject(NOT_CONFIGURED);
    expect(await getSettings(fx.project.id, { token: fx.maintainer.token })).toMatchObject(NOT_CONFIGURED);
  });

  it('the three `active` errors: missing, empty, invalid (and an invalid `integrated`)', async () => {
    const fx = await projectWithRoles();
    await configure(fx.project.id, fx.maintainer.token);
    const token = fx.maintainer.token;
    expect(await patchSettings(fx.project.id, { token })).toMatchObject({ status: 400, body: { error: 'active is missing' } });
    expect(await patchSettings(fx.project.id, { token, form: { integrated: 'true' } })).toMatchObject({ status: 400, body: { error: 'active is missing' } });
    expect(await patchSettings(fx.project.id, { token, form: { active: '' } })).toMatchObject({ status: 400, body: { error: 'active is empty' } });
    expect(await patchSettings(fx.project.id, { token, query: { active: '' } })).toMatchObject({ status: 400, body: { error: 'active is empty' } });
    expect(await patchSettings(fx.project.id, { token, body: { active: null } })).toMatchObject({ status: 400, body: { error: 'active is empty' } });
    expect(await patchSettings(fx.project.id, { token, form: { active: 'randomstring' } })).toMatchObject({
      status: 400,
      body: { error: 'active is invalid' },
    });
    expect(await patchSettings(fx.project.id, { token, body: { active: 'randomstring' } })).toMatchObject({
      status: 400,
      body: { error: 'active is invalid' },
    });
    expect(await patchSettings(fx.project.id, { token, body: { active: true, integrated: 'maybe' } })).toMatchObject({
      status: 400,
      body: { error: 'integrated is invalid' },
    });
    // None of them changed anything.
    expect((await getSettings(fx.project.id, { token })).body).toEqual(CONFIGURED);
  });

  it('a bad `active` on a project without a setting is still a 400 (parameters before existence)', async () => {
    const fx = await projectWithRoles();
    expect(await patchSettings(fx.project.id, { token: fx.maintainer.token, form: { active: 'randomstring' } })).toMatchObject({
      status: 400,
      body: { error: 'active is invalid' },
    });
  });

  it('order of checks as in Grape (authorize! runs in a `before` block, ahead of parameter validation): 401, 404, 403, then 400', async () => {
    const fx = await projectWithRoles();
    await configure(fx.project.id, fx.maintainer.token);
    const bad = { form: { active: 'randomstring' } };
    expect(await patchSettings(fx.project.id, bad)).toMatchObject(UNAUTHORIZED);
    expect(await patchSettings(fx.project.id, { token: fx.stranger.token, ...bad })).toMatchObject(PROJECT_NOT_FOUND);
    expect(await patchSettings(fx.project.id, { token: fx.developer.token, ...bad })).toMatchObject(FORBIDDEN);
    expect(await patchSettings(fx.project.id, { token: fx.developer.token })).toMatchObject(FORBIDDEN);
    expect(await patchSettings(fx.project.id, { token: fx.maintainer.token, ...bad })).toMatchObject({ status: 400, body: { error: 'active is invalid' } });
  });

  it('401 anonymous, 404 stranger (by id and by path), 403 reporter and developer', async () => {
    const fx = await projectWithRoles();
    await configure(fx.project.id, fx.maintainer.token);
    const body = { active: false };
    expect(await patchSettings(fx.project.id, { body })).toMatchObject(UNAUTHORIZED);
    expect(await patchSettings(fx.project.id, { token: fx.stranger.token, body })).toMatchObject(PROJECT_NOT_FOUND);
    expect(await patchSettings(fx.project.path_with_namespace, { token: fx.stranger.token, body })).toMatchObject(PROJECT_NOT_FOUND);
    expect(await patchSettings(fx.project.id, { token: fx.reporter.token, body })).toMatchObject(FORBIDDEN);
    expect(await patchSettings(fx.project.id, { token: fx.developer.token, body })).toMatchObject(FORBIDDEN);
    expect((await getSettings(fx.project.id, { token: fx.maintainer.token })).body.active).toBe(true);
  });

  it('enabling a setting that has no connection is a model error (api_url and token are required unless integrated)', async () => {
    const fx = await projectWithRoles();
    const token = fx.maintainer.token;
    expect(await putSettings(fx.project.id, { token, body: { active: false, integrated: false } })).toMatchObject({ status: 200 });
    expect(await patchSettings(fx.project.id, { token, body: { active: true } })).toMatchObject({
      status: 400,
      body: { message: { api_url: ['is a required field'], token: ['is a required field'] } },
    });
    expect((await getSettings(fx.project.id, { token })).body.active).toBe(false);
    // Integrated error tracking needs no connection.
    expect(await patchSettings(fx.project.id, { token, body: { active: true, integrated: true } })).toMatchObject({
      status: 200,
      body: { active: true, integrated: true, api_url: null, project_name: null, tracker_external_url: null },
    });
    // ...and leaving it for Sentry is refused while there is no connection.
    expect(await patchSettings(fx.project.id, { token, body: { active: true, integrated: false } })).toMatchObject({ status: 400 });
  });

  it('costs at most 4 queries', async () => {
    const fx = await projectWithRoles();
    await configure(fx.project.id, fx.maintainer.token);
    const res = await patchSettings(fx.project.id, { token: fx.maintainer.token, body: { active: false } });
    expect(res.status).toBe(200);
    expect(queryCount(res)).toBeLessThanOrEqual(4);
  });
});
