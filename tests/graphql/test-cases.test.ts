// GraphQL test cases (13.6, Ultimate quality management): createTestCase makes an Issue of type TEST_CASE (admin_issue:
// reporters and above), with labels available to the project; on free and premium instances the payload says test
// cases are not available. Test cases stay out of Project.issues (Issue::TYPES_FOR_LIST) unless `types` asks for them;
// Query.issue finds them.
import { describe, expect, it } from 'vitest';
import { addMember, createGroup } from '../factories/groups.ts';
import { createIssue } from '../factories/issues.ts';
import { createLabel } from '../factories/labels.ts';
import { createProject } from '../factories/projects.ts';
import { createUser } from '../factories/users.ts';
import { api, request } from '../helpers/app.ts';

const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";
type Tier = 'free' | 'premium' | 'ultimate';

function gql(query: string, o: { token?: string; variables?: Record<string, unknown>; tier?: Tier } = {}) {
  return request('POST', '/api/graphql', { token: o.token, body: { query, variables: o.variables ?? {} }, env: { INSTANCE_TIER: o.tier ?? 'ultimate' } });
}

const CREATE = `mutation($input: CreateTestCaseInput!) { createTestCase(input: $input) {
  clientMutationId errors testCase { id iid title description type state confidential author { username } labels { nodes { title } } } } }`;

async function setup() {
  const owner = await createUser();
  const group = await createGroup(owner.token);
  const project = await createProject(owner.token, { namespaceId: group.id });
  return { owner, group, project, path: project.path_with_namespace as string };
}

const create = (token: string | undefined, path: string, input: Record<string, unknown>, tier: Tier = 'ultimate') =>
  gql(CREATE, { token, tier, variables: { input: { projectPath: path, ...input } } });

/** The project's issue iids as REST lists them (test cases hidden) and whether iid `iid` exists by itself. */
const restIids = async (token: string, projectId: number) =>
  (await api.get(`/projects/${projectId}/issues`, { token })).body.map((i: { iid: number }) => i.iid);

describe('createTestCase', () => {
  it('creates an issue of type TEST_CASE with the labels available to the project (exact payload)', async () => {
    const { owner, group, project, path } = await setup();
    const reporter = await createUser();
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    const own = await createLabel(owner.token, 'projects', project.id, { name: 'qa' });
    const inherited = await createLabel(owner.token, 'groups', group.id, { name: 'ui' });
    const elsewhere = await createProject(owner.token);
    const foreign = await createLabel(owner.token, 'projects', elsewhere.id, { name: 'foreign' });
    await createIssue(owner.token, project.id, { title: 'An issue first' });
    const res = await create(reporter.token, path, {
      title: '  Login test ',
      description: 'Steps',
      labelIds: [`gid://gitlab/ProjectLabel/${own.id}`, String(inherited.id), `gid://gitlab/ProjectLabel/${foreign.id}`, 'junk'],
      clientMutationId: 'tc',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        createTestCase: {
          clientMutationId: 'tc',
          errors: [],
          testCase: {
            id: expect.stringMatching(/^gid:\/\/gitlab\/Issue\/\d+$/),
            iid: '2',
            title: 'Login test',
            description: 'Steps',
            type: 'TEST_CASE',
            state: 'opened',
            confidential: false,
            author: { username: reporter.user.username },
            labels: { nodes: [{ title: 'qa' }, { title: 'ui' }] },
          },
        },
      },
    });
    // Query.issue finds it; the REST issue by iid too (only lists hide test cases).
    const byId = await gql(`query($id: IssueID!) { issue(id: $id) { iid type } }`, {
      token: owner.token,
      variables: { id: res.body.data.createTestCase.testCase.id },
    });
    expect(byId.body.data.issue).toEqual({ iid: '2', type: 'TEST_CASE' });
    expect((await api.get(`/projects/${project.id}/issues/2`, { token: owner.token })).body.title).toBe('Login test');
    // An ordinary issue still reads as ISSUE.
    const list = await gql(`query($p: ID!) { project(fullPath: $p) { issues { count nodes { iid type } } } }`, { token: owner.token, variables: { p: path } });
    expect(list.body.data.project.issues).toEqual({ count: 1, nodes: [{ iid: '1', type: 'ISSUE' }] });
    // `types` lists them (the test case list's query), alone or with issues.
    const typed = (types: string) =>
      gql(`query($p: ID!) { project(fullPath: $p) { issues(types: [${types}], sort: created_asc) { count nodes { iid type } } } }`, {
        token: owner.token,
        variables: { p: path },
      });
    expect((await typed('TEST_CASE')).body.data.project.issues).toEqual({ count: 1, nodes: [{ iid: '2', type: 'TEST_CASE' }] });
    expect((await typed('ISSUE, TEST_CASE')).body.data.project.issues).toEqual({
      count: 2,
      nodes: [
        { iid: '1', type: 'ISSUE' },
        { iid: '2', type: 'TEST_CASE' },
      ],
    });
  });

  it.each([
    ['blank title', { title: '   ' }, ["Title can't be blank"]],
    ['too long title', { title: 't'.repeat(256) }, ['Title is too long (maximum is 255 characters)']],
  ])('refuses a %s in the payload and writes nothing', async (_n, input, errors) => {
    const { owner, project, path } = await setup();
    const res = await create(owner.token, path, input);
    expect(res.body).toEqual({ data: { createTestCase: { clientMutationId: null, errors, testCase: null } } });
    expect((await api.get(`/projects/${project.id}/issues/1`, { token: owner.token })).status).toBe(404);
  });

  it.each(['free', 'premium'] as const)('says test cases are not available on a %s instance, writing nothing', async (tier) => {
    const { owner, project, path } = await setup();
    const res = await create(owner.token, path, { title: 'Unlicensed' }, tier);
    expect(res.body).toEqual({
      data: { createTestCase: { clientMutationId: null, errors: ['Test cases are not available for this project'], testCase: null } },
    });
    expect((await api.get(`/projects/${project.id}/issues/1`, { token: owner.token })).status).toBe(404);
  });

  it('answers the resource error to guests, strangers, anonymous callers and for missing projects, writing nothing', async () => {
    const { owner, project, path } = await setup();
    const guest = await createUser();
    const stranger = await createUser();
    await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
    const cases: Array<{ token?: string; path: string }> = [
      { token: guest.token, path },
      { token: stranger.token, path },
      { path },
      { token: owner.token, path: 'nobody/nothing' },
    ];
    for (const c of cases) {
      const res = await create(c.token, c.path, { title: 'No' });
      expect(res.body.data).toEqual({ createTestCase: null });
      expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual([RESOURCE_ERROR]);
    }
    expect((await api.get(`/projects/${project.id}/issues/1`, { token: owner.token })).status).toBe(404);
    expect(await restIids(owner.token, project.id)).toEqual([]);
  });
});
