// Cluster agent verbs (GitLab 13.6 EE: Clusters::Agents::CreateService/DeleteService, Clusters::AgentTokens::
// CreateService, and the agent readers). The policy first (maintainers: create_cluster, admin_cluster), then the
// license (Premium) as the services check it, with GitLab's sentences.
import * as q from '../../db/queries/cluster-agents.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { ClusterAgentRow, ClusterAgentTokenRow } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { sha256Hex } from '../lib/crypto.ts';
import { notFound, serviceFailed, validationFailed } from '../lib/errors.ts';
import { assertCan, can, clusterAgentsAvailable } from '../lib/policy.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { agentNameErrors, agentTokenSecret } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export const PREMIUM_ONLY = 'This feature is only available for premium plans';

/** An agent with the project it belongs to (found readable). */
export interface ClusterAgentWithProject {
  project: ProjectView;
  agent: ClusterAgentRow;
}

/** A token with the agent it belongs to. */
export interface ClusterAgentTokenWithAgent {
  agent: ClusterAgentWithProject;
  token: ClusterAgentTokenRow;
}

const licensed = (ctx: RequestContext) => clusterAgentsAvailable(ctx.config.instanceTier);

/** Whether the actor sees the project's agents: read_cluster (maintainers) where agents are licensed. */
export const canReadAgents = (ctx: RequestContext, project: ProjectView) => licensed(ctx) && can(ctx.actor, 'project:read_cluster', projectFacts(project));

/** Project.clusterAgent(name): the agent, or null (unknown, unlicensed or not the actor's to read). */
export async function findClusterAgentByName(ctx: RequestContext, project: ProjectView, name: string): Promise<ClusterAgentWithProject | null> {
  if (!canReadAgents(ctx, project)) return null;
  const agent = await q.findClusterAgentByName(ctx.db, project.project.id, name);
  return agent ? { project, agent } : null;
}

/** The agent by id with its project, when the actor may read it (404 otherwise: GraphQL's resource error). */
async function findAgent(ctx: RequestContext, id: number): Promise<ClusterAgentWithProject> {
  const agent = await q.findClusterAgent(ctx.db, id);
  if (!agent) throw notFound('Clusters::Agent');
  const project = await findProject(ctx, { id: agent.projectId });
  if (!canReadAgents(ctx, project)) throw notFound('Clusters::Agent');
  return { project, agent };
}

export async function createClusterAgent({ ctx, input }: Verb<{ projectPath: string; name: string }>): Promise<ClusterAgentWithProject> {
  const user = requireUser(ctx);
  const project = await findProject(ctx, { path: input.projectPath });
  assertCan(ctx.actor, 'project:create_cluster', projectFacts(project));
  if (!licensed(ctx)) throw serviceFailed([PREMIUM_ONLY]);
  const errors = agentNameErrors(input.name);
  if (Object.keys(errors).length) throw validationFailed(errors);
  const agent = await q.insertClusterAgent(ctx.db, { projectId: project.project.id, name: input.name, createdByUserId: user.id });
  if (!agent) throw validationFailed({ name: ['has already been taken'] });
  return { project, agent };
}

export async function deleteClusterAgent({ ctx, input }: Verb<{ id: number }>): Promise<void> {
  requireUser(ctx);
  const { project, agent } = await findAgent(ctx, input.id);
  assertCan(ctx.actor, 'project:admin_cluster', projectFacts(project));
  await q.deleteClusterAgent(ctx.db, agent.id);
}

/** A new token for the agent: the row and its secret, which is never shown again. */
export async function createClusterAgentToken({ ctx, input }: Verb<{ agentId: number }>): Promise<ClusterAgentTokenWithAgent & { secret: string }> {
  const user = requireUser(ctx);
  const found = await findAgent(ctx, input.agentId);
  assertCan(ctx.actor, 'project:create_cluster', projectFacts(found.project));
  const secret = agentTokenSecret();
  const token = await q
    .insertClusterAgentToken(ctx.db, { agentId: found.agent.id, tokenDigest: await sha256Hex(secret), createdByUserId: user.id })
    .catch((e: unknown) => {
      // The agent was deleted between the read and the insert (its foreign key): as if it had never been found.
      if ((e as { code?: string }).code === '23503') throw notFound('Clusters::Agent');
      throw e;
    });
  return { agent: found, token, secret };
}

export async function deleteClusterAgentToken({ ctx, input }: Verb<{ id: number }>): Promise<void> {
  requireUser(ctx);
  const token = await q.findClusterAgentToken(ctx.db, input.id);
  if (!token) throw notFound('Clusters::AgentToken');
  const { project } = await findAgent(ctx, token.agentId);
  assertCan(ctx.actor, 'project:admin_cluster', projectFacts(project));
  await q.deleteClusterAgentToken(ctx.db, token.id);
}
