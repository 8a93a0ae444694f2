// The instance security dashboard (13.6 EE, Ultimate): addProjectToSecurityDashboard with GitLab's three sentences
// (duplicate also under concurrent adds), developer access required (the resource error otherwise), the dashboard's
// projects shown only while the user is a developer, removeProjectFromSecurityDashboard; on lower tiers the license
// sentence, a null dashboard and the resource error for removal.
import { describe, expect, it } from 'vitest';
import * as schema from '../../db/schema/index.ts';
import { addMember } from '../factories/groups.ts';
import { createProject } from '../factories/projects.ts';
import { createUser } from '../factories/users.ts';
import { api, request, testDb } from '../helpers/app.ts';

const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";
type Tier = 'free' | 'premium' | 'ultimate';

function gql(query: string, o: { token?: string; variables?: Record<string, unknown>; tier?: Tier } = {}) {
  return request('POST', '/api/graphql', { token: o.token, body: { query, variables: o.variables ?? {} }, env: { INSTANCE_TIER: o.tier ?? 'ultimate' } });
}

const ADD = `mutation($id: ID!) { addProjectToSecurityDashboard(input: { id: $id, clientMutationId: "a" }) { clientMutationId errors project { fullPath } } }`;
const REMOVE = `mutation($id: ProjectID!) { removeProjectFromSecurityDashboard(input: { id: $id }) { errors } }`;
const DASHBOARD = `{ instanceSecurityDashboard { projects(first: 10) { nodes { fullPath } } } }`;

const gid = (id: number) => `gid://gitlab/Project/${id}`;
const rows = async (userId: number) => (await testDb().db.select().from(schema.securityDashboardProjects)).filter((r) => r.userId === userId);

describe('addProjectToSecurityDashboard', () => {
  it("adds a project once: the second add (or a concurrent one) is GitLab's duplicate sentence", async () => {
    const owner = await createUser();
    const project = await createProject(owner.token, { name: 'Shop Front' });
    const added = await gql(ADD, { token: owner.token, variables: { id: gid(project.id) } });
    expect(added.body).toEqual({
      data: { addProjectToSecurityDashboard: { clientMutationId: 'a', errors: [], project: { fullPath: project.path_with_namespace } } },
    });
    const again = await gql(ADD, { token: owner.token, variables: { id: gid(project.id) } });
    expect(again.body.data.addProjectToSecurityDashboard).toEqual({
      clientMutationId: 'a',
      errors: ['Cannot add project Shop Front. The project is already added to your Security Dashboard.'],
      project: null,
    });
    const other = await createProject(owner.token);
    const both = await Promise.all([
      gql(ADD, { token: owner.token, variables: { id: gid(other.id) } }),
      gql(ADD, { token: owner.token, variables: { id: gid(other.id) } }),
    ]);
    expect(both.map((r) => r.body.data.addProjectToSecurityDashboard.errors.length).sort()).toEqual([0, 1]);
    expect((await rows(owner.user.id)).length).toBe(2);
    const dashboard = await gql(DASHBOARD, { token: owner.token });
    expect(dashboard.body.data.instanceSecurityDashboard.projects.nodes.map((p: { fullPath: string }) => p.fullPath).sort()).toEqual(
      [project.path_with_namespace, other.path_with_namespace].sort(),
    );
  });

  it('needs developer access (reporters, strangers and anonymous callers get the resource error)', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token, { visibility: 'public' });
    const reporter = await createUser();
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    const stranger = await createUser();
    for (const token of [reporter.token, stranger.token, undefined]) {
      const res = await gql(ADD, { token: token as string, variables: { id: gid(project.id) } });
      expect(res.body.data.addProjectToSecurityDashboard).toBeNull();
      expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual([RESOURCE_ERROR]);
    }
    expect((await gql(ADD, { token: owner.token, variables: { id: 'gid://gitlab/Issue/1' } })).body.errors[0].message).toBe(
      '"gid://gitlab/Issue/1" is not a valid id for Project.',
    );
  });

  it('shows a project only while the user is its developer; removal, then removing again', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token, { visibility: 'private' });
    const dev = await createUser();
    await addMember(owner.token, 'projects', project.id, dev.user.id, 30);
    expect((await gql(ADD, { token: dev.token, variables: { id: gid(project.id) } })).body.data.addProjectToSecurityDashboard.errors).toEqual([]);
    expect((await gql(DASHBOARD, { token: dev.token })).body.data.instanceSecurityDashboard.projects.nodes).toHaveLength(1);
    const member = await api.get(`/projects/${project.id}/members/${dev.user.id}`, { token: owner.token });
    expect(member.status).toBe(200);
    expect((await api.put(`/projects/${project.id}/members/${dev.user.id}`, { token: owner.token, body: { access_level: 20 } })).status).toBe(200);
    expect((await gql(DASHBOARD, { token: dev.token })).body.data.instanceSecurityDashboard.projects.nodes).toEqual([]);

    expect((await gql(REMOVE, { token: dev.token, variables: { id: gid(project.id) } })).body.data.removeProjectFromSecurityDashboard).toEqual({ errors: [] });
    expect(await rows(dev.user.id)).toEqual([]);
    expect((await gql(REMOVE, { token: dev.token, variables: { id: gid(project.id) } })).body.data.removeProjectFromSecurityDashboard).toEqual({
      errors: ["The project does not belong to your dashboard or you don't have permission to perform this action"],
    });
  });

  it.each(['free', 'premium'] as const)('on a %s instance: the license sentence, no dashboard, removal is the resource error', async (tier) => {
    const owner = await createUser();
    const project = await createProject(owner.token, { name: 'Licensed Not' });
    const res = await gql(ADD, { token: owner.token, tier, variables: { id: gid(project.id) } });
    expect(res.body.data.addProjectToSecurityDashboard).toEqual({
      clientMutationId: 'a',
      errors: ['Cannot add project Licensed Not. Only projects created under a Gold license are available in Security Dashboards.'],
      project: null,
    });
    expect(await rows(owner.user.id)).toEqual([]);
    expect((await gql(DASHBOARD, { token: owner.token, tier })).body).toEqual({ data: { instanceSecurityDashboard: null } });
    const removed = await gql(REMOVE, { token: owner.token, tier, variables: { id: gid(project.id) } });
    expect(removed.body.errors.map((e: { message: string }) => e.message)).toEqual([RESOURCE_ERROR]);
  });

  it('anonymous callers have no dashboard', async () => {
    expect((await gql(DASHBOARD)).body).toEqual({ data: { instanceSecurityDashboard: null } });
  });
});
