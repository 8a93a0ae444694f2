// REST and GraphQL show the same merge request (issue 30): state, merge status and conflicts, mergeability, the diff
// refs and head SHA, the commit count and the head pipeline agree after the MR is created, after pushes to its source
// and target, after a change of target and after a merge. Both read what the push's refresh recorded
// (functions/merge-requests/refresh.ts); until it has run (here: a branch moved straight in the store, as between a
// push and its job) both show the same `unchecked` MR, and reading it writes nothing.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mergeRequestDiffs, mergeRequests } from '../../db/schema/index.ts';
import { updateRefQuery } from '../../db/queries/repositories/refs.ts';
import { api, testDb } from '../helpers/app.ts';
import { branch, commit, lines, mrProject, mrs, openMergeRequest, tip, type Team } from '../api/merge-requests/support.ts';
import { gql } from './helpers.ts';

const CI = 'build:\n  script: [echo hi]\n';

const QUERY = `query($path: ID!, $iid: String!) { project(fullPath: $path) { mergeRequest(iid: $iid) {
  state mergeStatus conflicts mergeable diffHeadSha diffRefs { baseSha headSha startSha } commitCount
  headPipeline { id sha status } sourceBranch targetBranch mergeCommitSha } } }`;

type Fx = Team & { change: { id: string } };

/** The MR as REST shows it, in GraphQL's terms, next to what GraphQL shows. */
async function both(fx: Fx, iid: number) {
  const token = fx.owner.token;
  const rest = await api.get(`${mrs(fx)}/${iid}`, { token });
  expect(rest.status, rest.text).toBe(200);
  const commits = await api.get(`${mrs(fx)}/${iid}/commits`, { token });
  const r = rest.body;
  const fromRest = {
    state: r.state,
    mergeStatus: r.merge_status,
    conflicts: r.has_conflicts,
    mergeable: r.detailed_merge_status === 'mergeable',
    diffHeadSha: r.sha,
    diffRefs: r.diff_refs ? { baseSha: r.diff_refs.base_sha, headSha: r.diff_refs.head_sha, startSha: r.diff_refs.start_sha } : null,
    commitCount: (commits.body as unknown[]).length,
    headPipeline: r.head_pipeline
      ? { id: `gid://gitlab/Ci::Pipeline/${r.head_pipeline.id}`, sha: r.head_pipeline.sha, status: String(r.head_pipeline.status).toUpperCase() }
      : null,
    sourceBranch: r.source_branch,
    targetBranch: r.target_branch,
    mergeCommitSha: r.merge_commit_sha,
  };
  const graph = await gql(QUERY, { token, variables: { path: fx.project.path_with_namespace, iid: String(iid) } });
  expect(graph.body.errors).toBeUndefined();
  return { rest: fromRest, graphql: graph.body.data.project.mergeRequest };
}

async function agreeing(fx: Fx, iid: number) {
  const { rest, graphql } = await both(fx, iid);
  expect(graphql).toEqual(rest);
  return rest;
}

const versions = async (mrId: number) =>
  (await testDb().db.select({ id: mergeRequestDiffs.id }).from(mergeRequestDiffs).where(eq(mergeRequestDiffs.mergeRequestId, mrId))).length;

