// dastOnDemandScanCreate (GitLab 13.6: Mutations::DastOnDemandScans::Create and Ci::RunDastScanService): the site
// profile (and the scanner profile, when given) of the project, then a pipeline on the default branch from a
// configuration the service writes: GitLab's DAST template included, a `dast` stage, the `dast` job always run, and
// the profiles' settings as DAST_* variables. The pipeline's errors are the payload's.
import { stringify } from 'yaml';
import * as q from '../../db/queries/dast.ts';
import { findRef } from '../repositories/lookups.ts';
import type { DastScannerProfileRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { notFound, serviceFailed } from '../lib/errors.ts';
import { createPipeline } from '../pipelines/create.ts';
import { pipelineWebUrl } from '../pipelines/schemas.ts';
import { canMergeToBranch, canPushToBranch } from '../repositories/writes/push-access.ts';
import { repositoryInfo } from '../repositories/service.ts';
import { projectFacts } from '../projects/service.ts';
import { SCAN_TYPES } from './schemas.ts';
import { scanProject } from './service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/**
 * RunDastScanService#ci_yaml: its template (`include` DAST.gitlab-ci.yml, `stages: [dast]`, `dast: rules: [when:
 * always]`) deep-merged with the variables, in the order the mutation passes its arguments, nil ones left out and
 * booleans written as strings (ENV_MAPPING).
 */
export function dastCiConfiguration(targetUrl: string, scanner: DastScannerProfileRow | undefined): string {
  const variables: Record<string, string | number> = { DAST_WEBSITE: targetUrl };
  if (scanner) {
    if (scanner.spiderTimeout !== null) variables.DAST_SPIDER_MINS = scanner.spiderTimeout;
    if (scanner.targetTimeout !== null) variables.DAST_TARGET_AVAILABILITY_TIMEOUT = scanner.targetTimeout;
    variables.DAST_USE_AJAX_SPIDER = String(scanner.useAjaxSpider);
    variables.DAST_DEBUG = String(scanner.showDebugMessages);
    variables.DAST_FULL_SCAN_ENABLED = String(scanner.scanType === SCAN_TYPES.ACTIVE);
  }
  return stringify({ include: [{ template: 'DAST.gitlab-ci.yml' }], stages: ['dast'], dast: { rules: [{ when: 'always' }] }, variables }, { indentSeq: false });
}

/** The pipeline's web URL (project_pipeline_url). */
export async function createOnDemandScan({
  ctx,
  input,
}: Verb<{ fullPath: string; siteProfileId: number; scannerProfileId?: number | null | undefined }>): Promise<string> {
  const project = await scanProject(ctx, input.fullPath);
  const projectId = project.project.id;
  // DastSiteProfilesFinder#first! and dast_scanner_profiles.find: ActiveRecord::RecordNotFound, a top-level error.
  const [site, scanner, repository] = await Promise.all([
    q.findDastSiteProfile(ctx.db, projectId, input.siteProfileId),
    input.scannerProfileId == null ? undefined : q.findDastScannerProfile(ctx.db, projectId, input.scannerProfileId),
    repositoryInfo(ctx, projectId),
  ]);
  if (!site) throw notFound('DastSiteProfile');
  if (input.scannerProfileId != null && !scanner) throw notFound('DastScannerProfile');
  const branch = repository.defaultBranch;
  const sha = branch === null ? undefined : await findRef(ctx.db, projectId, `refs/heads/${branch}`);
  // Ci::CreatePipelineService's Chain::Validate::Repository: no commit for the ref.
  if (branch === null || sha === undefined) throw serviceFailed(['Reference not found']);
  // Chain::Validate::Abilities#allowed_to_write_ref?: UserAccess#can_update_branch? (push or merge) on the ref.
  const facts = projectFacts(project);
  if (!canPushToBranch(ctx, facts, repository, branch) && !canMergeToBranch(ctx, facts, repository, branch)) {
    throw serviceFailed([`Insufficient permissions for protected ref '${branch}'`]);
  }
  const outcome = await createPipeline(ctx, {
    project: { id: projectId, pathWithNamespace: project.project.pathWithNamespace, defaultBranch: branch, settings: project.project.settings },
    ref: branch,
    tag: false,
    sha,
    source: 'ondemand_dast_scan',
    userId: ctx.actor.user!.id,
    content: dastCiConfiguration(site.targetUrl, scanner),
    // `created_successfully?` (persisted without a failure reason): a pipeline failed on its configuration is an error.
    saveOnErrors: false,
  });
  if (!outcome.ok) throw serviceFailed(outcome.errors);
  return pipelineWebUrl(ctx.config, project.project, outcome.pipeline.id);
}
