// The fixture the merge request tests share: a private project with its team (tests/api/repositories/team-support.ts),
// a file on master and a topic branch with a commit of its own; helpers for commits, branches and MRs over HTTP.
import { expect } from 'vitest';
import { api, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { projectWithTeam } from '../repositories/team-support.ts';

export const lines = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}\n`).join('');

export type Team = Awaited<ReturnType<typeof projectWithTeam>>;

export const repo = (fx: Pick<Team, 'project'>) => `/projects/${fx.project.id}/repository`;
export const mrs = (fx: Pick<Team, 'project'>) => `/projects/${fx.project.id}/merge_requests`;

export async function commit(fx: Pick<Team, 'project' | 'owner'>, branch: string, message: string, actions: Record<string, unknown>[], token = fx.owner.token) {
  const res = await api.post(`${repo(fx)}/commits`, { token, body: { branch, commit_message: message, actions } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; message: string };
}

export async function branch(fx: Pick<Team, 'project' | 'owner'>, name: string, ref = 'master') {
  const res = await api.post(`${repo(fx)}/branches`, { token: fx.owner.token, body: { branch: name, ref } });
  expect(res.status, res.text).toBe(201);
}

export const tip = async (fx: Pick<Team, 'project' | 'owner'>, name = 'master') =>
  ((await api.get(`${repo(fx)}/branches/${encodeURIComponent(name)}`, { token: fx.owner.token })).body as { commit: { id: string } }).commit.id;

export const file = async (fx: Pick<Team, 'project' | 'owner'>, path: string, ref = 'master') => {
  const res = await api.get(`${repo(fx)}/files/${encodeURIComponent(path)}/raw`, { token: fx.owner.token, query: { ref } });
  return res.status === 200 ? res.text : undefined;
};

/** A team project with list.txt on master and `topic` changing its line 3. */
export async function mrProject(prefix = 'mr') {
  const fx = await projectWithTeam(prefix);
  await commit(fx, 'master', 'Add the list', [{ action: 'create', file_path: 'list.txt', content: lines(20) }]);
  await branch(fx, 'topic');
  const change = await commit(fx, 'topic', 'Edit line 3', [
    { action: 'update', file_path: 'list.txt', content: lines(20).replace('line 3\n', 'line three\n') },
  ]);
  return { ...fx, change };
}

export async function openMergeRequest(fx: Pick<Team, 'project' | 'owner'>, body: Record<string, unknown> = {}, token = fx.owner.token) {
  const res = await api.post(mrs(fx), { token, body: { source_branch: 'topic', target_branch: 'master', title: 'Edit the list', ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; iid: number; sha: string; diff_refs: { base_sha: string; start_sha: string; head_sha: string } } & Record<string, unknown>;
}

/** An ISO 8601 timestamp with milliseconds, as the entities render times. */
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Entities::UserBasic of a test user. */
export const basic = (u: { id: number; name: string; username: string }) => ({
  id: u.id,
  name: u.name,
  username: u.username,
  state: 'active',
  avatar_url: null,
  web_url: `${TEST_PUBLIC_URL}/${u.username}`,
});
