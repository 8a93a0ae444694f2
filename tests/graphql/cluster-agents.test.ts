// GraphQL cluster agents (13.6 EE, Premium): createClusterAgent with GitLab's name rules and uniqueness (also under
// concurrent creates), Project.clusterAgent(name)/clusterAgents with `count`, tokens whose secret is shown once and
// stored only as a digest (and authenticates nothing), clusterAgentTokenDelete, clusterAgentDelete cascading to the
// tokens; maintainers only (the resource error for others); on a free instance GitLab's license error and no agents.
import { describe, expect, it } from 'vitest';
import * as schema from '../../db/schema/index.ts';
import { sha256Hex } from '../../functions/lib/crypto.ts';
import { addMember } from '../factories/groups.ts';
import { createProject } from '../factories/projects.ts';
import { createUser } from '../factories/users.ts';
import { api, request, testDb } from '../helpers/app.ts';
import { tablesHolding } from '../helpers/db-dump.ts';

const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";
type Tier = 'free' | 'premium' | 'ultimate';

function gql(query: string, o: { token?: string; variables?: Record<string, unknown>; tier?: Tier } = {}) {
  return request('POST', '/api/graphql', { token: o.token, body: { query, variables: o.variables ?? {} }, env: { INSTANCE_TIER: o.tier ?? 'premium' } });
}

const CREATE = `mutation($input: CreateClusterAgentInput!) { createClusterAgent(input: $input) {
  clientMutationId errors clusterAgent { id name createdAt updatedAt project { fullPath } tokens { count nodes { id } } } } }`;
const TOKEN = `mutation($id: ClustersAgentID!) { clusterAgentTokenCreate(input: { clusterAgentId: $id }) {
  errors secret token { id createdAt clusterAgent { name } } } }`;
const DELETE_TOKEN = `mutation($id: ClustersAgentTokenID!) { clusterAgentTokenDelete(input: { id: $id }) { errors } }`;
const DELETE = `mutation($id: ClustersAgentID!) { clusterAgentDelete(input: { id: $id, clientMutationId: "d" }) { clientMutationId errors } }`;
const READ = `query($path: ID!, $name: String!, $first: Int, $after: String) { project(fullPath: $path) {
  clusterAgent(name: $name) { name tokens { count nodes { id } } }
  clusterAgents(first: $first, after: $after) { count nodes { name } pageInfo { hasNextPage endCursor } } } }`;

async function setup() {
  const owner = await createUser();
  const project = await createProject(owner.token, { visibility: 'private' });
  return { owner, project, path: project.path_with_namespace as string };
}

const create = (token: string, path: string, name: string, tier: Tier = 'premium') =>
  gql(CREATE, { token, tier, variables: { input: { projectPath: path, name, clientMutationId: 'c' } } });
const agentCount = async (projectId: number) => (await testDb().db.select().from(schema.clusterAgents)).filter((a) => a.projectId === projectId).length;

