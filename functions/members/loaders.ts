// The memberships' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's
// batched verbs.
import { perParent } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import type { KeysetPage } from '../lib/pagination.ts';
import { memberPages, type MemberPageParams, type MemberParent } from './reads.ts';

export const memberLoaders = (ctx: RequestContext) => ({
  /** projectMembers/groupMembers pages by member source (null where the actor may not see the members). */
  memberPages: perParent((parents: MemberParent[], a: MemberPageParams & { page: KeysetPage }) => memberPages(ctx, parents, a, a.page)),
});
