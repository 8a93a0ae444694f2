import { describe, expect, it } from 'vitest';
import { addMember, createGroup } from '../factories/groups.ts';
import { createIssue } from '../factories/issues.ts';
import { createMilestone } from '../factories/milestones.ts';
import { createProject } from '../factories/projects.ts';
import { createUser } from '../factories/users.ts';
import { api, queryCount, request, TEST_PUBLIC_URL } from '../helpers/app.ts';
import { createEpic, PREMIUM } from '../api/epics/support.ts';

const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

/** GraphQL on a tier (epics are Premium). */
const gql = (query: string, options: { token?: string; variables?: Record<string, unknown>; tier?: 'free' | 'premium' } = {}) =>
  request('POST', '/api/graphql', {
    token: options.token,
    body: { query, variables: options.variables ?? {} },
    env: { INSTANCE_TIER: options.tier ?? 'premium' },
  });

async function setup() {
  const owner = await createUser();
  const group = await createGroup(owner.token);
  const project = await createProject(owner.token, { namespaceId: group.id });
  return { owner, group, project };
}

const EPIC_FIELDS = `id iid title description state confidential webPath webUrl reference fullRef: reference(full: true)
  startDate startDateFixed startDateIsFixed startDateFromMilestones dueDate dueDateFixed dueDateIsFixed dueDateFromMilestones
  createdAt updatedAt closedAt upvotes downvotes subscribed hasChildren hasIssues hasParent relativePosition
  group { fullPath } author { username } parent { iid }
  labels { count nodes { title } }
  userPermissions { adminEpic createEpic destroyEpic readEpic updateEpic awardEmoji }`;

