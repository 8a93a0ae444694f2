// Batched iteration reads for GraphQL (Issue.iteration): one statement per tick, answers in the order asked.
import { findIterationViewsByIds, type IterationView } from '../../db/queries/iterations.ts';
import type { RequestContext } from '../lib/context.ts';

/** GraphQL's Iteration: with its group's or project's path; `scopeProjectPath` when read through a project (scopedPath). */
export type IterationModel = IterationView & { scopeProjectPath?: string | undefined };

export async function iterationsOf(ctx: RequestContext, ids: readonly number[]): Promise<Array<IterationView | null>> {
  const found = new Map((await findIterationViewsByIds(ctx.db, ids)).map((v) => [v.iteration.id, v]));
  return ids.map((id) => found.get(id) ?? null);
}
