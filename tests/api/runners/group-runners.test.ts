// Group runners as GitLab 13.6 has them: the group's registration token (GroupDetail's runners_token, to those who
// administer the group), registration of a group_type runner through POST /runners, the job queue (the projects of
// the group and of its subgroups that take group runners, with the queue's tag rules), and the administration API
// (RunnerDetails' groups, the owners of the group and of the groups above it, GET /groups/:id/runners, a group runner
// refused by POST /projects/:id/runners).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { projects } from '../../../db/schema/index.ts';
import { api, appFetch, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';
import { registerRunner, requestJob, type TestRunner } from '../../helpers/ci-runner.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { commitFiles } from '../pipelines/support.ts';

const YAML = `build:
  script: [echo build]
gpu:
  script: [echo gpu]
  tags: [gpu]
`;

const NO_STORE = 'no-store';

/** An owner, a group and a subgroup of it; the group's registration token as its owner reads it. */
async function groupTree() {
  const owner = await createUser();
  const group = await createGroup(owner.token);
  const subgroup = await createGroup(owner.token, { parentId: group.id });
  const res = await api.get(`/groups/${group.id}`, { token: owner.token });
  expect(res.status).toBe(200);
  return { owner, group, subgroup, registration: res.body.runners_token as string };
}

/** A project with a `.gitlab-ci.yml` (its pipeline's jobs pending) in `namespaceId`. */
async function ciProjectIn(token: string, namespaceId?: number) {
  const project = await createProject(token, namespaceId === undefined ? {} : { namespaceId });
  await commitFiles(token, project.id, { '.gitlab-ci.yml': YAML });
  return project;
}

async function jobsOf(token: string, projectId: number) {
  const res = await api.get(`/projects/${projectId}/jobs`, { token });
  expect(res.status).toBe(200);
  return Object.fromEntries((res.body as Array<{ name: string; status: string; runner: { id: number } | null }>).map((j) => [j.name, j]));
}

const ids = (body: { id: number }[]) => body.map((r) => r.id);

describe("a group's registration token", () => {
  it("GET /groups/:id shows it to the group's owners and administrators, uncacheable; not to maintainers, nor without projects", async () => {
    const { owner, group, registration } = await groupTree();
    expect(registration).toMatch(new RegExp(`^g${group.id}-[0-9a-f]{20}$`));
    const own = await api.get(`/groups/${group.id}`, { token: owner.token });
    expect([own.headers.get('cache-control'), own.headers.get('pragma')]).toEqual([NO_STORE, 'no-cache']);
    // The same token on every read (derived, not stored).
    expect((await api.get(`/groups/${group.id}`, { token: (await createAdmin()).token })).body.runners_token).toBe(registration);

    const maintainer = await createUser();
    await addMember(owner.token, 'groups', group.id, maintainer.user.id, 40);
    const seen = await api.get(`/groups/${group.id}`, { token: maintainer.token });
    expect([seen.status, 'runners_token' in seen.body]).toEqual([200, false]);
    expect(seen.headers.get('cache-control')).not.toBe(NO_STORE);
    // with_projects=false presents Entities::Group, which has no runners_token; PUT presents GroupDetail without it.
    expect('runners_token' in (await api.get(`/groups/${group.id}`, { token: owner.token, query: { with_projects: false } })).body).toBe(false);
    const updated = await api.put(`/groups/${group.id}`, { token: owner.token, body: { description: 'x' } });
    expect([updated.status, 'runners_token' in updated.body]).toEqual([200, false]);
  });

  it('registers a group runner; a token of another group, a changed one or a deleted group is refused', async () => {
    const { owner, group, registration } = await groupTree();
    const res = await appFetch(`${TEST_PUBLIC_URL}/api/v4/runners`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: registration, description: 'group runner', tag_list: 'docker,linux' }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe(NO_STORE);
    const body = (await res.json()) as { id: number; token: string };
    expect(Object.keys(body).sort()).toEqual(['id', 'token']);
    const details = await api.get(`/runners/${body.id}`, { token: owner.token });
    expect(details.body).toMatchObject({
      id: body.id,
      description: 'group runner',
      is_shared: false,
      runner_type: 'group_type',
      tag_list: ['docker', 'linux'],
      projects: [],
      groups: [{ id: group.id, web_url: `${TEST_PUBLIC_URL}/groups/${group.full_path}`, name: group.name }],
    });

    const other = await groupTree();
    const forged = registration.replace(/^g\d+-/, `g${other.group.id}-`);
    for (const token of [forged, `${registration.slice(0, -1)}${registration.endsWith('0') ? '1' : '0'}`, `g${group.id}`]) {
      expect((await registerRaw(token)).status).toBe(403);
    }
    expect((await api.delete(`/groups/${group.id}`, { token: owner.token })).status).toBe(202);
    expect(await registerRaw(registration)).toEqual({ status: 403, body: { message: '403 Forbidden' } });
  });
});

async function registerRaw(token: string) {
  const res = await appFetch(`${TEST_PUBLIC_URL}/api/v4/runners`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  return { status: res.status, body: await res.json() };
}

describe('a group runner picks jobs', () => {
  it('of the projects of its group and its subgroups that take group runners, oldest first, by the tag rules', async () => {
    const { owner, group, subgroup, registration } = await groupTree();
    // Older jobs first: one outside the group, one of a project with group runners off. Neither is taken.
    const outside = await ciProjectIn(owner.token);
    const disabled = await createProject(owner.token, { namespaceId: subgroup.id });
    await testDb().db.update(projects).set({ groupRunnersEnabled: false }).where(eq(projects.id, disabled.id));
    await commitFiles(owner.token, disabled.id, { '.gitlab-ci.yml': YAML });
    const inSubgroup = await ciProjectIn(owner.token, subgroup.id);
    const inGroup = await ciProjectIn(owner.token, group.id);
    const runner = await registerRunner(appFetch, registration);

    const first = await requestJob(appFetch, runner);
    expect([first?.job_info.project_id, first?.job_info.name]).toEqual([inSubgroup.id, 'build']);
    const second = await requestJob(appFetch, runner);
    expect([second?.job_info.project_id, second?.job_info.name]).toEqual([inGroup.id, 'build']);
    // The tagged jobs need a runner with `gpu`; nothing else is this runner's.
    expect(await requestJob(appFetch, runner)).toBeNull();
    for (const p of [outside, disabled]) {
      const jobs = await jobsOf(owner.token, p.id);
      expect([jobs.build!.status, jobs.build!.runner]).toEqual(['pending', null]);
    }
    expect((await jobsOf(owner.token, inSubgroup.id)).build).toMatchObject({ status: 'running', runner: { id: runner.id, is_shared: false } });

    const tagged = await registerRunner(appFetch, registration, { tagList: ['gpu'], runUntagged: false });
    expect((await requestJob(appFetch, tagged))?.job_info).toMatchObject({ project_id: inSubgroup.id, name: 'gpu' });
    // Group runners on again: the project's job is the group runner's.
    await testDb().db.update(projects).set({ groupRunnersEnabled: true }).where(eq(projects.id, disabled.id));
    expect((await requestJob(appFetch, runner))?.job_info).toMatchObject({ project_id: disabled.id, name: 'build' });
  });

  it("of no project once its group is deleted; a subgroup's runner takes none of the parent's jobs", async () => {
    const { owner, group, subgroup } = await groupTree();
    const inParent = await ciProjectIn(owner.token, group.id);
    const subToken = (await api.get(`/groups/${subgroup.id}`, { token: owner.token })).body.runners_token as string;
    expect(subToken).toMatch(new RegExp(`^g${subgroup.id}-[0-9a-f]{20}$`));
    const subRunner = await registerRunner(appFetch, subToken);
    expect(await requestJob(appFetch, subRunner)).toBeNull();
    const first = await ciProjectIn(owner.token, subgroup.id);
    const second = await ciProjectIn(owner.token, subgroup.id);
    expect((await requestJob(appFetch, subRunner))?.job_info).toMatchObject({ project_id: first.id, name: 'build' });
    expect((await api.delete(`/groups/${subgroup.id}`, { token: owner.token })).status).toBe(202);
    expect(await requestJob(appFetch, subRunner)).toBeNull();
    expect((await jobsOf(owner.token, inParent.id)).build!.status).toBe('pending');
    expect(second.id).toBeGreaterThan(first.id);
  });
});

describe('group runners in the administration API', () => {
  async function fixture() {
    const tree = await groupTree();
    const project = await createProject(tree.owner.token, { namespaceId: tree.subgroup.id });
    const runner = await registerRunner(appFetch, tree.registration, { description: 'group runner', tagList: ['docker'] });
    return { ...tree, project, runner };
  }

  it("the owners of the group (and of the groups above) list, read, change and delete it; maintainers don't", async () => {
    const { owner, group, subgroup, project, runner } = await fixture();
    const mine = await api.get('/runners', { token: owner.token, query: { type: 'group_type' } });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual([
      {
        id: runner.id,
        description: 'group runner',
        ip_address: expect.anything(),
        active: true,
        is_shared: false,
        runner_type: 'group_type',
        name: expect.any(String),
        online: true,
        status: 'online',
      },
    ]);
    expect(mine.headers.get('x-total')).toBe('1');
    expect((await api.get('/runners', { token: owner.token, query: { type: 'project_type' } })).body).toEqual([]);
    const admin = await createAdmin();
    expect(ids((await api.get('/runners/all', { token: admin.token, query: { type: 'group_type', per_page: 100 } })).body)).toContain(runner.id);
    expect((await api.get(`/runners/${runner.id}`, { token: admin.token })).body.groups).toEqual([
      { id: group.id, web_url: `${TEST_PUBLIC_URL}/groups/${group.full_path}`, name: group.name },
    ]);

    // A maintainer of the group, and the owner of its subgroup only, own nothing of it.
    const maintainer = await createUser();
    await addMember(owner.token, 'groups', group.id, maintainer.user.id, 40);
    const subOwner = await createUser();
    await addMember(owner.token, 'groups', subgroup.id, subOwner.user.id, 50);
    for (const token of [maintainer.token, subOwner.token]) {
      expect((await api.get('/runners', { token })).body).toEqual([]);
      expect((await api.get(`/runners/${runner.id}`, { token })).body).toEqual({ message: '403 Forbidden - No access granted' });
      expect((await api.put(`/runners/${runner.id}`, { token, body: { description: 'x' } })).body).toEqual({ message: '403 Forbidden - No access granted' });
      expect((await api.delete(`/runners/${runner.id}`, { token })).body).toEqual({ message: '403 Forbidden - No access granted' });
    }

    const changed = await api.put(`/runners/${runner.id}`, { token: owner.token, body: { description: 'renamed', tag_list: 'a,b' } });
    expect([changed.status, changed.body.description, changed.body.tag_list, changed.body.runner_type]).toEqual([200, 'renamed', ['a', 'b'], 'group_type']);
    expect(changed.body.groups.map((g: { id: number }) => g.id)).toEqual([group.id]);

    // A group runner is never a project's: not enabled in one (administrators included), not disabled from one.
    for (const token of [owner.token, admin.token]) {
      const enabled = await api.post(`/projects/${project.id}/runners`, { token, body: { runner_id: runner.id } });
      expect([enabled.status, enabled.body]).toEqual([403, { message: '403 Forbidden - Runner is a group runner' }]);
    }
    expect((await api.delete(`/projects/${project.id}/runners/${runner.id}`, { token: owner.token })).body).toEqual({ message: '404 Runner Not Found' });
    // Its projects' runners list shows it (Ci::Runner.owned_or_instance_wide); a project outside the group does not.
    expect(ids((await api.get(`/projects/${project.id}/runners`, { token: owner.token, query: { type: 'group_type' } })).body)).toEqual([runner.id]);
    const outside = await createProject(owner.token);
    expect((await api.get(`/projects/${outside.id}/runners`, { token: owner.token, query: { type: 'group_type' } })).body).toEqual([]);

    const deleted = await api.delete(`/runners/${runner.id}`, { token: owner.token });
    expect(deleted.status).toBe(204);
    expect((await api.get(`/runners/${runner.id}`, { token: owner.token })).body).toEqual({ message: '404 Runner Not Found' });
  });

  it("an owner of a group above it owns it; RunnerDetails' groups shows only the groups the reader is authorized in", async () => {
    const { owner, subgroup } = await fixture();
    const subToken = (await api.get(`/groups/${subgroup.id}`, { token: owner.token })).body.runners_token as string;
    const subRunner = await registerRunner(appFetch, subToken);
    const parentOwner = await createUser();
    const parent = await createGroup(parentOwner.token);
    const child = await createGroup(parentOwner.token, { parentId: parent.id });
    const childToken = (await api.get(`/groups/${child.id}`, { token: parentOwner.token })).body.runners_token as string;
    const childRunner = await registerRunner(appFetch, childToken);
    expect(ids((await api.get('/runners', { token: owner.token, query: { type: 'group_type' } })).body)).toContain(subRunner.id);
    // The parent's owner, a member of the child too (its creator), sees the child in the details.
    expect((await api.get(`/runners/${childRunner.id}`, { token: parentOwner.token })).body.groups.map((g: { id: number }) => g.id)).toEqual([child.id]);
    // An owner of the parent only (no membership of the child, no project in it): owns the runner, is not authorized
    // in the child group (User#authorized_groups), so `groups` is empty.
    const heir = await createUser();
    await addMember(parentOwner.token, 'groups', parent.id, heir.user.id, 50);
    const details = await api.get(`/runners/${childRunner.id}`, { token: heir.token });
    expect([details.status, details.body.groups]).toEqual([200, []]);
    // With a project in the child group, the child is among the heir's authorized groups.
    await createProject(parentOwner.token, { namespaceId: child.id });
    expect((await api.get(`/runners/${childRunner.id}`, { token: heir.token })).body.groups.map((g: { id: number }) => g.id)).toEqual([child.id]);
  });

  it('GET /groups/:id/runners: the group runners of the group and the groups above it, filtered, paginated', async () => {
    const { owner, group, subgroup, runner } = await fixture();
    const subToken = (await api.get(`/groups/${subgroup.id}`, { token: owner.token })).body.runners_token as string;
    const subRunner = await registerRunner(appFetch, subToken, { description: 'sub runner' });
    await api.put(`/runners/${subRunner.id}`, { token: owner.token, body: { active: false } });
    const own = await api.get(`/groups/${group.id}/runners`, { token: owner.token });
    expect(own.status).toBe(200);
    expect(ids(own.body)).toEqual([runner.id]);
    expect(own.body[0]).toMatchObject({ id: runner.id, runner_type: 'group_type', is_shared: false, description: 'group runner' });
    const below = await api.get(`/groups/${subgroup.id}/runners`, { token: owner.token, query: { per_page: 1 } });
    expect(ids(below.body)).toEqual([runner.id]);
    expect([below.headers.get('x-total'), below.headers.get('x-total-pages'), below.headers.get('x-page'), below.headers.get('x-per-page')]).toEqual([
      '2',
      '2',
      '1',
      '1',
    ]);
    expect(below.headers.get('x-next-page')).toBe('2');
    expect(below.headers.get('link')).toContain('rel="next"');
    expect(ids((await api.get(`/groups/${subgroup.id}/runners`, { token: owner.token, query: { page: 2, per_page: 1 } })).body)).toEqual([subRunner.id]);
    expect(ids((await api.get(`/groups/${subgroup.id}/runners`, { token: owner.token, query: { status: 'paused' } })).body)).toEqual([subRunner.id]);
    expect(ids((await api.get(`/groups/${subgroup.id}/runners`, { token: owner.token, query: { tag_list: 'docker' } })).body)).toEqual([runner.id]);
    expect((await api.get(`/groups/${subgroup.id}/runners`, { token: owner.token, query: { type: 'project_type' } })).body).toEqual([]);
    expect((await api.get(`/groups/${subgroup.id}/runners`, { token: owner.token, query: { type: 'shared' } })).body).toEqual({
      error: 'type does not have a valid value',
    });
    const byPath = await api.get(`/groups/${encodeURIComponent(subgroup.full_path)}/runners`, { token: owner.token });
    expect(ids(byPath.body)).toEqual([runner.id, subRunner.id]);
    expect((await api.get('/groups/0/runners', { token: owner.token })).body).toEqual({ message: '404 Group Not Found' });
  });
});

describeAuthorization('GET /groups/:id/runners', {
  fixture: async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const maintainer = await createUser();
    await addMember(owner.token, 'groups', group.id, maintainer.user.id, 40);
    return { group, allowed: owner.token, nonMember: (await createUser()).token, insufficientRole: maintainer.token };
  },
  call: (fx, token) => api.get(`/groups/${fx.group.id}/runners`, { token }),
  success: 200,
  nonMember: { status: 404, body: { message: '404 Group Not Found' } },
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
});

describeAuthorization('GET /runners/:id of a group runner', {
  fixture: async () => {
    const { owner, group, registration } = await groupTree();
    const runner: TestRunner = await registerRunner(appFetch, registration);
    const maintainer = await createUser();
    await addMember(owner.token, 'groups', group.id, maintainer.user.id, 40);
    return { runner, allowed: owner.token, nonMember: (await createUser()).token, insufficientRole: maintainer.token };
  },
  call: (fx, token) => api.get(`/runners/${fx.runner.id}`, { token }),
  success: 200,
  nonMember: { status: 403, body: { message: '403 Forbidden - No access granted' } },
  insufficientRole: { status: 403, body: { message: '403 Forbidden - No access granted' } },
});

describeAuthorization('DELETE /runners/:id of a group runner', {
  fixture: async () => {
    const { owner, group, registration } = await groupTree();
    const runner: TestRunner = await registerRunner(appFetch, registration);
    const maintainer = await createUser();
    await addMember(owner.token, 'groups', group.id, maintainer.user.id, 40);
    return { runner, allowed: owner.token, nonMember: (await createUser()).token, insufficientRole: maintainer.token };
  },
  call: (fx, token) => api.delete(`/runners/${fx.runner.id}`, { token }),
  success: 204,
  nonMember: { status: 403, body: { message: '403 Forbidden - No access granted' } },
  insufficientRole: { status: 403, body: { message: '403 Forbidden - No access granted' } },
});
