// Alert HTTP integrations over GraphQL (GitLab 13.6): httpIntegrationCreate (the token once, its digest stored, a
// 16-hex endpoint identifier, the URL), GitLab's name rules, one integration per project on a free instance (also
// under concurrent creates), httpIntegrationUpdate, httpIntegrationResetToken (the old token stops working),
// httpIntegrationDestroy, and Project.alertManagementIntegrations; maintainers only (others: the resource error, or
// an empty list).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../../../db/schema/index.ts';
import { sha256Hex } from '../../../functions/lib/crypto.ts';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { testDb, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { gql, notify, type Tier } from '../alerts-notify/support.ts';

const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";
const FIELDS = 'id type name active token url apiUrl';
const CREATE = `mutation($input: HttpIntegrationCreateInput!) { httpIntegrationCreate(input: $input) { clientMutationId errors integration { ${FIELDS} } } }`;
const UPDATE = `mutation($input: HttpIntegrationUpdateInput!) { httpIntegrationUpdate(input: $input) { clientMutationId errors integration { ${FIELDS} } } }`;
const RESET = `mutation($id: AlertManagementHttpIntegrationID!) { httpIntegrationResetToken(input: { id: $id }) { errors integration { ${FIELDS} } } }`;
const DESTROY = `mutation($id: AlertManagementHttpIntegrationID!) { httpIntegrationDestroy(input: { id: $id }) { errors integration { id name token } } }`;
const LIST = `query($path: ID!, $first: Int, $after: String) { project(fullPath: $path) {
  alertManagementIntegrations(first: $first, after: $after) { nodes { ${FIELDS} } pageInfo { hasNextPage endCursor } } } }`;

const GID = /^gid:\/\/gitlab\/AlertManagement::HttpIntegration\/(\d+)$/;
const DEVELOPER = 30;
const MAINTAINER = 40;

async function setup() {
  const owner = await createUser();
  const project = await createProject(owner.token, { visibility: 'private' });
  return { owner, project, path: project.path_with_namespace as string };
}

const create = (token: string, projectPath: string, name: string, o: { active?: boolean; tier?: Tier } = {}) =>
  gql(CREATE, { token, tier: o.tier, variables: { input: { projectPath, name, active: o.active ?? true, clientMutationId: 'c' } } });

const rowsOf = (projectId: number) => testDb().db.select().from(schema.alertIntegrations).where(eq(schema.alertIntegrations.projectId, projectId));
const idOf = (gid: string) => Number(GID.exec(gid)![1]);

describe('httpIntegrationCreate', () => {
  it("creates the integration: the token once, only its digest stored, the URL with the name's slug", async () => {
    const { owner, project, path } = await setup();
    const res = await create(owner.token, path, 'Zabbix / Prod #1');
    expect(res.status).toBe(200);
    const created = res.body.data.httpIntegrationCreate;
    expect(created).toEqual({
      clientMutationId: 'c',
      errors: [],
      integration: {
        id: expect.stringMatching(GID),
        type: 'HTTP',
        name: 'Zabbix / Prod #1',
        active: true,
        token: expect.stringMatching(/^[0-9a-f]{32}$/),
        url: expect.stringMatching(new RegExp(`^${TEST_PUBLIC_URL}/${path}/alerts/notify/zabbix---prod--1/[0-9a-f]{16}\\.json$`)),
        apiUrl: null,
      },
    });
    const [row] = await rowsOf(project.id);
    expect(row).toMatchObject({
      id: idOf(created.integration.id),
      name: 'Zabbix / Prod #1',
      active: true,
      tokenDigest: await sha256Hex(created.integration.token),
    });
    expect(created.integration.url).toContain(`/${row!.endpointIdentifier}.json`);
    expect(JSON.stringify(row)).not.toContain(created.integration.token);
  });

  it.each([
    ['', ["Name can't be blank"]],
    ['   ', ["Name can't be blank"]],
    ['n'.repeat(256), ['Name is too long (maximum is 255 characters)']],
  ])("refuses the name %j with GitLab's message and stores nothing", async (name, errors) => {
    const { owner, project, path } = await setup();
    expect((await create(owner.token, path, name)).body).toEqual({ data: { httpIntegrationCreate: { clientMutationId: 'c', errors, integration: null } } });
    expect(await rowsOf(project.id)).toEqual([]);
  });

  it('allows one integration per project on a free instance (also when two creates race), several on Premium', async () => {
    const { owner, project, path } = await setup();
    const [a, b] = await Promise.all([create(owner.token, path, 'one', { tier: 'free' }), create(owner.token, path, 'two', { tier: 'free' })]);
    const errors = [a.body.data.httpIntegrationCreate.errors, b.body.data.httpIntegrationCreate.errors];
    expect(errors).toContainEqual([]);
    expect(errors).toContainEqual(['Multiple HTTP integrations are not supported for this project']);
    expect(await rowsOf(project.id)).toHaveLength(1);
    expect((await create(owner.token, path, 'three', { tier: 'premium' })).body.data.httpIntegrationCreate.errors).toEqual([]);
    expect(await rowsOf(project.id)).toHaveLength(2);
  });

  it('is for maintainers: developers, non-members, anonymous callers and unknown projects get the resource error', async () => {
    const { owner, project, path } = await setup();
    const developer = await createUser();
    const maintainer = await createUser();
    const stranger = await createUser();
    await addMember(owner.token, 'projects', project.id, developer.user.id, DEVELOPER);
    await addMember(owner.token, 'projects', project.id, maintainer.user.id, MAINTAINER);
    for (const [token, projectPath] of [
      [developer.token, path],
      [stranger.token, path],
      [undefined, path],
      [owner.token, `${path}-missing`],
    ] as const) {
      const res = await gql(CREATE, { token, variables: { input: { projectPath, name: 'x', active: true } } });
      expect(res.body.data.httpIntegrationCreate).toBeNull();
      expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual([RESOURCE_ERROR]);
    }
    expect(await rowsOf(project.id)).toEqual([]);
    expect((await create(maintainer.token, path, 'by a maintainer')).body.data.httpIntegrationCreate.errors).toEqual([]);
  });
});

describe('httpIntegrationUpdate, httpIntegrationResetToken, httpIntegrationDestroy', () => {
  it('renames and switches off (token null: it cannot be shown again); bad names change nothing', async () => {
    const { owner, project, path } = await setup();
    const { id, url } = (await create(owner.token, path, 'Before')).body.data.httpIntegrationCreate.integration;
    const res = await gql(UPDATE, { token: owner.token, variables: { input: { id, name: 'After', active: false, clientMutationId: 'u' } } });
    expect(res.body.data.httpIntegrationUpdate).toEqual({
      clientMutationId: 'u',
      errors: [],
      integration: { id, type: 'HTTP', name: 'After', active: false, token: null, url: url.replace('/before/', '/after/'), apiUrl: null },
    });
    for (const [name, errors] of [
      ['', ["Name can't be blank"]],
      [null, ["Name can't be blank"]],
      ['x'.repeat(256), ['Name is too long (maximum is 255 characters)']],
    ] as const) {
      const refused = await gql(UPDATE, { token: owner.token, variables: { input: { id, name, active: true } } });
      expect(refused.body.data.httpIntegrationUpdate).toEqual({ clientMutationId: null, errors, integration: null });
    }
    expect(await rowsOf(project.id)).toMatchObject([{ name: 'After', active: false }]);
    // Only `active` given: the name stays.
    const on = await gql(UPDATE, { token: owner.token, variables: { input: { id, active: true } } });
    expect(on.body.data.httpIntegrationUpdate.integration).toMatchObject({ name: 'After', active: true });
  });

  it('resets the token: the new one is shown once and notifies, the old one is refused', async () => {
    const { owner, project, path } = await setup();
    const created = (await create(owner.token, path, 'Rotating')).body.data.httpIntegrationCreate.integration;
    const notifyPath = created.url.slice(TEST_PUBLIC_URL.length);
    const res = await gql(RESET, { token: owner.token, variables: { id: created.id } });
    const reset = res.body.data.httpIntegrationResetToken;
    expect(reset.errors).toEqual([]);
    expect(reset.integration).toMatchObject({ id: created.id, url: created.url, token: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(reset.integration.token).not.toBe(created.token);
    expect((await rowsOf(project.id))[0]!.tokenDigest).toBe(await sha256Hex(reset.integration.token));
    expect((await notify(notifyPath, { token: created.token, body: {} })).status).toBe(401);
    expect((await notify(notifyPath, { token: reset.integration.token, body: {} })).status).toBe(200);
  });

  it('destroys the integration: its URL then answers 403', async () => {
    const { owner, project, path } = await setup();
    const created = (await create(owner.token, path, 'Gone soon')).body.data.httpIntegrationCreate.integration;
    const res = await gql(DESTROY, { token: owner.token, variables: { id: created.id } });
    expect(res.body.data.httpIntegrationDestroy).toEqual({ errors: [], integration: { id: created.id, name: 'Gone soon', token: null } });
    expect(await rowsOf(project.id)).toEqual([]);
    expect((await notify(created.url.slice(TEST_PUBLIC_URL.length), { token: created.token, body: {} })).status).toBe(403);
  });

  it('gives developers, strangers and unknown ids the resource error and changes nothing', async () => {
    const { owner, project, path } = await setup();
    const developer = await createUser();
    await addMember(owner.token, 'projects', project.id, developer.user.id, DEVELOPER);
    const { id } = (await create(owner.token, path, 'Kept')).body.data.httpIntegrationCreate.integration;
    const missing = `gid://gitlab/AlertManagement::HttpIntegration/${idOf(id) + 100000}`;
    for (const [token, target] of [
      [developer.token, id],
      [undefined, id],
      [owner.token, missing],
    ] as const) {
      for (const [query, variables] of [
        [UPDATE, { input: { id: target, name: 'Changed' } }],
        [RESET, { id: target }],
        [DESTROY, { id: target }],
      ] as const) {
        const res = await gql(query, { token, variables });
        expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual([RESOURCE_ERROR]);
      }
    }
    expect(await rowsOf(project.id)).toMatchObject([{ name: 'Kept' }]);
    const wrongType = await gql(RESET, { token: owner.token, variables: { id: 'gid://gitlab/Issue/1' } });
    expect(wrongType.body.errors[0].message).toContain('is not a valid id for AlertManagement::HttpIntegration');
  });
});

describe('Project.alertManagementIntegrations', () => {
  it('lists the integrations in creation order for maintainers (no tokens), paginated; empty for others', async () => {
    const { owner, project, path } = await setup();
    const names = ['first', 'second', 'third'];
    const ids: string[] = [];
    for (const name of names) ids.push((await create(owner.token, path, name, { active: name !== 'second' })).body.data.httpIntegrationCreate.integration.id);
    const page = await gql(LIST, { token: owner.token, variables: { path, first: 2 } });
    const list = page.body.data.project.alertManagementIntegrations;
    expect(list.nodes.map((n: { id: string; name: string; active: boolean; token: null }) => [n.id, n.name, n.active, n.token])).toEqual([
      [ids[0], 'first', true, null],
      [ids[1], 'second', false, null],
    ]);
    expect(list.nodes[0]).toMatchObject({
      type: 'HTTP',
      apiUrl: null,
      url: expect.stringMatching(new RegExp(`^${TEST_PUBLIC_URL}/${path}/alerts/notify/first/[0-9a-f]{16}\\.json$`)),
    });
    expect(list.pageInfo.hasNextPage).toBe(true);
    const rest = await gql(LIST, { token: owner.token, variables: { path, first: 2, after: list.pageInfo.endCursor } });
    expect(rest.body.data.project.alertManagementIntegrations.nodes.map((n: { name: string }) => n.name)).toEqual(['third']);

    const developer = await createUser();
    await addMember(owner.token, 'projects', project.id, developer.user.id, DEVELOPER);
    const hidden = await gql(LIST, { token: developer.token, variables: { path } });
    expect(hidden.body.data.project.alertManagementIntegrations).toEqual({ nodes: [], pageInfo: { hasNextPage: false, endCursor: null } });
  });
});
