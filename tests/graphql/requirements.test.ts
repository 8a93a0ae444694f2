// GraphQL requirements (13.6, Ultimate): Project.requirement(s) with their filters, requirementStatesCount, the
// Requirement and TestReport types, createRequirement and updateRequirement with GitLab's messages; on free and
// premium instances reads are empty/null and mutations the resource error.
import { describe, expect, it } from 'vitest';
import { addMember } from '../factories/groups.ts';
import { createProject } from '../factories/projects.ts';
import { createUser } from '../factories/users.ts';
import { queryCount, request } from '../helpers/app.ts';

const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";
type Tier = 'free' | 'premium' | 'ultimate';

function gql(query: string, o: { token?: string; variables?: Record<string, unknown>; tier?: Tier } = {}) {
  return request('POST', '/api/graphql', { token: o.token, body: { query, variables: o.variables ?? {} }, env: { INSTANCE_TIER: o.tier ?? 'ultimate' } });
}

const CREATE = `mutation($input: CreateRequirementInput!) { createRequirement(input: $input) {
  clientMutationId errors requirement { id iid title titleHtml description descriptionHtml state author { username } project { fullPath }
  lastTestReportState lastTestReportManuallyCreated createdAt updatedAt
  userPermissions { adminRequirement createRequirement destroyRequirement readRequirement updateRequirement } } } }`;
const UPDATE = `mutation($input: UpdateRequirementInput!) { updateRequirement(input: $input) {
  errors requirement { iid title description state lastTestReportState lastTestReportManuallyCreated
  testReports { nodes { id state author { username } createdAt } } } } }`;
const LIST = `query($path: ID!, $state: RequirementState, $search: String, $authorUsername: [String!], $iid: ID, $iids: [ID!], $sort: Sort, $first: Int, $after: String) {
  project(fullPath: $path) {
    requirements(state: $state, search: $search, authorUsername: $authorUsername, iid: $iid, iids: $iids, sort: $sort, first: $first, after: $after) {
      nodes { iid title state } pageInfo { hasNextPage endCursor } }
    requirementStatesCount { opened archived }
  } }`;
const ONE = `query($path: ID!, $iid: ID) { project(fullPath: $path) { requirement(iid: $iid) { iid title } } }`;

async function setup() {
  const owner = await createUser();
  const project = await createProject(owner.token, { visibility: 'private' });
  return { owner, project, path: project.path_with_namespace as string };
}

const create = (token: string, path: string, title: string, extra: Record<string, unknown> = {}, tier: Tier = 'ultimate') =>
  gql(CREATE, { token, tier, variables: { input: { projectPath: path, title, ...extra } } });

