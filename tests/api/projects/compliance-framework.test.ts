// Compliance frameworks (13.6 EE, Premium): PUT /projects/:id `compliance_framework_setting` set by owners (of the
// project or its group) and administrators where licensed, dropped without a word for maintainers and on a free
// instance (as Projects::UpdateService does); a blank framework removes it; the entity's `compliance_frameworks` and
// GraphQL's Project.complianceFrameworks show it.
import { describe, expect, it } from 'vitest';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { request } from '../../helpers/app.ts';

type Tier = 'free' | 'premium' | 'ultimate';
const put = (id: number, token: string, body: Record<string, unknown>, tier: Tier = 'premium') =>
  request('PUT', `/api/v4/projects/${id}`, { token, body, env: { INSTANCE_TIER: tier } });
const get = (id: number, token: string) => request('GET', `/api/v4/projects/${id}`, { token, env: { INSTANCE_TIER: 'premium' } });
const FRAMEWORKS = `query($path: ID!) { project(fullPath: $path) { complianceFrameworks { nodes { name } } } }`;
const gql = (token: string, path: string) =>
  request('POST', '/api/graphql', { token, body: { query: FRAMEWORKS, variables: { path } }, env: { INSTANCE_TIER: 'premium' } });

describe('compliance_framework_setting', () => {
  it('an owner sets, changes and removes the framework; REST and GraphQL show it', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    expect((await get(project.id, owner.token)).body.compliance_frameworks).toEqual([]);
    const set = await put(project.id, owner.token, { compliance_framework_setting: { framework: 'sox' } });
    expect(set.status).toBe(200);
    expect(set.body.compliance_frameworks).toEqual(['sox']);
    expect((await gql(owner.token, project.path_with_namespace)).body.data.project.complianceFrameworks).toEqual({ nodes: [{ name: 'SOX' }] });
    // Rack's nested form names too.
    const form = await request('PUT', `/api/v4/projects/${project.id}`, {
      token: owner.token,
      form: { 'compliance_framework_setting[framework]': 'pci_dss' },
      env: { INSTANCE_TIER: 'premium' },
    });
    expect(form.body.compliance_frameworks).toEqual(['pci_dss']);
    expect((await gql(owner.token, project.path_with_namespace)).body.data.project.complianceFrameworks.nodes).toEqual([{ name: 'PCI_DSS' }]);
    const removed = await put(project.id, owner.token, { compliance_framework_setting: { framework: '' } });
    expect(removed.body.compliance_frameworks).toEqual([]);
    expect((await gql(owner.token, project.path_with_namespace)).body.data.project.complianceFrameworks.nodes).toEqual([]);
  });

  it('group owners and administrators may; maintainers and free instances are ignored (200, nothing changes)', async () => {
    const groupOwner = await createUser();
    const group = await createGroup(groupOwner.token);
    const project = await createProject(groupOwner.token, { namespaceId: group.id });
    const maintainer = await createUser();
    await addMember(groupOwner.token, 'projects', project.id, maintainer.user.id, 40);
    const ignored = await put(project.id, maintainer.token, { compliance_framework_setting: { framework: 'gdpr' } });
    expect(ignored.status).toBe(200);
    expect(ignored.body.compliance_frameworks).toEqual([]);
    const free = await put(project.id, groupOwner.token, { compliance_framework_setting: { framework: 'gdpr' } }, 'free');
    expect(free.status).toBe(200);
    expect(free.body.compliance_frameworks).toEqual([]);
    expect((await put(project.id, groupOwner.token, { compliance_framework_setting: { framework: 'hipaa' } })).body.compliance_frameworks).toEqual(['hipaa']);
    const admin = await createAdmin();
    expect((await put(project.id, admin.token, { compliance_framework_setting: { framework: 'soc_2' } }, 'ultimate')).body.compliance_frameworks).toEqual([
      'soc_2',
    ]);
  });

  it("an unknown framework is Grape's 400 and changes nothing", async () => {
    const owner = await createUser();
    const project = await createProject(owner.token, { name: 'Same Name' });
    const res = await put(project.id, owner.token, { name: 'Other', compliance_framework_setting: { framework: 'iso27001' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'compliance_framework_setting[framework] does not have a valid value' });
    const after = await get(project.id, owner.token);
    expect(after.body.name).toBe('Same Name');
    expect(after.body.compliance_frameworks).toEqual([]);
  });
});
