// The users' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's batched
// verbs.
import { each } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import { usersByIds } from './reads.ts';

export const userLoaders = (ctx: RequestContext) => ({
  user: each((ids: readonly number[]) => usersByIds(ctx, ids)),
});