describe('Group.epic / Group.epics', () => {
  it('reads an epic with its fields, children and issues', async () => {
    const { owner, group, project } = await setup();
    const milestone = await createMilestone(owner.token, 'projects', project.id, { start_date: '2020-03-01', due_date: '2020-04-01' });
    const parent = await createEpic(owner.token, group.id, { title: 'Parent', labels: 'road' });
    const child = await createEpic(owner.token, group.id, { title: 'Child', parent_id: parent.id });
    const issue = await createIssue(owner.token, project.id, { milestone_id: milestone.id });
    const link = await api.post(`/groups/${group.id}/epics/${parent.iid}/issues/${issue.id}`, { token: owner.token, env: PREMIUM });
    const res = await gql(
      `query($path: ID!, $iid: ID) { group(fullPath: $path) { epicsEnabled epic(iid: $iid) { ${EPIC_FIELDS}
        children { nodes { iid parent { iid } } }
        issues { count weight nodes { id epicIssueId relationPath iid title webUrl } } } } }`,
      { token: owner.token, variables: { path: group.full_path, iid: String(parent.iid) } },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.group.epicsEnabled).toBe(true);
    expect(res.body.data.group.epic).toEqual({
      id: `gid://gitlab/Epic/${parent.id}`,
      iid: String(parent.iid),
      title: 'Parent',
      description: null,
      state: 'opened',
      confidential: false,
      webPath: `/groups/${group.full_path}/-/epics/${parent.iid}`,
      webUrl: `${TEST_PUBLIC_URL}/groups/${group.full_path}/-/epics/${parent.iid}`,
      reference: `&${parent.iid}`,
      fullRef: `${group.full_path}&${parent.iid}`,
      startDate: '2020-03-01',
      startDateFixed: null,
      startDateIsFixed: false,
      startDateFromMilestones: '2020-03-01',
      dueDate: '2020-04-01',
      dueDateFixed: null,
      dueDateIsFixed: false,
      dueDateFromMilestones: '2020-04-01',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      closedAt: null,
      upvotes: 0,
      downvotes: 0,
      subscribed: true,
      hasChildren: true,
      hasIssues: true,
      hasParent: false,
      relativePosition: null,
      group: { fullPath: group.full_path },
      author: { username: owner.user.username },
      parent: null,
      labels: { count: 1, nodes: [{ title: 'road' }] },
      userPermissions: { adminEpic: true, createEpic: true, destroyEpic: true, readEpic: true, updateEpic: true, awardEmoji: true },
      children: { nodes: [{ iid: String(child.iid), parent: { iid: String(parent.iid) } }] },
      issues: {
        count: 1,
        weight: 0,
        nodes: [
          {
            id: `gid://gitlab/EpicIssue/${link.body.id}`,
            epicIssueId: `gid://gitlab/EpicIssue/${link.body.id}`,
            relationPath: `/groups/${group.full_path}/-/epics/${parent.iid}/issues/${link.body.id}`,
            iid: String(issue.iid),
            title: issue.title,
            webUrl: issue.web_url,
          },
        ],
      },
    });
  });

  it('filters epics and costs a constant number of queries', async () => {
    const { owner, group, project } = await setup();
    const epics = [];
    for (let i = 0; i < 4; i++) {
      const epic = await createEpic(owner.token, group.id, { title: `Epic${i}`, start_date_is_fixed: true, start_date_fixed: `2020-0${i + 1}-01` });
      const issue = await createIssue(owner.token, project.id);
      await api.post(`/groups/${group.id}/epics/${epic.iid}/issues/${issue.id}`, { token: owner.token, env: PREMIUM });
      await createEpic(owner.token, group.id, { title: `Child${i}`, parent_id: epic.id });
      epics.push(epic);
    }
    await api.put(`/groups/${group.id}/epics/${epics[0]!.iid}`, { token: owner.token, env: PREMIUM, body: { state_event: 'close' } });
    const titles = async (args: string) => {
      const res = await gql(`query($path: ID!) { group(fullPath: $path) { epics${args} { nodes { title } } } }`, {
        token: owner.token,
        variables: { path: group.full_path },
      });
      expect(res.body.errors).toBeUndefined();
      return res.body.data.group.epics.nodes.map((n: { title: string }) => n.title);
    };
    expect(await titles('(search: "Epic", sort: start_date_asc)')).toEqual(['Epic0', 'Epic1', 'Epic2', 'Epic3']);
    expect(await titles('(search: "Epic", state: closed)')).toEqual(['Epic0']);
    expect(await titles(`(iids: ["${epics[1]!.iid}", "${epics[2]!.iid}"], sort: start_date_desc)`)).toEqual(['Epic2', 'Epic1']);
    // Epic.within_timeframe: some date set, starting by the end and ending (or open) after the start.
    expect(await titles('(timeframe: { start: "2020-02-15", end: "2020-03-15" })')).toEqual(['Epic2', 'Epic1', 'Epic0']);

    const bad = await gql(`query($path: ID!) { group(fullPath: $path) { epics(iidStartsWith: "x1") { nodes { id } } } }`, {
      token: owner.token,
      variables: { path: group.full_path },
    });
    expect(bad.body.errors[0].message).toBe('Invalid `iidStartsWith` query');
    const both = await gql(`query($path: ID!) { group(fullPath: $path) { epics(startDate: "2020-01-01") { nodes { id } } } }`, {
      token: owner.token,
      variables: { path: group.full_path },
    });
    expect(both.body.errors[0].message).toBe('Both startDate and endDate must be present.');

    const deep = `query($path: ID!) { group(fullPath: $path) { epics(first: 100) { nodes { ${EPIC_FIELDS} children { nodes { title hasIssues } } issues { count nodes { title labels { nodes { title } } } } } } } }`;
    const few = await gql(deep.replace('first: 100', 'first: 2'), { token: owner.token, variables: { path: group.full_path } });
    const many = await gql(deep, { token: owner.token, variables: { path: group.full_path } });
    expect(many.body.errors).toBeUndefined();
    expect(many.body.data.group.epics.nodes).toHaveLength(8);
    expect(queryCount(many)).toBeLessThanOrEqual(queryCount(few));
  });

  it('is empty / null without the license, and follows confidentiality', async () => {
    const { owner, group } = await setup();
    const epic = await createEpic(owner.token, group.id, { confidential: true });
    const query = `query($path: ID!, $iid: ID) { group(fullPath: $path) { epicsEnabled epic(iid: $iid) { iid } epics { nodes { iid } } } }`;
    const free = await gql(query, { token: owner.token, tier: 'free', variables: { path: group.full_path, iid: String(epic.iid) } });
    expect(free.body).toEqual({ data: { group: { epicsEnabled: false, epic: null, epics: { nodes: [] } } } });
    const guest = await createUser();
    await addMember(owner.token, 'groups', group.id, guest.user.id, 10);
    const hidden = await gql(query, { token: guest.token, variables: { path: group.full_path, iid: String(epic.iid) } });
    expect(hidden.body).toEqual({ data: { group: { epicsEnabled: true, epic: null, epics: { nodes: [] } } } });
  });
});

