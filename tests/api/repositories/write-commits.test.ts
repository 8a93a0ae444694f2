// POST /projects/:id/repository/commits through HTTP: every action kind, GitLab 13.6's refusals (nothing stored on
// any of them), branch protection for developers, author fields, start_branch/start_sha/force, push events.
import { describe, expect, it } from 'vitest';
import { createUser } from '../../factories/users.ts';
import { api, queryCount, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { postForm } from '../../helpers/raw-form.ts';
import { projectWithTeam } from './team-support.ts';

const FORBIDDEN_PUSH = { message: '403 Forbidden - You are not allowed to push into this branch' };

const setup = () => projectWithTeam('repo');

type Fx = Awaited<ReturnType<typeof setup>>;
const commitsUrl = (fx: Fx) => `/projects/${fx.project.id}/repository/commits`;
const commit = (fx: Fx, token: string, body: Record<string, unknown>) => api.post(commitsUrl(fx), { token, body });
const file = async (fx: Fx, path: string, ref = 'master') => {
  const res = await api.get(`/projects/${fx.project.id}/repository/files/${encodeURIComponent(path)}`, { token: fx.owner.token, query: { ref } });
  return res.status === 200 ? Buffer.from((res.body as { content: string }).content, 'base64').toString() : undefined;
};
const tree = async (fx: Fx, ref = 'master') => {
  const res = await api.get(`/projects/${fx.project.id}/repository/tree`, { token: fx.owner.token, query: { ref, recursive: true, per_page: 100 } });
  return (res.body as { path: string; type: string; mode: string }[])
    .filter((e) => e.type === 'blob')
    .map((e) => `${e.mode} ${e.path}`)
    .sort();
};
const history = async (fx: Fx, ref = 'master') => {
  const res = await api.get(commitsUrl(fx), { token: fx.owner.token, query: { ref_name: ref, per_page: 100 } });
  return (res.body as { id: string; title: string }[]).map((c) => c.title);
};

describe('POST /projects/:id/repository/commits', () => {
  it('reads actions from a form body as the Ruby gem sends them (actions[][action]=..&actions[][file_path]=..)', async () => {
    const fx = await setup();
    // HTTParty's HashConversions: each Hash of the Array as `actions[][name]` fields, percent-encoded; a name the
    // last Hash already has starts the next one.
    const form = [
      'branch=master',
      'commit_message=From+the+gem',
      'actions%5B%5D%5Baction%5D=create',
      'actions%5B%5D%5Bfile_path%5D=z.txt',
      'actions%5B%5D%5Bcontent%5D=z',
      'actions%5B%5D%5Baction%5D=create',
      'actions%5B%5D%5Bfile_path%5D=y.txt',
      'actions%5B%5D%5Bcontent%5D=eQ%3D%3D',
      'actions%5B%5D%5Bencoding%5D=base64',
    ].join('&');
    const res = await postForm(commitsUrl(fx), fx.owner.token, form);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ title: 'From the gem' });
    expect([await file(fx, 'z.txt'), await file(fx, 'y.txt')]).toEqual(['z', 'y']);
  });

  it('201 with the CommitDetail; each action kind changes the tree as git would', async () => {
    const fx = await setup();
    const res = await commit(fx, fx.owner.token, {
      branch: 'master',
      commit_message: 'Add files\n\nwith a body',
      actions: [
        { action: 'create', file_path: 'docs/a.md', content: 'alpha' },
        { action: 'create', file_path: 'bin/run', content: 'IyEvYmluL3NoCg==', encoding: 'base64' },
        { action: 'create', file_path: 'deep/x/y/z.txt', content: 'z' },
      ],
    });
    expect(res.status, res.text).toBe(201);
    const [readme] = (await api.get(commitsUrl(fx), { token: fx.owner.token, query: { ref_name: 'master' } })).body as { id: string }[];
    const owner = fx.owner.user as { name: string; email: string };
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{40}$/),
      short_id: (res.body as { id: string }).id.slice(0, 8),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000\+00:00$/),
      parent_ids: [expect.stringMatching(/^[0-9a-f]{40}$/)],
      title: 'Add files',
      message: 'Add files\n\nwith a body',
      author_name: owner.name,
      author_email: owner.email,
      authored_date: expect.any(String),
      committer_name: owner.name,
      committer_email: owner.email,
      committed_date: expect.any(String),
      web_url: `${TEST_PUBLIC_URL}/${fx.project.path_with_namespace}/-/commit/${(res.body as { id: string }).id}`,
      // `stats` defaults to true (lib/api/commits.rb: `present commit_detail, ..., stats: params[:stats]`).
      stats: { additions: 3, deletions: 0, total: 3 },
      status: null,
      project_id: fx.project.id,
      last_pipeline: null,
    });
    expect(readme!.id).toBe((res.body as { id: string }).id);
    expect(await file(fx, 'bin/run')).toBe('#!/bin/sh\n');
    expect(await tree(fx)).toEqual(['100644 README.md', '100644 bin/run', '100644 deep/x/y/z.txt', '100644 docs/a.md']);

    const next = await commit(fx, fx.owner.token, {
      branch: 'master',
      commit_message: 'Change them',
      actions: [
        { action: 'update', file_path: 'docs/a.md', content: 'beta' },
        { action: 'chmod', file_path: 'bin/run', execute_filemode: true },
        { action: 'move', file_path: 'docs/b.md', previous_path: 'docs/a.md' },
        { action: 'delete', file_path: 'deep/x/y/z.txt' },
        { action: 'move', file_path: 'top.md', previous_path: 'README.md', content: 'moved with new content' },
      ],
    });
    expect(next.status, next.text).toBe(201);
    expect((next.body as { parent_ids: string[] }).parent_ids).toEqual([(res.body as { id: string }).id]);
    // The emptied directories are gone (git stores no empty tree), the executable bit is set, the move kept content.
    expect(await tree(fx)).toEqual(['100644 docs/b.md', '100644 top.md', '100755 bin/run']);
    expect(await file(fx, 'docs/b.md')).toBe('beta');
    expect(await file(fx, 'top.md')).toBe('moved with new content');
    expect(await history(fx)).toEqual(['Change them', 'Add files', 'Initial commit']);
  });

  it('author_name/author_email set the author; the committer is the caller', async () => {
    const fx = await setup();
    const res = await commit(fx, fx.owner.token, {
      branch: 'master',
      commit_message: 'By someone',
      author_name: 'Jane Doe',
      author_email: 'jane@example.com',
      actions: [{ action: 'create', file_path: 'j.txt', content: 'j' }],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ author_name: 'Jane Doe', author_email: 'jane@example.com', committer_name: (fx.owner.user as { name: string }).name });
  });

  it('start_branch / start_sha create a branch; an existing branch needs force', async () => {
    const fx = await setup();
    const base = ((await api.get(commitsUrl(fx), { token: fx.owner.token })).body as { id: string }[])[0]!.id;
    const feature = await commit(fx, fx.developer.token, {
      branch: 'feature',
      start_branch: 'master',
      commit_message: 'On a branch',
      actions: [{ action: 'create', file_path: 'f.txt', content: 'f' }],
    });
    expect(feature.status, feature.text).toBe(201);
    expect((feature.body as { parent_ids: string[] }).parent_ids).toEqual([base]);
    expect(await history(fx, 'feature')).toEqual(['On a branch', 'Initial commit']);
    expect(await history(fx, 'master')).toEqual(['Initial commit']);

    const again = { branch: 'feature', start_sha: base, commit_message: 'Again', actions: [{ action: 'create', file_path: 'g.txt', content: 'g' }] };
    const refused = await commit(fx, fx.developer.token, again);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: "A branch called 'feature' already exists. Switch to that branch in order to make changes" });
    const forced = await commit(fx, fx.developer.token, { ...again, force: true });
    expect(forced.status, forced.text).toBe(201);
    expect(await history(fx, 'feature')).toEqual(['Again', 'Initial commit']);
  });

  it("start_project: a fork commits onto a branch started from its source's branch; any other project is 403, an unreadable one 404", async () => {
    const fx = await setup();
    const forkName = `fork-${Math.random().toString(36).slice(2, 8)}`;
    const forked = await api.post(`/projects/${fx.project.id}/fork`, {
      token: fx.owner.token,
      body: { name: forkName, path: forkName, namespace_path: (fx.owner.user as { username: string }).username },
    });
    expect(forked.status, forked.text).toBe(201);
    const fork = forked.body as { id: number };
    // The source moves on after the fork: the fork does not have this commit.
    const later = await commit(fx, fx.owner.token, {
      branch: 'master',
      commit_message: 'Later',
      actions: [{ action: 'create', file_path: 'later.txt', content: 'l' }],
    });
    const res = await api.post(`/projects/${fork.id}/repository/commits`, {
      token: fx.owner.token,
      body: {
        branch: 'from-source',
        start_branch: 'master',
        start_project: fx.project.id,
        commit_message: 'On top of the source',
        actions: [{ action: 'create', file_path: 'fork.txt', content: 'f' }],
      },
    });
    expect(res.status, res.text).toBe(201);
    expect((res.body as { parent_ids: string[] }).parent_ids).toEqual([(later.body as { id: string }).id]);
    const files = (await api.get(`/projects/${fork.id}/repository/tree`, { token: fx.owner.token, query: { ref: 'from-source' } })).body as { name: string }[];
    expect(files.map((f) => f.name).sort()).toEqual(['README.md', 'fork.txt', 'later.txt']);
    // By path too; the source itself is no fork of the fork.
    const byPath = await api.post(`/projects/${fork.id}/repository/commits`, {
      token: fx.owner.token,
      body: {
        branch: 'by-path',
        start_branch: 'master',
        start_project: fx.project.path_with_namespace,
        commit_message: 'm',
        actions: [{ action: 'create', file_path: 'p.txt', content: 'p' }],
      },
    });
    expect(byPath.status, byPath.text).toBe(201);
    const other = await api.post('/projects', { token: fx.owner.token, body: { name: `other-${Date.now()}` } });
    const notSource = await api.post(`/projects/${fork.id}/repository/commits`, {
      token: fx.owner.token,
      body: { branch: 'x', start_project: other.body.id, commit_message: 'm', actions: [{ action: 'create', file_path: 'x.txt', content: 'x' }] },
    });
    const otherName = `${(fx.owner.user as { name: string }).name} / ${other.body.name}`;
    expect([notSource.status, notSource.body]).toEqual([403, { message: `403 Forbidden - Project is not included in the fork network for ${otherName}` }]);
    const unknown = await api.post(`/projects/${fork.id}/repository/commits`, {
      token: fx.owner.token,
      body: { branch: 'x', start_project: 999_999_999, commit_message: 'm', actions: [{ action: 'create', file_path: 'x.txt', content: 'x' }] },
    });
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 Project Not Found' }]);
  });

  it('a developer may not push to the default (protected) branch; a reporter to none', async () => {
    const fx = await setup();
    const body = { branch: 'master', commit_message: 'x', actions: [{ action: 'create', file_path: 'x.txt', content: 'x' }] };
    const dev = await commit(fx, fx.developer.token, body);
    expect(dev.status).toBe(403);
    expect(dev.body).toEqual(FORBIDDEN_PUSH);
    const rep = await commit(fx, fx.reporter.token, { ...body, branch: 'topic', start_branch: 'master' });
    expect(rep.status).toBe(403);
    expect(rep.body).toEqual(FORBIDDEN_PUSH);
    expect(await history(fx)).toEqual(['Initial commit']);
  });

  describe('refusals: 400 with GitLab 13.6 messages and nothing stored', () => {
    const cases: [string, Record<string, unknown>, unknown][] = [
      [
        'create over an existing file',
        { actions: [{ action: 'create', file_path: 'README.md', content: 'x' }] },
        { message: 'A file with this name already exists' },
      ],
      ['update of a missing file', { actions: [{ action: 'update', file_path: 'nope.md', content: 'x' }] }, { message: "A file with this name doesn't exist" }],
      ['delete of a missing file', { actions: [{ action: 'delete', file_path: 'nope.md' }] }, { message: "A file with this name doesn't exist" }],
      [
        'move from a missing file',
        { actions: [{ action: 'move', file_path: 'b.md', previous_path: 'nope.md' }] },
        { message: "A file with this name doesn't exist" },
      ],
      [
        'chmod of a missing file',
        { actions: [{ action: 'chmod', file_path: 'nope', execute_filemode: true }] },
        { message: "A file with this name doesn't exist" },
      ],
      ['a path with ..', { actions: [{ action: 'create', file_path: '../etc/passwd', content: 'x' }] }, { message: 'Path cannot include directory traversal' }],
      [
        'a later action failing undoes the earlier ones',
        {
          actions: [
            { action: 'create', file_path: 'ok.md', content: 'x' },
            { action: 'delete', file_path: 'nope.md' },
          ],
        },
        { message: "A file with this name doesn't exist" },
      ],
      [
        'a stale last_commit_id',
        { actions: [{ action: 'update', file_path: 'README.md', content: 'x', last_commit_id: '0'.repeat(40) }] },
        { message: 'The file has changed since you started editing it: README.md' },
      ],
      [
        'a missing start branch',
        { branch: 'new', start_branch: 'nope', actions: [{ action: 'create', file_path: 'n.md', content: 'x' }] },
        { message: 'You can only create or edit files when you are on a branch' },
      ],
      [
        'a missing branch without start',
        { branch: 'nope', actions: [{ action: 'create', file_path: 'n.md', content: 'x' }] },
        { message: 'You can only create or edit files when you are on a branch' },
      ],
      [
        'an invalid new branch name',
        { branch: 'bad..name', start_branch: 'master', actions: [{ action: 'create', file_path: 'n.md', content: 'x' }] },
        { message: "Something went wrong when we tried to create 'bad..name' for you: Branch name is invalid" },
      ],
      ['an unknown action', { actions: [{ action: 'explode', file_path: 'n.md' }] }, { error: 'actions[0][action] does not have a valid value' }],
      [
        'both start_branch and start_sha',
        { start_branch: 'master', start_sha: 'abc', actions: [] },
        { error: 'start_branch, start_sha are mutually exclusive' },
      ],
      [
        'a file over MAX_FILE_SIZE',
        { actions: [{ action: 'create', file_path: 'big.bin', content: 'x'.repeat(2048) }] },
        { message: 'File big.bin is too large (0 MB): the maximum file size is 0 MB' },
      ],
      [
        'too many actions',
        { actions: Array.from({ length: 1001 }, (_, i) => ({ action: 'delete', file_path: `f${i}` })) },
        { message: 'Too many actions: a commit may have at most 1000 actions (1001 given)' },
      ],
    ];
    it.each(cases)('%s', async (_title, body, expected) => {
      const fx = await setup();
      const before = await history(fx);
      const eventsBefore = (await api.get(`/projects/${fx.project.id}/events`, { token: fx.owner.token })).body as unknown[];
      const res = await api.post(commitsUrl(fx), {
        token: fx.owner.token,
        body: { branch: 'master', commit_message: 'm', ...body },
        env: { MAX_FILE_SIZE: '1024' },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toEqual(expected);
      expect(await history(fx)).toEqual(before);
      expect(await tree(fx)).toEqual(['100644 README.md']);
      expect((await api.get(`/projects/${fx.project.id}/events`, { token: fx.owner.token })).body).toHaveLength(eventsBefore.length);
    });
  });

  it('records a push event per commit, with GitLab push_data', async () => {
    const fx = await setup();
    const res = await commit(fx, fx.developer.token, {
      branch: 'topic',
      start_branch: 'master',
      commit_message: `${'A very long title that goes on and on well past the seventy characters limit'}\nbody`,
      actions: [{ action: 'create', file_path: 't.md', content: 't' }],
    });
    expect(res.status, res.text).toBe(201);
    const second = await commit(fx, fx.developer.token, { branch: 'topic', commit_message: 'Second', actions: [{ action: 'delete', file_path: 't.md' }] });
    const [pushed, created] = (await api.get(`/projects/${fx.project.id}/events`, { token: fx.owner.token, query: { action: 'pushed' } })).body as any[];
    expect(created).toMatchObject({
      action_name: 'pushed new',
      author_id: fx.developer.user.id,
      push_data: {
        commit_count: 1,
        action: 'created',
        ref_type: 'branch',
        commit_from: null,
        commit_to: (res.body as { id: string }).id,
        ref: 'topic',
        commit_title: 'A very long title that goes on and on well past the seventy charact...',
        ref_count: null,
      },
    });
    expect(pushed).toMatchObject({
      action_name: 'pushed to',
      push_data: {
        commit_count: 1,
        action: 'pushed',
        ref_type: 'branch',
        commit_from: (res.body as { id: string }).id,
        commit_to: (second.body as { id: string }).id,
        ref: 'topic',
        commit_title: 'Second',
      },
    });
  });

  it('a commit with 20 actions is one batch within the budget', async () => {
    const fx = await setup();
    const actions = Array.from({ length: 20 }, (_, i) => ({ action: 'create', file_path: `dir${i % 4}/sub/file${i}.txt`, content: `content ${i}` }));
    const res = await commit(fx, fx.owner.token, { branch: 'master', commit_message: 'Twenty', actions });
    expect(res.status, res.text).toBe(201);
    const timing = res.headers.get('server-timing') ?? '';
    console.log(`commit with 20 actions: ${timing}`);
    expect(timing).not.toContain('ws');
    // 12, and since issue 30 the update of the branch's merge requests enqueued in the same batch (ref-write.ts).
    expect(queryCount(res)).toBeLessThanOrEqual(13);
  });
});

describeAuthorization('POST /projects/:id/repository/commits', {
  fixture: async () => {
    const fx = await setup();
    const stranger = await createUser();
    return { ...fx, allowed: fx.owner.token, nonMember: stranger.token, insufficientRole: fx.reporter.token };
  },
  call: (fx, token) =>
    api.post(commitsUrl(fx), {
      token,
      body: { branch: 'master', commit_message: 'm', actions: [{ action: 'create', file_path: `${Math.random()}.txt`, content: 'x' }] },
    }),
  success: 201,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 403, body: FORBIDDEN_PUSH },
});