describe('createRequirement', () => {
  it('creates a requirement numbered per project (exact payload)', async () => {
    const { owner, path } = await setup();
    const res = await create(owner.token, path, '  Must <log> in  ', { description: 'Users log in', clientMutationId: 'm1' });
    expect(res.status).toBe(200);
    const r = res.body.data.createRequirement;
    expect(r).toEqual({
      clientMutationId: 'm1',
      errors: [],
      requirement: {
        id: expect.stringMatching(/^gid:\/\/gitlab\/RequirementsManagement::Requirement\/\d+$/),
        iid: '1',
        title: 'Must <log> in',
        titleHtml: 'Must &lt;log&gt; in',
        description: 'Users log in',
        descriptionHtml: '<p dir="auto">Users log in</p>',
        state: 'OPENED',
        author: { username: owner.user.username },
        project: { fullPath: path },
        lastTestReportState: null,
        lastTestReportManuallyCreated: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        userPermissions: { adminRequirement: true, createRequirement: true, destroyRequirement: true, readRequirement: true, updateRequirement: true },
      },
    });
    const second = await create(owner.token, path, 'Second');
    expect(second.body.data.createRequirement.requirement.iid).toBe('2');
  });

  it.each([
    ['blank title', { title: '   ' }, ["Title can't be blank"]],
    ['empty title', { title: '' }, ["Title can't be blank"]],
    ['title too long', { title: 'x'.repeat(256) }, ['Title is too long (maximum is 255 characters)']],
    ['description too long', { title: 'ok', description: 'd'.repeat(10_001) }, ['Description is too long (maximum is 10000 characters)']],
    ['both', { title: '', description: 'd'.repeat(10_001) }, ["Title can't be blank", 'Description is too long (maximum is 10000 characters)']],
  ])('refuses a %s in the payload and writes nothing', async (_name, input, errors) => {
    const { owner, path } = await setup();
    const res = await gql(CREATE, { token: owner.token, variables: { input: { projectPath: path, ...input } } });
    expect(res.body).toEqual({ data: { createRequirement: { clientMutationId: null, errors, requirement: null } } });
    const counts = await gql(LIST, { token: owner.token, variables: { path } });
    expect(counts.body.data.project.requirementStatesCount).toEqual({ opened: 0, archived: 0 });
  });

  it('accepts a 255-character title', async () => {
    const { owner, path } = await setup();
    const res = await create(owner.token, path, 'x'.repeat(255));
    expect(res.body.data.createRequirement.errors).toEqual([]);
  });

  it('is for reporters and above; others, anonymous and missing projects get the resource error', async () => {
    const { owner, project, path } = await setup();
    const guest = await createUser();
    const reporter = await createUser();
    const stranger = await createUser();
    await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    const byReporter = (await create(reporter.token, path, 'By reporter')).body.data.createRequirement;
    expect(byReporter.errors).toEqual([]);
    // destroy_requirement is the owners'.
    expect(byReporter.requirement.userPermissions).toEqual({
      adminRequirement: true,
      createRequirement: true,
      destroyRequirement: false,
      readRequirement: true,
      updateRequirement: true,
    });
    for (const token of [guest.token, stranger.token, undefined]) {
      const res = await gql(CREATE, { token, variables: { input: { projectPath: path, title: 'No' } } });
      expect(res.body.data).toEqual({ createRequirement: null });
      expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual([RESOURCE_ERROR]);
    }
    const missing = await create(owner.token, 'nobody/nothing', 'No');
    expect(missing.body.errors[0].message).toBe(RESOURCE_ERROR);
    const counts = await gql(LIST, { token: owner.token, variables: { path } });
    expect(counts.body.data.project.requirementStatesCount).toEqual({ opened: 1, archived: 0 });
  });

  it.each(['free', 'premium'] as const)('is refused on a %s instance (not licensed), writing nothing', async (tier) => {
    const { owner, path } = await setup();
    const res = await create(owner.token, path, 'Unlicensed', {}, tier);
    expect(res.body.data).toEqual({ createRequirement: null });
    expect(res.body.errors[0].message).toBe(RESOURCE_ERROR);
    const counts = await gql(LIST, { token: owner.token, variables: { path } });
    expect(counts.body.data.project.requirementStatesCount).toEqual({ opened: 0, archived: 0 });
  });
});

