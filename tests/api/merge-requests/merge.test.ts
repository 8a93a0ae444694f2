// PUT /projects/:id/merge_requests/:iid/merge and its neighbours (rebase, merge_ref, cancel_merge_when_pipeline_
// succeeds) through HTTP, as GitLab 13.6 answers them: the merge commit GitLab writes, fast-forward and squash by the
// project's merge method, "Closes #N" closing issues, the refusals in GitLab's order with nothing written, and races.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { updateRefQuery } from '../../../db/queries/repositories/refs.ts';
import { events, notes } from '../../../db/schema/index.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { branch, commit, file, lines, mrProject, mrs, openMergeRequest, repo, tip } from './support.ts';

type Fx = Awaited<ReturnType<typeof mrProject>>;

const merge = (fx: Fx, iid: number, body: Record<string, unknown> = {}, token = fx.owner.token) => api.put(`${mrs(fx)}/${iid}/merge`, { token, body });
const pushes = async (fx: Fx) =>
  ((await api.get(`/projects/${fx.project.id}/events`, { token: fx.owner.token, query: { action: 'pushed' } })).body as unknown[]).length;
const commitOf = async (fx: Fx, sha: string) =>
  (await api.get(`${repo(fx)}/commits/${sha}`, { token: fx.owner.token })).body as { parent_ids: string[]; message: string; author_name: string };
const mrEventActions = async (id: number) =>
  (
    await testDb()
      .db.select({ action: events.action })
      .from(events)
      .where(and(eq(events.targetType, 'MergeRequest'), eq(events.targetId, id)))
      .orderBy(events.id)
  ).map((e) => e.action);

/** The request changed nothing: the branches, the push events and the MR's state are as before. */
async function nothingWritten(fx: Fx, iid: number, request: () => Promise<unknown>) {
  const state = async () => [
    await tip(fx),
    await tip(fx, 'topic'),
    await pushes(fx),
    ((await api.get(`${mrs(fx)}/${iid}`, { token: fx.owner.token })).body as { state: string }).state,
  ];
  const before = await state();
  await request();
  expect(await state()).toEqual(before);
}

