// The award emoji's per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's
// batched verbs.
import { each } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import { awardableKey, awardsOf, type AwardableKey } from './reads.ts';

export const awardEmojiLoaders = (ctx: RequestContext) => ({
  /** Award emoji with their users, oldest first, by awardable. */
  awards: each((keys: readonly AwardableKey[]) => awardsOf(ctx, keys), awardableKey),
});
