// The requirements' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's
// batched verbs.
import { each } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import { testReportsOf } from './reads.ts';

export const requirementLoaders = (ctx: RequestContext) => ({
  /** Requirement.testReports by requirement id, oldest first. */
  requirementTestReports: each((ids: readonly number[]) => testReportsOf(ctx, ids)),
});
