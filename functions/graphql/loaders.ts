// Per-request DataLoaders (created with the GraphQL context, never shared between requests): each batches the keys
// one tick of resolvers asks for into one query.
import DataLoader from 'dataloader';
import { findUsersByIds } from '../../db/queries/users.ts';
import type { UserRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';

/** Loads rows by id in one query, answering in the order asked (null for missing ids). */
const byId = <T extends { id: number }>(load: (ids: readonly number[]) => Promise<T[]>) =>
  new DataLoader<number, T | null>(async (ids) => {
    const rows = new Map((await load(ids)).map((r) => [r.id, r]));
    return ids.map((id) => rows.get(id) ?? null);
  });

export function createLoaders(ctx: RequestContext) {
  return {
    user: byId<UserRow>((ids) => findUsersByIds(ctx.db, ids)),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
