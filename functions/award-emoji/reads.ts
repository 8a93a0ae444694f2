// Batched award reads (GraphQL's awardEmoji connections under a page of issues, notes or snippets): one query for
// every awardable asked; the awardables themselves were found readable first.
import { findAwardsOfAwardables, type AwardableKey, type AwardView } from '../../db/queries/award-emoji.ts';
import type { RequestContext } from '../lib/context.ts';

export type { AwardableKey };

/** One string per awardable (`Issue:1`, `Note:2`): what batches and caches key on. */
export const awardableKey = (k: AwardableKey) => `${k.type}:${k.id}`;

/** The awards of each awardable, oldest first, with their users. */
export async function awardsOf(ctx: RequestContext, keys: readonly AwardableKey[]): Promise<AwardView[][]> {
  const byKey = new Map<string, AwardView[]>();
  for (const r of await findAwardsOfAwardables(ctx.db, keys)) {
    const k = awardableKey({ type: r.award.awardableType, id: r.award.awardableId });
    byKey.set(k, [...(byKey.get(k) ?? []), r]);
  }
  return keys.map((k) => byKey.get(awardableKey(k)) ?? []);
}
