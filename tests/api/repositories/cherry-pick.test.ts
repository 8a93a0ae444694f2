// POST /projects/:id/repository/commits/:sha/cherry_pick and /revert through HTTP, as GitLab 13.6 answers them:
// the change merged onto the branch's tip (lines merged when both sides edited a file), GitLab's messages and
// authorship, `error_code` conflict/empty, dry runs, the refusals (nothing stored on any), a push event per pick.
import { describe, expect, it } from 'vitest';
import { createUser } from '../../factories/users.ts';
import { api, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { projectWithTeam } from './team-support.ts';

const CONFLICT = (act: string, done: string) =>
  `Sorry, we cannot ${act} this commit automatically. This commit may already have been ${done}, or a more recent commit may have updated some of its content.`;
const PICK_FAILED = CONFLICT('cherry-pick', 'cherry-picked');
const REVERT_FAILED = CONFLICT('revert', 'reverted');

const lines = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}\n`).join('');

/** A private project with README.md on master, a topic branch from it, its owner, a developer and a reporter. */
async function setup() {
  const fx = await projectWithTeam('pick');
  await commit(fx, 'master', 'Add the list', [{ action: 'create', file_path: 'list.txt', content: lines(20) }]);
  const branch = await api.post(`/projects/${fx.project.id}/repository/branches`, { token: fx.owner.token, body: { branch: 'topic', ref: 'master' } });
  expect(branch.status, branch.text).toBe(201);
  return fx;
}

type Fx = Awaited<ReturnType<typeof setup>>;
const repo = (fx: Pick<Fx, 'project'>) => `/projects/${fx.project.id}/repository`;

async function commit(fx: Pick<Fx, 'project' | 'owner'>, branch: string, message: string, actions: Record<string, unknown>[], token = fx.owner.token) {
  const res = await api.post(`${repo(fx)}/commits`, { token, body: { branch, commit_message: message, actions } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; message: string };
}
const file = async (fx: Fx, path: string, ref = 'master') => {
  const res = await api.get(`${repo(fx)}/files/${encodeURIComponent(path)}/raw`, { token: fx.owner.token, query: { ref } });
  return res.status === 200 ? res.text : undefined;
};
const tip = async (fx: Fx, branch = 'master') =>
  ((await api.get(`${repo(fx)}/branches/${branch}`, { token: fx.owner.token })).body as { commit: { id: string } }).commit.id;
const pushes = async (fx: Fx) =>
  ((await api.get(`/projects/${fx.project.id}/events`, { token: fx.owner.token, query: { action: 'pushed' } })).body as unknown[]).length;
const pick = (fx: Fx, sha: string, body: Record<string, unknown>, token = fx.owner.token) =>
  api.post(`${repo(fx)}/commits/${sha}/cherry_pick`, { token, body });
const revert = (fx: Fx, sha: string, body: Record<string, unknown>, token = fx.owner.token) => api.post(`${repo(fx)}/commits/${sha}/revert`, { token, body });

/** The request changed nothing: the branch's tip and the push events are as before. */
async function nothingWritten(fx: Fx, request: () => Promise<unknown>) {
  const [before, events] = [await tip(fx), await pushes(fx)];
  await request();
  expect([await tip(fx), await pushes(fx)]).toEqual([before, events]);
}

describe('POST /projects/:id/repository/commits/:sha/cherry_pick', () => {
  it("201 with Entities::Commit: the change on the branch, the picked commit's author, GitLab's message", async () => {
    const fx = await setup();
    const source = await commit(
      fx,
      'topic',
      'Edit line 3\n\nBecause.',
      [{ action: 'update', file_path: 'list.txt', content: lines(20).replace('line 3\n', 'line three\n') }],
      fx.developer.token,
    );
    // master moves on meanwhile, elsewhere in the same file: the lines merge.
    await commit(fx, 'master', 'Edit line 18', [{ action: 'update', file_path: 'list.txt', content: lines(20).replace('line 18\n', 'line eighteen\n') }]);
    const parent = await tip(fx);
    const events = await pushes(fx);
    const res = await pick(fx, source.id, { branch: 'master' });
    expect(res.status, res.text).toBe(201);
    const id = (res.body as { id: string }).id;
    const dev = fx.developer.user as { name: string; email: string };
    const owner = fx.owner.user as { name: string; email: string };
    const message = `Edit line 3\n\nBecause.\n\n(cherry picked from commit ${source.id})`;
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{40}$/),
      short_id: id.slice(0, 8),
      created_at: expect.any(String),
      parent_ids: [parent],
      title: 'Edit line 3',
      message,
      author_name: dev.name,
      author_email: dev.email,
      authored_date: expect.any(String),
      committer_name: owner.name,
      committer_email: owner.email,
      committed_date: expect.any(String),
      web_url: `${TEST_PUBLIC_URL}/${fx.project.path_with_namespace}/-/commit/${id}`,
    });
    expect(Object.keys(res.body)).toEqual([
      'id',
      'short_id',
      'created_at',
      'parent_ids',
      'title',
      'message',
      'author_name',
      'author_email',
      'authored_date',
      'committer_name',
      'committer_email',
      'committed_date',
      'web_url',
    ]);
    expect(await file(fx, 'list.txt')).toBe(lines(20).replace('line 3\n', 'line three\n').replace('line 18\n', 'line eighteen\n'));
    expect(await tip(fx)).toBe(id);
    // The commit reads back as the API answered it, and one push event was recorded for master.
    const stored = await api.get(`${repo(fx)}/commits/${id}`, { token: fx.owner.token, query: { stats: false } });
    expect(stored.body).toMatchObject({ id, message, author_email: dev.email, committer_email: owner.email, parent_ids: [parent] });
    const [pushed] = (await api.get(`/projects/${fx.project.id}/events`, { token: fx.owner.token, query: { action: 'pushed' } })).body as any[];
    expect(await pushes(fx)).toBe(events + 1);
    expect(pushed.push_data).toMatchObject({
      commit_count: 1,
      action: 'pushed',
      ref_type: 'branch',
      ref: 'master',
      commit_from: parent,
      commit_to: id,
      commit_title: 'Edit line 3',
    });
  });

  it('adds, deletes, renames (as delete + add) and mode changes come across; untouched files stay', async () => {
    const fx = await setup();
    const source = await commit(fx, 'topic', 'Shuffle', [
      { action: 'create', file_path: 'dir/new.txt', content: 'new\n' },
      { action: 'delete', file_path: 'README.md' },
      { action: 'move', file_path: 'moved.txt', previous_path: 'list.txt' },
      { action: 'create', file_path: 'run.sh', content: 'echo\n' },
      { action: 'chmod', file_path: 'run.sh', execute_filemode: true },
    ]);
    await commit(fx, 'master', 'Elsewhere', [{ action: 'create', file_path: 'other.txt', content: 'o\n' }]);
    const res = await pick(fx, source.id, { branch: 'master' });
    expect(res.status, res.text).toBe(201);
    const entries = (await api.get(`${repo(fx)}/tree`, { token: fx.owner.token, query: { recursive: true } })).body as {
      path: string;
      mode: string;
      type: string;
    }[];
    expect(
      entries
        .filter((e) => e.type === 'blob')
        .map((e) => `${e.mode} ${e.path}`)
        .sort(),
    ).toEqual(['100644 dir/new.txt', '100644 moved.txt', '100644 other.txt', '100755 run.sh']);
  });

  it('a branch or tag name picks its commit (`sha` is any revision)', async () => {
    const fx = await setup();
    await commit(fx, 'topic', 'Topic file', [{ action: 'create', file_path: 't.txt', content: 't\n' }]);
    const res = await pick(fx, 'topic', { branch: 'master' });
    expect(res.status, res.text).toBe(201);
    expect(await file(fx, 't.txt')).toBe('t\n');
  });

  it('400 error_code conflict when both sides changed the same lines; empty when the branch has the change; nothing written', async () => {
    const fx = await setup();
    const source = await commit(fx, 'topic', 'Topic edit', [{ action: 'update', file_path: 'list.txt', content: lines(20).replace('line 5\n', 'topic 5\n') }]);
    await commit(fx, 'master', 'Master edit', [{ action: 'update', file_path: 'list.txt', content: lines(20).replace('line 5\n', 'master 5\n') }]);
    await nothingWritten(fx, async () => {
      const res = await pick(fx, source.id, { branch: 'master' });
      expect([res.status, res.body]).toEqual([400, { message: PICK_FAILED, error_code: 'conflict' }]);
    });
    // A modify/delete conflict.
    const deleted = await commit(fx, 'topic', 'Delete README', [{ action: 'delete', file_path: 'README.md' }]);
    await commit(fx, 'master', 'Edit README', [{ action: 'update', file_path: 'README.md', content: 'changed\n' }]);
    await nothingWritten(fx, async () => {
      const res = await pick(fx, deleted.id, { branch: 'master' });
      expect([res.status, res.body]).toEqual([400, { message: PICK_FAILED, error_code: 'conflict' }]);
    });
    // The same change twice: empty.
    const same = await commit(fx, 'topic', 'Add same', [{ action: 'create', file_path: 'same.txt', content: 's\n' }]);
    await commit(fx, 'master', 'Add same too', [{ action: 'create', file_path: 'same.txt', content: 's\n' }]);
    await nothingWritten(fx, async () => {
      const res = await pick(fx, same.id, { branch: 'master' });
      expect([res.status, res.body]).toEqual([400, { message: PICK_FAILED, error_code: 'empty' }]);
    });
  });

  it('dry_run: 200 {"dry_run":"success"} or the error with dry_run "error"; nothing written either way', async () => {
    const fx = await setup();
    const ok = await commit(fx, 'topic', 'Clean', [{ action: 'create', file_path: 'c.txt', content: 'c\n' }]);
    await nothingWritten(fx, async () => {
      const res = await pick(fx, ok.id, { branch: 'master', dry_run: true });
      expect([res.status, res.body]).toEqual([200, { dry_run: 'success' }]);
    });
    await commit(fx, 'master', 'Same', [{ action: 'create', file_path: 'c.txt', content: 'other\n' }]);
    await nothingWritten(fx, async () => {
      const res = await pick(fx, ok.id, { branch: 'master', dry_run: true });
      expect([res.status, res.body]).toEqual([400, { message: PICK_FAILED, error_code: 'conflict', dry_run: 'error' }]);
    });
  });

  it.each([
    ['no branch', 400, 'HEAD', {}, { error: 'branch is missing' }],
    ['a blank branch', 400, 'HEAD', { branch: ' ' }, { error: 'branch is empty' }],
    ['a bad dry_run', 400, 'HEAD', { branch: 'master', dry_run: 'maybe' }, { error: 'dry_run is invalid' }],
    ['an unknown commit', 404, 'f'.repeat(40), { branch: 'master' }, { message: '404 Commit Not Found' }],
    ['an unknown branch', 404, 'topic', { branch: 'nope' }, { message: '404 Branch Not Found' }],
  ])('%s: %i, nothing written', async (_name, status, sha, body, expected) => {
    const fx = await setup();
    await nothingWritten(fx, async () => {
      const res = await pick(fx, sha, body);
      expect([res.status, res.body]).toEqual([status, expected]);
    });
  });

  it('a developer may not pick onto the protected default branch, but may onto another', async () => {
    const fx = await setup();
    const source = await commit(fx, 'topic', 'Topic file', [{ action: 'create', file_path: 't.txt', content: 't\n' }]);
    await nothingWritten(fx, async () => {
      const res = await pick(fx, source.id, { branch: 'master' }, fx.developer.token);
      expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden - You are not allowed to push into this branch' }]);
    });
    await api.post(`${repo(fx)}/branches`, { token: fx.owner.token, body: { branch: 'release', ref: 'master' } });
    expect((await pick(fx, source.id, { branch: 'release' }, fx.developer.token)).status).toBe(201);
  });
});

describe('POST /projects/:id/repository/commits/:sha/revert', () => {
  it("201: the change undone on the branch, GitLab's message, the user as author and committer", async () => {
    const fx = await setup();
    const edit = await commit(fx, 'master', 'Edit line 7', [
      { action: 'update', file_path: 'list.txt', content: lines(20).replace('line 7\n', 'line seven\n') },
      { action: 'create', file_path: 'added.txt', content: 'a\n' },
    ]);
    await commit(fx, 'master', 'Later edit', [
      { action: 'update', file_path: 'list.txt', content: lines(20).replace('line 7\n', 'line seven\n').replace('line 1\n', 'line one\n') },
    ]);
    const parent = await tip(fx);
    const res = await revert(fx, edit.id, { branch: 'master' }, fx.owner.token);
    expect(res.status, res.text).toBe(201);
    const owner = fx.owner.user as { name: string; email: string };
    expect(res.body).toMatchObject({
      parent_ids: [parent],
      title: 'Revert "Edit line 7"',
      message: `Revert "Edit line 7"\n\nThis reverts commit ${edit.id}`,
      author_name: owner.name,
      author_email: owner.email,
      committer_email: owner.email,
    });
    expect(await file(fx, 'list.txt')).toBe(lines(20).replace('line 1\n', 'line one\n'));
    expect(await file(fx, 'added.txt')).toBeUndefined();
    // Reverting it again changes nothing: empty.
    await nothingWritten(fx, async () => {
      const again = await revert(fx, edit.id, { branch: 'master' });
      expect([again.status, again.body]).toEqual([400, { message: REVERT_FAILED, error_code: 'empty' }]);
    });
  });

  it('a long title is cut as Commit#title cuts it; a conflict is error_code conflict', async () => {
    const fx = await setup();
    const title = `${'word '.repeat(22)}end`;
    const edit = await commit(fx, 'master', title, [{ action: 'update', file_path: 'list.txt', content: lines(20).replace('line 2\n', 'line two\n') }]);
    const res = await revert(fx, edit.id, { branch: 'master', dry_run: true });
    expect([res.status, res.body]).toEqual([200, { dry_run: 'success' }]);
    await commit(fx, 'master', 'Over it', [{ action: 'update', file_path: 'list.txt', content: lines(20).replace('line 2\n', 'line 2b\n') }]);
    const conflicted = await revert(fx, edit.id, { branch: 'master' });
    expect([conflicted.status, conflicted.body]).toEqual([400, { message: REVERT_FAILED, error_code: 'conflict' }]);
    const fixed = await commit(fx, 'master', title, [{ action: 'create', file_path: 'x.txt', content: 'x\n' }]);
    const ok = await revert(fx, fixed.id, { branch: 'master' });
    expect((ok.body as { message: string }).message).toBe(`Revert "${'word '.repeat(15)}word…"\n\nThis reverts commit ${fixed.id}`);
  });
});

describeAuthorization('POST /projects/:id/repository/commits/:sha/cherry_pick', {
  fixture: async () => {
    const fx = await setup();
    const stranger = await createUser();
    return { ...fx, allowed: fx.owner.token, nonMember: stranger.token, insufficientRole: fx.reporter.token };
  },
  call: async (fx, token) => {
    const source = await commit(fx, 'topic', 'Topic', [{ action: 'create', file_path: `${Math.random()}.txt`, content: 'x' }]);
    return api.post(`${repo(fx)}/commits/${source.id}/cherry_pick`, { token, body: { branch: 'master' } });
  },
  success: 201,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 403, body: { message: '403 Forbidden - You are not allowed to push into this branch' } },
});
