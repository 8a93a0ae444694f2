// GraphQL dastOnDemandScanCreate (13.6 EE, Ultimate): a real pipeline on the default branch from the configuration
// Ci::RunDastScanService writes (the DAST template's `dast` job in a `dast` stage, the profiles' settings as DAST_*
// variables), seen through the REST pipelines API and the stored job; the pipeline URL in the payload; missing
// profiles and unauthorized callers get the resource error and no pipeline; an empty repository's error and a
// protected default branch's in `errors`.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../../db/schema/index.ts';
import { addMember } from '../factories/groups.ts';
import { createProject } from '../factories/projects.ts';
import { createUser } from '../factories/users.ts';
import { api, request, TEST_PUBLIC_URL, testDb } from '../helpers/app.ts';
import { commitFiles } from '../api/pipelines/support.ts';

const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";
type Tier = 'free' | 'premium' | 'ultimate';

function gql(query: string, o: { token?: string; variables?: Record<string, unknown>; tier?: Tier } = {}) {
  return request('POST', '/api/graphql', { token: o.token, body: { query, variables: o.variables ?? {} }, env: { INSTANCE_TIER: o.tier ?? 'ultimate' } });
}

const SITE_CREATE = `mutation($input: DastSiteProfileCreateInput!) { dastSiteProfileCreate(input: $input) { errors id } }`;
const SCANNER_CREATE = `mutation($input: DastScannerProfileCreateInput!) { dastScannerProfileCreate(input: $input) { errors id } }`;
const SCAN = `mutation($input: DastOnDemandScanCreateInput!) { dastOnDemandScanCreate(input: $input) { clientMutationId errors pipelineUrl } }`;

async function setup(withCommit = true) {
  const owner = await createUser();
  const project = await createProject(owner.token, { visibility: 'private' });
  if (withCommit) await commitFiles(owner.token, project.id, { 'README.md': 'hi' });
  const path = project.path_with_namespace as string;
  const site = await gql(SITE_CREATE, {
    token: owner.token,
    variables: { input: { fullPath: path, profileName: 'site', targetUrl: 'https://staging.example.com/' } },
  });
  return { owner, project, path, id: project.id as number, siteId: site.body.data.dastSiteProfileCreate.id as string };
}

const scan = (token: string | undefined, input: Record<string, unknown>, tier: Tier = 'ultimate') => gql(SCAN, { token, tier, variables: { input } });
const pipelineRows = (projectId: number) => testDb().db.select().from(schema.ciPipelines).where(eq(schema.ciPipelines.projectId, projectId));
const buildRows = (pipelineId: number) => testDb().db.select().from(schema.ciBuilds).where(eq(schema.ciBuilds.pipelineId, pipelineId));
const asMap = (vars: { key: string; value: string }[]) => Object.fromEntries(vars.map((v) => [v.key, v.value]));

