// The cluster agents' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's
// batched verbs.
import { each } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import type { ProjectModel } from '../projects/models.ts';
import { agentsOfProjects, tokensOfAgents } from './reads.ts';

export const clusterAgentLoaders = (ctx: RequestContext) => ({
  /** Project.clusterAgents by project, by name (none where the actor may not read them). */
  projectClusterAgents: each(
    (projects: readonly ProjectModel[]) => agentsOfProjects(ctx, projects),
    (p) => p.project.id,
  ),
  /** ClusterAgent.tokens by agent id, newest first. */
  clusterAgentTokens: each((ids: readonly number[]) => tokensOfAgents(ctx, ids)),
});
