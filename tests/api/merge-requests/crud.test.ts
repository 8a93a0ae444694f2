// Merge requests through HTTP as GitLab 13.6 answers them: create (the entity, its first version, the event, the
// refusals with nothing stored, two racing creates of one source branch), get, update (state events with their
// events and system notes, every editable field), delete, versions after pushes, and the authorization suite.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, mergeRequests, notes, todos } from '../../../db/schema/index.ts';
import { addMember } from '../../factories/groups.ts';
import { createUser } from '../../factories/users.ts';
import { api, queryCount, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { branch, commit, lines, mrProject, mrs, openMergeRequest, tip } from './support.ts';

const mrEvents = (id: number) =>
  testDb()
    .db.select({ action: events.action, authorId: events.authorId })
    .from(events)
    .where(and(eq(events.targetType, 'MergeRequest'), eq(events.targetId, id)))
    .orderBy(events.id);

const mrCount = async (projectId: number) =>
  (await testDb().db.select({ id: mergeRequests.id }).from(mergeRequests).where(eq(mergeRequests.targetProjectId, projectId))).length;

const BASIC_KEYS = [
  'id',
  'iid',
  'project_id',
  'title',
  'description',
  'state',
  'created_at',
  'updated_at',
  'merged_by',
  'merged_at',
  'closed_by',
  'closed_at',
  'target_branch',
  'source_branch',
  'user_notes_count',
  'upvotes',
  'downvotes',
  'author',
  'assignees',
  'assignee',
  'reviewers',
  'source_project_id',
  'target_project_id',
  'labels',
  'work_in_progress',
  'milestone',
  'merge_when_pipeline_succeeds',
  'merge_status',
  // GitLab 15.6's detailed_merge_status: additive, read unconditionally by current clients (mergeability.ts).
  'detailed_merge_status',
  'sha',
  'merge_commit_sha',
  'discussion_locked',
  'should_remove_source_branch',
  'force_remove_source_branch',
  'reference',
  'references',
  'web_url',
  'time_stats',
  'squash',
  'task_completion_status',
  'has_conflicts',
  'blocking_discussions_resolved',
];
const SINGLE_KEYS = [
  ...BASIC_KEYS,
  'subscribed',
  'changes_count',
  'latest_build_started_at',
  'latest_build_finished_at',
  'first_deployed_to_production_at',
  'pipeline',
  'head_pipeline',
  'diff_refs',
  'merge_error',
  'user',
];

describe('POST /projects/:id/merge_requests', () => {
  it('201 with Entities::MergeRequest, its first version, the opened event; assignees, reviewers and labels', async () => {
    const fx = await mrProject();
    const master = await tip(fx);
    const res = await api.post(mrs(fx), {
      token: fx.owner.token,
      body: {
        source_branch: 'topic',
        target_branch: 'master',
        title: 'Edit the list',
        description: '- [x] done\n- [ ] not yet',
        assignee_ids: [fx.developer.user.id, 999999],
        reviewer_ids: [fx.reporter.user.id],
        labels: 'review,ux',
        remove_source_branch: true,
        squash: true,
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body)).toEqual(SINGLE_KEYS);
    const body = res.body as Record<string, any>;
    const web = `${TEST_PUBLIC_URL}/${fx.project.path_with_namespace}/-/merge_requests/1`;
    expect(body).toMatchObject({
      iid: 1,
      project_id: fx.project.id,
      title: 'Edit the list',
      state: 'opened',
      merged_by: null,
      merged_at: null,
      closed_by: null,
      target_branch: 'master',
      source_branch: 'topic',
      user_notes_count: 0,
      author: { id: fx.owner.user.id, username: fx.owner.user.username },
      assignees: [{ id: fx.developer.user.id }],
      assignee: { id: fx.developer.user.id },
      reviewers: [{ id: fx.reporter.user.id }],
      source_project_id: fx.project.id,
      target_project_id: fx.project.id,
      labels: ['review', 'ux'],
      work_in_progress: false,
      milestone: null,
      merge_when_pipeline_succeeds: false,
      merge_status: 'can_be_merged',
      detailed_merge_status: 'mergeable',
      sha: fx.change.id,
      merge_commit_sha: null,
      discussion_locked: null,
      should_remove_source_branch: null,
      force_remove_source_branch: true,
      reference: '!1',
      references: { short: '!1', relative: '!1', full: `${fx.project.path_with_namespace}!1` },
      web_url: web,
      squash: true,
      task_completion_status: { count: 2, completed_count: 1 },
      has_conflicts: false,
      blocking_discussions_resolved: true,
      subscribed: true,
      changes_count: '1',
      diff_refs: { base_sha: master, head_sha: fx.change.id, start_sha: master },
      merge_error: null,
      user: { can_merge: true },
    });
    expect(await mrEvents(body.id)).toEqual([{ action: 1, authorId: fx.owner.user.id }]);
    const versions = await api.get(`${mrs(fx)}/1/versions`, { token: fx.owner.token });
    expect(versions.status).toBe(200);
    expect(versions.body).toEqual([
      {
        id: expect.any(Number),
        head_commit_sha: fx.change.id,
        base_commit_sha: master,
        start_commit_sha: master,
        created_at: expect.any(String),
        merge_request_id: body.id,
        state: 'collected',
        real_size: '1',
      },
    ]);
    // The assignee got an "assigned" to-do (action 1), in the same batch.
    const assigned = await testDb()
      .db.select({ userId: todos.userId, action: todos.action })
      .from(todos)
      .where(and(eq(todos.targetType, 'MergeRequest'), eq(todos.targetId, body.id)));
    expect(assigned).toEqual([{ userId: fx.developer.user.id, action: 1 }]);
  });

  it('a reporter cannot create one (403: create_merge_request_from), nothing stored', async () => {
    const fx = await mrProject();
    const res = await api.post(mrs(fx), { token: fx.reporter.token, body: { source_branch: 'topic', target_branch: 'master', title: 'x' } });
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }]);
    expect(await mrCount(fx.project.id)).toBe(0);
  });

  const BAD: Array<[string, Record<string, unknown>, number, unknown]> = [
    ['no title', { source_branch: 'topic', target_branch: 'master' }, 400, { error: 'title is missing' }],
    ['no source branch', { target_branch: 'master', title: 't' }, 400, { error: 'source_branch is missing' }],
    ['no target branch', { source_branch: 'topic', title: 't' }, 400, { error: 'target_branch is missing' }],
    ['blank title', { source_branch: 'topic', target_branch: 'master', title: '  ' }, 400, { message: { title: ["can't be blank"] } }],
    [
      'same branch',
      { source_branch: 'master', target_branch: 'master', title: 't' },
      422,
      { message: ["You can't use same project/branch for source and target"] },
    ],
    ['missing source branch', { source_branch: 'nope', target_branch: 'master', title: 't' }, 422, { message: ['Source branch "nope" does not exist'] }],
    ['missing target branch', { source_branch: 'topic', target_branch: 'nope', title: 't' }, 422, { message: ['Target branch "nope" does not exist'] }],
    [
      'target project not of the fork network',
      { source_branch: 'topic', target_branch: 'master', title: 't', target_project_id: 999999 },
      422,
      { message: ['Source project is not a fork of the target project'] },
    ],
    [
      'assignee ids not integers',
      { source_branch: 'topic', target_branch: 'master', title: 't', assignee_ids: ['x'] },
      400,
      { error: 'assignee_ids[0] is invalid' },
    ],
  ];
  it.each(BAD)("refuses %s with GitLab's answer and stores nothing", async (_name, body, status, expected) => {
    const fx = await mrProject();
    const res = await api.post(mrs(fx), { token: fx.owner.token, body });
    expect([res.status, res.body]).toEqual([status, expected]);
    expect(await mrCount(fx.project.id)).toBe(0);
  });

  it('409 for a second open MR of the same source branch, also when two creates race (exactly one stored)', async () => {
    const fx = await mrProject();
    const results = await Promise.all(
      [1, 2, 3].map(() => api.post(mrs(fx), { token: fx.owner.token, body: { source_branch: 'topic', target_branch: 'master', title: 'race' } })),
    );
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    const iid = (created[0]!.body as { iid: number }).iid;
    for (const r of results.filter((r) => r.status !== 201))
      expect([r.status, r.body]).toEqual([409, { message: [`Another open merge request already exists for this source branch: !${iid}`] }]);
    expect(await mrCount(fx.project.id)).toBe(1);
    // Once closed, a new MR of the branch may be opened.
    expect((await api.put(`${mrs(fx)}/${iid}`, { token: fx.owner.token, body: { state_event: 'close' } })).status).toBe(200);
    expect((await api.post(mrs(fx), { token: fx.owner.token, body: { source_branch: 'topic', target_branch: 'master', title: 'again' } })).status).toBe(201);
  });

  it('a fork opens an MR into its source project (target_project_id); the source project holds it', async () => {
    const fx = await mrProject();
    const forker = await createUser();
    await addMember(fx.owner.token, 'projects', fx.project.id, forker.user.id, 20);
    const fork = await api.post(`/projects/${fx.project.id}/fork`, { token: forker.token, body: {} });
    expect(fork.status, fork.text).toBe(201);
    const forkProject = fork.body as { id: number; path_with_namespace: string };
    const forkFx = { project: forkProject, owner: forker };
    await branch(forkFx, 'feature');
    const change = await commit(forkFx, 'feature', 'Fork change', [{ action: 'create', file_path: 'fork.txt', content: 'from the fork\n' }]);
    const res = await api.post(`/projects/${forkProject.id}/merge_requests`, {
      token: forker.token,
      body: { source_branch: 'feature', target_branch: 'master', title: 'From the fork', target_project_id: fx.project.id, allow_collaboration: true },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      project_id: fx.project.id,
      source_project_id: forkProject.id,
      target_project_id: fx.project.id,
      sha: change.id,
      allow_collaboration: true,
      allow_maintainer_to_push: true,
      user: { can_merge: false },
    });
    const list = await api.get(mrs(fx), { token: fx.owner.token });
    expect((list.body as Array<{ title: string }>).map((m) => m.title)).toEqual(['From the fork']);
  });
});