describe('dastOnDemandScanCreate', () => {
  it('creates a pipeline on the default branch with the DAST job and the profiles as variables', async () => {
    const { owner, path, id, siteId } = await setup();
    const scanner = await gql(SCANNER_CREATE, {
      token: owner.token,
      variables: { input: { fullPath: path, profileName: 'scanner', spiderTimeout: 12, targetTimeout: 34, useAjaxSpider: true, showDebugMessages: true } },
    });
    const res = await scan(owner.token, {
      fullPath: path,
      dastSiteProfileId: siteId,
      dastScannerProfileId: scanner.body.data.dastScannerProfileCreate.id,
      clientMutationId: 'm',
    });
    expect(res.status).toBe(200);
    const payload = res.body.data.dastOnDemandScanCreate;
    expect(payload).toEqual({
      clientMutationId: 'm',
      errors: [],
      pipelineUrl: expect.stringMatching(new RegExp(`^${TEST_PUBLIC_URL}/${path}/-/pipelines/\\d+$`)),
    });
    const pipelineId = Number(payload.pipelineUrl.split('/').pop());

    const pipeline = await api.get(`/projects/${id}/pipelines/${pipelineId}`, { token: owner.token });
    expect(pipeline.status).toBe(200);
    expect(pipeline.body).toMatchObject({ id: pipelineId, ref: 'master', tag: false, status: 'pending' });
    const jobs = await api.get(`/projects/${id}/pipelines/${pipelineId}/jobs`, { token: owner.token });
    expect(jobs.status).toBe(200);
    expect(jobs.body.map((j: { name: string; stage: string; status: string; ref: string }) => [j.name, j.stage, j.status, j.ref])).toEqual([
      ['dast', 'dast', 'pending', 'master'],
    ]);

    const [row] = await pipelineRows(id);
    expect(row).toMatchObject({ source: 'ondemand_dast_scan', configSource: 'parameter_source' });
    const [build] = await buildRows(pipelineId);
    expect(asMap(build!.yamlVariables)).toEqual({
      DAST_VERSION: '1',
      SECURE_ANALYZERS_PREFIX: 'registry.gitlab.com/gitlab-org/security-products/analyzers',
      DAST_WEBSITE: 'https://staging.example.com/',
      DAST_SPIDER_MINS: '12',
      DAST_TARGET_AVAILABILITY_TIMEOUT: '34',
      DAST_USE_AJAX_SPIDER: 'true',
      DAST_DEBUG: 'true',
      DAST_FULL_SCAN_ENABLED: 'false',
      GIT_STRATEGY: 'none',
    });
  });

  it('without a scanner profile only the site is passed', async () => {
    const { owner, path, id, siteId } = await setup();
    const res = await scan(owner.token, { fullPath: path, dastSiteProfileId: siteId });
    expect(res.body.data.dastOnDemandScanCreate.errors).toEqual([]);
    const [row] = await pipelineRows(id);
    const [build] = await buildRows(row!.id);
    expect(build!.name).toBe('dast');
    expect(asMap(build!.yamlVariables)).toEqual({
      DAST_VERSION: '1',
      SECURE_ANALYZERS_PREFIX: 'registry.gitlab.com/gitlab-org/security-products/analyzers',
      DAST_WEBSITE: 'https://staging.example.com/',
      GIT_STRATEGY: 'none',
    });
  });

  it('an empty repository has no reference to run on: the error in `errors`, no pipeline', async () => {
    const { owner, path, id, siteId } = await setup(false);
    const res = await scan(owner.token, { fullPath: path, dastSiteProfileId: siteId });
    expect(res.body).toEqual({ data: { dastOnDemandScanCreate: { clientMutationId: null, errors: ['Reference not found'], pipelineUrl: null } } });
    expect(await pipelineRows(id)).toEqual([]);
  });

  it('a site or scanner profile the project does not hold is the resource error', async () => {
    const { owner, path, id, siteId } = await setup();
    const other = await setup();
    const foreignSite = await scan(owner.token, { fullPath: path, dastSiteProfileId: other.siteId });
    expect(foreignSite.body).toEqual({ data: { dastOnDemandScanCreate: null }, errors: [expect.objectContaining({ message: RESOURCE_ERROR })] });
    const missingScanner = await scan(owner.token, {
      fullPath: path,
      dastSiteProfileId: siteId,
      dastScannerProfileId: 'gid://gitlab/DastScannerProfile/2147483647',
    });
    expect(missingScanner.body.errors[0].message).toBe(RESOURCE_ERROR);
    expect(await pipelineRows(id)).toEqual([]);
  });

  it('developers may; reporters, strangers, anonymous callers and unlicensed instances get the resource error', async () => {
    const { owner, path, id, siteId } = await setup();
    const developer = await createUser();
    const reporter = await createUser();
    const stranger = await createUser();
    await addMember(owner.token, 'projects', id, developer.user.id, 30);
    await addMember(owner.token, 'projects', id, reporter.user.id, 20);
    const refusals: Array<[string | undefined, Tier]> = [
      [reporter.token, 'ultimate'],
      [stranger.token, 'ultimate'],
      [undefined, 'ultimate'],
      [owner.token, 'free'],
      [owner.token, 'premium'],
    ];
    for (const [token, tier] of refusals) {
      const res = await scan(token, { fullPath: path, dastSiteProfileId: siteId }, tier);
      expect(res.body).toEqual({
        data: { dastOnDemandScanCreate: null },
        errors: [expect.objectContaining({ message: RESOURCE_ERROR, path: ['dastOnDemandScanCreate'] })],
      });
    }
    expect(await pipelineRows(id)).toEqual([]);
    // A developer passes the policy, but the pipeline's ref rule (can_update_branch?) holds on a protected default
    // branch; once developers may merge into it, the scan runs.
    const blocked = await scan(developer.token, { fullPath: path, dastSiteProfileId: siteId });
    expect(blocked.body).toEqual({
      data: { dastOnDemandScanCreate: { clientMutationId: null, errors: ["Insufficient permissions for protected ref 'master'"], pipelineUrl: null } },
    });
    expect(await pipelineRows(id)).toEqual([]);
    expect((await api.delete(`/projects/${id}/protected_branches/master`, { token: owner.token })).status).toBe(204);
    expect(
      (await api.post(`/projects/${id}/protected_branches`, { token: owner.token, body: { name: 'master', push_access_level: 40, merge_access_level: 30 } }))
        .status,
    ).toBe(201);
    const ok = await scan(developer.token, { fullPath: path, dastSiteProfileId: siteId });
    expect(ok.body.data.dastOnDemandScanCreate.errors).toEqual([]);
    const rows = await pipelineRows(id);
    expect(rows.map((r) => r.userId)).toEqual([developer.user.id]);
  });
});