describe('REST and GraphQL show the same merge request', () => {
  it('after creation, pushes to the source and the target, a target change and a merge', async () => {
    const fx = (await mrProject('mr-agree')) as Fx;
    await commit(fx, 'topic', 'CI', [{ action: 'create', file_path: '.gitlab-ci.yml', content: CI }]);
    const mr = await openMergeRequest(fx);
    const created = await agreeing(fx, mr.iid);
    expect(created).toMatchObject({ state: 'opened', mergeStatus: 'can_be_merged', conflicts: false, mergeable: true, commitCount: 2 });
    expect(created.headPipeline).toMatchObject({ sha: await tip(fx, 'topic') });

    // A push to the source: a new version, a new head pipeline.
    const pushed = await commit(fx, 'topic', 'More', [{ action: 'create', file_path: 'more.txt', content: 'more' }]);
    const afterSource = await agreeing(fx, mr.iid);
    expect(afterSource).toMatchObject({ diffHeadSha: pushed.id, commitCount: 3 });
    expect(afterSource.headPipeline).toMatchObject({ sha: pushed.id });

    // A push to the target that conflicts: checked again, by the push.
    await commit(fx, 'master', 'Clash', [{ action: 'update', file_path: 'list.txt', content: lines(20).replace('line 3\n', 'line THREE\n') }]);
    const afterTarget = await agreeing(fx, mr.iid);
    expect(afterTarget).toMatchObject({ mergeStatus: 'cannot_be_merged', conflicts: true, mergeable: false });
    expect(afterTarget.diffRefs!.startSha).toBe(await tip(fx, 'master'));

    // A new target: a branch from before the clash, where it merges again.
    await branch(fx, 'stable', created.diffRefs!.startSha);
    expect((await api.put(`${mrs(fx)}/${mr.iid}`, { token: fx.owner.token, body: { target_branch: 'stable' } })).status).toBe(200);
    const retargeted = await agreeing(fx, mr.iid);
    expect(retargeted).toMatchObject({ targetBranch: 'stable', mergeStatus: 'can_be_merged', conflicts: false, mergeable: true, commitCount: 3 });
    expect(retargeted.diffRefs!.startSha).toBe(await tip(fx, 'stable'));

    const merged = await api.put(`${mrs(fx)}/${mr.iid}/merge`, { token: fx.owner.token });
    expect(merged.status, merged.text).toBe(200);
    const done = await agreeing(fx, mr.iid);
    expect(done).toMatchObject({ state: 'merged', mergeable: false });
    expect(done.mergeCommitSha).toBe(await tip(fx, 'stable'));
  });

  it("before the push's refresh has run, both show it unchecked, and reading it writes nothing", async () => {
    const fx = (await mrProject('mr-agree')) as Fx;
    const mr = await openMergeRequest(fx);
    const before = await agreeing(fx, mr.iid);
    // A commit on another branch, then `topic` moved to it in the store alone: no job, as between a push and its run.
    await branch(fx, 'side', 'topic');
    const side = await commit(fx, 'side', 'Elsewhere', [{ action: 'create', file_path: 'side.txt', content: 'side' }]);
    await testDb().db.execute(updateRefQuery(testDb().db, { projectId: fx.project.id, name: 'refs/heads/topic', old: fx.change.id, new: side.id }).getSQL());
    const [row] = await testDb()
      .db.select({ id: mergeRequests.id })
      .from(mergeRequests)
      .where(and(eq(mergeRequests.targetProjectId, fx.project.id), eq(mergeRequests.iid, mr.iid)));
    const count = await versions(row!.id);

    const stale = await agreeing(fx, mr.iid);
    expect(stale).toMatchObject({
      mergeStatus: 'unchecked',
      mergeable: false,
      diffHeadSha: before.diffHeadSha,
      diffRefs: before.diffRefs,
      commitCount: before.commitCount,
    });
    await api.get(`${mrs(fx)}/${mr.iid}/changes`, { token: fx.owner.token });
    expect(await versions(row!.id)).toBe(count);
  });
});

