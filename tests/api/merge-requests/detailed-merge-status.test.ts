// detailed_merge_status (GitLab 15.6, read unconditionally by python-gitlab's merge-request objects): an additive
// field of Entities::MergeRequestBasic, beside merge_status, in lists and single records, derived from 13.6's facts:
// a pending check first, then the open, draft, broken, discussions and CI checks in 15.6's order.
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ciPipelines, projects } from '../../../db/schema/index.ts';
import { api, testDb } from '../../helpers/app.ts';
import { commit, mrProject, mrs, openMergeRequest, tip } from './support.ts';

type Fx = Awaited<ReturnType<typeof mrProject>>;

const single = async (fx: Fx, iid: number) => {
  const res = await api.get(`${mrs(fx)}/${iid}`, { token: fx.owner.token });
  expect(res.status, res.text).toBe(200);
  return res.body as { merge_status: string; detailed_merge_status: string } & Record<string, unknown>;
};
const listed = async (fx: Fx) =>
  ((await api.get(mrs(fx), { token: fx.owner.token })).body as Array<{ merge_status: string; detailed_merge_status: string }>)[0]!;
const setProject = async (fx: Fx, body: Record<string, unknown>) => {
  const res = await api.put(`/projects/${fx.project.id}`, { token: fx.owner.token, body });
  expect(res.status, res.text).toBe(200);
};

describe('detailed_merge_status', () => {
  it('mergeable, placed right after merge_status; a push that makes a conflict makes it broken_status everywhere; merged is not_open', async () => {
    const fx = await mrProject('mr-detailed');
    const mr = await openMergeRequest(fx);
    const body = await single(fx, mr.iid);
    expect(body).toMatchObject({ merge_status: 'can_be_merged', detailed_merge_status: 'mergeable' });
    const keys = Object.keys(body);
    expect(keys[keys.indexOf('merge_status') + 1]).toBe('detailed_merge_status');
    expect(await listed(fx)).toMatchObject({ merge_status: 'can_be_merged', detailed_merge_status: 'mergeable' });

    await commit(fx, 'master', 'Clash', [{ action: 'update', file_path: 'list.txt', content: 'line 1\nline 2\nline III\n' }]);
    expect(await listed(fx)).toMatchObject({ merge_status: 'cannot_be_merged', detailed_merge_status: 'broken_status' });
    expect(await single(fx, mr.iid)).toMatchObject({ merge_status: 'cannot_be_merged', detailed_merge_status: 'broken_status' });

    const other = await mrProject('mr-detailed');
    const done = await openMergeRequest(other);
    expect((await api.put(`${mrs(other)}/${done.iid}/merge`, { token: other.owner.token })).status).toBe(200);
    expect(await single(other, done.iid)).toMatchObject({ state: 'merged', detailed_merge_status: 'not_open' });
  });

  it('draft_status, then discussions_not_resolved where the project requires resolution, then closed is not_open', async () => {
    const fx = await mrProject('mr-detailed');
    const mr = await openMergeRequest(fx, { title: 'Draft: Edit the list' });
    expect(await single(fx, mr.iid)).toMatchObject({ detailed_merge_status: 'draft_status' });
    await api.put(`${mrs(fx)}/${mr.iid}`, { token: fx.owner.token, body: { title: 'Edit the list' } });
    const started = await api.post(`${mrs(fx)}/${mr.iid}/discussions`, { token: fx.owner.token, body: { body: 'Please fix' } });
    expect(started.status, started.text).toBe(201);
    // Unresolved discussions block only where the project says so.
    expect(await single(fx, mr.iid)).toMatchObject({ detailed_merge_status: 'mergeable' });
    await setProject(fx, { only_allow_merge_if_all_discussions_are_resolved: true });
    expect(await single(fx, mr.iid)).toMatchObject({ detailed_merge_status: 'discussions_not_resolved' });
    expect(await listed(fx)).toMatchObject({ detailed_merge_status: 'discussions_not_resolved' });
    await api.put(`${mrs(fx)}/${mr.iid}`, { token: fx.owner.token, body: { state_event: 'close' } });
    expect(await single(fx, mr.iid)).toMatchObject({ state: 'closed', detailed_merge_status: 'not_open' });
  });

  it('ci_must_pass where the project requires a successful pipeline, until the head pipeline succeeds', async () => {
    const fx = await mrProject('mr-detailed');
    const mr = await openMergeRequest(fx);
    // Set in the database: the project API does not take this setting yet.
    await testDb().db.update(projects).set({ onlyAllowMergeIfPipelineSucceeds: true }).where(eq(projects.id, fx.project.id));
    expect(await single(fx, mr.iid)).toMatchObject({ detailed_merge_status: 'ci_must_pass' });
    const head = await tip(fx, 'topic');
    await testDb().db.insert(ciPipelines).values({ projectId: fx.project.id, iid: 1, sha: head, ref: 'topic', source: 'push', status: 'running' });
    expect(await single(fx, mr.iid)).toMatchObject({ detailed_merge_status: 'ci_must_pass' });
    await testDb().db.insert(ciPipelines).values({ projectId: fx.project.id, iid: 2, sha: head, ref: 'topic', source: 'push', status: 'success' });
    expect(await single(fx, mr.iid)).toMatchObject({ detailed_merge_status: 'mergeable' });
    expect(await listed(fx)).toMatchObject({ detailed_merge_status: 'mergeable' });
  });

  it('a skipped head pipeline passes only where the project allows merging on skipped pipelines (13.6)', async () => {
    const fx = await mrProject('mr-skipped');
    const mr = await openMergeRequest(fx);
    await setProject(fx, { only_allow_merge_if_pipeline_succeeds: true });
    const head = await tip(fx, 'topic');
    await testDb().db.insert(ciPipelines).values({ projectId: fx.project.id, iid: 1, sha: head, ref: 'topic', source: 'push', status: 'skipped' });
    expect(await single(fx, mr.iid)).toMatchObject({ detailed_merge_status: 'ci_must_pass' });
    const merge = await api.put(`${mrs(fx)}/${mr.iid}/merge`, { token: fx.owner.token });
    expect([merge.status, merge.body]).toEqual([405, { message: '405 Method Not Allowed' }]);
    await setProject(fx, { allow_merge_on_skipped_pipeline: true });
    expect(await single(fx, mr.iid)).toMatchObject({ detailed_merge_status: 'mergeable' });
  });
});
