// The iterations' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's
// batched verbs.
import { each } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import { iterationsOf } from './reads.ts';

export const iterationLoaders = (ctx: RequestContext) => ({
  /** Iterations by id (null when missing): Issue.iteration. */
  iteration: each((ids: readonly number[]) => iterationsOf(ctx, ids)),
});
