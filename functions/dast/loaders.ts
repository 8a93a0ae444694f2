// The DAST profiles' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's
// batched verbs.
import { each } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import type { ProjectModel } from '../projects/models.ts';
import { scannerProfilesOfProjects, siteProfilesOfProjects } from './reads.ts';

export const dastLoaders = (ctx: RequestContext) => ({
  /** Project.dastSiteProfiles / dastScannerProfiles by project, by id (none where the actor may not read them). */
  projectDastSiteProfiles: each(
    (projects: readonly ProjectModel[]) => siteProfilesOfProjects(ctx, projects),
    (p) => p.project.id,
  ),
  projectDastScannerProfiles: each(
    (projects: readonly ProjectModel[]) => scannerProfilesOfProjects(ctx, projects),
    (p) => p.project.id,
  ),
});