describe('createClusterAgent', () => {
  it('registers an agent on the project (exact payload)', async () => {
    const { owner, path } = await setup();
    const res = await create(owner.token, path, 'prod-agent-1');
    expect(res.status).toBe(200);
    expect(res.body.data.createClusterAgent).toEqual({
      clientMutationId: 'c',
      errors: [],
      clusterAgent: {
        id: expect.stringMatching(/^gid:\/\/gitlab\/Clusters::Agent\/\d+$/),
        name: 'prod-agent-1',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/),
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/),
        project: { fullPath: path },
        tokens: { count: 0, nodes: [] },
      },
    });
  });

  it.each([
    ['', ["Name can't be blank", "Name can contain only lowercase letters, digits, and '-', but cannot start or end with '-'"]],
    ['Prod', ["Name can contain only lowercase letters, digits, and '-', but cannot start or end with '-'"]],
    ['-prod', ["Name can contain only lowercase letters, digits, and '-', but cannot start or end with '-'"]],
    ['prod-', ["Name can contain only lowercase letters, digits, and '-', but cannot start or end with '-'"]],
    ['pr_od', ["Name can contain only lowercase letters, digits, and '-', but cannot start or end with '-'"]],
    ['a'.repeat(64), ['Name is too long (maximum is 63 characters)']],
  ])("refuses the name %j with GitLab's messages and stores nothing", async (name, errors) => {
    const { owner, project, path } = await setup();
    const res = await create(owner.token, path, name);
    expect(res.body).toEqual({ data: { createClusterAgent: { clientMutationId: 'c', errors, clusterAgent: null } } });
    expect(await agentCount(project.id)).toBe(0);
  });

  it('accepts 63 characters; a taken name is "Name has already been taken", also when two creates race', async () => {
    const { owner, project, path } = await setup();
    expect((await create(owner.token, path, 'a'.repeat(63))).body.data.createClusterAgent.errors).toEqual([]);
    const [a, b] = await Promise.all([create(owner.token, path, 'twin'), create(owner.token, path, 'twin')]);
    const errors = [a.body.data.createClusterAgent.errors, b.body.data.createClusterAgent.errors];
    expect(errors).toContainEqual([]);
    expect(errors).toContainEqual(['Name has already been taken']);
    expect(await agentCount(project.id)).toBe(2);
    // Another project may use the name.
    const other = await createProject(owner.token);
    expect((await create(owner.token, other.path_with_namespace, 'twin')).body.data.createClusterAgent.errors).toEqual([]);
  });

  it('needs a maintainer: developers and strangers get the resource error, anonymous callers too', async () => {
    const { owner, project, path } = await setup();
    const developer = await createUser();
    await addMember(owner.token, 'projects', project.id, developer.user.id, 30);
    const stranger = await createUser();
    for (const token of [developer.token, stranger.token, undefined]) {
      const res = await create(token as string, path, 'nope');
      expect(res.body.data.createClusterAgent).toBeNull();
      expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual([RESOURCE_ERROR]);
    }
    const maintainer = await createUser();
    await addMember(owner.token, 'projects', project.id, maintainer.user.id, 40);
    expect((await create(maintainer.token, path, 'yes')).body.data.createClusterAgent.errors).toEqual([]);
    expect(await agentCount(project.id)).toBe(1);
  });

  it('on a free instance answers the license error and stores nothing; reads are empty', async () => {
    const { owner, project, path } = await setup();
    const res = await create(owner.token, path, 'prod', 'free');
    expect(res.body).toEqual({
      data: { createClusterAgent: { clientMutationId: 'c', errors: ['This feature is only available for premium plans'], clusterAgent: null } },
    });
    expect(await agentCount(project.id)).toBe(0);
    await create(owner.token, path, 'prod', 'premium');
    const read = await gql(READ, { token: owner.token, tier: 'free', variables: { path, name: 'prod' } });
    expect(read.body).toEqual({
      data: { project: { clusterAgent: null, clusterAgents: { count: 0, nodes: [], pageInfo: { hasNextPage: false, endCursor: null } } } },
    });
  });
});

describe('reading agents', () => {
  it('lists by name with a count, pages, and finds one by name; developers see none', async () => {
    const { owner, project, path } = await setup();
    for (const name of ['charlie', 'alpha', 'bravo']) await create(owner.token, path, name);
    const first = await gql(READ, { token: owner.token, variables: { path, name: 'bravo', first: 2 } });
    expect(first.body.data.project.clusterAgent).toEqual({ name: 'bravo', tokens: { count: 0, nodes: [] } });
    expect(first.body.data.project.clusterAgents).toMatchObject({ count: 3, nodes: [{ name: 'alpha' }, { name: 'bravo' }], pageInfo: { hasNextPage: true } });
    const next = await gql(READ, { token: owner.token, variables: { path, name: 'none', after: first.body.data.project.clusterAgents.pageInfo.endCursor } });
    expect(next.body.data.project).toMatchObject({ clusterAgent: null, clusterAgents: { count: 3, nodes: [{ name: 'charlie' }] } });

    const developer = await createUser();
    await addMember(owner.token, 'projects', project.id, developer.user.id, 30);
    const hidden = await gql(READ, { token: developer.token, variables: { path, name: 'alpha' } });
    expect(hidden.body.data.project).toEqual({ clusterAgent: null, clusterAgents: { count: 0, nodes: [], pageInfo: { hasNextPage: false, endCursor: null } } });
  });
});