describe('PUT /projects/:id/merge_requests/:iid/merge', () => {
  it("200: a merge commit with GitLab's message on the target, the MR merged, merged event, system note, push event", async () => {
    const fx = await mrProject();
    await commit(fx, 'master', 'Master edits line 18', [
      { action: 'update', file_path: 'list.txt', content: lines(20).replace('line 18\n', 'line eighteen\n') },
    ]);
    const master = await tip(fx);
    const mr = await openMergeRequest(fx, { title: 'Edit the list' });
    const before = await pushes(fx);
    const res = await merge(fx, mr.iid);
    expect(res.status, res.text).toBe(200);
    const body = res.body as { state: string; merge_commit_sha: string; merged_by: { id: number }; merged_at: string };
    expect(body).toMatchObject({ state: 'merged', merged_by: { id: fx.owner.user.id }, merged_at: expect.any(String) });
    expect(await tip(fx)).toBe(body.merge_commit_sha);
    const c = await commitOf(fx, body.merge_commit_sha);
    expect(c.parent_ids).toEqual([master, fx.change.id]);
    expect(c.message).toBe(`Merge branch 'topic' into 'master'\n\nEdit the list\n\nSee merge request ${fx.project.path_with_namespace}!${mr.iid}`);
    expect(await file(fx, 'list.txt')).toBe(lines(20).replace('line 3\n', 'line three\n').replace('line 18\n', 'line eighteen\n'));
    expect(await pushes(fx)).toBe(before + 1);
    expect(await mrEventActions(mr.id)).toEqual([1, 7]);
    const system = await testDb()
      .db.select({ body: notes.body })
      .from(notes)
      .where(and(eq(notes.noteableType, 'MergeRequest'), eq(notes.noteableId, mr.id), eq(notes.system, true)));
    expect(system).toEqual([{ body: 'merged' }]);
    // Merging again: the MR is no longer open.
    expect(await merge(fx, mr.iid).then((r) => [r.status, r.body])).toEqual([405, { message: '405 Method Not Allowed' }]);
  });

  it('"Closes #N" in the description closes the issue on merge into the default branch (event, system note); the message names it', async () => {
    const fx = await mrProject();
    const issue = (await api.post(`/projects/${fx.project.id}/issues`, { token: fx.owner.token, body: { title: 'Bug' } })).body as { iid: number; id: number };
    const other = (await api.post(`/projects/${fx.project.id}/issues`, { token: fx.owner.token, body: { title: 'Other' } })).body as { iid: number };
    const mr = await openMergeRequest(fx, { description: `This fixes #${issue.iid} and mentions #${other.iid}` });
    const closes = await api.get(`${mrs(fx)}/${mr.iid}/closes_issues`, { token: fx.owner.token });
    expect([closes.status, (closes.body as Array<{ iid: number }>).map((i) => i.iid)]).toEqual([200, [issue.iid]]);
    // The closing issues are cached with the MR: the issue counts it and lists it as closed_by, until an edit drops it.
    const issueUrl = `/projects/${fx.project.id}/issues/${issue.iid}`;
    expect(((await api.get(issueUrl, { token: fx.owner.token })).body as { merge_requests_count: number }).merge_requests_count).toBe(1);
    expect(((await api.get(`${issueUrl}/closed_by`, { token: fx.owner.token })).body as Array<{ iid: number }>).map((m) => m.iid)).toEqual([mr.iid]);
    await api.put(`${mrs(fx)}/${mr.iid}`, { token: fx.owner.token, body: { description: 'nothing' } });
    expect(((await api.get(issueUrl, { token: fx.owner.token })).body as { merge_requests_count: number }).merge_requests_count).toBe(0);
    expect((await api.get(`${issueUrl}/closed_by`, { token: fx.owner.token })).body).toEqual([]);
    await api.put(`${mrs(fx)}/${mr.iid}`, { token: fx.owner.token, body: { description: `This fixes #${issue.iid} and mentions #${other.iid}` } });
    expect(((await api.get(issueUrl, { token: fx.owner.token })).body as { merge_requests_count: number }).merge_requests_count).toBe(1);
    const res = await merge(fx, mr.iid);
    expect(res.status, res.text).toBe(200);
    const closed = (await api.get(`/projects/${fx.project.id}/issues/${issue.iid}`, { token: fx.owner.token })).body as {
      state: string;
      closed_by: { id: number };
    };
    expect(closed).toMatchObject({ state: 'closed', closed_by: { id: fx.owner.user.id } });
    expect(((await api.get(`/projects/${fx.project.id}/issues/${other.iid}`, { token: fx.owner.token })).body as { state: string }).state).toBe('opened');
    const c = await commitOf(fx, (res.body as { merge_commit_sha: string }).merge_commit_sha);
    expect(c.message).toContain(`\n\nCloses #${issue.iid}\n\n`);
    const system = await testDb()
      .db.select({ body: notes.body })
      .from(notes)
      .where(and(eq(notes.noteableType, 'Issue'), eq(notes.noteableId, issue.id), eq(notes.system, true)));
    expect(system).toEqual([{ body: `closed via merge request ${fx.project.path_with_namespace}!${mr.iid}` }]);
  });

  it('a merge into another branch closes nothing', async () => {
    const fx = await mrProject();
    await branch(fx, 'stable');
    const issue = (await api.post(`/projects/${fx.project.id}/issues`, { token: fx.owner.token, body: { title: 'Bug' } })).body as { iid: number };
    const mr = await openMergeRequest(fx, { target_branch: 'stable', description: `Closes #${issue.iid}` });
    expect((await merge(fx, mr.iid)).status).toBe(200);
    expect(((await api.get(`/projects/${fx.project.id}/issues/${issue.iid}`, { token: fx.owner.token })).body as { state: string }).state).toBe('opened');
  });

  it('405 for a conflict the last check found (broken?), 406 Branch cannot be merged for one only the merge finds, nothing written; 409 for a stale sha', async () => {
    const fx = await mrProject();
    await commit(fx, 'master', 'Master edits line 3', [{ action: 'update', file_path: 'list.txt', content: lines(20).replace('line 3\n', 'line THREE\n') }]);
    const mr = await openMergeRequest(fx);
    const got = (await api.get(`${mrs(fx)}/${mr.iid}`, { token: fx.owner.token })).body as { merge_status: string; has_conflicts: boolean };
    expect(got).toMatchObject({ merge_status: 'cannot_be_merged', has_conflicts: true });
    // merge_requests.rb: not_allowed! unless mergeable_state?, which a checked conflict fails (MergeRequest#broken?).
    await nothingWritten(fx, mr.iid, async () =>
      expect(await merge(fx, mr.iid).then((r) => [r.status, r.body])).toEqual([405, { message: '405 Method Not Allowed' }]),
    );

    // The target moved into a conflict in the store alone, as between a push and its update_merge_requests job: the
    // MR is `unchecked`, passes the mergeable state, and the merge's own check (mergeable?) finds the conflict.
    const fx1 = await mrProject();
    const mr1 = await openMergeRequest(fx1);
    await branch(fx1, 'side');
    const side = await commit(fx1, 'side', 'Side edits line 3', [
      { action: 'update', file_path: 'list.txt', content: lines(20).replace('line 3\n', 'line THREE\n') },
    ]);
    const master = await tip(fx1);
    await testDb().db.execute(updateRefQuery(testDb().db, { projectId: fx1.project.id, name: 'refs/heads/master', old: master, new: side.id }).getSQL());
    expect(((await api.get(`${mrs(fx1)}/${mr1.iid}`, { token: fx1.owner.token })).body as { merge_status: string }).merge_status).toBe('unchecked');
    await nothingWritten(fx1, mr1.iid, async () =>
      expect(await merge(fx1, mr1.iid).then((r) => [r.status, r.body])).toEqual([406, { message: 'Branch cannot be merged' }]),
    );
    const fx2 = await mrProject();
    const mr2 = await openMergeRequest(fx2);
    await nothingWritten(fx2, mr2.iid, async () =>
      expect(await merge(fx2, mr2.iid, { sha: 'a'.repeat(40) }).then((r) => [r.status, r.body])).toEqual([
        409,
        { message: `SHA does not match HEAD of source branch: ${fx2.change.id}` },
      ]),
    );
    expect((await merge(fx2, mr2.iid, { sha: fx2.change.id })).status).toBe(200);
  });

  it('405 for a draft, a closed MR and merge_when_pipeline_succeeds without a pipeline; 401 for who may not merge into the branch', async () => {
    const fx = await mrProject();
    const mr = await openMergeRequest(fx, { title: 'Draft: not yet' });
    await nothingWritten(fx, mr.iid, async () =>
      expect(await merge(fx, mr.iid).then((r) => [r.status, r.body])).toEqual([405, { message: '405 Method Not Allowed' }]),
    );
    await api.put(`${mrs(fx)}/${mr.iid}`, { token: fx.owner.token, body: { title: 'Ready' } });
    await nothingWritten(fx, mr.iid, async () => expect((await merge(fx, mr.iid, { merge_when_pipeline_succeeds: true })).status).toBe(405));
    // master is the protected default branch: developers may not merge into it (GitLab's unauthorized!).
    await nothingWritten(fx, mr.iid, async () =>
      expect(await merge(fx, mr.iid, {}, fx.developer.token).then((r) => [r.status, r.body])).toEqual([401, { message: '401 Unauthorized' }]),
    );
    await api.put(`${mrs(fx)}/${mr.iid}`, { token: fx.owner.token, body: { state_event: 'close' } });
    expect((await merge(fx, mr.iid)).status).toBe(405);
  });

  it('binary files changed on both sides conflict (405 once checked)', async () => {
    const fx = await mrProject();
    const bin = (b: number) => Buffer.from([0, 1, 2, b]).toString('base64');
    await commit(fx, 'master', 'Add binary', [{ action: 'create', file_path: 'blob.bin', content: bin(3), encoding: 'base64' }]);
    await branch(fx, 'bin-topic');
    await commit(fx, 'bin-topic', 'Topic binary', [{ action: 'update', file_path: 'blob.bin', content: bin(4), encoding: 'base64' }]);
    await commit(fx, 'master', 'Master binary', [{ action: 'update', file_path: 'blob.bin', content: bin(5), encoding: 'base64' }]);
    const mr = await openMergeRequest(fx, { source_branch: 'bin-topic' });
    expect(((await api.get(`${mrs(fx)}/${mr.iid}`, { token: fx.owner.token })).body as { merge_status: string }).merge_status).toBe('cannot_be_merged');
    expect((await merge(fx, mr.iid)).status).toBe(405);
  });

  it('merge_method ff: fast-forwards (no merge commit); 406 once the target moved on; squash makes one commit', async () => {
    const fx = await mrProject();
    expect((await api.put(`/projects/${fx.project.id}`, { token: fx.owner.token, body: { merge_method: 'ff' } })).body).toMatchObject({ merge_method: 'ff' });
    const mr = await openMergeRequest(fx);
    const res = await merge(fx, mr.iid);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ state: 'merged', merge_commit_sha: null });
    expect(await tip(fx)).toBe(fx.change.id);

    const fx2 = await mrProject();
    await api.put(`/projects/${fx2.project.id}`, { token: fx2.owner.token, body: { merge_method: 'ff' } });
    await commit(fx2, 'master', 'Elsewhere', [{ action: 'create', file_path: 'x.txt', content: 'x\n' }]);
    const mr2 = await openMergeRequest(fx2);
    await nothingWritten(fx2, mr2.iid, async () => expect((await merge(fx2, mr2.iid)).status).toBe(406));
    // Rebasing puts the source on top: then it fast-forwards.
    const rebased = await api.put(`${mrs(fx2)}/${mr2.iid}/rebase`, { token: fx2.owner.token });
    expect([rebased.status, rebased.body]).toEqual([202, { rebase_in_progress: true }]);
    const topic = await tip(fx2, 'topic');
    expect((await commitOf(fx2, topic)).parent_ids).toEqual([await tip(fx2)]);
    const ok = await merge(fx2, mr2.iid, { squash: true, squash_commit_message: 'One commit' });
    expect(ok.status, ok.text).toBe(200);
    expect((await commitOf(fx2, await tip(fx2))).message).toBe('One commit\n');
  });

  it('should_remove_source_branch deletes the source branch in the same write', async () => {
    const fx = await mrProject();
    const mr = await openMergeRequest(fx);
    expect((await merge(fx, mr.iid, { should_remove_source_branch: true })).status).toBe(200);
    expect((await api.get(`${repo(fx)}/branches/topic`, { token: fx.owner.token })).status).toBe(404);
  });

  it('two merges racing on one target: each MR is merged once, both changes land, nothing half-written', async () => {
    const fx = await mrProject();
    await branch(fx, 'second');
    await commit(fx, 'second', 'Edit line 15', [{ action: 'update', file_path: 'list.txt', content: lines(20).replace('line 15\n', 'line fifteen\n') }]);
    const a = await openMergeRequest(fx);
    const b = await openMergeRequest(fx, { source_branch: 'second', title: 'Second' });
    const results = await Promise.all([merge(fx, a.iid), merge(fx, b.iid), merge(fx, a.iid)]);
    const statuses = results.map((r) => r.status).sort();
    // The same MR twice: one merges it, the other finds it merged (405) or loses the branch (406).
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    for (const r of results.filter((r) => r.status !== 200)) expect([405, 406]).toContain(r.status);
    expect(await file(fx, 'list.txt')).toBe(lines(20).replace('line 3\n', 'line three\n').replace('line 15\n', 'line fifteen\n'));
    expect(await mrEventActions(a.id)).toEqual([1, 7]);
    expect(await mrEventActions(b.id)).toEqual([1, 7]);
  });
});

