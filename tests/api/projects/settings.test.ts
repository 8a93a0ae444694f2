// Every parameter GitLab 13.6 declares for POST/PUT /projects (ProjectsHelpers' optional_project_params CE and EE,
// optional_update_params, and each route's own) is declared here, set to a value other than its default, and read
// back: a request never gets 200 while part of it is dropped. The tables are the check: a parameter declared by the
// route but missing from them (or the reverse) fails the first test of each block.
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { declaredParamsByRoute, expectReadBack, sentValues, type ReadBackCase } from '../../helpers/declared-params.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';
import { createProject } from '../../factories/projects.ts';
import { testDb } from '../../helpers/app.ts';
import { projects } from '../../../db/schema/index.ts';
import { eq } from 'drizzle-orm';

const ULTIMATE = { INSTANCE_TIER: 'ultimate' as const };

/** The settings both routes declare (optional_project_params), with non-default values. */
const SETTINGS = (adminId: number): Record<string, ReadBackCase> => ({
  description: { send: 'settings test' },
  build_git_strategy: { send: 'clone' },
  build_timeout: { send: 7200 },
  auto_cancel_pending_pipelines: { send: 'disabled' },
  build_coverage_regex: { send: '\\(\\d+.\\d+\\%\\) covered' },
  ci_config_path: { send: 'ci/main.yml' },
  service_desk_enabled: { send: true },
  issues_enabled: { elsewhere: 'the deprecated switches test below' },
  merge_requests_enabled: { elsewhere: 'the deprecated switches test below' },
  wiki_enabled: { elsewhere: 'the deprecated switches test below' },
  jobs_enabled: { elsewhere: 'the deprecated switches test below' },
  snippets_enabled: { elsewhere: 'the deprecated switches test below' },
  issues_access_level: { send: 'private' },
  repository_access_level: { send: 'private' },
  merge_requests_access_level: { send: 'private' },
  forking_access_level: { send: 'disabled' },
  wiki_access_level: { send: 'disabled' },
  builds_access_level: { send: 'private' },
  snippets_access_level: { send: 'disabled' },
  pages_access_level: { send: 'public' },
  emails_disabled: { send: true },
  show_default_award_emojis: { send: false },
  shared_runners_enabled: { send: false },
  resolve_outdated_diff_discussions: { send: true },
  remove_source_branch_after_merge: { send: false },
  container_registry_enabled: { send: false },
  container_expiration_policy_attributes: {
    send: { cadence: '7d', keep_n: 25, older_than: '14d', name_regex: '.*', name_regex_keep: 'keep-.*', enabled: true },
    read: [
      'container_expiration_policy',
      expect.objectContaining({ cadence: '7d', keep_n: 25, older_than: '14d', name_regex: '.*', name_regex_keep: 'keep-.*', enabled: true }),
    ],
  },
  lfs_enabled: { send: false },
  visibility: { send: 'public' },
  public_builds: { elsewhere: 'the deprecated switches test below' },
  public_jobs: { send: false },
  request_access_enabled: { send: false },
  only_allow_merge_if_pipeline_succeeds: { send: true },
  allow_merge_on_skipped_pipeline: { send: true },
  only_allow_merge_if_all_discussions_are_resolved: { send: true },
  tag_list: { send: 'backend, api', read: ['tag_list', ['api', 'backend']] },
  topics: { elsewhere: 'the deprecated switches test below' },
  avatar: { elsewhere: 'tests/api/uploads/avatars.test.ts' },
  printing_merge_request_link_enabled: { send: false },
  merge_method: { send: 'ff' },
  suggestion_commit_message: { send: 'Apply %{suggestions_count} suggestions' },
  auto_devops_enabled: { send: true },
  auto_devops_deploy_strategy: { send: 'manual' },
  autoclose_referenced_issues: { send: false },
  // The one storage this service has is `default` (anything else is refused below).
  repository_storage: { send: 'default' },
  squash_option: { send: 'always' },
  packages_enabled: { send: false },
  // EE
  approvals_before_merge: { send: 2 },
  mirror: { send: true },
  mirror_user_id: { send: adminId },
  mirror_trigger_builds: { send: true },
  only_mirror_protected_branches: { send: true },
  mirror_overwrites_diverged_branches: { send: true },
  import_url: { send: 'https://example.com/mirror.git' },
  external_authorization_classification_label: { send: 'confidential' },
  merge_pipelines_enabled: { send: true },
  merge_trains_enabled: { send: true },
  issues_template: { send: '## Summary' },
  merge_requests_template: { send: '## What does this MR do?' },
});

