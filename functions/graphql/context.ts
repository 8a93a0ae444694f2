// What every resolver sees: the request's context (database, actor, config, the same one REST verbs take) and the
// per-request DataLoaders, so a connection of N nodes loads their associations in one query each.
import type { RequestContext } from '../lib/context.ts';
import { createLoaders, type Loaders } from './loaders.ts';

export interface GraphQLContext {
  ctx: RequestContext;
  loaders: Loaders;
  /** The complexity score of the operation being run (computed before any resolver), for queryComplexity. */
  complexity: { score: number; limit: number };
}

export const createGraphQLContext = (ctx: RequestContext): Omit<GraphQLContext, 'complexity'> => ({ ctx, loaders: createLoaders(ctx) });
