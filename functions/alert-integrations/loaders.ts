// The alert integrations' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over
// reads.ts's batched verbs.
import { each } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import type { ProjectModel } from '../projects/models.ts';
import { integrationsOfProjects } from './reads.ts';

export const alertIntegrationLoaders = (ctx: RequestContext) => ({
  /** Project.alertManagementIntegrations by project, in id order (none where the actor does not manage them). */
  projectAlertIntegrations: each(
    (projects: readonly ProjectModel[]) => integrationsOfProjects(ctx, projects),
    (p) => p.project.id,
  ),
});