describe('agent tokens', () => {
  it('returns the secret once, stores only its digest, and the secret authenticates nothing', async () => {
    const { owner, path } = await setup();
    const agent = (await create(owner.token, path, 'tok')).body.data.createClusterAgent.clusterAgent;
    const res = await gql(TOKEN, { token: owner.token, variables: { id: agent.id } });
    const payload = res.body.data.clusterAgentTokenCreate;
    expect(payload).toEqual({
      errors: [],
      secret: expect.stringMatching(/^[A-Za-z0-9_-]{50}$/),
      token: { id: expect.stringMatching(/^gid:\/\/gitlab\/Clusters::AgentToken\/\d+$/), createdAt: expect.any(String), clusterAgent: { name: 'tok' } },
    });
    const secret: string = payload.secret;
    expect(secret).not.toMatch(/[lIO0]/);
    const rows = await testDb().db.select().from(schema.clusterAgentTokens);
    expect(rows.find((r) => `gid://gitlab/Clusters::AgentToken/${r.id}` === payload.token.id)?.tokenDigest).toBe(await sha256Hex(secret));
    expect(await tablesHolding([secret])).toEqual([]);
    // Not a credential for the API or GraphQL.
    expect((await api.get('/user', { token: secret })).status).toBe(401);
    expect((await request('POST', '/api/graphql', { headers: { Authorization: `Bearer ${secret}` }, body: { query: '{ currentUser { id } }' } })).status).toBe(
      401,
    );
    // Listed on the agent, without the secret.
    const read = await gql(READ, { token: owner.token, variables: { path, name: 'tok' } });
    expect(read.body.data.project.clusterAgent.tokens).toEqual({ count: 1, nodes: [{ id: payload.token.id }] });
  });

  it('deleting a token or the agent: maintainers only; the agent takes its tokens with it', async () => {
    const { owner, project, path } = await setup();
    const agent = (await create(owner.token, path, 'gone')).body.data.createClusterAgent.clusterAgent;
    const t1 = (await gql(TOKEN, { token: owner.token, variables: { id: agent.id } })).body.data.clusterAgentTokenCreate.token.id;
    await gql(TOKEN, { token: owner.token, variables: { id: agent.id } });

    const developer = await createUser();
    await addMember(owner.token, 'projects', project.id, developer.user.id, 30);
    for (const [query, id] of [
      [DELETE_TOKEN, t1],
      [DELETE, agent.id],
      [TOKEN, agent.id],
    ] as const) {
      const refused = await gql(query, { token: developer.token, variables: { id } });
      expect(refused.body.errors.map((e: { message: string }) => e.message)).toEqual([RESOURCE_ERROR]);
    }

    expect((await gql(DELETE_TOKEN, { token: owner.token, variables: { id: t1 } })).body.data.clusterAgentTokenDelete).toEqual({ errors: [] });
    expect((await gql(READ, { token: owner.token, variables: { path, name: 'gone' } })).body.data.project.clusterAgent.tokens.count).toBe(1);
    expect((await gql(DELETE, { token: owner.token, variables: { id: agent.id } })).body.data.clusterAgentDelete).toEqual({
      clientMutationId: 'd',
      errors: [],
    });
    expect(await agentCount(project.id)).toBe(0);
    const agentId = Number(agent.id.split('/').pop());
    expect((await testDb().db.select().from(schema.clusterAgentTokens)).filter((t) => t.agentId === agentId)).toEqual([]);
    // Gone: the resource error, as for an agent that never existed.
    const again = await gql(TOKEN, { token: owner.token, variables: { id: agent.id } });
    expect(again.body.errors.map((e: { message: string }) => e.message)).toEqual([RESOURCE_ERROR]);
    const wrongType = await gql(DELETE, { token: owner.token, variables: { id: 'gid://gitlab/Project/1' } });
    expect(wrongType.body.errors).toHaveLength(1);
  });
});