const PUT_ONLY = (): Record<string, ReadBackCase> => ({
  name: { elsewhere: 'tests/api/projects/write.test.ts' },
  path: { elsewhere: 'tests/api/projects/write.test.ts' },
  default_branch: { elsewhere: 'tests/api/repositories (default branch)' },
  ci_default_git_depth: { send: 10 },
  ci_forward_deployment_enabled: { send: false },
  compliance_framework_setting: { elsewhere: 'tests/api/projects/compliance-framework.test.ts' },
});

const POST_ONLY = (): Record<string, ReadBackCase> => ({
  name: { elsewhere: 'tests/api/projects/create.test.ts' },
  path: { elsewhere: 'tests/api/projects/create.test.ts' },
  namespace_id: { elsewhere: 'tests/api/projects/create.test.ts' },
  default_branch: { elsewhere: 'tests/api/projects/create.test.ts' },
  initialize_with_readme: { elsewhere: 'tests/api/projects/create.test.ts' },
});

describe('project settings: every 13.6 parameter applied', () => {
  it('PUT /projects/:id and POST /projects declare exactly the parameters these tables cover', async () => {
    const declared = await declaredParamsByRoute();
    expect(new Set(declared.get('PUT /projects/:id')!.params)).toEqual(new Set(Object.keys({ ...SETTINGS(1), ...PUT_ONLY() })));
    expect(new Set(declared.get('POST /projects')!.params)).toEqual(new Set(Object.keys({ ...SETTINGS(1), ...POST_ONLY() })));
    expect(declared.get('POST /projects/user/:user_id')!.params.sort()).toEqual(declared.get('POST /projects')!.params.sort());
  });

  it('PUT sets every setting to a non-default value; GET reads each back', async () => {
    const { user: admin, token } = await createAdmin();
    const p = await createProject(token, { visibility: 'private' });
    const cases = { ...SETTINGS(admin.id), ...PUT_ONLY() };
    const res = await api.put(`/projects/${p.id}`, { token, body: sentValues(cases), env: ULTIMATE });
    expect(res.status, res.text).toBe(200);
    expectReadBack(res.body, cases);
    const read = await api.get(`/projects/${p.id}`, { token, env: ULTIMATE });
    expect(read.status).toBe(200);
    expectReadBack(read.body, cases);
    // A second PUT of one setting leaves the others as they are (settings merge, nothing is reset).
    await api.put(`/projects/${p.id}`, { token, body: { build_timeout: 900 }, env: ULTIMATE });
    const again = (await api.get(`/projects/${p.id}`, { token, env: ULTIMATE })).body;
    expect(again.build_timeout).toBe(900);
    expectReadBack(again, { ...cases, build_timeout: { send: 900 } });
  });

  it('POST /projects and POST /projects/user/:user_id apply every setting they are given', async () => {
    const { user: admin, token } = await createAdmin();
    const cases = SETTINGS(admin.id);
    const created = await api.post('/projects', { token, body: { name: unique('all'), ...sentValues(cases) }, env: ULTIMATE });
    expect(created.status, created.text).toBe(201);
    expectReadBack(created.body, cases);
    expectReadBack((await api.get(`/projects/${created.body.id}`, { token, env: ULTIMATE })).body, cases);
    const { user } = await createUser();
    const forUser = await api.post(`/projects/user/${user.id}`, { token, body: { name: unique('all'), ...sentValues(cases) }, env: ULTIMATE });
    expect(forUser.status, forUser.text).toBe(201);
    expectReadBack(forUser.body, cases);
  });

  it('the deprecated switches and names set what replaced them; an access level wins over its switch', async () => {
    const { token } = await createUser();
    const p = await createProject(token);
    const res = await api.put(`/projects/${p.id}`, {
      token,
      body: {
        issues_enabled: false,
        merge_requests_enabled: false,
        wiki_enabled: false,
        jobs_enabled: false,
        snippets_enabled: false,
        public_builds: false,
        topics: 'a,b',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      issues_access_level: 'disabled',
      issues_enabled: false,
      merge_requests_access_level: 'disabled',
      merge_requests_enabled: false,
      wiki_access_level: 'disabled',
      wiki_enabled: false,
      builds_access_level: 'disabled',
      jobs_enabled: false,
      snippets_access_level: 'disabled',
      snippets_enabled: false,
      public_jobs: false,
      tag_list: ['a', 'b'],
      topics: ['a', 'b'],
    });
    const both = await api.put(`/projects/${p.id}`, { token, body: { issues_enabled: false, issues_access_level: 'private' } });
    expect(both.body).toMatchObject({ issues_access_level: 'private', issues_enabled: true });
  });

  it('the CI settings are shown to those who administer the project only; repository_storage to administrators', async () => {
    const { token } = await createUser();
    const p = await createProject(token, { visibility: 'public' });
    const own = (await api.get(`/projects/${p.id}`, { token })).body;
    expect(own).toMatchObject({ build_timeout: 3600, ci_config_path: null, build_git_strategy: 'fetch', auto_cancel_pending_pipelines: 'enabled' });
    expect(own).not.toHaveProperty('repository_storage');
    const other = (await api.get(`/projects/${p.id}`, { token: (await createUser()).token })).body;
    for (const key of ['build_timeout', 'ci_config_path', 'build_git_strategy', 'build_coverage_regex', 'auto_cancel_pending_pipelines', 'runners_token'])
      expect(other).not.toHaveProperty(key);
    expect((await api.get(`/projects/${p.id}`, { token: (await createAdmin()).token })).body.repository_storage).toBe('default');
  });

  it('13.6 defaults on a new project; EE settings only where the tier has them', async () => {
    const { token } = await createUser();
    const p = await createProject(token);
    const free = (await api.get(`/projects/${p.id}`, { token })).body;
    expect(free).toMatchObject({
      issues_access_level: 'enabled',
      builds_access_level: 'enabled',
      pages_access_level: 'private',
      public_jobs: true,
      shared_runners_enabled: true,
      lfs_enabled: true,
      request_access_enabled: true,
      printing_merge_request_link_enabled: true,
      ci_default_git_depth: 50,
      squash_option: 'default_off',
      tag_list: [],
      emails_disabled: null,
    });
    expect(free).not.toHaveProperty('approvals_before_merge');
    expect(free).not.toHaveProperty('mirror');
    expect((await api.get(`/projects/${p.id}`, { token, env: ULTIMATE })).body).toMatchObject({ approvals_before_merge: 0, mirror: false });
  });

  it('without the license, the mirror settings are removed from the request as GitLab does (EE filter_attributes_using_license!)', async () => {
    const { token } = await createUser();
    const p = await createProject(token);
    expect((await api.put(`/projects/${p.id}`, { token, body: { mirror: true, description: 'x' } })).status).toBe(200);
    expect((await api.get(`/projects/${p.id}`, { token, env: ULTIMATE })).body).toMatchObject({ mirror: false, description: 'x' });
  });

  it.each([
    [{ build_timeout: 599 }, { build_timeout: ['needs to be between 10 minutes and 1 month'] }],
    [{ build_timeout: 2_592_001 }, { build_timeout: ['needs to be between 10 minutes and 1 month'] }],
    [{ ci_default_git_depth: 1001 }, { 'ci_cd_settings.default_git_depth': ['must be less than or equal to 1000'] }],
    [{ ci_default_git_depth: -1 }, { 'ci_cd_settings.default_git_depth': ['must be greater than or equal to 0'] }],
    [{ ci_config_path: '../x.yml' }, { ci_config_path: ['cannot include leading slash or directory traversal.'] }],
    [{ ci_config_path: '/x.yml' }, { ci_config_path: ['cannot include leading slash or directory traversal.'] }],
    [{ build_coverage_regex: '(' }, { build_coverage_regex: [expect.stringMatching(/^not valid RE2 syntax: /)] }],
    [{ repository_storage: 'other' }, { repository_storage: ['is not included in the list'] }],
    [
      { repository_access_level: 'private' },
      {
        'project_feature.merge_requests_access_level': ['cannot have higher visibility level than repository access level'],
        'project_feature.builds_access_level': ['cannot have higher visibility level than repository access level'],
      },
    ],
  ])('%j is refused with the model error and nothing of the request is stored', async (body, errors) => {
    const { token } = await createUser();
    const p = await createProject(token);
    const res = await api.put(`/projects/${p.id}`, { token, body: { ...body, description: 'not stored' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: errors });
    const [row] = await testDb().db.select().from(projects).where(eq(projects.id, p.id));
    expect(row!.description).toBe('');
    expect(row!.settings).toEqual({});
    expect(row!.repositoryAccessLevel).toBe(20);
  });

  it.each([
    [{ issues_access_level: 'public' }, 'issues_access_level does not have a valid value'],
    [{ squash_option: 'sometimes' }, 'squash_option does not have a valid value'],
    [{ build_timeout: 'long' }, 'build_timeout is invalid'],
    [{ lfs_enabled: 'maybe' }, 'lfs_enabled is invalid'],
  ])('%j: 400 %s', async (body, error) => {
    const { token } = await createUser();
    const p = await createProject(token);
    const res = await api.put(`/projects/${p.id}`, { token, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
  });
});
