// GraphQL merge requests (13.6 shapes) over MRs made through REST: Project.mergeRequest(s) with every field from the
// same view as the REST entity, the finder's filters, sorts and keyset pagination, Group and User listings, the
// policy (hidden project, reporter vs developer), the mergeRequest* mutations with their error payloads and resource
// errors, createDiffNote / createImageDiffNote with Note.position (a line outside the diff refused).
import { beforeAll, describe, expect, it } from 'vitest';
import { addMember, createGroup } from '../factories/groups.ts';
import { createLabel } from '../factories/labels.ts';
import { createMilestone } from '../factories/milestones.ts';
import { createUser } from '../factories/users.ts';
import { api } from '../helpers/app.ts';
import { branch, commit, lines, mrProject, mrs, openMergeRequest, type Team } from '../api/merge-requests/support.ts';
import { gql } from './helpers.ts';

const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";
const gid = (type: string, id: number) => `gid://gitlab/${type}/${id}`;
const PAGE_INFO = 'pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';

type Fx = Team & { change: { id: string } };
let fx: Fx;
let outsider: Awaited<ReturnType<typeof createUser>>;
let mr: Awaited<ReturnType<typeof openMergeRequest>>;
let milestone: { id: number; title: string };

const path = () => fx.project.path_with_namespace;

async function projectQuery(selection: string, token = fx.owner.token, variables: Record<string, unknown> = {}) {
  const res = await gql(`query($path: ID!) { project(fullPath: $path) { ${selection} } }`, { token, variables: { path: path(), ...variables } });
  expect(res.status, res.text).toBe(200);
  return res.body as { data: { project: any }; errors?: Array<{ message: string }> };
}

beforeAll(async () => {
  fx = (await mrProject('gqlmr')) as Fx;
  outsider = await createUser();
  await createLabel(fx.owner.token, 'projects', fx.project.id, { name: 'bug', color: '#ff0000' });
  await createLabel(fx.owner.token, 'projects', fx.project.id, { name: 'feature' });
  milestone = (await createMilestone(fx.owner.token, 'projects', fx.project.id, { title: 'v1' })) as { id: number; title: string };
  mr = await openMergeRequest(fx, {
    description: 'Does things\n\n- [x] one\n- [ ] two',
    labels: 'bug,feature',
    assignee_ids: [fx.developer.user.id],
    reviewer_ids: [fx.reporter.user.id],
    milestone_id: milestone.id,
  });
}, 120_000);