describe('GET .../merge_ref, POST .../cancel_merge_when_pipeline_succeeds', () => {
  it('merge_ref answers the merge commit id without moving anything; 400 when not mergeable', async () => {
    const fx = await mrProject();
    const mr = await openMergeRequest(fx);
    await nothingWritten(fx, mr.iid, async () => {
      const res = await api.get(`${mrs(fx)}/${mr.iid}/merge_ref`, { token: fx.owner.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ commit_id: expect.stringMatching(/^[0-9a-f]{40}$/) });
    });
    await commit(fx, 'master', 'Clash', [{ action: 'update', file_path: 'list.txt', content: lines(20).replace('line 3\n', 'line III\n') }]);
    expect(await api.get(`${mrs(fx)}/${mr.iid}/merge_ref`, { token: fx.owner.token }).then((r) => [r.status, r.body])).toEqual([
      400,
      { message: 'Merge request is not mergeable' },
    ]);
  });

  it('cancel: 406 when no automatic merge is set', async () => {
    const fx = await mrProject();
    const mr = await openMergeRequest(fx);
    expect(await api.post(`${mrs(fx)}/${mr.iid}/cancel_merge_when_pipeline_succeeds`, { token: fx.owner.token }).then((r) => [r.status, r.body])).toEqual([
      406,
      { message: "Can't cancel the automatic merge" },
    ]);
  });
});

describeAuthorization('PUT /projects/:id/merge_requests/:iid/merge', {
  fixture: async () => {
    const fx = await mrProject();
    await openMergeRequest(fx);
    const stranger = await createUser();
    return { ...fx, allowed: fx.owner.token, nonMember: stranger.token, insufficientRole: fx.reporter.token };
  },
  call: (fx, token) => api.put(`${mrs(fx)}/1/merge`, { token, body: {} }),
  success: 200,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 401, body: { message: '401 Unauthorized' } },
});
