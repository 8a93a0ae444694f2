// GraphQL DAST profiles (13.6 EE, Ultimate): dastSiteProfileCreate/Update/Delete and dastScannerProfileCreate/
// Update/Delete with GitLab's validation texts and per-project unique names; Project.dastSiteProfile(id),
// dastSiteProfiles and dastScannerProfiles with the types' fields; developers and above only (the resource error for
// others, nothing stored); on free and premium instances the fields are null and empty and the mutations refused.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../../db/schema/index.ts';
import { addMember } from '../factories/groups.ts';
import { createProject } from '../factories/projects.ts';
import { createUser } from '../factories/users.ts';
import { request, testDb } from '../helpers/app.ts';

const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";
type Tier = 'free' | 'premium' | 'ultimate';

function gql(query: string, o: { token?: string; variables?: Record<string, unknown>; tier?: Tier } = {}) {
  return request('POST', '/api/graphql', { token: o.token, body: { query, variables: o.variables ?? {} }, env: { INSTANCE_TIER: o.tier ?? 'ultimate' } });
}

const SITE_CREATE = `mutation($input: DastSiteProfileCreateInput!) { dastSiteProfileCreate(input: $input) { clientMutationId errors id } }`;
const SITE_UPDATE = `mutation($input: DastSiteProfileUpdateInput!) { dastSiteProfileUpdate(input: $input) { errors id } }`;
const SITE_DELETE = `mutation($input: DastSiteProfileDeleteInput!) { dastSiteProfileDelete(input: $input) { clientMutationId errors } }`;
const SCANNER_CREATE = `mutation($input: DastScannerProfileCreateInput!) { dastScannerProfileCreate(input: $input) { clientMutationId errors id globalId } }`;
const SCANNER_UPDATE = `mutation($input: DastScannerProfileUpdateInput!) { dastScannerProfileUpdate(input: $input) { errors id } }`;
const SCANNER_DELETE = `mutation($input: DastScannerProfileDeleteInput!) { dastScannerProfileDelete(input: $input) { errors } }`;
const SITE_FIELDS = 'id profileName targetUrl normalizedTargetUrl editPath validationStatus userPermissions { createOnDemandDastScan }';
const SCANNER_FIELDS = 'id globalId profileName spiderTimeout targetTimeout scanType useAjaxSpider showDebugMessages editPath';
const READ = `query($path: ID!, $id: DastSiteProfileID!, $first: Int, $after: String) { project(fullPath: $path) {
  dastSiteProfile(id: $id) { ${SITE_FIELDS} }
  dastSiteProfiles(first: $first, after: $after) { nodes { profileName } pageInfo { hasNextPage endCursor } }
  dastScannerProfiles { nodes { ${SCANNER_FIELDS} } } } }`;

async function setup() {
  const owner = await createUser();
  const project = await createProject(owner.token, { visibility: 'private' });
  return { owner, project, path: project.path_with_namespace as string, id: project.id as number };
}

const createSite = (token: string, path: string, profileName: string, targetUrl: string | null = 'https://example.com/app', tier: Tier = 'ultimate') =>
  gql(SITE_CREATE, { token, tier, variables: { input: { fullPath: path, profileName, targetUrl, clientMutationId: 'c' } } });
const createScanner = (token: string, path: string, input: Record<string, unknown>, tier: Tier = 'ultimate') =>
  gql(SCANNER_CREATE, { token, tier, variables: { input: { fullPath: path, clientMutationId: 's', ...input } } });
const siteRows = (projectId: number) => testDb().db.select().from(schema.dastSiteProfiles).where(eq(schema.dastSiteProfiles.projectId, projectId));
const scannerRows = (projectId: number) => testDb().db.select().from(schema.dastScannerProfiles).where(eq(schema.dastScannerProfiles.projectId, projectId));
const numericId = (gid: string) => Number(gid.split('/').pop());

