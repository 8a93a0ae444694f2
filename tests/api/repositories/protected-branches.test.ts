// Protected branches through HTTP (GitLab 13.6 lib/api/protected_branches.rb): list/get/protect/unprotect with
// Entities::ProtectedBranch, the default branch protected by its first push, and the rule enforced on every write
// path (files, commits, branch deletion) and shown in the Branch entity (protected, developers_can_*, can_push).
import { describe, expect, it } from 'vitest';
import { createUser } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { projectWithMaintainer } from './team-support.ts';

const setup = (initialize = true) => projectWithMaintainer('pb', { initialize });
type Fx = Awaited<ReturnType<typeof setup>>;
const url = (fx: Fx, rest = '') => `/projects/${fx.project.id}/protected_branches${rest}`;
const list = async (fx: Fx) => (await api.get(url(fx), { token: fx.owner.token })).body as { name: string }[];
const level = (n: number, d: string | null) => [{ access_level: n, access_level_description: d }];
const MAINTAINERS = level(40, 'Maintainers');
const DEVELOPERS = level(30, 'Developers + Maintainers');
const branch = (fx: Fx, name: string, token = fx.developer.token) =>
  api.get(`/projects/${fx.project.id}/repository/branches/${encodeURIComponent(name)}`, { token });
const newBranch = (fx: Fx, name: string) =>
  api.post(`/projects/${fx.project.id}/repository/branches`, { token: fx.owner.token, body: { branch: name, ref: 'master' } });
const commit = (fx: Fx, token: string, branchName: string) =>
  api.post(`/projects/${fx.project.id}/repository/commits`, {
    token,
    body: { branch: branchName, commit_message: 'c', actions: [{ action: 'create', file_path: `f-${Math.random().toString(36).slice(2)}.txt`, content: 'x' }] },
  });

