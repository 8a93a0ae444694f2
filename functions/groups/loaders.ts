// The groups' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's batched
// verbs.
import { each } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import { namespaceFullNames, readableGroupsByIds } from './reads.ts';

export const groupLoaders = (ctx: RequestContext) => ({
  /** Groups the actor may read, by namespace id (null when missing or hidden): projects' groups, groups' parents. */
  groupView: each((ids: readonly number[]) => readableGroupsByIds(ctx, ids)),
  /** "Parent / Child" full names of namespaces by id. */
  namespaceFullName: each((ids: readonly number[]) => namespaceFullNames(ctx, ids)),
});
