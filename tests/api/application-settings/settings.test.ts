// GET/PUT /application/settings and GET /application/statistics (administrators), as GitLab 13.6 answers them:
// every setting of the catalog is declared, set to a value other than its default and read back; secrets are stored
// encrypted; and the settings this service acts on change what new projects, groups and users get. This file
// changes the one instance row: it puts back every setting it changes (other files read the defaults).
import { afterAll, describe, expect, it } from 'vitest';
import { api, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { declaredParamsByRoute } from '../../helpers/declared-params.ts';
import { createGroup } from '../../factories/groups.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';
import { applicationSettings } from '../../../db/schema/index.ts';
import { SETTINGS, type SettingKey } from '../../../functions/application-settings/catalog.ts';

/** A value other than the default, per the catalog's type. */
function nonDefault(key: SettingKey): unknown {
  const d = SETTINGS[key].default;
  const special: Partial<Record<SettingKey, unknown>> = {
    default_branch_protection: 1,
    default_project_creation: 1,
    first_day_of_week: 1,
    default_group_visibility: 'internal',
    default_project_visibility: 'internal',
    default_snippet_visibility: 'public',
    restricted_visibility_levels: ['public'],
    import_sources: ['github', 'git'],
    repository_storages: ['default'],
    enabled_git_access_protocol: 'http',
    elasticsearch_namespace_ids: [3, 4],
    elasticsearch_project_ids: [5],
    file_template_project_id: 7,
    external_authorization_service_timeout: 1.5,
    polling_interval_multiplier: 2,
    minimum_password_length: 12,
    default_branch_name: 'main',
  };
  if (key in special) return special[key];
  if (typeof d === 'boolean' || (d === null && /enabled|_aws$|email_author/.test(key))) return !d;
  if (typeof d === 'number' || (d === null && /size|limit|delay|timeout/.test(key))) return (typeof d === 'number' ? d : 0) + 3;
  if (Array.isArray(d)) return ['example.com', 'example.org'];
  return `value of ${key}`;
}

let admin: Awaited<ReturnType<typeof createAdmin>>;
const reset = async () => {
  await testDb().db.delete(applicationSettings);
};
afterAll(reset);

describe('application settings', () => {
  it('PUT declares every setting of the catalog and 13.6’s deprecated names', async () => {
    const declared = (await declaredParamsByRoute()).get('PUT /application/settings')!.params;
    expect(new Set(declared)).toEqual(new Set([...Object.keys(SETTINGS), 'allow_local_requests_from_hooks_and_services', 'password_authentication_enabled']));
  });

  it('GET shows 13.6’s defaults; PUT sets every setting; both answer no-store', async () => {
    admin = await createAdmin();
    await reset();
    const before = await api.get('/application/settings', { token: admin.token });
    expect(before.status).toBe(200);
    expect(before.headers.get('cache-control')).toBe('no-store');
    expect(before.body).toMatchObject({
      id: 1,
      signup_enabled: true,
      default_project_visibility: 'private',
      restricted_visibility_levels: [],
      default_branch_name: null,
    });
    const body = Object.fromEntries((Object.keys(SETTINGS) as SettingKey[]).map((k) => [k, nonDefault(k)]));
    // The levels only administrators may use would get in the way of other files' tests while this one runs.
    body.restricted_visibility_levels = [];
    body.default_project_visibility = 'private';
    body.default_group_visibility = 'private';
    body.default_branch_name = null;
    body.user_default_external = false;
    body.default_projects_limit = 100_000;
    body.default_project_creation = 2;
    body.shared_runners_enabled = true;
    const res = await api.put('/application/settings', { token: admin.token, body });
    expect(res.status, res.text).toBe(200);
    try {
      for (const [key, value] of Object.entries(body)) expect({ [key]: res.body[key] }).toEqual({ [key]: value });
      const read = (await api.get('/application/settings', { token: admin.token })).body;
      for (const [key, value] of Object.entries(body)) expect({ [key]: read[key] }).toEqual({ [key]: value });
      // Secrets are stored encrypted, never as given.
      const [row] = await testDb().db.select().from(applicationSettings);
      expect(row!.settings.akismet_api_key).not.toBe(body.akismet_api_key);
      expect(JSON.stringify(row!.settings)).not.toContain('value of recaptcha_private_key');
    } finally {
      await reset();
    }
  });

  it('deprecated names set the new ones; restricted_visibility_levels takes levels or names', async () => {
    try {
      const res = await api.put('/application/settings', {
        token: admin.token,
        body: { allow_local_requests_from_hooks_and_services: true, password_authentication_enabled: false, restricted_visibility_levels: '20,internal' },
      });
      expect(res.body).toMatchObject({
        allow_local_requests_from_web_hooks_and_services: true,
        password_authentication_enabled_for_web: false,
        password_authentication_enabled: false,
        restricted_visibility_levels: ['public', 'internal'],
      });
    } finally {
      await reset();
    }
  });

  it.each([
    [{ default_project_visibility: 'secret' }, { error: 'default_project_visibility does not have a valid value' }],
    [{ restricted_visibility_levels: 'hidden' }, { error: 'restricted_visibility_levels does not have a valid value' }],
    [{ import_sources: 'svn' }, { error: 'import_sources does not have a valid value' }],
    [{ signup_enabled: 'sometimes' }, { error: 'signup_enabled is invalid' }],
    [{ max_attachment_size: -1 }, { message: { max_attachment_size: ['must be greater than or equal to 0'] } }],
    [{ minimum_password_length: 4 }, { message: { minimum_password_length: ['must be between 8 and 128'] } }],
  ])('%j: 400 %j, nothing stored', async (body, error) => {
    const res = await api.put('/application/settings', { token: admin.token, body: { ...body, home_page_url: 'https://not.stored' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error);
    expect((await api.get('/application/settings', { token: admin.token })).body.home_page_url).toBeNull();
  });

  it('acted on: new projects, groups and users take the defaults; restricted levels are for administrators', async () => {
    const owner = await createUser();
    try {
      await api.put('/application/settings', {
        token: admin.token,
        body: {
          default_branch_name: 'main',
          default_project_visibility: 'internal',
          default_group_visibility: 'internal',
          default_project_creation: 1,
          restricted_visibility_levels: ['public'],
          user_default_external: true,
          shared_runners_enabled: false,
        },
      });
      const project = await api.post('/projects', { token: owner.token, body: { name: unique('defaults'), initialize_with_readme: true } });
      expect(project.status, project.text).toBe(201);
      expect(project.body).toMatchObject({ visibility: 'internal', default_branch: 'main', shared_runners_enabled: false });
      const group = await api.post('/groups', { token: owner.token, body: { name: unique('g'), path: unique('g') } });
      expect(group.body).toMatchObject({ visibility: 'internal', project_creation_level: 'maintainer' });
      const refused = await api.post('/projects', { token: owner.token, body: { name: unique('pub'), visibility: 'public' } });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ message: { visibility_level: ['public has been restricted by your GitLab administrator'] } });
      const g = await createGroup(owner.token, { visibility: 'internal' });
      expect((await api.put(`/groups/${g.id}`, { token: owner.token, body: { visibility: 'public' } })).status).toBe(400);
      expect((await api.post('/projects', { token: admin.token, body: { name: unique('pub'), visibility: 'public' } })).status).toBe(201);
      const name = unique('ext');
      const user = await api.post('/users', { token: admin.token, body: { email: `${name}@example.com`, username: name, name, password: 'long-enough-1' } });
      expect(user.body).toMatchObject({ external: true, can_create_group: false, projects_limit: 0 });
    } finally {
      await reset();
    }
  });

  describeAuthorization('GET /application/settings', {
    fixture: async () => ({ allowed: (await createAdmin()).token, nonMember: (await createUser()).token }),
    call: (_fx, token) => api.get('/application/settings', { token }),
    success: 200,
    nonMember: { status: 403, body: { message: '403 Forbidden' } },
  });
  describeAuthorization('PUT /application/settings', {
    fixture: async () => ({ allowed: (await createAdmin()).token, nonMember: (await createUser()).token }),
    call: (_fx, token) => api.put('/application/settings', { token, body: { home_page_url: null } }),
    success: 200,
    nonMember: { status: 403, body: { message: '403 Forbidden' } },
  });
});

describe('GET /application/statistics', () => {
  it('counts as strings with delimiters', async () => {
    const { token } = await createAdmin();
    const res = await api.get('/application/statistics', { token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      ['active_users', 'forks', 'groups', 'issues', 'merge_requests', 'milestones', 'notes', 'projects', 'snippets', 'ssh_keys', 'users'].sort(),
    );
    for (const v of Object.values(res.body)) expect(v).toMatch(/^\d{1,3}(,\d{3})*$/);
    const users = Number(String(res.body.users).replace(/,/g, ''));
    await createUser();
    expect(Number(String((await api.get('/application/statistics', { token })).body.users).replace(/,/g, ''))).toBeGreaterThan(users);
  });

  describeAuthorization('GET /application/statistics', {
    fixture: async () => ({ allowed: (await createAdmin()).token, nonMember: (await createUser()).token }),
    call: (_fx, token) => api.get('/application/statistics', { token }),
    success: 200,
    nonMember: { status: 403, body: { message: '403 Forbidden' } },
  });
});
