import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { issues, iterations, resourceIterationEvents } from '../../db/schema/index.ts';
import { addMember, createGroup } from '../factories/groups.ts';
import { CREATE_ITERATION, createIteration, day, gqlAs, PREMIUM } from '../factories/iterations.ts';
import { createProject } from '../factories/projects.ts';
import { createUser } from '../factories/users.ts';
import { api, TEST_PUBLIC_URL, testDb } from '../helpers/app.ts';

const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";
const rowsOf = (groupId: number) => testDb().db.select().from(iterations).where(eq(iterations.groupId, groupId));

async function setup() {
  const owner = await createUser();
  const group = await createGroup(owner.token);
  return { owner, group };
}

describe('createIteration', () => {
  it('creates a group iteration with the next iid, upcoming, and its paths', async () => {
    const { owner, group } = await setup();
    const res = await gqlAs(owner.token, CREATE_ITERATION, {
      input: { groupPath: group.full_path, title: 'Sprint 1', description: 'First', startDate: day(1), dueDate: day(14) },
    });
    expect(res.status).toBe(200);
    const [row] = await rowsOf(group.id);
    expect(res.body).toEqual({
      data: {
        createIteration: {
          errors: [],
          iteration: {
            id: `gid://gitlab/Iteration/${row!.id}`,
            iid: '1',
            title: 'Sprint 1',
            description: 'First',
            state: 'upcoming',
            startDate: day(1),
            dueDate: day(14),
            webPath: `/groups/${group.full_path}/-/iterations/${row!.id}`,
            webUrl: `${TEST_PUBLIC_URL}/groups/${group.full_path}/-/iterations/${row!.id}`,
          },
        },
      },
    });
    const second = await createIteration(owner.token, group.full_path, { startDate: day(15), dueDate: day(20) });
    expect(second.iid).toBe('2');
  });

  it('checks its arguments before anything else, in GitLab order (top-level errors)', async () => {
    const { owner, group } = await setup();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ groupPath: group.full_path }, 'The list of iteration attributes is empty'],
      [{ groupPath: group.full_path, projectPath: 'x/y', title: 'a' }, 'Only one of group_path or project_path can be provided'],
      [{ title: 'a' }, 'Either group_path or project_path is required'],
      [{ groupPath: 'no/such/group', title: 'a' }, RESOURCE_ERROR],
    ];
    for (const [input, message] of cases) {
      const res = await gqlAs(owner.token, CREATE_ITERATION, { input });
      expect(res.body.data).toEqual({ createIteration: null });
      expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual([message]);
    }
    expect(await rowsOf(group.id)).toEqual([]);
  });

  it('answers invalid attributes with the model errors and writes nothing', async () => {
    const { owner, group } = await setup();
    await createIteration(owner.token, group.full_path, { title: 'Taken', startDate: day(10), dueDate: day(20) });
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ title: '', startDate: day(30), dueDate: day(31) }, ["Title can't be blank"]],
      [{ title: 'x'.repeat(256), startDate: day(30), dueDate: day(31) }, ['Title is too long (maximum is 255 characters)']],
      [{ title: 'a', dueDate: day(31) }, ["Start date can't be blank"]],
      [{ title: 'a', startDate: 'soon', dueDate: day(31) }, ["Start date can't be blank"]],
      [{ title: 'a', startDate: day(30) }, ["Due date can't be blank"]],
      [{ title: 'a', startDate: day(31), dueDate: day(30) }, ['Due date must be greater than start date']],
      [{ title: 'a', startDate: day(-1), dueDate: day(2) }, ['Start date cannot be in the past']],
      [{ title: 'a', startDate: day(-3), dueDate: day(-2) }, ['Start date cannot be in the past', 'Due date cannot be in the past']],
      [{ title: 'a', startDate: day(30), dueDate: '2999-01-01' }, ['Due date cannot be more than 500 years in the future']],
      [{ title: 'Taken', startDate: day(30), dueDate: day(31) }, ['Title already being used for another group or project iteration.']],
      [{ title: 'a', startDate: day(20), dueDate: day(25) }, ['Dates cannot overlap with other existing Iterations']],
      [{ title: 'a', startDate: day(5), dueDate: day(10) }, ['Dates cannot overlap with other existing Iterations']],
    ];
    for (const [attributes, errors] of cases) {
      const res = await gqlAs(owner.token, CREATE_ITERATION, { input: { groupPath: group.full_path, ...attributes } });
      expect({ attributes, body: res.body }).toEqual({ attributes, body: { data: { createIteration: { errors, iteration: null } } } });
    }
    expect((await rowsOf(group.id)).map((r) => r.title)).toEqual(['Taken']);
  });

  it("refuses overlaps with an ancestor group's iterations, and project-level iterations", async () => {
    const { owner, group } = await setup();
    const sub = await createGroup(owner.token, { parentId: group.id });
    const project = await createProject(owner.token, { namespaceId: group.id });
    await createIteration(owner.token, group.full_path, { startDate: day(1), dueDate: day(7) });
    const overlap = await gqlAs(owner.token, CREATE_ITERATION, { input: { groupPath: sub.full_path, title: 'Sub', startDate: day(7), dueDate: day(9) } });
    expect(overlap.body.data.createIteration).toEqual({ errors: ['Dates cannot overlap with other existing Iterations'], iteration: null });
    const inProject = await gqlAs(owner.token, CREATE_ITERATION, {
      input: { projectPath: project.path_with_namespace, title: 'P', startDate: day(30), dueDate: day(31) },
    });
    expect(inProject.body.data.createIteration).toEqual({
      errors: ['Project is not allowed. We do not currently support project-level iterations'],
      iteration: null,
    });
  });

  it('concurrent overlapping creates: exactly one wins', async () => {
    const { owner, group } = await setup();
    const results = await Promise.all(
      [0, 1, 2].map((n) =>
        gqlAs(owner.token, CREATE_ITERATION, { input: { groupPath: group.full_path, title: `Race ${n}`, startDate: day(40 + n), dueDate: day(50) } }),
      ),
    );
    expect(results.filter((r) => r.body.data.createIteration.iteration).length).toBe(1);
    expect(await rowsOf(group.id)).toHaveLength(1);
  });

  it('needs a developer and the license: the resource error otherwise, nothing written', async () => {
    const { owner, group } = await setup();
    const reporter = await createUser();
    await addMember(owner.token, 'groups', group.id, reporter.user.id, 20);
    const input = { groupPath: group.full_path, title: 'T', startDate: day(1), dueDate: day(2) };
    for (const [token, tier] of [
      [reporter.token, 'premium'],
      [owner.token, 'free'],
      [undefined, 'premium'],
    ] as const) {
      const res = await gqlAs(token, CREATE_ITERATION, { input }, tier);
      expect(res.body.data).toEqual({ createIteration: null });
      expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual([RESOURCE_ERROR]);
    }
    expect(await rowsOf(group.id)).toEqual([]);
  });
});