describe('Project.requirements', () => {
  it('filters by state, search, author and iids, newest first by default, and pages', async () => {
    const { owner, project, path } = await setup();
    const other = await createUser();
    await addMember(owner.token, 'projects', project.id, other.user.id, 20);
    await create(owner.token, path, 'Login works');
    await create(other.token, path, 'Logout works');
    await create(owner.token, path, 'Export data');
    await gql(UPDATE, { token: owner.token, variables: { input: { projectPath: path, iid: '3', state: 'ARCHIVED' } } });
    const titles = async (variables: Record<string, unknown>) =>
      (await gql(LIST, { token: owner.token, variables: { path, ...variables } })).body.data.project.requirements.nodes.map((n: { iid: string }) => n.iid);
    expect(await titles({})).toEqual(['3', '2', '1']);
    expect(await titles({ sort: 'created_asc' })).toEqual(['1', '2', '3']);
    expect(await titles({ sort: 'CREATED_ASC' })).toEqual(['1', '2', '3']);
    expect(await titles({ state: 'OPENED' })).toEqual(['2', '1']);
    expect(await titles({ state: 'ARCHIVED' })).toEqual(['3']);
    expect(await titles({ search: 'log' })).toEqual(['2', '1']);
    expect(await titles({ search: 'LOGIN' })).toEqual(['1']);
    expect(await titles({ authorUsername: [other.user.username.toUpperCase()] })).toEqual(['2']);
    expect(await titles({ authorUsername: ['nobody-at-all'] })).toEqual([]);
    expect(await titles({ iid: '2' })).toEqual(['2']);
    expect(await titles({ iids: ['1', '3'] })).toEqual(['3', '1']);
    expect(await titles({ iids: ['x'] })).toEqual([]);
    const page1 = (await gql(LIST, { token: owner.token, variables: { path, first: 2 } })).body.data.project.requirements;
    expect(page1.nodes.map((n: { iid: string }) => n.iid)).toEqual(['3', '2']);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    expect(await titles({ first: 2, after: page1.pageInfo.endCursor })).toEqual(['1']);
    const counts = await gql(LIST, { token: owner.token, variables: { path } });
    expect(counts.body.data.project.requirementStatesCount).toEqual({ opened: 2, archived: 1 });
    expect((await gql(ONE, { token: owner.token, variables: { path, iid: '2' } })).body.data.project.requirement).toEqual({ iid: '2', title: 'Logout works' });
    expect((await gql(ONE, { token: owner.token, variables: { path, iid: '9' } })).body.data.project.requirement).toBeNull();
  });

  it('sorts by last update both ways, paging through the update order', async () => {
    const { owner, path } = await setup();
    for (const t of ['A', 'B', 'C']) await create(owner.token, path, t);
    await gql(UPDATE, { token: owner.token, variables: { input: { projectPath: path, iid: '1', title: 'A2' } } });
    const page = async (variables: Record<string, unknown>) =>
      (await gql(LIST, { token: owner.token, variables: { path, ...variables } })).body.data.project.requirements;
    const iids = (c: { nodes: Array<{ iid: string }> }) => c.nodes.map((n) => n.iid);
    expect(iids(await page({ sort: 'UPDATED_DESC' }))).toEqual(['1', '3', '2']);
    expect(iids(await page({ sort: 'updated_asc' }))).toEqual(['2', '3', '1']);
    const first = await page({ sort: 'UPDATED_DESC', first: 1 });
    expect(iids(first)).toEqual(['1']);
    const rest = await page({ sort: 'UPDATED_DESC', first: 5, after: first.pageInfo.endCursor });
    expect(iids(rest)).toEqual(['3', '2']);
    expect(rest.pageInfo.hasNextPage).toBe(false);
    const LAST = `query($path: ID!, $before: String) { project(fullPath: $path) { requirements(sort: UPDATED_DESC, last: 2, before: $before) { nodes { iid } } } }`;
    const last = async (before?: string) => iids((await gql(LAST, { token: owner.token, variables: { path, before } })).body.data.project.requirements);
    expect(await last()).toEqual(['3', '2']);
    // Before the last one (iid 2): the two updated after it.
    expect(await last(rest.pageInfo.endCursor)).toEqual(['1', '3']);
  });

  it('costs the same number of queries for a page of 1 or 4 requirements with authors and test reports', async () => {
    const { owner, project, path } = await setup();
    const other = await createUser();
    await addMember(owner.token, 'projects', project.id, other.user.id, 20);
    const q = `query($path: ID!) { project(fullPath: $path) { requirements { nodes { title author { username } lastTestReportState userPermissions { updateRequirement }
      testReports { nodes { state author { username } } } } } } }`;
    const add = async (token: string, n: number) => {
      await create(token, path, `R${n}`);
      await gql(UPDATE, { token, variables: { input: { projectPath: path, iid: String(n), lastTestReportState: 'PASSED' } } });
    };
    await add(owner.token, 1);
    const one = await gql(q, { token: owner.token, variables: { path } });
    expect(one.body.data.project.requirements.nodes).toHaveLength(1);
    for (const n of [2, 3, 4]) await add(n % 2 ? owner.token : other.token, n);
    const four = await gql(q, { token: owner.token, variables: { path } });
    expect(four.body.data.project.requirements.nodes.map((r: { author: { username: string } }) => r.author.username)).toEqual([
      other.user.username,
      owner.user.username,
      other.user.username,
      owner.user.username,
    ]);
    expect(queryCount(four)).toBeLessThanOrEqual(queryCount(one));
  });

  it.each(['free', 'premium'] as const)('reads as empty and null on a %s instance', async (tier) => {
    const { owner, path } = await setup();
    await create(owner.token, path, 'Exists');
    const res = await gql(LIST, { token: owner.token, tier, variables: { path } });
    expect(res.body).toEqual({
      data: { project: { requirements: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } }, requirementStatesCount: null } },
    });
    expect((await gql(ONE, { token: owner.token, tier, variables: { path, iid: '1' } })).body).toEqual({ data: { project: { requirement: null } } });
  });

  it("shows a public project's requirements to anyone with read-only permissions, and hides a private one's", async () => {
    const owner = await createUser();
    const pub = await createProject(owner.token, { visibility: 'public' });
    await create(owner.token, pub.path_with_namespace, 'Public one');
    const q = `query($path: ID!) { project(fullPath: $path) { requirements { nodes { title userPermissions { readRequirement updateRequirement createRequirement } } } } }`;
    const anon = await gql(q, { variables: { path: pub.path_with_namespace } });
    expect(anon.body.data.project.requirements.nodes).toEqual([
      { title: 'Public one', userPermissions: { readRequirement: true, updateRequirement: false, createRequirement: false } },
    ]);
    const { path } = await setup();
    const stranger = await createUser();
    expect((await gql(q, { token: stranger.token, variables: { path } })).body.data.project).toBeNull();
  });
});

