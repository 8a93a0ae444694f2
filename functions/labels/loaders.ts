// The labels' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's batched
// verbs.
import { each, perParent, stableKey } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import type { KeysetPage } from '../lib/pagination.ts';
import { projectLabelCounts, projectLabelPages, projectLabelsByTitles } from './reads.ts';

export const labelLoaders = (ctx: RequestContext) => ({
  /** Project.label(title): a project's own label by (project id, title). */
  projectLabelByTitle: each((pairs: ReadonlyArray<{ projectId: number; title: string }>) => projectLabelsByTitles(ctx, pairs), stableKey),
  /** Project.labels pages and counts by project id. */
  projectLabelPages: perParent((projectIds: number[], a: { search: string | undefined; page: KeysetPage }) =>
    projectLabelPages(ctx, projectIds, a.search, a.page),
  ),
  projectLabelCounts: perParent((projectIds: number[], a: { search: string | undefined }) => projectLabelCounts(ctx, projectIds, a.search)),
});
