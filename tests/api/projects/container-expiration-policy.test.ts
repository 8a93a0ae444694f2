// Container expiration policies (13.6, Core) through REST: every project shows GitLab's defaults in its entity;
// PUT /projects/:id `container_expiration_policy_attributes` (JSON or Rack-nested form names) changes them under the
// project's update rule, with next_run_at a cadence from the change; invalid values (inclusion, RE2 patterns checked
// with RE2 semantics, never JavaScript's) are 400 in Rails' nested-attribute keys and change nothing, neither the
// policy nor the project's other attributes.
import { describe, expect, it } from 'vitest';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { addMember } from '../../factories/groups.ts';
import { api } from '../../helpers/app.ts';

const DAY = 86_400_000;

describe('container_expiration_policy on the project entity', () => {
  it('shows the defaults a new project has, the next run a day after its creation', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    const res = await api.get(`/projects/${project.id}`, { token: owner.token });
    expect(res.body.container_expiration_policy).toEqual({
      cadence: '1d',
      enabled: true,
      keep_n: 10,
      older_than: '90d',
      name_regex: null,
      name_regex_keep: null,
      next_run_at: new Date(Date.parse(res.body.created_at) + DAY).toISOString(),
    });
  });
});

describe('PUT /projects/:id container_expiration_policy_attributes', () => {
  it('changes the policy (JSON body), keeps what was not given, and schedules the next run a cadence from now', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    const before = Date.now();
    const res = await api.put(`/projects/${project.id}`, {
      token: owner.token,
      body: { container_expiration_policy_attributes: { cadence: '7d', keep_n: 25, name_regex: '^v\\d+\\.\\d+$', name_regex_keep: 'latest|stable' } },
    });
    expect(res.status).toBe(200);
    const p = res.body.container_expiration_policy;
    expect(p).toMatchObject({ cadence: '7d', enabled: true, keep_n: 25, older_than: '90d', name_regex: '^v\\d+\\.\\d+$', name_regex_keep: 'latest|stable' });
    const next = Date.parse(p.next_run_at);
    expect(next).toBeGreaterThanOrEqual(before + 7 * DAY - 1000);
    expect(next).toBeLessThanOrEqual(Date.now() + 7 * DAY + 1000);
    // Rack's nested names from a form; a second change keeps the first's other values.
    const form = await api.put(`/projects/${project.id}`, {
      token: owner.token,
      form: { 'container_expiration_policy_attributes[enabled]': 'false', 'container_expiration_policy_attributes[older_than]': '14d' },
    });
    expect(form.status).toBe(200);
    expect(form.body.container_expiration_policy).toMatchObject({ cadence: '7d', enabled: false, keep_n: 25, older_than: '14d' });
    expect((await api.get(`/projects/${project.id}`, { token: owner.token })).body.container_expiration_policy).toEqual(form.body.container_expiration_policy);
  });

  it.each([
    [{ cadence: '2d' }, { 'container_expiration_policy.cadence': ['is not included in the list'] }],
    [{ keep_n: 3 }, { 'container_expiration_policy.keep_n': ['is not included in the list'] }],
    [{ older_than: '1d' }, { 'container_expiration_policy.older_than': ['is not included in the list'] }],
    [{ name_regex: '(abc' }, { 'container_expiration_policy.name_regex': ['not valid RE2 syntax: missing ): (abc'] }],
    [{ name_regex_keep: '[a' }, { 'container_expiration_policy.name_regex_keep': ['not valid RE2 syntax: missing ]: [a'] }],
    // Valid in JavaScript, not in RE2: a backreference and a lookahead.
    [{ name_regex: '(a)\\1' }, { 'container_expiration_policy.name_regex': ['not valid RE2 syntax: invalid escape sequence: \\1'] }],
    [{ name_regex: 'a(?=b)' }, { 'container_expiration_policy.name_regex': ['not valid RE2 syntax: invalid perl operator: (?='] }],
  ])('refuses %j with the model error and changes nothing (not even the name given with it)', async (attrs, message) => {
    const owner = await createUser();
    const project = await createProject(owner.token, { name: 'Keep Me' });
    const before = (await api.get(`/projects/${project.id}`, { token: owner.token })).body;
    const res = await api.put(`/projects/${project.id}`, { token: owner.token, body: { name: 'Changed', container_expiration_policy_attributes: attrs } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
    const after = (await api.get(`/projects/${project.id}`, { token: owner.token })).body;
    expect(after.name).toBe('Keep Me');
    expect(after.container_expiration_policy).toEqual(before.container_expiration_policy);
  });

  it('a disabled policy does not check its patterns (GitLab validates them only while enabled)', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    const res = await api.put(`/projects/${project.id}`, {
      token: owner.token,
      body: { container_expiration_policy_attributes: { enabled: false, name_regex: '(' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.container_expiration_policy).toMatchObject({ enabled: false, name_regex: '(' });
  });

  it("parameter types are Grape's errors; developers may not change the project", async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    const bad = await api.put(`/projects/${project.id}`, { token: owner.token, body: { container_expiration_policy_attributes: { keep_n: 'ten' } } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'container_expiration_policy_attributes[keep_n] is invalid' });
    const dev = await createUser();
    await addMember(owner.token, 'projects', project.id, dev.user.id, 30);
    expect((await api.put(`/projects/${project.id}`, { token: dev.token, body: { container_expiration_policy_attributes: { cadence: '7d' } } })).status).toBe(
      403,
    );
  });
});