describe("GraphQL's `mergeable` says what PUT .../merge does (one rule: mergeability.ts)", () => {
  /** The refusal REST gives for an MR GraphQL calls unmergeable (merge_requests.rb: 405 not_allowed!, 406 mergeable?). */
  async function refusal(fx: Fx, iid: number, status: number) {
    const { rest, graphql } = await both(fx, iid);
    expect(graphql).toEqual(rest);
    expect(graphql.mergeable).toBe(false);
    const tips = [await tip(fx), await tip(fx, 'topic')];
    expect((await api.put(`${mrs(fx)}/${iid}/merge`, { token: fx.owner.token })).status).toBe(status);
    expect([await tip(fx), await tip(fx, 'topic')]).toEqual(tips);
  }

  it('a draft: 405', async () => {
    const draft = (await mrProject('mr-gate')) as Fx;
    await refusal(draft, (await openMergeRequest(draft, { title: 'Draft: later' })).iid, 405);
  });

  it('a conflict the check found: 405', async () => {
    const clash = (await mrProject('mr-gate')) as Fx;
    await commit(clash, 'master', 'Clash', [{ action: 'update', file_path: 'list.txt', content: lines(20).replace('line 3\n', 'line THREE\n') }]);
    await refusal(clash, (await openMergeRequest(clash)).iid, 405);
  });

  it('unresolved discussions where the project requires them resolved: 405', async () => {
    const talk = (await mrProject('mr-gate')) as Fx;
    const resolved = await api.put(`/projects/${talk.project.id}`, {
      token: talk.owner.token,
      body: { only_allow_merge_if_all_discussions_are_resolved: true },
    });
    expect(resolved.body.only_allow_merge_if_all_discussions_are_resolved).toBe(true);
    const talked = await openMergeRequest(talk);
    expect((await api.post(`${mrs(talk)}/${talked.iid}/discussions`, { token: talk.owner.token, body: { body: 'Why?' } })).status).toBe(201);
    await refusal(talk, talked.iid, 405);
  });

  it('no pipeline where the project requires a successful one: 405', async () => {
    const ci = (await mrProject('mr-gate')) as Fx;
    const required = await api.put(`/projects/${ci.project.id}`, { token: ci.owner.token, body: { only_allow_merge_if_pipeline_succeeds: true } });
    expect(required.body.only_allow_merge_if_pipeline_succeeds).toBe(true);
    await refusal(ci, (await openMergeRequest(ci)).iid, 405);
  });

  it('a fast-forward MR behind its target (need_rebase): 406', async () => {
    const ff = (await mrProject('mr-gate')) as Fx;
    await api.put(`/projects/${ff.project.id}`, { token: ff.owner.token, body: { merge_method: 'ff' } });
    await commit(ff, 'master', 'Elsewhere', [{ action: 'create', file_path: 'x.txt', content: 'x\n' }]);
    const behind = await openMergeRequest(ff);
    const shouldBeRebased = await gql(`query($path: ID!, $iid: String!) { project(fullPath: $path) { mergeRequest(iid: $iid) { shouldBeRebased } } }`, {
      token: ff.owner.token,
      variables: { path: ff.project.path_with_namespace, iid: String(behind.iid) },
    });
    expect(shouldBeRebased.body.data.project.mergeRequest.shouldBeRebased).toBe(true);
    expect((await api.get(`${mrs(ff)}/${behind.iid}`, { token: ff.owner.token })).body.detailed_merge_status).toBe('need_rebase');
    await refusal(ff, behind.iid, 406);
  });

  it('mergeable: 200', async () => {
    const ready = (await mrProject('mr-gate')) as Fx;
    const mr = await openMergeRequest(ready);
    expect((await agreeing(ready, mr.iid)).mergeable).toBe(true);
    expect((await api.put(`${mrs(ready)}/${mr.iid}/merge`, { token: ready.owner.token })).status).toBe(200);
  });
});

describe('what a draft is: one rule for the entity, the list filter and GraphQL', () => {
  it('MergeRequest::WIP_REGEX decides work_in_progress, `wip=yes|no` and `draft` alike', async () => {
    const fx = (await mrProject('mr-draft')) as Fx;
    // Title -> a draft? (13.6's WIP_REGEX: the prefixes, repeated, spaces around them, any case.)
    const titles: Array<[string, boolean]> = [
      ['[Draft] a', true],
      ['WIP   b', true],
      ['  draft: c', true],
      ['(draft) [WIP] d', true],
      ['Draft - e', true],
      ['Drafty f', false],
      ['wip', false],
      ['A WIP: g', false],
    ];
    const iids = new Map<number, boolean>();
    for (const [i, [title, draft]] of titles.entries()) {
      await branch(fx, `d-${i}`, 'topic');
      const res = await api.post(mrs(fx), { token: fx.owner.token, body: { source_branch: `d-${i}`, target_branch: 'master', title } });
      expect(res.status, res.text).toBe(201);
      expect(res.body.work_in_progress, title).toBe(draft);
      iids.set(res.body.iid, draft);
    }
    const listed = async (wip: string) =>
      ((await api.get(mrs(fx), { token: fx.owner.token, query: { wip, per_page: 100 } })).body as Array<{ iid: number }>)
        .map((m) => m.iid)
        .sort((a, b) => a - b);
    const expected = (draft: boolean) =>
      [...iids]
        .filter(([, d]) => d === draft)
        .map(([iid]) => iid)
        .sort((a, b) => a - b);
    expect(await listed('yes')).toEqual(expected(true));
    expect(await listed('no')).toEqual(expected(false));
    const graph = await gql(`query($path: ID!) { project(fullPath: $path) { mergeRequests(first: 50) { nodes { iid draft workInProgress } } } }`, {
      token: fx.owner.token,
      variables: { path: fx.project.path_with_namespace },
    });
    for (const node of graph.body.data.project.mergeRequests.nodes)
      expect([node.draft, node.workInProgress]).toEqual([iids.get(Number(node.iid)), iids.get(Number(node.iid))]);
  });
});
