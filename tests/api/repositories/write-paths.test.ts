// Issue 28: the paths git refuses never enter a tree, at every door that writes one, and a commit's size is capped.
// `.git/config` with a core.fsmonitor command in an archive ran code on `git status` in the extracted folder, so the
// commits and files APIs answer libgit2's refusal as GitLab 13.6 does (400 "invalid path: '<path>'"), for `.git` in
// any case and in its NTFS/HFS+ spellings anywhere in the path; cherry-pick and merge request merges refuse to bring
// such a path over from a commit already stored (as a push made before this check could have). Nothing is stored on
// any refusal.
import { describe, expect, it } from 'vitest';
import { findRepository } from '../../../db/queries/repositories/refs.ts';
import { encodeCommit } from '../../../functions/repositories/git/commit.ts';
import { hashObject } from '../../../functions/repositories/git/oid.ts';
import { encodeTree } from '../../../functions/repositories/git/tree.ts';
import { applyWrite, prepareWrite } from '../../../functions/repositories/store/store.ts';
import { api, testDb } from '../../helpers/app.ts';
import { projectWithTeam } from './team-support.ts';

type Fx = Awaited<ReturnType<typeof projectWithTeam>>;
const repo = (fx: Fx) => `/projects/${fx.project.id}/repository`;
const tip = async (fx: Fx, branch = 'master') =>
  ((await api.get(`${repo(fx)}/branches/${branch}`, { token: fx.owner.token })).body as { commit: { id: string } }).commit.id;
const pushes = async (fx: Fx) =>
  ((await api.get(`/projects/${fx.project.id}/events`, { token: fx.owner.token, query: { action: 'pushed' } })).body as unknown[]).length;

/** `request` answers `status` (400 unless told) with `body`, and the branch and the push events are as before. */
async function refused(fx: Fx, request: () => Promise<{ status: number; body: unknown; text: string }>, body: unknown, status = 400) {
  const before = [await tip(fx), await pushes(fx)];
  const res = await request();
  expect(res.status, res.text).toBe(status);
  expect(res.body).toEqual(body);
  expect([await tip(fx), await pushes(fx)]).toEqual(before);
}

const commit = (fx: Fx, actions: Record<string, unknown>[]) =>
  api.post(`${repo(fx)}/commits`, { token: fx.owner.token, body: { branch: 'master', commit_message: 'm', actions } });

describe('paths git refuses', () => {
  const spellings = [
    '.git/config',
    '.git/hooks/post-checkout',
    '.GIT/config',
    '.Git/hooks/x',
    'a/.git/x',
    'a/b/.git',
    'git~1/config',
    '.git./config',
    '.git /config',
    '.git::$INDEX_ALLOCATION/config',
    '.g\u200cit/config',
    '\ufeff.git/config',
    'a\\.git\\config',
    'dir/line\nbreak.txt',
  ];
  it.each(spellings)('commits API: create %j is 400 invalid path', async (path) => {
    const fx = await projectWithTeam('paths');
    await refused(fx, () => commit(fx, [{ action: 'create', file_path: path, content: '[core]\n\tfsmonitor = touch pwned\n' }]), {
      message: `invalid path: '${path}'`,
    });
  });

  it('commits API: leading and doubled slashes are dropped before the check, as Gitaly cleans them', async () => {
    const fx = await projectWithTeam('paths');
    await refused(fx, () => commit(fx, [{ action: 'create', file_path: '//a//.git/config', content: 'x' }]), { message: "invalid path: 'a/.git/config'" });
  });

  it('commits API: a move into .git, an update and a chmod of one are refused; a later action undoes the earlier ones', async () => {
    const fx = await projectWithTeam('paths');
    await refused(fx, () => commit(fx, [{ action: 'move', previous_path: 'README.md', file_path: '.git/config' }]), { message: "invalid path: '.git/config'" });
    await refused(
      fx,
      () =>
        commit(fx, [
          { action: 'create', file_path: 'ok.txt', content: 'x' },
          { action: 'update', file_path: '.GIT/HEAD', content: 'x' },
        ]),
      { message: "invalid path: '.GIT/HEAD'" },
    );
    await refused(fx, () => commit(fx, [{ action: 'chmod', file_path: 'git~1/hooks/pre-commit', execute_filemode: true }]), {
      message: "invalid path: 'git~1/hooks/pre-commit'",
    });
  });

  it('commits API: names that only look like .git are accepted', async () => {
    const fx = await projectWithTeam('paths');
    const paths = ['.gitignore', '.gitmodules', '.github/workflows/ci.yml', 'a.git/x', '.gitx', 'git~2', 'back\\slash'];
    const res = await commit(
      fx,
      paths.map((file_path) => ({ action: 'create', file_path, content: 'x' })),
    );
    expect(res.status, res.text).toBe(201);
  });

  it('files API: POST and PUT of a .git path are 400 invalid path', async () => {
    const fx = await projectWithTeam('paths');
    const url = (path: string) => `${repo(fx)}/files/${encodeURIComponent(path)}`;
    const body = { branch: 'master', content: '#!/bin/sh\ntouch pwned\n', commit_message: 'hook' };
    await refused(fx, () => api.post(url('.git/hooks/post-checkout'), { token: fx.owner.token, body }), {
      message: "invalid path: '.git/hooks/post-checkout'",
    });
    await refused(fx, () => api.post(url('sub/.GIT/config'), { token: fx.owner.token, body }), { message: "invalid path: 'sub/.GIT/config'" });
    await refused(fx, () => api.put(url('.git/config'), { token: fx.owner.token, body }), { message: "invalid path: '.git/config'" });
  });

  it('cherry-pick and a merge request merge: a stored commit bringing .git/config is not applied', async () => {
    const fx = await projectWithTeam('paths');
    const evilOid = await storeEvilBranch(fx);
    await refused(fx, () => api.post(`${repo(fx)}/commits/${evilOid}/cherry_pick`, { token: fx.owner.token, body: { branch: 'master' } }), {
      message:
        'Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.',
      error_code: 'conflict',
    });
    // master moves on, so the merge is a real three-way merge (not a fast-forward of the stored commit).
    expect((await commit(fx, [{ action: 'create', file_path: 'other.txt', content: 'x' }])).status).toBe(201);
    const mr = await api.post(`/projects/${fx.project.id}/merge_requests`, {
      token: fx.owner.token,
      body: { source_branch: 'evil', target_branch: 'master', title: 'evil' },
    });
    expect(mr.status, mr.text).toBe(201);
    const iid = (mr.body as { iid: number }).iid;
    // The MR's check already found it cannot merge (merge_status cannot_be_merged): 13.6's mergeable_state? fails, 405.
    expect((await api.get(`/projects/${fx.project.id}/merge_requests/${iid}`, { token: fx.owner.token })).body).toMatchObject({
      merge_status: 'cannot_be_merged',
    });
    await refused(
      fx,
      () => api.put(`/projects/${fx.project.id}/merge_requests/${iid}/merge`, { token: fx.owner.token }),
      { message: '405 Method Not Allowed' },
      405,
    );
  });
});