describe('MergeRequest fields', () => {
  it('resolves the 13.6 fields from the same view as the REST entity', async () => {
    const rest = (await api.get(`${mrs(fx)}/${mr.iid}`, { token: fx.owner.token })).body;
    const body = await projectQuery(`mergeRequest(iid: "${mr.iid}") {
      id iid title titleHtml description state draft workInProgress sourceBranch targetBranch sourceBranchExists targetBranchExists
      projectId sourceProjectId targetProjectId project { fullPath } sourceProject { fullPath } targetProject { fullPath }
      author { username } assignees { nodes { username } } reviewers { nodes { username } } participants { nodes { username } }
      labels { count nodes { title color } } milestone { title }
      diffRefs { baseSha headSha startSha } diffHeadSha commitCount
      diffStats { path additions deletions } one: diffStats(path: "list.txt") { path } none: diffStats(path: "nope") { path }
      diffStatsSummary { additions deletions changes fileCount }
      conflicts mergeable mergeStatus mergeableDiscussionsState shouldBeRebased mergeOngoing rebaseInProgress
      mergeCommitSha mergedAt mergeWhenPipelineSucceeds autoMergeEnabled squashOnMerge forceRemoveSourceBranch allowCollaboration
      headPipeline { id } pipelines { count nodes { id } } approved approvalsLeft approvalsRequired approvedBy { nodes { username } }
      webUrl reference full: reference(full: true) subscribed upvotes downvotes userNotesCount userDiscussionsCount
      taskCompletionStatus { count completedCount } timeEstimate totalTimeSpent createdAt updatedAt
      defaultMergeCommitMessage
      notes { nodes { body system } } discussions { nodes { id } } awardEmoji { nodes { name } } currentUserTodos { nodes { id } }
      userPermissions { adminMergeRequest canMerge cherryPickOnCurrentMergeRequest createNote pushToSourceBranch readMergeRequest removeSourceBranch revertOnCurrentMergeRequest updateMergeRequest }
    }`);
    expect(body.errors).toBeUndefined();
    const m = body.data.project.mergeRequest;
    expect(m).toMatchObject({
      id: gid('MergeRequest', mr.id),
      iid: String(mr.iid),
      title: 'Edit the list',
      state: 'opened',
      draft: false,
      workInProgress: false,
      sourceBranch: 'topic',
      targetBranch: 'master',
      sourceBranchExists: true,
      targetBranchExists: true,
      projectId: fx.project.id,
      sourceProjectId: fx.project.id,
      targetProjectId: fx.project.id,
      project: { fullPath: path() },
      sourceProject: { fullPath: path() },
      author: { username: fx.owner.user.username },
      assignees: { nodes: [{ username: fx.developer.user.username }] },
      reviewers: { nodes: [{ username: fx.reporter.user.username }] },
      labels: { count: 2, nodes: [{ title: 'bug', color: '#ff0000' }, { title: 'feature' }] },
      milestone: { title: 'v1' },
      diffRefs: { baseSha: rest.diff_refs.base_sha, headSha: rest.diff_refs.head_sha, startSha: rest.diff_refs.start_sha },
      diffHeadSha: rest.sha,
      commitCount: 1,
      diffStats: [{ path: 'list.txt', additions: 1, deletions: 1 }],
      one: [{ path: 'list.txt' }],
      none: [],
      diffStatsSummary: { additions: 1, deletions: 1, changes: 2, fileCount: 1 },
      conflicts: false,
      mergeable: true,
      mergeStatus: rest.merge_status,
      mergeableDiscussionsState: true,
      shouldBeRebased: false,
      mergeOngoing: false,
      rebaseInProgress: false,
      mergeCommitSha: null,
      mergedAt: null,
      autoMergeEnabled: false,
      squashOnMerge: false,
      allowCollaboration: false,
      headPipeline: null,
      pipelines: { count: 0, nodes: [] },
      approved: true,
      approvalsLeft: 0,
      approvalsRequired: 0,
      approvedBy: { nodes: [] },
      webUrl: rest.web_url,
      reference: `!${mr.iid}`,
      full: `${path()}!${mr.iid}`,
      subscribed: true,
      upvotes: 0,
      downvotes: 0,
      userNotesCount: 0,
      userDiscussionsCount: 0,
      taskCompletionStatus: { count: 2, completedCount: 1 },
      timeEstimate: 0,
      totalTimeSpent: 0,
      createdAt: rest.created_at,
      defaultMergeCommitMessage: `Merge branch 'topic' into 'master'\n\nEdit the list\n\nSee merge request ${path()}!${mr.iid}`,
      awardEmoji: { nodes: [] },
      currentUserTodos: { nodes: [] },
      userPermissions: {
        adminMergeRequest: true,
        canMerge: true,
        cherryPickOnCurrentMergeRequest: false,
        createNote: true,
        pushToSourceBranch: true,
        readMergeRequest: true,
        removeSourceBranch: true,
        revertOnCurrentMergeRequest: false,
        updateMergeRequest: true,
      },
    });
    expect(m.participants.nodes.map((u: any) => u.username)).toEqual([fx.owner.user.username, fx.developer.user.username]);
    expect(m.mergeStatus).toBe('can_be_merged');
  });

  it('a reporter reads the MR but may not change or merge it; a non-member sees nothing', async () => {
    const body = await projectQuery(
      `mergeRequest(iid: "${mr.iid}") { iid subscribed userPermissions { adminMergeRequest canMerge createNote pushToSourceBranch readMergeRequest removeSourceBranch updateMergeRequest } }`,
      fx.reporter.token,
    );
    expect(body.data.project.mergeRequest).toEqual({
      iid: String(mr.iid),
      subscribed: false,
      userPermissions: {
        adminMergeRequest: false,
        canMerge: false,
        createNote: true,
        pushToSourceBranch: false,
        readMergeRequest: true,
        removeSourceBranch: false,
        updateMergeRequest: false,
      },
    });
    const hidden = await projectQuery(`mergeRequest(iid: "${mr.iid}") { iid }`, outsider.token);
    expect(hidden.data.project).toBeNull();
    const missing = await projectQuery('mergeRequest(iid: "999") { iid } bad: mergeRequest(iid: "x") { iid }');
    expect(missing.data.project).toEqual({ mergeRequest: null, bad: null });
  });

  it('currentUserTodos: the assignee\'s "assigned" to-do, by state', async () => {
    const body = await projectQuery(
      `mergeRequest(iid: "${mr.iid}") { currentUserTodos { nodes { action targetType body state } } done: currentUserTodos(state: done) { nodes { id } } }`,
      fx.developer.token,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.project.mergeRequest).toEqual({
      currentUserTodos: { nodes: [{ action: 'assigned', targetType: 'MERGEREQUEST', body: 'Edit the list', state: 'pending' }] },
      done: { nodes: [] },
    });
    const anonymous = await gql(`query($path: ID!) { project(fullPath: $path) { id } }`, { variables: { path: path() } });
    expect(anonymous.body.data.project).toBeNull();
  });

  it('the global ids decode as NoteableID and AwardableID', async () => {
    const note = await gql(`mutation($id: ID!) { createNote(input: { noteableId: $id, body: "Looks good" }) { errors note { body } } }`, {
      token: fx.developer.token,
      variables: { id: gid('MergeRequest', mr.id) },
    });
    expect(note.body.errors).toBeUndefined();
    expect(note.body.data.createNote).toEqual({ errors: [], note: { body: 'Looks good' } });
    const body = await projectQuery(
      `mergeRequest(iid: "${mr.iid}") { userNotesCount userDiscussionsCount notes { nodes { body } } discussions { nodes { notes { nodes { body } } } } participants { nodes { username } } }`,
    );
    expect(body.data.project.mergeRequest).toMatchObject({
      userNotesCount: 1,
      userDiscussionsCount: 1,
      notes: { nodes: [{ body: 'Looks good' }] },
      discussions: { nodes: [{ notes: { nodes: [{ body: 'Looks good' }] } }] },
    });
  });
});