describe('updateRequirement', () => {
  it('changes title, description and state, and records manual test reports', async () => {
    const { owner, path } = await setup();
    await create(owner.token, path, 'Original');
    const res = await gql(UPDATE, {
      token: owner.token,
      variables: { input: { projectPath: path, iid: '1', title: ' Renamed ', description: 'New text', state: 'ARCHIVED' } },
    });
    expect(res.body).toEqual({
      data: {
        updateRequirement: {
          errors: [],
          requirement: {
            iid: '1',
            title: 'Renamed',
            description: 'New text',
            state: 'ARCHIVED',
            lastTestReportState: null,
            lastTestReportManuallyCreated: null,
            testReports: { nodes: [] },
          },
        },
      },
    });
    await gql(UPDATE, { token: owner.token, variables: { input: { projectPath: path, iid: '1', lastTestReportState: 'PASSED' } } });
    const failed = await gql(UPDATE, { token: owner.token, variables: { input: { projectPath: path, iid: '1', lastTestReportState: 'FAILED' } } });
    const r = failed.body.data.updateRequirement.requirement;
    expect(r.lastTestReportState).toBe('FAILED');
    expect(r.lastTestReportManuallyCreated).toBe(true);
    expect(r.testReports.nodes.map((t: { state: string }) => t.state)).toEqual(['FAILED', 'PASSED']);
    expect(r.testReports.nodes[0]).toEqual({
      id: expect.stringMatching(/^gid:\/\/gitlab\/RequirementsManagement::TestReport\/\d+$/),
      state: 'FAILED',
      author: { username: owner.user.username },
      createdAt: expect.any(String),
    });
  });

  it('needs title, state or lastTestReportState (a description alone is refused) before any lookup', async () => {
    const { owner, path } = await setup();
    await create(owner.token, path, 'Original');
    for (const input of [
      { projectPath: path, iid: '1' },
      { projectPath: path, iid: '1', description: 'only' },
      { projectPath: 'nobody/nothing', iid: '1' },
    ]) {
      const res = await gql(UPDATE, { token: owner.token, variables: { input } });
      expect(res.body.data).toEqual({ updateRequirement: null });
      expect(res.body.errors[0].message).toBe('title, state or last_test_report_state argument is required');
    }
  });

  it.each([
    ['blank title', { title: '  ' }, ["Title can't be blank"]],
    ['long title', { title: 'y'.repeat(256) }, ['Title is too long (maximum is 255 characters)']],
    ['long description', { state: 'ARCHIVED', description: 'd'.repeat(10_001) }, ['Description is too long (maximum is 10000 characters)']],
  ])('refuses a %s, answering the requirement unchanged', async (_n, input, errors) => {
    const { owner, path } = await setup();
    await create(owner.token, path, 'Original');
    const res = await gql(UPDATE, { token: owner.token, variables: { input: { projectPath: path, iid: '1', lastTestReportState: 'PASSED', ...input } } });
    expect(res.body.data.updateRequirement).toEqual({
      errors,
      requirement: {
        iid: '1',
        title: 'Original',
        description: null,
        state: 'OPENED',
        lastTestReportState: null,
        lastTestReportManuallyCreated: null,
        testReports: { nodes: [] },
      },
    });
  });

  it('answers the resource error for missing requirements, guests, strangers and unlicensed instances', async () => {
    const { owner, project, path } = await setup();
    const guest = await createUser();
    await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
    await create(owner.token, path, 'Original');
    const cases: Array<{ token?: string; iid: string; tier?: Tier }> = [
      { token: owner.token, iid: '7' },
      { token: owner.token, iid: 'abc' },
      { token: guest.token, iid: '1' },
      { iid: '1' },
      { token: owner.token, iid: '1', tier: 'premium' },
      { token: owner.token, iid: '1', tier: 'free' },
    ];
    for (const c of cases) {
      const res = await gql(UPDATE, { token: c.token, tier: c.tier, variables: { input: { projectPath: path, iid: c.iid, title: 'Hacked' } } });
      expect(res.body.data).toEqual({ updateRequirement: null });
      expect(res.body.errors[0].message).toBe(RESOURCE_ERROR);
    }
    const one = await gql(ONE, { token: owner.token, variables: { path, iid: '1' } });
    expect(one.body.data.project.requirement.title).toBe('Original');
  });
});