describe('the default branch', () => {
  it('is protected by its first push (README init): maintainers push and merge', async () => {
    const fx = await setup();
    const res = await api.get(url(fx), { token: fx.maintainer.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([
      { id: expect.any(Number), name: 'master', push_access_levels: MAINTAINERS, merge_access_levels: MAINTAINERS, code_owner_approval_required: false },
    ]);
    expect((await branch(fx, 'master')).body).toMatchObject({ protected: true, developers_can_push: false, developers_can_merge: false, can_push: false });
    expect((await commit(fx, fx.developer.token, 'master')).status).toBe(403);
    expect((await commit(fx, fx.maintainer.token, 'master')).status).toBe(201);
  });

  it('is protected by the first commit of an empty repository', async () => {
    const fx = await setup(false);
    expect(await list(fx)).toEqual([]);
    expect((await commit(fx, fx.maintainer.token, 'trunk')).status).toBe(201);
    expect((await list(fx)).map((p) => p.name)).toEqual(['trunk']);
  });

  it('a fork protects its own default branch', async () => {
    const fx = await setup();
    const fork = await api.post(`/projects/${fx.project.id}/fork`, {
      token: fx.developer.token,
      body: { path: `fork-${Date.now()}`, name: `fork-${Date.now()}` },
    });
    expect(fork.status, fork.text).toBe(201);
    const forkId = (fork.body as { id: number }).id;
    const res = await api.get(`/projects/${forkId}/protected_branches`, { token: fx.developer.token });
    expect((res.body as { name: string }[]).map((p) => p.name)).toEqual(['master']);
  });
});

describe('POST /projects/:id/protected_branches', () => {
  it('201; the levels default to maintainers; a wildcard protects every matching branch, the rule applies at once', async () => {
    const fx = await setup();
    expect((await newBranch(fx, 'release/1')).status).toBe(201);
    expect((await newBranch(fx, 'feature')).status).toBe(201);
    const res = await api.post(url(fx), { token: fx.maintainer.token, body: { name: 'release/*' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'release/*',
      push_access_levels: MAINTAINERS,
      merge_access_levels: MAINTAINERS,
      code_owner_approval_required: false,
    });
    expect((await branch(fx, 'release/1')).body).toMatchObject({ protected: true, can_push: false });
    expect((await branch(fx, 'feature')).body).toMatchObject({ protected: false, can_push: true });
    expect((await commit(fx, fx.developer.token, 'release/1')).status).toBe(403);
    expect((await commit(fx, fx.developer.token, 'feature')).status).toBe(201);
    // A protected branch is not deleted through the API (not even by a maintainer).
    expect((await api.delete(`/projects/${fx.project.id}/repository/branches/release%2F1`, { token: fx.maintainer.token })).body).toEqual({
      message: 'You can only delete protected branches using the web interface.',
    });
    // A new branch under the pattern is created only by who may merge into it (maintainers here).
    const created = await api.post(`/projects/${fx.project.id}/repository/branches`, {
      token: fx.developer.token,
      body: { branch: 'release/2', ref: 'master' },
    });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ message: 'You are not allowed to create protected branches on this project.' });
    expect(
      (await api.post(`/projects/${fx.project.id}/repository/branches`, { token: fx.maintainer.token, body: { branch: 'release/2', ref: 'master' } })).status,
    ).toBe(201);
    // The files API refuses with its own words.
    const file = await api.post(`/projects/${fx.project.id}/repository/files/x.txt`, {
      token: fx.developer.token,
      body: { branch: 'release/1', content: 'x', commit_message: 'm' },
    });
    expect(file.status).toBe(400);
    expect(file.body).toEqual({ message: 'You are not allowed to push into this branch' });
  });

  it('developers allowed to push and merge; "No one" stops maintainers too', async () => {
    const fx = await setup();
    expect((await newBranch(fx, 'dev')).status).toBe(201);
    expect((await newBranch(fx, 'frozen')).status).toBe(201);
    const dev = await api.post(url(fx), { token: fx.owner.token, body: { name: 'dev', push_access_level: 30, merge_access_level: 30 } });
    expect(dev.body).toMatchObject({ push_access_levels: DEVELOPERS, merge_access_levels: DEVELOPERS });
    expect((await branch(fx, 'dev')).body).toMatchObject({ protected: true, developers_can_push: true, developers_can_merge: true, can_push: true });
    expect((await commit(fx, fx.developer.token, 'dev')).status).toBe(201);
    const frozen = await api.post(url(fx), { token: fx.owner.token, body: { name: 'frozen', push_access_level: 0, merge_access_level: 40 } });
    expect(frozen.body).toMatchObject({ push_access_levels: level(0, 'No one'), merge_access_levels: MAINTAINERS });
    expect((await branch(fx, 'frozen', fx.maintainer.token)).body).toMatchObject({ protected: true, can_push: false });
    expect((await commit(fx, fx.maintainer.token, 'frozen')).status).toBe(403);
  });

  const refusals: [string, Record<string, unknown>, number, unknown][] = [
    ['an already protected name', { name: 'master' }, 409, { message: "Protected branch 'master' already exists" }],
    ['no name', {}, 400, { error: 'name is missing' }],
    ['a blank name', { name: '' }, 422, { message: ["Name can't be blank"] }],
    ['an unknown push level', { name: 'x', push_access_level: 20 }, 400, { error: 'push_access_level does not have a valid value' }],
    ['an unknown merge level', { name: 'x', merge_access_level: 50 }, 400, { error: 'merge_access_level does not have a valid value' }],
    ['a non-numeric level', { name: 'x', push_access_level: 'dev' }, 400, { error: 'push_access_level is invalid' }],
  ];
  it.each(refusals)('refuses %s; nothing written', async (_t, body, status, expected) => {
    const fx = await setup();
    const before = await list(fx);
    const res = await api.post(url(fx), { token: fx.owner.token, body });
    expect(res.status, res.text).toBe(status);
    expect(res.body).toEqual(expected);
    expect(await list(fx)).toEqual(before);
  });
});

describe('GET /projects/:id/protected_branches[/:name]', () => {
  it('lists by creation with pagination and search; a single one by its exact name; 404 Not found', async () => {
    const fx = await setup();
    for (const name of ['release/*', 'stable']) expect((await api.post(url(fx), { token: fx.owner.token, body: { name } })).status).toBe(201);
    const page = await api.get(url(fx), { token: fx.owner.token, query: { per_page: 2 } });
    expect((page.body as { name: string }[]).map((p) => p.name)).toEqual(['master', 'release/*']);
    expect(page.headers.get('x-total')).toBe('3');
    const found = await api.get(url(fx), { token: fx.owner.token, query: { search: 'STA' } });
    expect((found.body as { name: string }[]).map((p) => p.name)).toEqual(['stable']);
    const one = await api.get(url(fx, '/release%2F*'), { token: fx.owner.token });
    expect(one.status, one.text).toBe(200);
    expect(one.body).toMatchObject({ name: 'release/*' });
    const missing = await api.get(url(fx, '/release%2F1'), { token: fx.owner.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Not found' });
  });
});

describe('DELETE /projects/:id/protected_branches/:name', () => {
  it('204; the branch is unprotected at once; 404 Not found the second time', async () => {
    const fx = await setup();
    const res = await api.delete(url(fx, '/master'), { token: fx.maintainer.token });
    expect(res.status, res.text).toBe(204);
    expect(await list(fx)).toEqual([]);
    expect((await branch(fx, 'master')).body).toMatchObject({ protected: false, can_push: true });
    expect((await commit(fx, fx.developer.token, 'master')).status).toBe(201);
    const again = await api.delete(url(fx, '/master'), { token: fx.maintainer.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 Not found' });
  });
});

const authFixture = async () => {
  const fx = await setup();
  const stranger = await createUser();
  return { ...fx, allowed: fx.maintainer.token, nonMember: stranger.token, insufficientRole: fx.developer.token };
};
const forbiddenFor = {
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
};

describeAuthorization('GET /projects/:id/protected_branches', {
  fixture: authFixture,
  call: (fx, token) => api.get(url(fx), { token }),
  success: 200,
  // find_project! before authorize_admin_project: a private project is not found for an anonymous caller.
  anonymous: { status: 404, body: { message: '404 Project Not Found' } },
  ...forbiddenFor,
});
describeAuthorization('POST /projects/:id/protected_branches', {
  fixture: authFixture,
  call: (fx, token) => api.post(url(fx), { token, body: { name: `p-${Math.random().toString(36).slice(2)}` } }),
  success: 201,
  ...forbiddenFor,
});
describeAuthorization('DELETE /projects/:id/protected_branches/:name', {
  fixture: authFixture,
  call: (fx, token) => api.delete(url(fx, '/master'), { token }),
  success: 204,
  ...forbiddenFor,
});