describe('DAST site profiles', () => {
  it('creates a profile and reads it back with every field', async () => {
    const { owner, path } = await setup();
    const res = await createSite(owner.token, path, 'staging', 'https://Example.com/app?x=1');
    expect(res.status).toBe(200);
    expect(res.body.data.dastSiteProfileCreate).toEqual({
      clientMutationId: 'c',
      errors: [],
      id: expect.stringMatching(/^gid:\/\/gitlab\/DastSiteProfile\/\d+$/),
    });
    const gid = res.body.data.dastSiteProfileCreate.id as string;
    const read = await gql(READ, { token: owner.token, variables: { path, id: gid } });
    expect(read.body).toEqual({
      data: {
        project: {
          dastSiteProfile: {
            id: gid,
            profileName: 'staging',
            targetUrl: 'https://Example.com/app?x=1',
            normalizedTargetUrl: 'https://example.com:443',
            editPath: `/${path}/-/security/configuration/dast_profiles/dast_site_profiles/${numericId(gid)}/edit`,
            validationStatus: 'NONE',
            userPermissions: { createOnDemandDastScan: true },
          },
          dastSiteProfiles: { nodes: [{ profileName: 'staging' }], pageInfo: { hasNextPage: false, endCursor: expect.any(String) } },
          dastScannerProfiles: { nodes: [] },
        },
      },
    });
  });

  it('refuses a name already taken in the project, and blocked or invalid URLs, storing nothing more', async () => {
    const { owner, path, id } = await setup();
    await createSite(owner.token, path, 'dup');
    const cases: Array<[string, string | null, string[]]> = [
      ['dup', 'https://other.example.com', ['Name has already been taken']],
      ['ftp', 'ftp://example.com', ['Url is blocked: Only allowed schemes are http, https']],
      ['bare', 'example.com', ['Url is blocked: Only allowed schemes are http, https']],
      ['none', null, ['Url is blocked: Only allowed schemes are http, https']],
      ['local', 'http://localhost:3000', ['Url is blocked: Requests to localhost are not allowed']],
      ['loop', 'http://127.0.0.1/', ['Url is blocked: Requests to localhost are not allowed']],
      ['lan', 'http://192.168.1.10/', ['Url is blocked: Requests to the local network are not allowed']],
      ['', 'https://example.com', ["Name can't be blank"]],
      ['x'.repeat(256), 'https://example.com', ['Name is too long (maximum is 255 characters)']],
    ];
    for (const [name, url, errors] of cases) {
      const res = await createSite(owner.token, path, name, url);
      expect(res.body, name).toEqual({ data: { dastSiteProfileCreate: { clientMutationId: 'c', errors, id: null } } });
    }
    expect((await siteRows(id)).map((r) => r.name)).toEqual(['dup']);
  });

  it('the same name is free in another project', async () => {
    const a = await setup();
    const b = await createProject(a.owner.token);
    await createSite(a.owner.token, a.path, 'shared');
    const res = await createSite(a.owner.token, b.path_with_namespace, 'shared');
    expect(res.body.data.dastSiteProfileCreate.errors).toEqual([]);
  });

  it('updates a profile; a taken name or a profile of another project is refused', async () => {
    const { owner, path, id } = await setup();
    const first = (await createSite(owner.token, path, 'one')).body.data.dastSiteProfileCreate.id as string;
    await createSite(owner.token, path, 'two');
    const ok = await gql(SITE_UPDATE, {
      token: owner.token,
      variables: { input: { fullPath: path, id: first, profileName: 'uno', targetUrl: 'http://example.org:8080/' } },
    });
    expect(ok.body).toEqual({ data: { dastSiteProfileUpdate: { errors: [], id: first } } });
    const rows = await siteRows(id);
    expect(rows.find((r) => r.id === numericId(first))).toMatchObject({ name: 'uno', targetUrl: 'http://example.org:8080/' });

    const taken = await gql(SITE_UPDATE, {
      token: owner.token,
      variables: { input: { fullPath: path, id: first, profileName: 'two', targetUrl: 'https://example.com' } },
    });
    expect(taken.body).toEqual({ data: { dastSiteProfileUpdate: { errors: ['Name has already been taken'], id: null } } });

    const other = await setup();
    const foreign = (await createSite(other.owner.token, other.path, 'theirs')).body.data.dastSiteProfileCreate.id as string;
    const missing = await gql(SITE_UPDATE, {
      token: owner.token,
      variables: { input: { fullPath: path, id: foreign, profileName: 'x', targetUrl: 'https://example.com' } },
    });
    expect(missing.body).toEqual({ data: { dastSiteProfileUpdate: { errors: ['Site profile not found for given parameters'], id: null } } });
    expect((await siteRows(other.id))[0]).toMatchObject({ name: 'theirs' });
  });

  it('deletes a profile; a second delete reports it not found', async () => {
    const { owner, path, id } = await setup();
    const gid = (await createSite(owner.token, path, 'gone')).body.data.dastSiteProfileCreate.id as string;
    const del = await gql(SITE_DELETE, { token: owner.token, variables: { input: { fullPath: path, id: gid, clientMutationId: 'd' } } });
    expect(del.body).toEqual({ data: { dastSiteProfileDelete: { clientMutationId: 'd', errors: [] } } });
    expect(await siteRows(id)).toEqual([]);
    const again = await gql(SITE_DELETE, { token: owner.token, variables: { input: { fullPath: path, id: gid } } });
    expect(again.body).toEqual({ data: { dastSiteProfileDelete: { clientMutationId: null, errors: ['Site profile not found for given parameters'] } } });
  });

  it('pages the profiles by id', async () => {
    const { owner, path } = await setup();
    for (const name of ['a', 'b', 'c']) await createSite(owner.token, path, name);
    const page1 = await gql(READ, { token: owner.token, variables: { path, id: 'gid://gitlab/DastSiteProfile/2147483647', first: 2 } });
    expect(page1.body.data.project.dastSiteProfile).toBeNull();
    expect(page1.body.data.project.dastSiteProfiles.nodes).toEqual([{ profileName: 'a' }, { profileName: 'b' }]);
    expect(page1.body.data.project.dastSiteProfiles.pageInfo.hasNextPage).toBe(true);
    const page2 = await gql(READ, {
      token: owner.token,
      variables: { path, id: 'gid://gitlab/DastSiteProfile/2147483647', first: 2, after: page1.body.data.project.dastSiteProfiles.pageInfo.endCursor },
    });
    expect(page2.body.data.project.dastSiteProfiles.nodes).toEqual([{ profileName: 'c' }]);
  });
});