/**
 * A branch `evil` whose commit adds .git/config on top of master, stored as a push made before pushes were checked
 * would have stored it. Returns the commit's id.
 */
async function storeEvilBranch(fx: Fx): Promise<string> {
  const encoder = new TextEncoder();
  const master = await tip(fx);
  const top = (await api.get(`${repo(fx)}/tree`, { token: fx.owner.token })).body as { name: string; id: string; mode: string }[];
  const config = encoder.encode('[core]\n\tfsmonitor = touch pwned\n');
  const gitDir = encodeTree([{ mode: '100644', name: encoder.encode('config'), oid: await hashObject('blob', config) }]);
  const root = encodeTree([
    ...top.map((e) => ({ mode: e.mode, name: encoder.encode(e.name), oid: e.id })),
    { mode: '40000', name: encoder.encode('.git'), oid: await hashObject('tree', gitDir) },
  ]);
  const who = { name: 'Mallory', email: 'm@example.com', time: 1_600_000_000, tz: '+0000' };
  const evil = encodeCommit({
    tree: await hashObject('tree', root),
    parents: [master],
    author: who,
    committer: who,
    headers: [],
    message: encoder.encode('evil\n'),
  });
  const write = await prepareWrite([
    { type: 'blob', body: config },
    { type: 'tree', body: gitDir },
    { type: 'tree', body: root },
    { type: 'commit', body: evil },
  ]);
  const oid = write.oids[3]!;
  const poolId = (await findRepository(testDb().db, fx.project.id))!.poolId!;
  await applyWrite(testDb(), poolId, write, [{ projectId: fx.project.id, name: 'refs/heads/evil', old: null, new: oid }]);
  return oid;
}

describe('caps on one commit', () => {
  it('a path over 4096 bytes (the issue: one path 4,900 directories deep) is refused at once', async () => {
    const fx = await projectWithTeam('caps');
    await refused(fx, () => commit(fx, [{ action: 'create', file_path: `${'a/'.repeat(4900)}f`, content: '' }]), {
      message: 'Path is too long: a path may have at most 4096 bytes (9801 given)',
    });
  });

  it('more than 10,000 directories are refused', async () => {
    const fx = await projectWithTeam('caps');
    const actions = Array.from({ length: 6 }, (_, c) => ({ action: 'create', file_path: `${`${'abcdef'[c]}/`.repeat(1800)}f`, content: '' }));
    await refused(fx, () => commit(fx, actions), { message: 'Too many directories: a commit may reach at most 10000 directories (10806 given)' });
  });

  it('more than 1 MiB of directory paths is refused', async () => {
    const fx = await projectWithTeam('caps');
    const actions = Array.from({ length: 2 }, (_, c) => ({ action: 'create', file_path: `${`${'ab'[c]}/`.repeat(1100)}f`, content: '' }));
    await refused(fx, () => commit(fx, actions), {
      message: 'Paths too deep: the directories a commit reaches may have at most 1048576 bytes of paths (2424402 given)',
    });
  });

  it('5,000 directories within the caps are one commit, readable back', async () => {
    const fx = await projectWithTeam('caps');
    const actions = Array.from({ length: 25 }, (_, c) => ({
      action: 'create',
      file_path: `${`${String.fromCharCode(97 + c)}/`.repeat(200)}f`,
      content: `${c}`,
    }));
    const res = await commit(fx, actions);
    expect(res.status, res.text).toBe(201);
    const raw = await api.get(`${repo(fx)}/files/${encodeURIComponent(actions[24]!.file_path)}/raw`, { token: fx.owner.token, query: { ref: 'master' } });
    expect([raw.status, raw.text]).toEqual([200, '24']);
  });
});
