// The milestones' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's
// batched verbs.
import { perParent } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import type { KeysetPage } from '../lib/pagination.ts';
import { projectMilestonePages } from './reads.ts';

export const milestoneLoaders = (ctx: RequestContext) => ({
  /** Project.milestones pages by project id. */
  projectMilestonePages: perParent((projectIds: number[], a: { page: KeysetPage }) => projectMilestonePages(ctx, projectIds, a.page)),
});
