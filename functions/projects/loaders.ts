// The projects' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's batched
// verbs.
import { each, perParent } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import type { KeysetPage } from '../lib/pagination.ts';
import type { ProjectModel } from './models.ts';
import { namespaceProjectPages, openIssuesCounts, readableProjectsByIds } from './reads.ts';

export const projectLoaders = (ctx: RequestContext) => ({
  /** Projects the actor may read, by id (null when missing or hidden). */
  projectView: each((ids: readonly number[]) => readableProjectsByIds(ctx, ids)),
  /** Open issues of a project the actor may count (confidential ones for reporters and above). */
  openIssuesCount: each(
    (views: readonly ProjectModel[]) => openIssuesCounts(ctx, views),
    (v) => v.project.id,
  ),
  /** Group.projects/Namespace.projects pages by namespace (with or without its subgroups). */
  namespaceProjectPages: perParent((parents: Array<{ id: number; subgroups: boolean }>, a: { search: string | undefined; page: KeysetPage }) =>
    namespaceProjectPages(ctx, parents, a.search, a.page),
  ),
});