describe('DAST scanner profiles', () => {
  it('creates a profile with the defaults and reads it back', async () => {
    const { owner, path } = await setup();
    const res = await createScanner(owner.token, path, { profileName: 'quick', spiderTimeout: 5, targetTimeout: 60 });
    const gid = res.body.data.dastScannerProfileCreate.id as string;
    expect(res.body.data.dastScannerProfileCreate).toEqual({
      clientMutationId: 's',
      errors: [],
      id: expect.stringMatching(/^gid:\/\/gitlab\/DastScannerProfile\/\d+$/),
      globalId: gid,
    });
    const read = await gql(READ, { token: owner.token, variables: { path, id: 'gid://gitlab/DastSiteProfile/2147483647' } });
    expect(read.body.data.project.dastScannerProfiles.nodes).toEqual([
      {
        id: gid,
        globalId: gid,
        profileName: 'quick',
        spiderTimeout: 5,
        targetTimeout: 60,
        scanType: 'PASSIVE',
        useAjaxSpider: false,
        showDebugMessages: false,
        editPath: `/${path}/-/security/configuration/dast_profiles/dast_scanner_profiles/${numericId(gid)}/edit`,
      },
    ]);
  });

  it('refuses out-of-range timeouts and a taken name with GitLab messages', async () => {
    const { owner, path, id } = await setup();
    await createScanner(owner.token, path, { profileName: 'taken' });
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ profileName: 'taken' }, ['Name has already been taken']],
      [{ profileName: 'a', spiderTimeout: 2881 }, ['Spider timeout must be less than or equal to 2880']],
      [
        { profileName: 'b', spiderTimeout: -1, targetTimeout: 3601 },
        ['Spider timeout must be greater than or equal to 0', 'Target timeout must be less than or equal to 3600'],
      ],
      [{ profileName: ' ' }, ["Name can't be blank"]],
    ];
    for (const [input, errors] of cases) {
      const res = await createScanner(owner.token, path, input);
      expect(res.body, JSON.stringify(input)).toEqual({ data: { dastScannerProfileCreate: { clientMutationId: 's', errors, id: null, globalId: null } } });
    }
    const edge = await createScanner(owner.token, path, { profileName: 'edge', spiderTimeout: 2880, targetTimeout: 0 });
    expect(edge.body.data.dastScannerProfileCreate.errors).toEqual([]);
    expect((await scannerRows(id)).map((r) => r.name).sort()).toEqual(['edge', 'taken']);
  });

  it('updates and deletes a profile', async () => {
    const { owner, path, id } = await setup();
    const gid = (await createScanner(owner.token, path, { profileName: 'p', spiderTimeout: 1, targetTimeout: 1 })).body.data.dastScannerProfileCreate
      .id as string;
    const upd = await gql(SCANNER_UPDATE, {
      token: owner.token,
      variables: { input: { fullPath: path, id: gid, profileName: 'p2', spiderTimeout: 10, targetTimeout: 20, useAjaxSpider: true, showDebugMessages: true } },
    });
    expect(upd.body).toEqual({ data: { dastScannerProfileUpdate: { errors: [], id: gid } } });
    expect((await scannerRows(id))[0]).toMatchObject({
      name: 'p2',
      spiderTimeout: 10,
      targetTimeout: 20,
      useAjaxSpider: true,
      showDebugMessages: true,
      scanType: 1,
    });
    const bad = await gql(SCANNER_UPDATE, {
      token: owner.token,
      variables: { input: { fullPath: path, id: gid, profileName: 'p2', spiderTimeout: 3000, targetTimeout: 20 } },
    });
    expect(bad.body).toEqual({ data: { dastScannerProfileUpdate: { errors: ['Spider timeout must be less than or equal to 2880'], id: null } } });
    const del = await gql(SCANNER_DELETE, { token: owner.token, variables: { input: { fullPath: path, id: gid } } });
    expect(del.body).toEqual({ data: { dastScannerProfileDelete: { errors: [] } } });
    expect(await scannerRows(id)).toEqual([]);
    const again = await gql(SCANNER_DELETE, { token: owner.token, variables: { input: { fullPath: path, id: gid } } });
    expect(again.body).toEqual({ data: { dastScannerProfileDelete: { errors: ['Scanner profile not found for given parameters'] } } });
    const missing = await gql(SCANNER_UPDATE, {
      token: owner.token,
      variables: { input: { fullPath: path, id: gid, profileName: 'x', spiderTimeout: 1, targetTimeout: 1 } },
    });
    expect(missing.body).toEqual({ data: { dastScannerProfileUpdate: { errors: ['Scanner profile not found for given parameters'], id: null } } });
  });
});