const CREATE = `mutation($input: CreateEpicInput!) { createEpic(input: $input) { errors epic { iid title confidential startDateFixed startDateIsFixed labels { nodes { title } } } } }`;

describe('createEpic / updateEpic', () => {
  it('creates an epic with labels and dates', async () => {
    const { owner, group } = await setup();
    const label = await api.post(`/groups/${group.id}/labels`, { token: owner.token, body: { name: 'L1', color: '#ff0000' } });
    const res = await gql(CREATE, {
      token: owner.token,
      variables: {
        input: {
          groupPath: group.full_path,
          title: 'New',
          confidential: true,
          startDateFixed: '2020-05-01',
          startDateIsFixed: true,
          addLabelIds: [`gid://gitlab/GroupLabel/${label.body.id}`],
        },
      },
    });
    expect(res.body).toEqual({
      data: {
        createEpic: {
          errors: [],
          epic: { iid: '1', title: 'New', confidential: true, startDateFixed: '2020-05-01', startDateIsFixed: true, labels: { nodes: [{ title: 'L1' }] } },
        },
      },
    });
    const update = await gql(
      `mutation($input: UpdateEpicInput!) { updateEpic(input: $input) { errors epic { title state closedAt labels { nodes { title } } } } }`,
      {
        token: owner.token,
        variables: { input: { groupPath: group.full_path, iid: '1', title: 'Renamed', stateEvent: 'CLOSE', removeLabelIds: [String(label.body.id)] } },
      },
    );
    expect(update.body.data.updateEpic).toEqual({
      errors: [],
      epic: { title: 'Renamed', state: 'closed', closedAt: expect.any(String), labels: { nodes: [] } },
    });
  });

  it('answers validation errors in the payload and refusals as the resource error', async () => {
    const { owner, group } = await setup();
    const blank = await gql(CREATE, { token: owner.token, variables: { input: { groupPath: group.full_path, title: '' } } });
    expect(blank.body.data.createEpic).toEqual({ errors: ["Title can't be blank"], epic: null });
    const empty = await gql(CREATE, { token: owner.token, variables: { input: { groupPath: group.full_path } } });
    expect(empty.body.errors[0].message).toBe('The list of epic attributes is empty');
    const free = await gql(CREATE, { token: owner.token, tier: 'free', variables: { input: { groupPath: group.full_path, title: 't' } } });
    expect(free.body.errors[0].message).toBe(RESOURCE_ERROR);
    expect(free.body.data.createEpic).toBeNull();
    const guest = await createUser();
    await addMember(owner.token, 'groups', group.id, guest.user.id, 10);
    const denied = await gql(CREATE, { token: guest.token, variables: { input: { groupPath: group.full_path, title: 't' } } });
    expect(denied.body.errors[0].message).toBe(RESOURCE_ERROR);
    const missing = await gql(CREATE, { token: owner.token, variables: { input: { groupPath: 'no/such/group', title: 't' } } });
    expect(missing.body.errors[0].message).toBe(RESOURCE_ERROR);
    const list = await gql(`query($path: ID!) { group(fullPath: $path) { epics { nodes { id } } } }`, {
      token: owner.token,
      variables: { path: group.full_path },
    });
    expect(list.body.data.group.epics.nodes).toEqual([]);
  });
});

