// Branch writes through HTTP (GitLab 13.6 lib/api/branches.rb): create with `branch` + `ref`, delete, the refusals
// CreateBranchService/ValidateNewBranchService/DeleteBranchService give, merged_branches, and their push events.
import { describe, expect, it } from 'vitest';
import { createUser } from '../../factories/users.ts';
import { api, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { projectWithTeam } from './team-support.ts';

const setup = (initialize = true) => projectWithTeam('br', { initialize });
type Fx = Awaited<ReturnType<typeof setup>>;
const branchesUrl = (fx: Fx) => `/projects/${fx.project.id}/repository/branches`;
const names = async (fx: Fx) => ((await api.get(branchesUrl(fx), { token: fx.owner.token })).body as { name: string }[]).map((b) => b.name);
const head = async (fx: Fx, ref = 'master') =>
  ((await api.get(`/projects/${fx.project.id}/repository/commits`, { token: fx.owner.token, query: { ref_name: ref } })).body as { id: string }[])[0]!.id;
const pushes = async (fx: Fx) =>
  (
    (await api.get(`/projects/${fx.project.id}/events`, { token: fx.owner.token, query: { action: 'pushed' } })).body as {
      push_data: Record<string, unknown>;
    }[]
  ).map((e) => e.push_data);

describe('POST /projects/:id/repository/branches', () => {
  it('201 with the Branch entity; a created push event without commits', async () => {
    const fx = await setup();
    const sha = await head(fx);
    const res = await api.post(branchesUrl(fx), { token: fx.developer.token, body: { branch: 'feature/one', ref: 'master' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      name: 'feature/one',
      commit: { id: sha, title: 'Initial commit' },
      merged: false,
      protected: false,
      default: false,
      can_push: true,
      web_url: `${TEST_PUBLIC_URL}/${fx.project.path_with_namespace}/-/tree/feature/one`,
    });
    expect(await names(fx)).toEqual(['feature/one', 'master']);
    expect((await pushes(fx))[0]).toEqual({
      commit_count: 0,
      action: 'created',
      ref_type: 'branch',
      commit_from: null,
      commit_to: sha,
      ref: 'feature/one',
      commit_title: null,
      ref_count: null,
    });
    // By commit id too.
    expect((await api.post(branchesUrl(fx), { token: fx.developer.token, body: { branch: 'by-sha', ref: sha.slice(0, 10) } })).status).toBe(201);
  });

  it('in an empty repository, master is created first with an empty README.md', async () => {
    const fx = await setup(false);
    const res = await api.post(branchesUrl(fx), { token: fx.owner.token, body: { branch: 'dev', ref: 'master' } });
    expect(res.status, res.text).toBe(201);
    expect(await names(fx)).toEqual(['dev', 'master']);
    expect((res.body as { commit: { title: string } }).commit.title).toBe('Add README.md');
  });

  it('in an empty repository, a developer may not make master (it is protected from its first push)', async () => {
    const fx = await setup(false);
    const res = await api.post(branchesUrl(fx), { token: fx.developer.token, body: { branch: 'dev', ref: 'master' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'You are not allowed to push code to protected branches on this project.' });
    expect(await names(fx)).toEqual([]);
  });

  const refusals: [string, Record<string, unknown>, number, unknown][] = [
    ['an existing branch', { branch: 'master', ref: 'master' }, 400, { message: 'Branch already exists' }],
    ['an invalid name', { branch: 'a..b', ref: 'master' }, 400, { message: 'Branch name is invalid' }],
    ['HEAD', { branch: 'HEAD', ref: 'master' }, 400, { message: 'Branch name is invalid' }],
    ['a name with a space', { branch: 'a b', ref: 'master' }, 400, { message: 'Branch name is invalid' }],
    ['a ref that names nothing', { branch: 'x', ref: 'nope' }, 400, { message: 'Invalid reference name: nope' }],
    ['no branch', { ref: 'master' }, 400, { error: 'branch is missing' }],
    ['an empty ref', { branch: 'x', ref: '' }, 400, { error: 'ref is empty' }],
  ];
  it.each(refusals)('refuses %s; nothing written', async (_t, body, status, expected) => {
    const fx = await setup();
    const before = await pushes(fx);
    const res = await api.post(branchesUrl(fx), { token: fx.owner.token, body });
    expect(res.status, res.text).toBe(status);
    expect(res.body).toEqual(expected);
    expect(await names(fx)).toEqual(['master']);
    expect(await pushes(fx)).toEqual(before);
  });
});

describe('DELETE /projects/:id/repository/branches/:branch', () => {
  it('204, the branch gone, a removed push event', async () => {
    const fx = await setup();
    const sha = await head(fx);
    await api.post(branchesUrl(fx), { token: fx.owner.token, body: { branch: 'feature/x', ref: 'master' } });
    const res = await api.delete(`${branchesUrl(fx)}/${encodeURIComponent('feature/x')}`, { token: fx.developer.token });
    expect(res.status, res.text).toBe(204);
    expect(await names(fx)).toEqual(['master']);
    expect((await pushes(fx))[0]).toEqual({
      commit_count: 0,
      action: 'removed',
      ref_type: 'branch',
      commit_from: sha,
      commit_to: null,
      ref: 'feature/x',
      commit_title: null,
      ref_count: null,
    });
  });

  it('404 for a missing branch; the default branch cannot be deleted', async () => {
    const fx = await setup();
    const missing = await api.delete(`${branchesUrl(fx)}/nope`, { token: fx.owner.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Branch Not Found' });
    const dflt = await api.delete(`${branchesUrl(fx)}/master`, { token: fx.owner.token });
    expect(dflt.status).toBe(400);
    expect(dflt.body).toEqual({ message: 'The default branch of a project cannot be deleted.' });
    expect(await names(fx)).toEqual(['master']);
  });
});

describe('DELETE /projects/:id/repository/merged_branches', () => {
  it('202 Accepted; branches merged into the default one are removed, others and the default kept', async () => {
    const fx = await setup();
    const commits = `/projects/${fx.project.id}/repository/commits`;
    await api.post(branchesUrl(fx), { token: fx.owner.token, body: { branch: 'old', ref: 'master' } });
    await api.post(branchesUrl(fx), { token: fx.owner.token, body: { branch: 'same', ref: 'master' } });
    const ahead = await api.post(commits, {
      token: fx.owner.token,
      body: { branch: 'ahead', start_branch: 'master', commit_message: 'a', actions: [{ action: 'create', file_path: 'a', content: 'a' }] },
    });
    expect(ahead.status).toBe(201);
    const moved = await api.post(commits, {
      token: fx.owner.token,
      body: { branch: 'master', commit_message: 'm', actions: [{ action: 'create', file_path: 'm', content: 'm' }] },
    });
    expect(moved.status).toBe(201);
    // `same` now also lags master: merged. `ahead` has a commit master lacks.
    const res = await api.delete(`/projects/${fx.project.id}/repository/merged_branches`, { token: fx.developer.token });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: '202 Accepted' });
    expect(await names(fx)).toEqual(['ahead', 'master']);
  });
});

describeAuthorization('POST /projects/:id/repository/branches', {
  fixture: async () => {
    const fx = await setup();
    const stranger = await createUser();
    return { ...fx, allowed: fx.developer.token, nonMember: stranger.token, insufficientRole: fx.reporter.token };
  },
  call: (fx, token) => api.post(branchesUrl(fx), { token, body: { branch: `b-${Math.random().toString(36).slice(2)}`, ref: 'master' } }),
  success: 201,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
});
