// The per-request DataLoaders (created with the GraphQL context, never shared between requests), assembled from each
// domain's loaders.ts: each batches the keys one tick of resolvers asks for into one call of that domain's batched read
// verb (functions/<domain>/reads.ts), which applies the same filters and policy as the REST listing. Nothing here reads
// the database itself; the DataLoader kinds the domains build on are in batch-loaders.ts.
import { alertIntegrationLoaders } from '../alert-integrations/loaders.ts';
import { alertLoaders } from '../alerts/loaders.ts';
import { awardEmojiLoaders } from '../award-emoji/loaders.ts';
import { boardLoaders } from '../boards/loaders.ts';
import { clusterAgentLoaders } from '../cluster-agents/loaders.ts';
import { dastLoaders } from '../dast/loaders.ts';
import { environmentLoaders } from '../environments/loaders.ts';
import { epicLoaders } from '../epics/loaders.ts';
import { groupLoaders } from '../groups/loaders.ts';
import { issueLoaders } from '../issues/loaders.ts';
import { iterationLoaders } from '../iterations/loaders.ts';
import { labelLoaders } from '../labels/loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import { memberLoaders } from '../members/loaders.ts';
import { mergeRequestLoaders } from '../merge-requests/loaders.ts';
import { milestoneLoaders } from '../milestones/loaders.ts';
import { noteLoaders } from '../notes/loaders.ts';
import { pipelineLoaders } from '../pipelines/loaders.ts';
import { projectLoaders } from '../projects/loaders.ts';
import { repositoryLoaders } from '../repositories/loaders.ts';
import { requirementLoaders } from '../requirements/loaders.ts';
import { snippetLoaders } from '../snippets/loaders.ts';
import { todoLoaders } from '../todos/loaders.ts';
import { userLoaders } from '../users/loaders.ts';

/** Every domain's loader factory, by its name (which an error about a duplicate key gives). */
const factories = {
  userLoaders,
  iterationLoaders,
  awardEmojiLoaders,
  noteLoaders,
  issueLoaders,
  todoLoaders,
  projectLoaders,
  groupLoaders,
  mergeRequestLoaders,
  labelLoaders,
  milestoneLoaders,
  snippetLoaders,
  memberLoaders,
  repositoryLoaders,
  requirementLoaders,
  clusterAgentLoaders,
  dastLoaders,
  alertIntegrationLoaders,
  boardLoaders,
  epicLoaders,
  alertLoaders,
  environmentLoaders,
  pipelineLoaders,
};

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/**
 * One object of every factory's loaders for this request. Resolvers reach a loader by its key alone, so a key two
 * domains return is a mistake that would let the later silently win: assembling refuses it.
 */
export function assembleLoaders<F extends Record<string, (ctx: RequestContext) => object>>(
  ctx: RequestContext,
  domains: F,
): Intersection<ReturnType<F[keyof F]>> {
  const loaders: Record<string, unknown> = {};
  const owner = new Map<string, string>();
  for (const [domain, factory] of Object.entries(domains)) {
    for (const [key, loader] of Object.entries(factory(ctx))) {
      const earlier = owner.get(key);
      if (earlier) throw new Error(`GraphQL loaders: ${key} is returned by both ${earlier} and ${domain}`);
      owner.set(key, domain);
      loaders[key] = loader;
    }
  }
  return loaders as Intersection<ReturnType<F[keyof F]>>;
}

export const createLoaders = (ctx: RequestContext) => assembleLoaders(ctx, factories);

export type Loaders = ReturnType<typeof createLoaders>;