describe('Board.epics / updateBoardEpicUserPreferences', () => {
  it('healthStatus and participants (the author, then the note authors once, in note order)', async () => {
    const { owner, group, project } = await setup();
    const commenter = await createUser();
    await addMember(owner.token, 'groups', group.id, commenter.user.id, 20);
    const board = await api.post(`/projects/${project.id}/boards`, { token: owner.token, body: { name: 'B' }, env: PREMIUM });
    const epics = [await createEpic(owner.token, group.id, { title: 'One' }), await createEpic(owner.token, group.id, { title: 'Two' })];
    for (const epic of epics) {
      const issue = await createIssue(owner.token, project.id);
      await api.post(`/groups/${group.id}/epics/${epic.iid}/issues/${issue.id}`, { token: owner.token, env: PREMIUM });
    }
    for (const [token, body] of [
      [commenter.token, 'first'],
      [owner.token, 'second'],
      [commenter.token, 'third'],
    ] as const) {
      const note = await api.post(`/groups/${group.id}/epics/${epics[0]!.id}/notes`, { token, body: { body }, env: PREMIUM });
      expect(note.status, note.text).toBe(201);
    }
    const query = `query($path: ID!, $id: BoardID!) { project(fullPath: $path) { board(id: $id) { epics { nodes { title
      healthStatus { issuesAtRisk issuesNeedingAttention issuesOnTrack }
      participants(first: 5) { nodes { username } pageInfo { hasNextPage } } } } } } }`;
    const res = await gql(query, { token: owner.token, variables: { path: project.path_with_namespace, id: `gid://gitlab/Board/${board.body.id}` } });
    const health = { issuesAtRisk: 0, issuesNeedingAttention: 0, issuesOnTrack: 0 };
    const page = (...names: string[]) => ({ nodes: names.map((username) => ({ username })), pageInfo: { hasNextPage: false } });
    expect(res.body).toEqual({
      data: {
        project: {
          board: {
            epics: {
              nodes: [
                { title: 'Two', healthStatus: health, participants: page(owner.user.username) },
                { title: 'One', healthStatus: health, participants: page(owner.user.username, commenter.user.username) },
              ],
            },
          },
        },
      },
    });
    const one = await gql(
      `query($g: ID!, $iid: ID!) { group(fullPath: $g) { epic(iid: $iid) { participants(first: 1) { nodes { username } pageInfo { hasNextPage } } } } }`,
      {
        token: owner.token,
        variables: { g: group.full_path, iid: String(epics[0]!.iid) },
      },
    );
    expect(one.body).toEqual({ data: { group: { epic: { participants: { nodes: [{ username: owner.user.username }], pageInfo: { hasNextPage: true } } } } } });
  });

  it('lists the open epics holding board issues, with the user preference', async () => {
    const { owner, group, project } = await setup();
    const board = await api.post(`/projects/${project.id}/boards`, { token: owner.token, body: { name: 'B' }, env: PREMIUM });
    expect(board.status, board.text).toBe(201);
    const onBoard = await createEpic(owner.token, group.id, { title: 'On board' });
    const closed = await createEpic(owner.token, group.id, { title: 'Closed' });
    await createEpic(owner.token, group.id, { title: 'Empty' });
    for (const epic of [onBoard, closed]) {
      const issue = await createIssue(owner.token, project.id);
      await api.post(`/groups/${group.id}/epics/${epic.iid}/issues/${issue.id}`, { token: owner.token, env: PREMIUM });
    }
    await api.put(`/groups/${group.id}/epics/${closed.iid}`, { token: owner.token, env: PREMIUM, body: { state_event: 'close' } });
    const boardId = `gid://gitlab/Board/${board.body.id}`;
    const query = `query($path: ID!, $id: BoardID!) { project(fullPath: $path) { board(id: $id) { epics { nodes { id title userPreferences { collapsed } } } } } }`;
    const variables = { path: project.path_with_namespace, id: boardId };
    const before = await gql(query, { token: owner.token, variables });
    expect(before.body).toEqual({
      data: { project: { board: { epics: { nodes: [{ id: `gid://gitlab/Epic/${onBoard.id}`, title: 'On board', userPreferences: null }] } } } },
    });

    const set = await gql(
      `mutation($input: UpdateBoardEpicUserPreferencesInput!) { updateBoardEpicUserPreferences(input: $input) { errors epicUserPreferences { collapsed } } }`,
      {
        token: owner.token,
        variables: { input: { boardId, epicId: `gid://gitlab/Epic/${onBoard.id}`, collapsed: true } },
      },
    );
    expect(set.body).toEqual({ data: { updateBoardEpicUserPreferences: { errors: [], epicUserPreferences: { collapsed: true } } } });
    const after = await gql(query, { token: owner.token, variables });
    expect(after.body.data.project.board.epics.nodes[0].userPreferences).toEqual({ collapsed: true });

    const stranger = await createUser();
    const denied = await gql(`mutation($input: UpdateBoardEpicUserPreferencesInput!) { updateBoardEpicUserPreferences(input: $input) { errors } }`, {
      token: stranger.token,
      variables: { input: { boardId, epicId: `gid://gitlab/Epic/${onBoard.id}`, collapsed: false } },
    });
    expect(denied.body.errors[0].message).toBe(RESOURCE_ERROR);
  });
});
