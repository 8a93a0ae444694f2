// Batched cluster agent reads for GraphQL's per-request loaders (loaders.ts).
import { clusterAgentsOfProjects, tokensOfClusterAgents } from '../../db/queries/cluster-agents.ts';
import type { ClusterAgentTokenRow } from '../../db/schema/index.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { RequestContext } from '../lib/context.ts';
import { canReadAgents, type ClusterAgentWithProject } from './service.ts';

/** Each project's agents by name (none where the actor may not read them): one statement for every project asked. */
export async function agentsOfProjects(ctx: RequestContext, projects: readonly ProjectView[]): Promise<ClusterAgentWithProject[][]> {
  const readable = projects.filter((p) => canReadAgents(ctx, p));
  const rows = await clusterAgentsOfProjects(ctx.db, [...new Set(readable.map((p) => p.project.id))]);
  return projects.map((project) =>
    readable.includes(project) ? rows.filter((a) => a.projectId === project.project.id).map((agent) => ({ project, agent })) : [],
  );
}

/** Each agent's tokens, newest first (agents already found readable): one statement. */
export async function tokensOfAgents(ctx: RequestContext, agentIds: readonly number[]): Promise<ClusterAgentTokenRow[][]> {
  const rows = await tokensOfClusterAgents(ctx.db, agentIds);
  return agentIds.map((id) => rows.filter((t) => t.agentId === id));
}