describe('Project.mergeRequests', () => {
  let second: { iid: number; id: number };
  let third: { iid: number; id: number };
  beforeAll(async () => {
    await branch(fx, 'second');
    await commit(fx, 'second', 'Add a file', [{ action: 'create', file_path: 'two.txt', content: lines(3) }]);
    second = await openMergeRequest(fx, { source_branch: 'second', title: 'Draft: second', labels: 'bug' }, fx.developer.token);
    await branch(fx, 'third');
    await commit(fx, 'third', 'Add another', [{ action: 'create', file_path: 'three.txt', content: lines(2) }]);
    third = await openMergeRequest(fx, { source_branch: 'third', title: 'Third', assignee_ids: [fx.developer.user.id] });
    expect((await api.put(`${mrs(fx)}/${third.iid}`, { token: fx.owner.token, body: { state_event: 'close' } })).status).toBe(200);
  }, 60_000);

  const iidsOf = (c: any) => c.nodes.map((n: any) => Number(n.iid));

  it('filters as the REST list does', async () => {
    const body = await projectQuery(`
      all: mergeRequests { count nodes { iid } }
      opened: mergeRequests(state: opened) { count nodes { iid } }
      closed: mergeRequests(state: closed) { nodes { iid } }
      iids: mergeRequests(iids: ["${second.iid}", "x"]) { nodes { iid } }
      branches: mergeRequests(sourceBranches: ["topic", "third"]) { nodes { iid } }
      target: mergeRequests(targetBranches: ["master"]) { count }
      noTarget: mergeRequests(targetBranches: ["nope"]) { count }
      labels: mergeRequests(labels: ["bug"]) { nodes { iid } }
      both: mergeRequests(labels: ["bug", "feature"]) { nodes { iid } }
      milestone: mergeRequests(milestoneTitle: "v1") { nodes { iid } }
      author: mergeRequests(authorUsername: "${fx.developer.user.username}") { nodes { iid } }
      assignee: mergeRequests(assigneeUsername: "${fx.developer.user.username}") { nodes { iid } }
      merged: mergeRequests(mergedAfter: "2000-01-01T00:00:00Z") { count }
    `);
    expect(body.errors).toBeUndefined();
    const p = body.data.project;
    expect(iidsOf(p.all)).toEqual([third.iid, second.iid, mr.iid]);
    expect(p.all.count).toBe(3);
    expect(p.opened.count).toBe(2);
    expect(iidsOf(p.closed)).toEqual([third.iid]);
    expect(iidsOf(p.iids)).toEqual([second.iid]);
    expect(iidsOf(p.branches)).toEqual([third.iid, mr.iid]);
    expect(p.target.count).toBe(3);
    expect(p.noTarget.count).toBe(0);
    expect(iidsOf(p.labels)).toEqual([second.iid, mr.iid]);
    expect(iidsOf(p.both)).toEqual([mr.iid]);
    expect(iidsOf(p.milestone)).toEqual([mr.iid]);
    expect(iidsOf(p.author)).toEqual([second.iid]);
    expect(iidsOf(p.assignee)).toEqual([third.iid, mr.iid]);
    expect(p.merged.count).toBe(0);
  });

  it('sorts by creation and update, and pages with cursors both ways', async () => {
    await api.put(`${mrs(fx)}/${mr.iid}`, { token: fx.owner.token, body: { description: 'touched' } });
    const body = await projectQuery(`
      asc: mergeRequests(sort: CREATED_ASC) { nodes { iid } }
      old: mergeRequests(sort: created_asc) { nodes { iid } }
      updated: mergeRequests(sort: UPDATED_DESC) { nodes { iid } }
      updatedAsc: mergeRequests(sort: UPDATED_ASC, first: 2) { nodes { iid } ${PAGE_INFO} }
      first: mergeRequests(first: 1) { count nodes { iid } ${PAGE_INFO} }
      last: mergeRequests(last: 1) { nodes { iid } ${PAGE_INFO} }
    `);
    expect(body.errors).toBeUndefined();
    const p = body.data.project;
    expect(iidsOf(p.asc)).toEqual([mr.iid, second.iid, third.iid]);
    expect(iidsOf(p.old)).toEqual([mr.iid, second.iid, third.iid]);
    expect(iidsOf(p.updated)[0]).toBe(mr.iid);
    expect(iidsOf(p.updatedAsc)).toEqual([second.iid, third.iid]);
    expect(p.updatedAsc.pageInfo.hasNextPage).toBe(true);
    expect(p.first).toMatchObject({ count: 3, nodes: [{ iid: String(third.iid) }], pageInfo: { hasNextPage: true, hasPreviousPage: false } });
    expect(iidsOf(p.last)).toEqual([mr.iid]);
    const res = await gql(
      `query($path: ID!, $after: String, $upd: String) { project(fullPath: $path) {
        mergeRequests(first: 5, after: $after) { nodes { iid } ${PAGE_INFO} } upd: mergeRequests(sort: UPDATED_ASC, after: $upd) { nodes { iid } } } }`,
      { token: fx.owner.token, variables: { path: path(), after: p.first.pageInfo.endCursor, upd: p.updatedAsc.pageInfo.endCursor } },
    );
    expect(res.body.errors).toBeUndefined();
    expect(iidsOf(res.body.data.project.mergeRequests)).toEqual([second.iid, mr.iid]);
    expect(res.body.data.project.mergeRequests.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(iidsOf(res.body.data.project.upd)).toEqual([mr.iid]);
  });

  it("lists a user's authored and assigned MRs and a group's (with its subgroups when asked)", async () => {
    const res = await gql(
      `query($u: String!, $path: String!) { user(username: $u) {
        authoredMergeRequests { count nodes { iid } } assignedMergeRequests(state: opened) { nodes { iid } }
        inProject: authoredMergeRequests(projectPath: $path) { count } elsewhere: authoredMergeRequests(projectPath: "no/where") { count } } }`,
      { token: fx.owner.token, variables: { u: fx.developer.user.username, path: path() } },
    );
    expect(res.body.errors).toBeUndefined();
    const u = res.body.data.user;
    expect(iidsOf(u.authoredMergeRequests)).toEqual([second.iid]);
    expect(iidsOf(u.assignedMergeRequests)).toEqual([mr.iid]);
    expect(u.inProject.count).toBe(1);
    expect(u.elsewhere.count).toBe(0);
    const both = await gql(
      `query($u: String!, $path: String!) { user(username: $u) { authoredMergeRequests(projectPath: $path, projectId: "gid://gitlab/Project/1") { count } } }`,
      {
        token: fx.owner.token,
        variables: { u: fx.developer.user.username, path: path() },
      },
    );
    expect(both.body.errors[0].message).toBe('Only one of [projectPath, projectId] arguments is allowed at the same time.');
    // What the outsider may not read is not listed.
    const hidden = await gql(`query($u: String!) { user(username: $u) { authoredMergeRequests { count } } }`, {
      token: outsider.token,
      variables: { u: fx.developer.user.username },
    });
    expect(hidden.body.data.user.authoredMergeRequests.count).toBe(0);
  });

  it('Group.mergeRequests, with includeSubgroups', async () => {
    const group = await createGroup(fx.owner.token, { visibility: 'private' });
    const sub = await createGroup(fx.owner.token, { visibility: 'private', parentId: group.id } as any);
    const made = [];
    for (const ns of [group, sub]) {
      const res = await api.post('/projects', { token: fx.owner.token, body: { name: `p${ns.id}`, namespace_id: ns.id, initialize_with_readme: true } });
      expect(res.status, res.text).toBe(201);
      const g = { project: res.body, owner: fx.owner };
      await branch(g as any, 'feature', 'main').catch(async () => branch(g as any, 'feature'));
      await commit(g as any, 'feature', 'Change', [{ action: 'create', file_path: 'x.txt', content: 'x\n' }]);
      const branches = (await api.get(`/projects/${res.body.id}/repository/branches`, { token: fx.owner.token })).body.map((b: any) => b.name);
      const target = branches.find((b: string) => b !== 'feature');
      const created = await api.post(`/projects/${res.body.id}/merge_requests`, {
        token: fx.owner.token,
        body: { source_branch: 'feature', target_branch: target, title: `MR in ${ns.full_path}` },
      });
      expect(created.status, created.text).toBe(201);
      made.push(created.body);
    }
    await addMember(fx.owner.token, 'groups', group.id, fx.reporter.user.id, 20);
    const res = await gql(
      `query($g: ID!) { group(fullPath: $g) { own: mergeRequests { count nodes { title project { fullPath } } } all: mergeRequests(includeSubgroups: true) { count nodes { title } } } }`,
      { token: fx.reporter.token, variables: { g: group.full_path } },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.group.own.count).toBe(1);
    expect(res.body.data.group.own.nodes[0].title).toBe(`MR in ${group.full_path}`);
    expect(res.body.data.group.all.nodes.map((n: any) => n.title)).toEqual([`MR in ${sub.full_path}`, `MR in ${group.full_path}`]);
  });
});

describe('mutations', () => {
  const mutate = (
    name: string,
    input: Record<string, unknown>,
    token = fx.owner.token,
    selection = 'mergeRequest { iid title draft workInProgress discussionLocked subscribed assignees { nodes { username } } labels { nodes { title } } milestone { title } }',
  ) =>
    gql(`mutation($input: ${name[0]!.toUpperCase()}${name.slice(1)}Input!) { ${name}(input: $input) { clientMutationId errors ${selection} } }`, {
      token,
      variables: { input },
    });

  it("mergeRequestCreate: the MR, or the service's refusals in errors", async () => {
    await branch(fx, 'created');
    await commit(fx, 'created', 'Created', [{ action: 'create', file_path: 'created.txt', content: 'c\n' }]);
    const ok = await mutate('mergeRequestCreate', {
      projectPath: path(),
      title: 'Made by GraphQL',
      sourceBranch: 'created',
      targetBranch: 'master',
      description: 'd',
      labels: ['bug'],
      clientMutationId: 'x',
    });
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.mergeRequestCreate).toMatchObject({
      clientMutationId: 'x',
      errors: [],
      mergeRequest: { title: 'Made by GraphQL', labels: { nodes: [{ title: 'bug' }] } },
    });
    const again = await mutate('mergeRequestCreate', { projectPath: path(), title: 'Again', sourceBranch: 'created', targetBranch: 'master' });
    expect(again.body.data.mergeRequestCreate.mergeRequest).toBeNull();
    expect(again.body.data.mergeRequestCreate.errors).toEqual([
      `Another open merge request already exists for this source branch: !${ok.body.data.mergeRequestCreate.mergeRequest.iid}`,
    ]);
    const missing = await mutate('mergeRequestCreate', { projectPath: path(), title: 'Missing', sourceBranch: 'nope', targetBranch: 'master' });
    expect(missing.body.data.mergeRequestCreate).toEqual({ clientMutationId: null, errors: ['Source branch "nope" does not exist'], mergeRequest: null });
    // The model's validations come after the branches' refusals (a blank title from `created` meets its open MR first).
    await branch(fx, 'untitled');
    const blank = await mutate('mergeRequestCreate', { projectPath: path(), title: ' ', sourceBranch: 'untitled', targetBranch: 'master' });
    expect(blank.body.data.mergeRequestCreate).toEqual({ clientMutationId: null, errors: ["Title can't be blank"], mergeRequest: null });
    const hidden = await mutate(
      'mergeRequestCreate',
      { projectPath: path(), title: 'Hidden', sourceBranch: 'created', targetBranch: 'master' },
      outsider.token,
    );
    expect(hidden.body.errors[0].message).toBe(RESOURCE_ERROR);
    expect(hidden.body.data.mergeRequestCreate).toBeNull();
  });

  it('mergeRequestUpdate, SetWip, SetLocked, SetMilestone', async () => {
    const base = { projectPath: path(), iid: String(mr.iid) };
    const updated = await mutate('mergeRequestUpdate', { ...base, title: 'Renamed' });
    expect(updated.body.data.mergeRequestUpdate).toMatchObject({ errors: [], mergeRequest: { title: 'Renamed' } });
    const wip = await mutate('mergeRequestSetWip', { ...base, wip: true });
    expect(wip.body.data.mergeRequestSetWip.mergeRequest).toMatchObject({ title: 'Draft: Renamed', draft: true, workInProgress: true });
    const again = await mutate('mergeRequestSetWip', { ...base, wip: true });
    expect(again.body.data.mergeRequestSetWip.mergeRequest.title).toBe('Draft: Renamed');
    const ready = await mutate('mergeRequestSetWip', { ...base, wip: false });
    expect(ready.body.data.mergeRequestSetWip.mergeRequest).toMatchObject({ title: 'Renamed', draft: false });
    const mergeable = await projectQuery(`mergeRequest(iid: "${mr.iid}") { mergeable }`);
    expect(mergeable.data.project.mergeRequest.mergeable).toBe(true);
    const locked = await mutate('mergeRequestSetLocked', { ...base, locked: true });
    expect(locked.body.data.mergeRequestSetLocked.mergeRequest.discussionLocked).toBe(true);
    const unlocked = await mutate('mergeRequestSetLocked', { ...base, locked: false });
    expect(unlocked.body.data.mergeRequestSetLocked.mergeRequest.discussionLocked).toBe(false);
    const none = await mutate('mergeRequestSetMilestone', { ...base, milestoneId: null });
    expect(none.body.data.mergeRequestSetMilestone.mergeRequest.milestone).toBeNull();
    const set = await mutate('mergeRequestSetMilestone', { ...base, milestoneId: gid('Milestone', milestone.id) });
    expect(set.body.data.mergeRequestSetMilestone.mergeRequest.milestone).toEqual({ title: 'v1' });
    const long = await mutate('mergeRequestUpdate', { ...base, title: 'x'.repeat(256) });
    expect(long.body.data.mergeRequestUpdate).toMatchObject({ errors: ['Title is too long (maximum is 255 characters)'], mergeRequest: null });
    const refused = await mutate('mergeRequestUpdate', { ...base, targetBranch: 'topic' });
    expect(refused.body.data.mergeRequestUpdate).toMatchObject({ errors: ["You can't use same project/branch for source and target"], mergeRequest: null });
  });

  it('mergeRequestSetAssignees and SetLabels by operation mode; SetSubscription', async () => {
    const base = { projectPath: path(), iid: String(mr.iid) };
    const names = (r: any, f: string) => r.body.data[f].mergeRequest.assignees.nodes.map((u: any) => u.username).sort();
    const append = await mutate('mergeRequestSetAssignees', { ...base, assigneeUsernames: [fx.reporter.user.username], operationMode: 'APPEND' });
    expect(names(append, 'mergeRequestSetAssignees')).toEqual([fx.developer.user.username, fx.reporter.user.username].sort());
    const remove = await mutate('mergeRequestSetAssignees', { ...base, assigneeUsernames: [fx.developer.user.username], operationMode: 'REMOVE' });
    expect(names(remove, 'mergeRequestSetAssignees')).toEqual([fx.reporter.user.username]);
    const replace = await mutate('mergeRequestSetAssignees', { ...base, assigneeUsernames: [fx.developer.user.username, 'nobody-here'] });
    expect(names(replace, 'mergeRequestSetAssignees')).toEqual([fx.developer.user.username]);

    const labels = (await api.get(`/projects/${fx.project.id}/labels`, { token: fx.owner.token })).body as Array<{ id: number; name: string }>;
    const id = (name: string) => gid('ProjectLabel', labels.find((l) => l.name === name)!.id);
    const titles = (r: any) => r.body.data.mergeRequestSetLabels.mergeRequest.labels.nodes.map((l: any) => l.title);
    expect(titles(await mutate('mergeRequestSetLabels', { ...base, labelIds: [id('feature')] }))).toEqual(['feature']);
    expect(titles(await mutate('mergeRequestSetLabels', { ...base, labelIds: [id('bug')], operationMode: 'APPEND' }))).toEqual(['bug', 'feature']);
    expect(titles(await mutate('mergeRequestSetLabels', { ...base, labelIds: [id('feature')], operationMode: 'REMOVE' }))).toEqual(['bug']);

    const off = await mutate('mergeRequestSetSubscription', { ...base, subscribedState: false });
    expect(off.body.data.mergeRequestSetSubscription).toMatchObject({ errors: [], mergeRequest: { subscribed: false } });
    const read = await projectQuery(`mergeRequest(iid: "${mr.iid}") { subscribed }`);
    expect(read.data.project.mergeRequest.subscribed).toBe(false);
    const on = await mutate('mergeRequestSetSubscription', { ...base, subscribedState: true });
    expect(on.body.data.mergeRequestSetSubscription.mergeRequest.subscribed).toBe(true);
  });

  it('not found and forbidden are the top-level resource error', async () => {
    const base = { projectPath: path(), iid: String(mr.iid) };
    for (const [token, input] of [
      [outsider.token, base],
      [fx.reporter.token, base],
      [fx.owner.token, { ...base, iid: '999' }],
      [fx.owner.token, { ...base, projectPath: 'no/where' }],
    ] as const) {
      const res = await mutate('mergeRequestSetLocked', { ...input, locked: true }, token);
      expect(res.body.errors?.[0]?.message).toBe(RESOURCE_ERROR);
      expect(res.body.data.mergeRequestSetLocked).toBeNull();
    }
    const title = await mutate('mergeRequestUpdate', { ...base, title: 'Mine now' }, fx.reporter.token);
    expect(title.body.errors[0].message).toBe(RESOURCE_ERROR);
  });
});

