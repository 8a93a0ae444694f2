// The merge requests around an issue and a milestone (GitLab 13.6 lib/api/issues.rb related_merge_requests and
// closed_by, lib/api/milestone_responses.rb merge_requests).
import { describe, expect, it } from 'vitest';
import { createGroup, addMember } from '../../factories/groups.ts';
import { createIssue } from '../../factories/issues.ts';
import { createMilestone } from '../../factories/milestones.ts';
import { createUser } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { branch, commit, lines, mrProject, mrs, openMergeRequest, type Team } from './support.ts';

type Mr = { id: number; iid: number; title: string } & Record<string, unknown>;
const ids = (body: Mr[]) => body.map((m) => m.iid);

/** Another branch off master with a commit of its own, for one more MR. */
async function topic(fx: Pick<Team, 'project' | 'owner'>, name: string) {
  await branch(fx, name);
  await commit(fx, name, `Work on ${name}`, [{ action: 'create', file_path: `${name}.txt`, content: lines(3, name) }]);
}

async function setup() {
  const fx = await mrProject('mrrelated');
  const guest = await createUser();
  const stranger = await createUser();
  await addMember(fx.owner.token, 'projects', fx.project.id, guest.user.id, 10);
  const issue = await createIssue(fx.owner.token, fx.project.id, { title: 'The list is wrong' });
  await topic(fx, 'mentions');
  await topic(fx, 'unrelated');
  const closing = await openMergeRequest(fx, { title: 'Fix the list', description: `Closes #${issue.iid}` });
  const mentioning = await openMergeRequest(fx, { source_branch: 'mentions', title: `About #${issue.iid}`, description: 'Just a mention' });
  // `#<iid>0` and a closing statement for another issue name neither.
  const unrelated = await openMergeRequest(fx, { source_branch: 'unrelated', title: 'Other work', description: `See #${issue.iid}0; fixes #${issue.iid + 1}` });
  const url = `/projects/${fx.project.id}/issues/${issue.iid}`;
  return { ...fx, guest, stranger, issue, closing, mentioning, unrelated, url };
}