const GROUP_ITERATIONS = `query($path: ID!, $state: IterationState, $title: String, $iid: ID, $id: ID, $includeAncestors: Boolean, $first: Int, $after: String) {
  group(fullPath: $path) { iterations(state: $state, title: $title, iid: $iid, id: $id, includeAncestors: $includeAncestors, first: $first, after: $after) {
    nodes { iid title state } pageInfo { hasNextPage endCursor } } }
}`;

describe('Group.iterations and Project.iterations', () => {
  async function tree() {
    const { owner, group } = await setup();
    const sub = await createGroup(owner.token, { parentId: group.id });
    const project = await createProject(owner.token, { namespaceId: sub.id });
    await createIteration(owner.token, group.full_path, { title: 'Root later', startDate: day(20), dueDate: day(25) });
    await createIteration(owner.token, sub.full_path, { title: 'Sub soon', startDate: day(1), dueDate: day(5) });
    // Started and closed ones cannot be created through the API (past dates): written as the cron would have left them.
    await testDb()
      .db.insert(iterations)
      .values([
        { groupId: sub.id, iid: 2, title: 'Sub now', startDate: day(-2), dueDate: day(0) },
        { groupId: sub.id, iid: 3, title: 'Sub past', startDate: day(-10), dueDate: day(-5) },
      ]);
    return { owner, group, sub, project };
  }

  it('lists by due date with computed states, filters, ancestors and pages', async () => {
    const { owner, sub, project } = await tree();
    const list = async (variables: Record<string, unknown>) =>
      (await gqlAs(owner.token, GROUP_ITERATIONS, { path: sub.full_path, ...variables })).body.data.group.iterations;
    expect((await list({})).nodes).toEqual([
      { iid: '3', title: 'Sub past', state: 'closed' },
      { iid: '2', title: 'Sub now', state: 'started' },
      { iid: '1', title: 'Sub soon', state: 'upcoming' },
      { iid: '1', title: 'Root later', state: 'upcoming' },
    ]);
    expect((await list({ state: 'opened' })).nodes.map((n: { title: string }) => n.title)).toEqual(['Sub now', 'Sub soon', 'Root later']);
    expect((await list({ state: 'started' })).nodes.map((n: { title: string }) => n.title)).toEqual(['Sub now']);
    expect((await list({ state: 'closed' })).nodes.map((n: { title: string }) => n.title)).toEqual(['Sub past']);
    expect((await list({ title: 'soo' })).nodes.map((n: { title: string }) => n.title)).toEqual(['Sub soon']);
    expect((await list({ includeAncestors: false })).nodes.map((n: { title: string }) => n.title)).toEqual(['Sub past', 'Sub now', 'Sub soon']);
    // An iid alone looks in the group itself only.
    expect((await list({ iid: '1' })).nodes.map((n: { title: string }) => n.title)).toEqual(['Sub soon']);
    const first = await list({ first: 2 });
    expect(first.nodes).toHaveLength(2);
    expect(first.pageInfo.hasNextPage).toBe(true);
    expect((await list({ first: 2, after: first.pageInfo.endCursor })).nodes.map((n: { title: string }) => n.title)).toEqual(['Sub soon', 'Root later']);

    const res = await gqlAs(owner.token, `query($path: ID!) { project(fullPath: $path) { iterations(state: upcoming) { nodes { title scopedPath } } } }`, {
      path: project.path_with_namespace,
    });
    const [soon] = await testDb()
      .db.select()
      .from(iterations)
      .where(and(eq(iterations.groupId, sub.id), eq(iterations.title, 'Sub soon')));
    expect(res.body.data.project.iterations.nodes[0]).toEqual({
      title: 'Sub soon',
      scopedPath: `/${project.path_with_namespace}/-/iterations/inherited/${soon!.id}`,
    });
    expect(res.body.data.project.iterations.nodes).toHaveLength(2);
  });

  it('is the resource error where iterations are not licensed', async () => {
    const { owner, sub } = await tree();
    const res = await gqlAs(owner.token, GROUP_ITERATIONS, { path: sub.full_path }, 'free');
    expect(res.body.data).toEqual({ group: { iterations: null } });
    expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual([RESOURCE_ERROR]);
  });
});

