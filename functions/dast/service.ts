// DAST profile verbs (GitLab 13.6 EE: DastSiteProfiles::{Create,Update,Destroy}Service, DastScannerProfiles::
// {Create,Update,Destroy}Service and the profile finders). The policy first (`create_on_demand_dast_scan`: developers
// and above where `security_on_demand_scans` is licensed, Ultimate), then the models' rules with GitLab's sentences;
// a profile id the project does not hold is the services' "... not found for given parameters".
import * as q from '../../db/queries/dast.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { DastScannerProfileRow, DastSiteProfileRow } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { serviceFailed, validationFailed } from '../lib/errors.ts';
import { assertCan, can, dastAvailable, type OnDemandScanFacts } from '../lib/policy.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { scannerProfileErrors, SCAN_TYPES, siteProfileErrors } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export interface DastSiteProfileWithProject {
  project: ProjectView;
  profile: DastSiteProfileRow;
}

export interface DastScannerProfileWithProject {
  project: ProjectView;
  profile: DastScannerProfileRow;
}

const SITE_PROFILE_NOT_FOUND = 'Site profile not found for given parameters';
const SCANNER_PROFILE_NOT_FOUND = 'Scanner profile not found for given parameters';
const TAKEN = { name: ['has already been taken'] };

/** The project's facts with the instance's license for on-demand scans (Ultimate). */
export const onDemandScanFacts = (ctx: RequestContext, project: ProjectView): OnDemandScanFacts => ({
  ...projectFacts(project),
  onDemandScansAvailable: dastAvailable(ctx.config.instanceTier),
});

/** Whether the actor reads the project's DAST profiles (read_on_demand_scans); unlicensed: nobody. */
export const canReadProfiles = (ctx: RequestContext, project: ProjectView) => can(ctx.actor, 'project:read_on_demand_scans', onDemandScanFacts(ctx, project));

/** DastSiteProfile's `userPermissions.createOnDemandDastScan`. */
export const canCreateScan = (ctx: RequestContext, project: ProjectView) =>
  can(ctx.actor, 'project:create_on_demand_dast_scan', onDemandScanFacts(ctx, project));

/** The project by full path, when the actor may create on-demand scans in it (the mutations' `authorize`). */
export async function scanProject(ctx: RequestContext, fullPath: string): Promise<ProjectView> {
  requireUser(ctx);
  const project = await findProject(ctx, { path: fullPath });
  assertCan(ctx.actor, 'project:create_on_demand_dast_scan', onDemandScanFacts(ctx, project));
  return project;
}

/** Project.dastSiteProfile(id): the profile, or null (unknown, another project's, unlicensed or not readable). */
export async function findSiteProfile(ctx: RequestContext, project: ProjectView, id: number): Promise<DastSiteProfileWithProject | null> {
  if (!canReadProfiles(ctx, project)) return null;
  const profile = await q.findDastSiteProfile(ctx.db, project.project.id, id);
  return profile ? { project, profile } : null;
}

type SiteParams = { fullPath: string; name: string; targetUrl: string | null | undefined };

function siteValues(p: SiteParams): q.SiteProfileValues {
  const values = { name: p.name, targetUrl: (p.targetUrl ?? '').trim() };
  const errors = siteProfileErrors(values);
  if (Object.keys(errors).length) throw validationFailed(errors);
  return values;
}

export async function createSiteProfile({ ctx, input }: Verb<SiteParams>): Promise<DastSiteProfileWithProject> {
  const project = await scanProject(ctx, input.fullPath);
  const profile = await q.insertDastSiteProfile(ctx.db, { projectId: project.project.id, ...siteValues(input) });
  if (!profile) throw validationFailed(TAKEN);
  return { project, profile };
}

export async function updateSiteProfile({ ctx, input }: Verb<SiteParams & { id: number }>): Promise<DastSiteProfileWithProject> {
  const project = await scanProject(ctx, input.fullPath);
  if (!(await q.findDastSiteProfile(ctx.db, project.project.id, input.id))) throw serviceFailed([SITE_PROFILE_NOT_FOUND]);
  const profile = await q.updateDastSiteProfile(ctx.db, project.project.id, input.id, siteValues(input));
  if (profile === 'taken') throw validationFailed(TAKEN);
  if (!profile) throw serviceFailed([SITE_PROFILE_NOT_FOUND]);
  return { project, profile };
}

export async function deleteSiteProfile({ ctx, input }: Verb<{ fullPath: string; id: number }>): Promise<void> {
  const project = await scanProject(ctx, input.fullPath);
  if (!(await q.deleteDastSiteProfile(ctx.db, project.project.id, input.id))) throw serviceFailed([SITE_PROFILE_NOT_FOUND]);
}

export type ScanType = keyof typeof SCAN_TYPES;

type ScannerParams = {
  fullPath: string;
  name: string;
  spiderTimeout?: number | null | undefined;
  targetTimeout?: number | null | undefined;
  scanType?: ScanType | null | undefined;
  useAjaxSpider?: boolean | null | undefined;
  showDebugMessages?: boolean | null | undefined;
};

function checkScanner(p: ScannerParams) {
  const errors = scannerProfileErrors(p);
  if (Object.keys(errors).length) throw validationFailed(errors);
}

export async function createScannerProfile({ ctx, input }: Verb<ScannerParams>): Promise<DastScannerProfileWithProject> {
  const project = await scanProject(ctx, input.fullPath);
  checkScanner(input);
  const profile = await q.insertDastScannerProfile(ctx.db, {
    projectId: project.project.id,
    name: input.name,
    spiderTimeout: input.spiderTimeout ?? null,
    targetTimeout: input.targetTimeout ?? null,
    scanType: SCAN_TYPES[input.scanType ?? 'PASSIVE'],
    useAjaxSpider: input.useAjaxSpider ?? false,
    showDebugMessages: input.showDebugMessages ?? false,
  });
  if (!profile) throw validationFailed(TAKEN);
  return { project, profile };
}

/** The update: name and both timeouts always; scan type and the two switches where given. */
export async function updateScannerProfile({ ctx, input }: Verb<ScannerParams & { id: number }>): Promise<DastScannerProfileWithProject> {
  const project = await scanProject(ctx, input.fullPath);
  if (!(await q.findDastScannerProfile(ctx.db, project.project.id, input.id))) throw serviceFailed([SCANNER_PROFILE_NOT_FOUND]);
  checkScanner(input);
  const values: Partial<q.ScannerProfileValues> = { name: input.name, spiderTimeout: input.spiderTimeout ?? null, targetTimeout: input.targetTimeout ?? null };
  if (input.scanType != null) values.scanType = SCAN_TYPES[input.scanType];
  if (input.useAjaxSpider != null) values.useAjaxSpider = input.useAjaxSpider;
  if (input.showDebugMessages != null) values.showDebugMessages = input.showDebugMessages;
  const profile = await q.updateDastScannerProfile(ctx.db, project.project.id, input.id, values);
  if (profile === 'taken') throw validationFailed(TAKEN);
  if (!profile) throw serviceFailed([SCANNER_PROFILE_NOT_FOUND]);
  return { project, profile };
}

export async function deleteScannerProfile({ ctx, input }: Verb<{ fullPath: string; id: number }>): Promise<void> {
  const project = await scanProject(ctx, input.fullPath);
  if (!(await q.deleteDastScannerProfile(ctx.db, project.project.id, input.id))) throw serviceFailed([SCANNER_PROFILE_NOT_FOUND]);
}
