// The notes' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's batched
// verbs.
import { each } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import { noteableKey, readableNotesOf } from './reads.ts';
import type { Noteable } from './service.ts';

export const noteLoaders = (ctx: RequestContext) => ({
  /** The notes the actor may read, with their authors, oldest first, by noteable. */
  notes: each(
    (noteables: readonly Noteable[]) => readableNotesOf(ctx, noteables),
    (n) => noteableKey(n.key),
  ),
});
