// The environments' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's
// batched verbs.
import { each, perParent, stableKey } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import type { ProjectModel } from '../projects/models.ts';
import { annotationsOf, environmentsOfProjects, type AnnotationWindow } from './reads.ts';
import type { EnvironmentArgs } from './service.ts';

export const environmentLoaders = (ctx: RequestContext) => ({
  /** Project.environment/environments by project, per arguments (none where the actor may not read them). */
  projectEnvironments: perParent((projects: ProjectModel[], args: EnvironmentArgs) => environmentsOfProjects(ctx, projects, args)),
  /** MetricsDashboard.annotations by (environment, dashboard path, time range). */
  dashboardAnnotations: each((windows: readonly AnnotationWindow[]) => annotationsOf(ctx, windows), stableKey),
});