describe('DAST profiles: who may, and where licensed', () => {
  it('developers may, reporters, strangers and anonymous callers get the resource error and store nothing', async () => {
    const { owner, path, id } = await setup();
    const developer = await createUser();
    const reporter = await createUser();
    const stranger = await createUser();
    await addMember(owner.token, 'projects', id, developer.user.id, 30);
    await addMember(owner.token, 'projects', id, reporter.user.id, 20);
    const dev = await createSite(developer.token, path, 'by-dev');
    expect(dev.body.data.dastSiteProfileCreate.errors).toEqual([]);
    for (const token of [reporter.token, stranger.token, undefined]) {
      const site = await gql(SITE_CREATE, { token, variables: { input: { fullPath: path, profileName: 'no', targetUrl: 'https://example.com' } } });
      expect(site.body).toEqual({
        data: { dastSiteProfileCreate: null },
        errors: [expect.objectContaining({ message: RESOURCE_ERROR, path: ['dastSiteProfileCreate'] })],
      });
      const scanner = await gql(SCANNER_CREATE, { token, variables: { input: { fullPath: path, profileName: 'no' } } });
      expect(scanner.body).toEqual({ data: { dastScannerProfileCreate: null }, errors: [expect.objectContaining({ message: RESOURCE_ERROR })] });
    }
    const gid = dev.body.data.dastSiteProfileCreate.id as string;
    const del = await gql(SITE_DELETE, { token: reporter.token, variables: { input: { fullPath: path, id: gid } } });
    expect(del.body.errors[0].message).toBe(RESOURCE_ERROR);
    expect((await siteRows(id)).map((r) => r.name)).toEqual(['by-dev']);
    expect(await scannerRows(id)).toEqual([]);

    // A reporter reads the project but not its profiles.
    const read = await gql(READ, { token: reporter.token, variables: { path, id: gid } });
    expect(read.body).toEqual({
      data: {
        project: {
          dastSiteProfile: null,
          dastSiteProfiles: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } },
          dastScannerProfiles: { nodes: [] },
        },
      },
    });
  });

  it('on free and premium instances the fields are empty and the mutations refused', async () => {
    const { owner, path, id } = await setup();
    const gid = (await createSite(owner.token, path, 'licensed')).body.data.dastSiteProfileCreate.id as string;
    await createScanner(owner.token, path, { profileName: 'licensed' });
    for (const tier of ['free', 'premium'] as const) {
      const read = await gql(READ, { token: owner.token, tier, variables: { path, id: gid } });
      expect(read.body).toEqual({
        data: {
          project: {
            dastSiteProfile: null,
            dastSiteProfiles: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } },
            dastScannerProfiles: { nodes: [] },
          },
        },
      });
      const site = await createSite(owner.token, path, 'unlicensed', 'https://example.com', tier);
      expect(site.body).toEqual({ data: { dastSiteProfileCreate: null }, errors: [expect.objectContaining({ message: RESOURCE_ERROR })] });
      const scanner = await createScanner(owner.token, path, { profileName: 'unlicensed' }, tier);
      expect(scanner.body.errors[0].message).toBe(RESOURCE_ERROR);
      const del = await gql(SITE_DELETE, { token: owner.token, tier, variables: { input: { fullPath: path, id: gid } } });
      expect(del.body.errors[0].message).toBe(RESOURCE_ERROR);
    }
    expect((await siteRows(id)).map((r) => r.name)).toEqual(['licensed']);
    expect((await scannerRows(id)).map((r) => r.name)).toEqual(['licensed']);
  });
});