describe('GET /projects/:id/issues/:issue_iid/related_merge_requests', () => {
  it('the MRs that name the issue and those the issue names, by iid, as Entities::MergeRequest without subscribed', async () => {
    const fx = await setup();
    let res = await api.get(`${fx.url}/related_merge_requests`, { token: fx.reporter.token });
    expect(res.status, res.text).toBe(200);
    expect(ids(res.body)).toEqual([fx.closing.iid, fx.mentioning.iid]);
    expect(res.body[0]).toMatchObject({ id: fx.closing.id, title: 'Fix the list', diff_refs: fx.closing.diff_refs, user: { can_merge: false } });
    expect(res.body[0]).not.toHaveProperty('subscribed');
    expect(res.headers.get('x-total')).toBe('2');
    // The issue names an MR (`!iid`): it is related too.
    const edit = await api.put(fx.url, { token: fx.owner.token, body: { description: `Tracked in !${fx.unrelated.iid}` } });
    expect(edit.status, edit.text).toBe(200);
    res = await api.get(`${fx.url}/related_merge_requests`, { token: fx.owner.token });
    expect(ids(res.body)).toEqual([fx.closing.iid, fx.mentioning.iid, fx.unrelated.iid]);
    expect(res.body[0].user).toEqual({ can_merge: true });
    const page = await api.get(`${fx.url}/related_merge_requests`, { token: fx.owner.token, query: { per_page: 1, page: 2 } });
    expect(ids(page.body)).toEqual([fx.mentioning.iid]);
  });

  it('an MR of another project that names the issue by its full path is related, for who may read it', async () => {
    const fx = await setup();
    const other = await mrProject('mrrelated-other');
    const cross = await openMergeRequest(other, { description: `Follows up ${fx.project.path_with_namespace}#${fx.issue.iid}` });
    const owner = await api.get(`${fx.url}/related_merge_requests`, { token: fx.owner.token });
    expect(owner.body.map((m: Mr) => m.id)).toEqual([fx.closing.id, fx.mentioning.id]);
    await addMember(other.owner.token, 'projects', other.project.id, fx.reporter.user.id, 20);
    const reporter = await api.get(`${fx.url}/related_merge_requests`, { token: fx.reporter.token });
    expect(reporter.body.map((m: Mr) => m.id).sort()).toEqual([fx.closing.id, fx.mentioning.id, cross.id].sort());
    // Not in closed_by: that is the issue's project's MRs that close it.
    expect((await api.get(`${fx.url}/closed_by`, { token: fx.reporter.token })).body.map((m: Mr) => m.id)).toEqual([fx.closing.id]);
  });

  it('a guest reads the issue but none of the private project MRs: 200 []', async () => {
    const fx = await setup();
    const res = await api.get(`${fx.url}/related_merge_requests`, { token: fx.guest.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect((await api.get(`${fx.url}/closed_by`, { token: fx.guest.token })).body).toEqual([]);
    expect((await api.get(`/projects/${fx.project.id}/issues/999/related_merge_requests`, { token: fx.owner.token })).body).toEqual({
      message: '404 Issue Not Found',
    });
  });
});

describeAuthorization('GET /projects/:id/issues/:issue_iid/related_merge_requests', {
  fixture: async () => {
    const fx = await setup();
    return { ...fx, allowed: fx.reporter.token, nonMember: fx.stranger.token, insufficientRole: fx.guest.token };
  },
  call: (fx, token) => api.get(`${fx.url}/related_merge_requests`, { token }),
  success: 200,
  anonymous: { status: 404, body: { message: '404 Project Not Found' } },
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 200, body: [] },
});

describe('GET /projects/:id/issues/:issue_iid/closed_by', () => {
  it('the MRs of the project that close the issue, newest first, as Entities::MergeRequestBasic', async () => {
    const fx = await setup();
    await topic(fx, 'second-fix');
    const second = await openMergeRequest(fx, { source_branch: 'second-fix', title: `Resolve ${fx.project.path_with_namespace}#${fx.issue.iid}` });
    const res = await api.get(`${fx.url}/closed_by`, { token: fx.reporter.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((m: Mr) => m.id)).toEqual([second.id, fx.closing.id]);
    expect(res.body[0]).toMatchObject({ iid: second.iid, state: 'opened', references: { short: `!${second.iid}` } });
    expect(res.body[0]).not.toHaveProperty('diff_refs');
    expect(res.body[0]).not.toHaveProperty('subscribed');
    // A merged MR that closed it stays listed.
    const merged = await api.put(`${mrs(fx)}/${fx.closing.iid}/merge`, { token: fx.owner.token });
    expect(merged.status, merged.text).toBe(200);
    expect((await api.get(fx.url, { token: fx.owner.token })).body.state).toBe('closed');
    const after = await api.get(`${fx.url}/closed_by`, { token: fx.owner.token });
    expect(after.body.map((m: Mr) => [m.id, m.state])).toEqual([
      [second.id, 'opened'],
      [fx.closing.id, 'merged'],
    ]);
  });
});

describeAuthorization('GET /projects/:id/issues/:issue_iid/closed_by', {
  fixture: async () => {
    const fx = await setup();
    return { ...fx, allowed: fx.reporter.token, nonMember: fx.stranger.token, insufficientRole: fx.guest.token };
  },
  call: (fx, token) => api.get(`${fx.url}/closed_by`, { token }),
  success: 200,
  anonymous: { status: 404, body: { message: '404 Project Not Found' } },
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 200, body: [] },
});

describe('GET .../milestones/:milestone_id/merge_requests', () => {
  it("a project milestone's MRs, as Entities::MergeRequestBasic, for who may read them", async () => {
    const fx = await mrProject('mrmilestone');
    const guest = await createUser();
    const stranger = await createUser();
    await addMember(fx.owner.token, 'projects', fx.project.id, guest.user.id, 10);
    const milestone = await createMilestone(fx.owner.token, 'projects', fx.project.id);
    await topic(fx, 'other');
    const mr = await openMergeRequest(fx, { milestone_id: milestone.id });
    await openMergeRequest(fx, { source_branch: 'other', title: 'No milestone' });
    const url = `/projects/${fx.project.id}/milestones/${milestone.id}/merge_requests`;
    const res = await api.get(url, { token: fx.reporter.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((m: Mr) => m.id)).toEqual([mr.id]);
    expect(res.body[0]).toMatchObject({ iid: mr.iid, milestone: { id: milestone.id, title: milestone.title } });
    expect(res.body[0]).not.toHaveProperty('diff_refs');
    expect(res.headers.get('x-total')).toBe('1');
    expect((await api.get(url, { token: guest.token })).body).toEqual([]);
    expect((await api.get(url, { token: stranger.token })).status).toBe(404);
    expect((await api.get(url)).status).toBe(401);
    expect((await api.get(`/projects/${fx.project.id}/milestones/999999/merge_requests`, { token: fx.owner.token })).status).toBe(404);
  });

  it("a group milestone's MRs across the group's projects", async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const created = await api.post('/projects', {
      token: owner.token,
      body: { name: `p-${Date.now()}`, namespace_id: group.id, initialize_with_readme: true },
    });
    expect(created.status, created.text).toBe(201);
    const fx = { owner, project: created.body as { id: number; path_with_namespace: string } };
    await topic(fx, 'topic');
    const milestone = await createMilestone(owner.token, 'groups', group.id);
    const mr = await openMergeRequest(fx, { milestone_id: milestone.id });
    const res = await api.get(`/groups/${group.id}/milestones/${milestone.id}/merge_requests`, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((m: Mr) => m.id)).toEqual([mr.id]);
    expect(res.body[0].milestone).toMatchObject({ id: milestone.id, group_id: group.id });
  });
});

describe('labels with_counts: open_merge_requests_count', () => {
  it('counts the open MRs with the label that the caller may read', async () => {
    const fx = await mrProject('mrlabelcount');
    const guest = await createUser();
    await addMember(fx.owner.token, 'projects', fx.project.id, guest.user.id, 10);
    await topic(fx, 'closed-one');
    const labelled = await openMergeRequest(fx, { labels: 'bug' });
    expect(labelled.labels).toEqual(['bug']);
    const closed = await openMergeRequest(fx, { source_branch: 'closed-one', title: 'Closed', labels: 'bug' });
    expect((await api.put(`${mrs(fx)}/${closed.iid}`, { token: fx.owner.token, body: { state_event: 'close' } })).status).toBe(200);
    const count = async (token: string) => {
      const res = await api.get(`/projects/${fx.project.id}/labels`, { token, query: { with_counts: true } });
      expect(res.status, res.text).toBe(200);
      return res.body.find((l: { name: string }) => l.name === 'bug').open_merge_requests_count;
    };
    expect(await count(fx.reporter.token)).toBe(1);
    expect(await count(guest.token)).toBe(0);
  });
});
