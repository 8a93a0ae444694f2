// Every parameter GitLab 13.6 declares for POST/PUT /groups (GroupsHelpers' optional_params CE and EE, and each
// route's own) is declared, set to a value other than its default, and read back. The tables are the check: a
// parameter the route declares but the tables miss (or the reverse) fails the first test.
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { declaredParamsByRoute, expectReadBack, sentValues, type ReadBackCase } from '../../helpers/declared-params.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';
import { createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';

const PREMIUM = { INSTANCE_TIER: 'premium' as const };

const SETTINGS = (templateProjectId: number): Record<string, ReadBackCase> => ({
  description: { send: 'all settings' },
  visibility: { send: 'internal' },
  share_with_group_lock: { send: true },
  require_two_factor_authentication: { send: true },
  two_factor_grace_period: { send: 24 },
  project_creation_level: { send: 'maintainer' },
  auto_devops_enabled: { send: true },
  subgroup_creation_level: { send: 'owner' },
  emails_disabled: { send: true },
  mentions_disabled: { send: true },
  lfs_enabled: { send: false },
  request_access_enabled: { send: false },
  default_branch_protection: { send: 1 },
  avatar: { elsewhere: 'tests/api/uploads/avatars.test.ts' },
  // EE
  membership_lock: { send: true },
  file_template_project_id: { send: templateProjectId },
  shared_runners_minutes_limit: { send: 400 },
  extra_shared_runners_minutes_limit: { send: 100 },
});
const PUT_ONLY = (): Record<string, ReadBackCase> => ({
  name: { elsewhere: 'tests/api/groups/update-delete.test.ts' },
  path: { elsewhere: 'tests/api/groups/update-delete.test.ts' },
});
const POST_ONLY = (): Record<string, ReadBackCase> => ({
  name: { elsewhere: 'tests/api/groups/create.test.ts' },
  path: { elsewhere: 'tests/api/groups/create.test.ts' },
  parent_id: { elsewhere: 'tests/api/groups/create.test.ts' },
});

describe('group settings: every 13.6 parameter applied', () => {
  it('PUT /groups/:id and POST /groups declare exactly the parameters these tables cover', async () => {
    const declared = await declaredParamsByRoute();
    expect(new Set(declared.get('PUT /groups/:id')!.params)).toEqual(new Set(Object.keys({ ...SETTINGS(1), ...PUT_ONLY() })));
    expect(new Set(declared.get('POST /groups')!.params)).toEqual(new Set(Object.keys({ ...SETTINGS(1), ...POST_ONLY() })));
  });

  it('PUT and POST set every setting; GET reads each back (administrators see the CI minutes limits)', async () => {
    const { token } = await createAdmin();
    const template = await createProject(token);
    const cases = SETTINGS(template.id);
    const g = await createGroup(token, { visibility: 'public' });
    const res = await api.put(`/groups/${g.id}`, { token, body: sentValues(cases), env: PREMIUM });
    expect(res.status, res.text).toBe(200);
    expectReadBack(res.body, cases);
    expectReadBack((await api.get(`/groups/${g.id}`, { token, env: PREMIUM })).body, cases);
    const created = await api.post('/groups', { token, body: { name: unique('all'), path: unique('all'), ...sentValues(cases) }, env: PREMIUM });
    expect(created.status, created.text).toBe(201);
    expectReadBack(created.body, cases);
  });

  it("13.6's defaults; the CI minutes limits are administrators' to set and see", async () => {
    const owner = await createUser();
    const g = await createGroup(owner.token);
    const body = (await api.get(`/groups/${g.id}`, { token: owner.token })).body;
    expect(body).toMatchObject({
      share_with_group_lock: false,
      require_two_factor_authentication: false,
      two_factor_grace_period: 48,
      project_creation_level: 'developer',
      subgroup_creation_level: 'maintainer',
      auto_devops_enabled: null,
      emails_disabled: null,
      mentions_disabled: null,
      lfs_enabled: true,
      request_access_enabled: true,
      default_branch_protection: 2,
    });
    expect(body).not.toHaveProperty('shared_runners_minutes_limit');
    // An owner's limits are removed from the request, as EE's GroupsHelpers does for non-administrators.
    expect((await api.put(`/groups/${g.id}`, { token: owner.token, body: { shared_runners_minutes_limit: 5 } })).status).toBe(200);
    expect((await api.get(`/groups/${g.id}`, { token: (await createAdmin()).token })).body.shared_runners_minutes_limit).toBeNull();
  });

  it.each([
    [{ project_creation_level: 'everyone' }, 'project_creation_level does not have a valid value'],
    [{ subgroup_creation_level: 'developer' }, 'subgroup_creation_level does not have a valid value'],
    [{ default_branch_protection: 4 }, 'default_branch_protection does not have a valid value'],
    [{ two_factor_grace_period: 'soon' }, 'two_factor_grace_period is invalid'],
  ])('%j: 400 %s, nothing stored', async (body, error) => {
    const owner = await createUser();
    const g = await createGroup(owner.token);
    const res = await api.put(`/groups/${g.id}`, { token: owner.token, body: { ...body, description: 'not stored' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
    expect((await api.get(`/groups/${g.id}`, { token: owner.token })).body.description).toBe('');
  });
});