describe('createDiffNote and createImageDiffNote', () => {
  const POSITION = 'position { positionType filePath oldPath newPath oldLine newLine x y width height diffRefs { baseSha headSha startSha } }';

  it('places a note on a line of the diff and answers its position; a line outside the diff is refused', async () => {
    const refs = mr.diff_refs;
    const position = {
      baseSha: refs.base_sha,
      headSha: refs.head_sha,
      startSha: refs.start_sha,
      paths: { oldPath: 'list.txt', newPath: 'list.txt' },
      newLine: 3,
    };
    const res = await gql(
      `mutation($input: CreateDiffNoteInput!) { createDiffNote(input: $input) { errors note { id body ${POSITION} discussion { id } } } }`,
      {
        token: fx.developer.token,
        variables: { input: { noteableId: gid('MergeRequest', mr.id), body: 'This line', position } },
      },
    );
    expect(res.body.errors).toBeUndefined();
    const note = res.body.data.createDiffNote.note;
    expect(res.body.data.createDiffNote.errors).toEqual([]);
    expect(note.id).toMatch(/^gid:\/\/gitlab\/DiffNote\/\d+$/);
    expect(note.position).toEqual({
      positionType: 'text',
      filePath: 'list.txt',
      oldPath: 'list.txt',
      newPath: 'list.txt',
      oldLine: null,
      newLine: 3,
      x: null,
      y: null,
      width: null,
      height: null,
      diffRefs: { baseSha: refs.base_sha, headSha: refs.head_sha, startSha: refs.start_sha },
    });
    const read = await projectQuery(`mergeRequest(iid: "${mr.iid}") { notes { nodes { body ${POSITION} } } }`);
    const stored = read.data.project.mergeRequest.notes.nodes.find((n: any) => n.body === 'This line');
    expect(stored.position).toEqual(note.position);
    expect(read.data.project.mergeRequest.notes.nodes.find((n: any) => n.body === 'Looks good').position).toBeNull();

    const outside = await gql(`mutation($input: CreateDiffNoteInput!) { createDiffNote(input: $input) { errors note { id } } }`, {
      token: fx.developer.token,
      variables: { input: { noteableId: gid('MergeRequest', mr.id), body: 'Nowhere', position: { ...position, newLine: 100 } } },
    });
    expect(outside.body.data.createDiffNote).toEqual({ errors: ["Line code can't be blank", 'Line code must be a valid line code'], note: null });
    const other = await gql(`mutation($input: CreateDiffNoteInput!) { createDiffNote(input: $input) { errors note { id } } }`, {
      token: fx.developer.token,
      variables: { input: { noteableId: gid('MergeRequest', mr.id), body: 'Other file', position: { ...position, paths: { newPath: 'nope.txt' } } } },
    });
    expect(other.body.data.createDiffNote.errors).toContain("Line code can't be blank");
    // The SHAs must name one of the MR's diff versions.
    const stale = await gql(`mutation($input: CreateDiffNoteInput!) { createDiffNote(input: $input) { errors note { id } } }`, {
      token: fx.developer.token,
      variables: { input: { noteableId: gid('MergeRequest', mr.id), body: 'Stale', position: { ...position, headSha: refs.start_sha } } },
    });
    expect(stale.body.data.createDiffNote).toEqual({ errors: ["Line code can't be blank", 'Line code must be a valid line code'], note: null });
    // Only merge requests take diff notes.
    const issue = await api.post(`/projects/${fx.project.id}/issues`, { token: fx.owner.token, body: { title: 'An issue' } });
    const onIssue = await gql(`mutation($input: CreateDiffNoteInput!) { createDiffNote(input: $input) { errors note { id } } }`, {
      token: fx.developer.token,
      variables: { input: { noteableId: gid('Issue', issue.body.id), body: 'On an issue', position } },
    });
    expect(onIssue.body.data.createDiffNote).toEqual({ errors: ["Noteable doesn't support new-style diff notes"], note: null });
    const hidden = await gql(`mutation($input: CreateDiffNoteInput!) { createDiffNote(input: $input) { errors note { id } } }`, {
      token: outsider.token,
      variables: { input: { noteableId: gid('MergeRequest', mr.id), body: 'Hidden', position } },
    });
    expect(hidden.body.errors[0].message).toBe(RESOURCE_ERROR);
  });

  it('places an image note with its coordinates', async () => {
    const refs = mr.diff_refs;
    const position = {
      baseSha: refs.base_sha,
      headSha: refs.head_sha,
      startSha: refs.start_sha,
      paths: { newPath: 'list.txt' },
      x: 10,
      y: 20,
      width: 100,
      height: 200,
    };
    const res = await gql(`mutation($input: CreateImageDiffNoteInput!) { createImageDiffNote(input: $input) { errors note { body ${POSITION} } } }`, {
      token: fx.developer.token,
      variables: { input: { noteableId: gid('MergeRequest', mr.id), body: 'Here', position } },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createImageDiffNote).toEqual({
      errors: [],
      note: {
        body: 'Here',
        position: {
          positionType: 'image',
          filePath: 'list.txt',
          oldPath: null,
          newPath: 'list.txt',
          oldLine: null,
          newLine: null,
          x: 10,
          y: 20,
          width: 100,
          height: 200,
          diffRefs: { baseSha: refs.base_sha, headSha: refs.head_sha, startSha: refs.start_sha },
        },
      },
    });
  });
});

describe('a merged merge request', () => {
  it('is listed by merge time, counts toward totalTimeToMerge, and may be cherry-picked by developers', async () => {
    await branch(fx, 'to-merge');
    await commit(fx, 'to-merge', 'To merge', [{ action: 'create', file_path: 'merged.txt', content: 'm\n' }]);
    const opened = await openMergeRequest(fx, { source_branch: 'to-merge', title: 'Merge me' });
    const merged = await api.put(`${mrs(fx)}/${opened.iid}/merge`, { token: fx.owner.token });
    expect(merged.status, merged.text).toBe(200);
    const mergedAt = Date.parse(merged.body.merged_at);
    const res = await gql(
      `query($path: ID!, $after: Time!) { project(fullPath: $path) {
        after: mergeRequests(mergedAfter: $after) { count totalTimeToMerge nodes { iid state mergedAt mergeCommitSha mergeable
          userPermissions { cherryPickOnCurrentMergeRequest revertOnCurrentMergeRequest canMerge } } }
        before: mergeRequests(mergedBefore: $after) { count totalTimeToMerge }
        merged: mergeRequests(state: merged) { nodes { iid } } } }`,
      { token: fx.developer.token, variables: { path: path(), after: new Date(mergedAt - 60_000).toISOString() } },
    );
    expect(res.body.errors).toBeUndefined();
    const p = res.body.data.project;
    expect(p.after.count).toBe(1);
    expect(p.after.totalTimeToMerge).toBeGreaterThan(0);
    expect(p.after.nodes[0]).toMatchObject({
      iid: String(opened.iid),
      state: 'merged',
      mergedAt: merged.body.merged_at,
      mergeCommitSha: merged.body.merge_commit_sha,
      mergeable: false,
      // A developer may push to the project but not merge into its protected default branch.
      userPermissions: { cherryPickOnCurrentMergeRequest: true, revertOnCurrentMergeRequest: true, canMerge: false },
    });
    expect(p.before).toEqual({ count: 0, totalTimeToMerge: null });
    expect(p.merged.nodes).toEqual([{ iid: String(opened.iid) }]);
  });

  it('takes award emoji (AwardableID) and counts them as votes', async () => {
    const res = await gql(`mutation($id: ID!) { awardEmojiAdd(input: { awardableId: $id, name: "thumbsup" }) { errors awardEmoji { name } } }`, {
      token: fx.developer.token,
      variables: { id: gid('MergeRequest', mr.id) },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.awardEmojiAdd).toEqual({ errors: [], awardEmoji: { name: 'thumbsup' } });
    const body = await projectQuery(`mergeRequest(iid: "${mr.iid}") { upvotes awardEmoji { nodes { name user { username } } } }`);
    expect(body.data.project.mergeRequest).toEqual({
      upvotes: 1,
      awardEmoji: { nodes: [{ name: 'thumbsup', user: { username: fx.developer.user.username } }] },
    });
  });
});

describe('a public project', () => {
  it('lists its merge requests to anonymous callers, who may do nothing with them', async () => {
    const owner = await createUser();
    const res = await api.post('/projects', { token: owner.token, body: { name: `pub-${Date.now()}`, visibility: 'public', initialize_with_readme: true } });
    expect(res.status, res.text).toBe(201);
    const pub = { project: res.body, owner };
    const target = ((await api.get(`/projects/${res.body.id}/repository/branches`, { token: owner.token })).body as Array<{ name: string }>)[0]!.name;
    await branch(pub as any, 'change', target);
    await commit(pub as any, 'change', 'Change', [{ action: 'create', file_path: 'c.txt', content: 'c\n' }]);
    const made = await api.post(`/projects/${res.body.id}/merge_requests`, {
      token: owner.token,
      body: { source_branch: 'change', target_branch: target, title: 'Public change' },
    });
    expect(made.status, made.text).toBe(201);
    const body = await gql(
      `query($path: ID!) { project(fullPath: $path) { mergeRequests { count nodes { title subscribed currentUserTodos { nodes { id } }
        diffStatsSummary { fileCount } userPermissions { readMergeRequest createNote updateMergeRequest canMerge pushToSourceBranch } } } } }`,
      { variables: { path: res.body.path_with_namespace } },
    );
    expect(body.body.errors).toBeUndefined();
    expect(body.body.data.project.mergeRequests).toEqual({
      count: 1,
      nodes: [
        {
          title: 'Public change',
          subscribed: false,
          currentUserTodos: { nodes: [] },
          diffStatsSummary: { fileCount: 1 },
          userPermissions: { readMergeRequest: true, createNote: false, updateMergeRequest: false, canMerge: false, pushToSourceBranch: false },
        },
      ],
    });
  });
});