const SET_ITERATION = `mutation($input: IssueSetIterationInput!) { issueSetIteration(input: $input) { errors issue { iid weight iteration { title } } } }`;

describe('issueSetIteration and Issue.iteration / Issue.weight', () => {
  it('assigns, reads and unsets the iteration, recording add and remove events', async () => {
    const { owner, group } = await setup();
    const project = await createProject(owner.token, { namespaceId: group.id });
    const sprint = await createIteration(owner.token, group.full_path, { title: 'S', startDate: day(1), dueDate: day(5) });
    const issue = await api.post(`/projects/${project.id}/issues`, { token: owner.token, env: PREMIUM, body: { title: 'I', weight: 2 } });
    const set = (iterationId: string | null, tier: 'free' | 'premium' = 'premium', token: string | undefined = owner.token) =>
      gqlAs(token, SET_ITERATION, { input: { projectPath: project.path_with_namespace, iid: String(issue.body.iid), iterationId } }, tier);
    expect((await set(sprint.id)).body).toEqual({
      data: { issueSetIteration: { errors: [], issue: { iid: String(issue.body.iid), weight: 2, iteration: { title: 'S' } } } },
    });
    // Setting the same one again records nothing.
    await set(sprint.id);
    expect((await set(null)).body.data.issueSetIteration.issue.iteration).toBeNull();
    const recorded = await testDb()
      .db.select()
      .from(resourceIterationEvents)
      .where(eq(resourceIterationEvents.issueId, issue.body.id))
      .orderBy(resourceIterationEvents.id);
    expect(recorded.map((e) => [e.action, e.iterationId])).toEqual([
      ['add', Number(sprint.id.split('/').pop())],
      ['remove', Number(sprint.id.split('/').pop())],
    ]);
    await set(sprint.id);
    // Free: neither weight nor iteration are shown; setting one is the resource error.
    const read = await gqlAs(
      owner.token,
      `query($path: ID!) { project(fullPath: $path) { issues { nodes { weight iteration { title } } } } }`,
      { path: project.path_with_namespace },
      'free',
    );
    expect(read.body.data.project.issues.nodes).toEqual([{ weight: null, iteration: null }]);
    const free = await set(sprint.id, 'free');
    expect(free.body.errors.map((e: { message: string }) => e.message)).toEqual([RESOURCE_ERROR]);
  });

  it('refuses iterations the project does not see, unknown issues and strangers; nothing written', async () => {
    const { owner, group } = await setup();
    const project = await createProject(owner.token, { namespaceId: group.id });
    const elsewhere = await createGroup(owner.token);
    const foreign = await createIteration(owner.token, elsewhere.full_path, { title: 'F', startDate: day(1), dueDate: day(5) });
    const mine = await createIteration(owner.token, group.full_path, { title: 'M', startDate: day(1), dueDate: day(5) });
    const issue = await api.post(`/projects/${project.id}/issues`, { token: owner.token, env: PREMIUM, body: { title: 'I' } });
    const stranger = await createUser();
    for (const [token, iid, iterationId] of [
      [owner.token, String(issue.body.iid), foreign.id],
      [owner.token, '999', mine.id],
      [owner.token, 'x', mine.id],
      [stranger.token, String(issue.body.iid), mine.id],
    ] as const) {
      const res = await gqlAs(token, SET_ITERATION, { input: { projectPath: project.path_with_namespace, iid, iterationId } });
      expect(res.body.data).toEqual({ issueSetIteration: null });
      expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual([RESOURCE_ERROR]);
    }
    const [row] = await testDb().db.select().from(issues).where(eq(issues.id, issue.body.id));
    expect(row!.sprintId).toBeNull();
    expect(await testDb().db.select().from(resourceIterationEvents).where(eq(resourceIterationEvents.issueId, issue.body.id))).toEqual([]);
  });
});

describe('Query.iteration', () => {
  it('finds a readable iteration by global id; null when hidden or unlicensed', async () => {
    const { owner, group } = await setup();
    const sprint = await createIteration(owner.token, group.full_path, { title: 'Q', startDate: day(1), dueDate: day(5) });
    const query = `query($id: IterationID!) { iteration(id: $id) { title state } }`;
    expect((await gqlAs(owner.token, query, { id: sprint.id })).body).toEqual({ data: { iteration: { title: 'Q', state: 'upcoming' } } });
    const stranger = await createUser();
    expect((await gqlAs(stranger.token, query, { id: sprint.id })).body).toEqual({ data: { iteration: null } });
    expect((await gqlAs(owner.token, query, { id: sprint.id }, 'free')).body).toEqual({ data: { iteration: null } });
    expect((await gqlAs(owner.token, query, { id: 'gid://gitlab/Iteration/999999999' })).body).toEqual({ data: { iteration: null } });
    const wrongType = await gqlAs(owner.token, query, { id: 'gid://gitlab/Issue/1' });
    expect(wrongType.body.errors).toHaveLength(1);
  });
});
