// The to-dos' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's batched
// verbs.
import { each } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import { currentUserTodosOfEpics } from './reads.ts';

export const todoLoaders = (ctx: RequestContext) => ({
  /** The current user's to-dos by epic id (none when anonymous). */
  currentUserEpicTodos: each((ids: readonly number[]) => currentUserTodosOfEpics(ctx, ids)),
});