describe('GET /projects/:id/merge_requests/:merge_request_iid', () => {
  it('404 Not found for an iid that names nothing; 403 for a guest of a private project; include_diverged_commits_count', async () => {
    const fx = await mrProject();
    await openMergeRequest(fx);
    const guest = await createUser();
    await addMember(fx.owner.token, 'projects', fx.project.id, guest.user.id, 10);
    expect(await api.get(`${mrs(fx)}/99`, { token: fx.owner.token }).then((r) => [r.status, r.body])).toEqual([404, { message: '404 Not found' }]);
    expect(await api.get(`${mrs(fx)}/1`, { token: guest.token }).then((r) => [r.status, r.body])).toEqual([403, { message: '403 Forbidden' }]);
    await commit(fx, 'master', 'Master moves', [{ action: 'create', file_path: 'other.txt', content: 'x\n' }]);
    await commit(fx, 'master', 'Master moves again', [{ action: 'create', file_path: 'other2.txt', content: 'y\n' }]);
    const res = await api.get(`${mrs(fx)}/1`, { token: fx.owner.token, query: { include_diverged_commits_count: true } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).slice(-2)).toEqual(['diverged_commits_count', 'user']);
    expect((res.body as { diverged_commits_count: number }).diverged_commits_count).toBe(2);
  });

  it('a push to the source branch makes a new version; the old one keeps its SHAs and renders its own diff', async () => {
    const fx = await mrProject();
    const mr = await openMergeRequest(fx);
    const second = await commit(fx, 'topic', 'Edit line 9', [
      { action: 'update', file_path: 'list.txt', content: lines(20).replace('line 3\n', 'line three\n').replace('line 9\n', 'line nine\n') },
    ]);
    // Readers racing to refresh it record the new version once.
    const reads = await Promise.all([1, 2, 3, 4].map(() => api.get(`${mrs(fx)}/${mr.iid}`, { token: fx.owner.token })));
    for (const res of reads) expect((res.body as { sha: string }).sha).toBe(second.id);
    const versions = (await api.get(`${mrs(fx)}/${mr.iid}/versions`, { token: fx.owner.token })).body as Array<{ id: number; head_commit_sha: string }>;
    expect(versions.map((v) => v.head_commit_sha)).toEqual([second.id, fx.change.id]);
    const old = await api.get(`${mrs(fx)}/${mr.iid}/versions/${versions[1]!.id}`, { token: fx.owner.token });
    expect(old.status).toBe(200);
    const body = old.body as { commits: Array<{ id: string }>; diffs: Array<{ diff: string }> };
    expect(body.commits.map((c) => c.id)).toEqual([fx.change.id]);
    expect(body.diffs[0]!.diff).not.toContain('line nine');
    const current = await api.get(`${mrs(fx)}/${mr.iid}/versions/${versions[0]!.id}`, { token: fx.owner.token });
    expect((current.body as { commits: Array<{ id: string }> }).commits.map((c) => c.id)).toEqual([second.id, fx.change.id]);
    expect((await api.get(`${mrs(fx)}/${mr.iid}/versions/999999`, { token: fx.owner.token })).status).toBe(404);
    const commits = await api.get(`${mrs(fx)}/${mr.iid}/commits`, { token: fx.owner.token });
    expect(commits.headers.get('x-total')).toBe('2');
  });

  it('render_html adds title_html and description_html after closed_at', async () => {
    const fx = await mrProject();
    await openMergeRequest(fx, { title: 'A <b> title', description: 'one\ntwo' });
    const res = await api.get(`${mrs(fx)}/1`, { token: fx.owner.token, query: { render_html: true } });
    const keys = Object.keys(res.body);
    expect(keys.slice(keys.indexOf('closed_at'), keys.indexOf('closed_at') + 4)).toEqual(['closed_at', 'title_html', 'description_html', 'target_branch']);
    expect(res.body).toMatchObject({ title_html: 'A &lt;b&gt; title', description_html: '<p dir="auto">one<br>\ntwo</p>' });
  });

  it('changes of 50 files cost at most 6 queries (one MR and its diff)', async () => {
    const fx = await mrProject();
    await branch(fx, 'wide');
    await commit(
      fx,
      'wide',
      'Fifty files',
      Array.from({ length: 50 }, (_, i) => ({ action: 'create', file_path: `dir${i % 5}/f${i}.txt`, content: `file ${i}\n` })),
    );
    const mr = await openMergeRequest(fx, { source_branch: 'wide' });
    const res = await api.get(`${mrs(fx)}/${mr.iid}/changes`, { token: fx.owner.token });
    expect((res.body as { changes: unknown[] }).changes).toHaveLength(50);
    expect(queryCount(res)).toBeLessThanOrEqual(6);
  });

  it('changes: the MR with the diff of its latest version', async () => {
    const fx = await mrProject();
    const mr = await openMergeRequest(fx);
    const res = await api.get(`${mrs(fx)}/${mr.iid}/changes`, { token: fx.owner.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([...SINGLE_KEYS, 'changes', 'overflow']);
    expect((res.body as { changes: unknown[] }).changes).toEqual([
      {
        old_path: 'list.txt',
        new_path: 'list.txt',
        a_mode: '100644',
        b_mode: '100644',
        new_file: false,
        renamed_file: false,
        deleted_file: false,
        diff: '@@ -1,6 +1,6 @@\n line 1\n line 2\n-line 3\n+line three\n line 4\n line 5\n line 6\n',
      },
    ]);
  });
});

describe('PUT /projects/:id/merge_requests/:merge_request_iid', () => {
  it('close and reopen record their events and system notes once; a second close changes nothing', async () => {
    const fx = await mrProject();
    const mr = await openMergeRequest(fx);
    const closes = await Promise.all([1, 2].map(() => api.put(`${mrs(fx)}/${mr.iid}`, { token: fx.developer.token, body: { state_event: 'close' } })));
    for (const r of closes) expect(r.status, r.text).toBe(200);
    expect(closes[0]!.body).toMatchObject({ state: 'closed', closed_by: { id: fx.developer.user.id } });
    const reopened = await api.put(`${mrs(fx)}/${mr.iid}`, { token: fx.developer.token, body: { state_event: 'reopen' } });
    expect(reopened.body).toMatchObject({ state: 'opened', closed_by: null, closed_at: null });
    expect((await mrEvents(mr.id)).map((e) => e.action)).toEqual([1, 3, 4]);
    const system = await testDb()
      .db.select({ body: notes.body })
      .from(notes)
      .where(and(eq(notes.noteableType, 'MergeRequest'), eq(notes.noteableId, mr.id), eq(notes.system, true)))
      .orderBy(notes.id);
    expect(system.map((n) => n.body)).toEqual(['closed', 'reopened']);
  });

  it("every editable field; 400 when none is given; a reporter may not edit another's MR (403)", async () => {
    const fx = await mrProject();
    const mr = await openMergeRequest(fx);
    await branch(fx, 'other');
    const res = await api.put(`${mrs(fx)}/${mr.iid}`, {
      token: fx.owner.token,
      body: {
        title: 'Draft: renamed',
        description: 'new',
        target_branch: 'other',
        labels: 'a,b',
        assignee_id: fx.developer.user.id,
        reviewer_ids: [fx.reporter.user.id],
        discussion_locked: true,
        squash: true,
        remove_source_branch: true,
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      title: 'Draft: renamed',
      work_in_progress: true,
      description: 'new',
      target_branch: 'other',
      labels: ['a', 'b'],
      assignees: [{ id: fx.developer.user.id }],
      reviewers: [{ id: fx.reporter.user.id }],
      discussion_locked: true,
      squash: true,
      force_remove_source_branch: true,
    });
    const none = await api.put(`${mrs(fx)}/${mr.iid}`, { token: fx.owner.token, body: {} });
    expect(none.status).toBe(400);
    expect((none.body as { error: string }).error).toMatch(/are missing, at least one parameter must be provided$/);
    const reporter = await api.put(`${mrs(fx)}/${mr.iid}`, { token: fx.reporter.token, body: { title: 'mine' } });
    expect([reporter.status, reporter.body]).toEqual([403, { message: '403 Forbidden' }]);
  });
});

describe('DELETE /projects/:id/merge_requests/:merge_request_iid', () => {
  it('owners delete (204); developers may not (403)', async () => {
    const fx = await mrProject();
    const mr = await openMergeRequest(fx);
    expect((await api.delete(`${mrs(fx)}/${mr.iid}`, { token: fx.developer.token })).status).toBe(403);
    expect((await api.delete(`${mrs(fx)}/${mr.iid}`, { token: fx.owner.token })).status).toBe(204);
    expect(await mrCount(fx.project.id)).toBe(0);
  });
});

describeAuthorization('POST /projects/:id/merge_requests', {
  fixture: async () => {
    const fx = await mrProject();
    const stranger = await createUser();
    return { ...fx, allowed: fx.developer.token, nonMember: stranger.token, insufficientRole: fx.reporter.token };
  },
  call: (fx, token) => api.post(mrs(fx), { token, body: { source_branch: 'topic', target_branch: 'master', title: 'auth' } }),
  success: 201,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
});

describeAuthorization('PUT /projects/:id/merge_requests/:merge_request_iid', {
  fixture: async () => {
    const fx = await mrProject();
    await openMergeRequest(fx);
    const stranger = await createUser();
    return { ...fx, allowed: fx.developer.token, nonMember: stranger.token, insufficientRole: fx.reporter.token };
  },
  call: (fx, token) => api.put(`${mrs(fx)}/1`, { token, body: { title: 'changed' } }),
  success: 200,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
});

describeAuthorization('GET /projects/:id/merge_requests/:merge_request_iid', {
  fixture: async () => {
    const fx = await mrProject();
    await openMergeRequest(fx);
    const stranger = await createUser();
    const guest = await createUser();
    await addMember(fx.owner.token, 'projects', fx.project.id, guest.user.id, 10);
    return { ...fx, allowed: fx.reporter.token, nonMember: stranger.token, insufficientRole: guest.token };
  },
  call: (fx, token) => api.get(`${mrs(fx)}/1`, { token }),
  success: 200,
  anonymous: { status: 404, body: { message: '404 Project Not Found' } },
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
});
