// Cluster agents and their tokens (GitLab's Clusters::Agent, Clusters::AgentToken). A project's agents are read for
// many projects in one statement (GraphQL's loader), in GitLab's `ordered_by_name`.
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { clusterAgents, clusterAgentTokens, type ClusterAgentRow, type ClusterAgentTokenRow } from '../schema/index.ts';

/** The new agent, or undefined when the project already has one of that name (the unique key decides, race-free). */
export async function insertClusterAgent(db: Db, values: { projectId: number; name: string; createdByUserId: number }): Promise<ClusterAgentRow | undefined> {
  const [row] = await db
    .insert(clusterAgents)
    .values(values)
    .onConflictDoNothing({ target: [clusterAgents.projectId, clusterAgents.name] })
    .returning();
  return row;
}

export async function findClusterAgent(db: Db, id: number): Promise<ClusterAgentRow | undefined> {
  const [row] = await db.select().from(clusterAgents).where(eq(clusterAgents.id, id));
  return row;
}

/** The agents of each project, by name (then id). */
export function clusterAgentsOfProjects(db: Db, projectIds: readonly number[]): Promise<ClusterAgentRow[]> {
  if (!projectIds.length) return Promise.resolve([]);
  return db
    .select()
    .from(clusterAgents)
    .where(inArray(clusterAgents.projectId, [...projectIds]))
    .orderBy(asc(clusterAgents.name), asc(clusterAgents.id));
}

export async function findClusterAgentByName(db: Db, projectId: number, name: string): Promise<ClusterAgentRow | undefined> {
  const [row] = await db
    .select()
    .from(clusterAgents)
    .where(and(eq(clusterAgents.projectId, projectId), eq(clusterAgents.name, name)));
  return row;
}

/** Deleting an agent deletes its tokens (the foreign key cascades). */
export async function deleteClusterAgent(db: Db, id: number): Promise<void> {
  await db.delete(clusterAgents).where(eq(clusterAgents.id, id));
}

/** A token row for a digest; the agent's foreign key refuses it (23503) when the agent was deleted meanwhile. */
export async function insertClusterAgentToken(
  db: Db,
  values: { agentId: number; tokenDigest: string; createdByUserId: number },
): Promise<ClusterAgentTokenRow> {
  const [row] = await db.insert(clusterAgentTokens).values(values).returning();
  return row!;
}

export async function findClusterAgentToken(db: Db, id: number): Promise<ClusterAgentTokenRow | undefined> {
  const [row] = await db.select().from(clusterAgentTokens).where(eq(clusterAgentTokens.id, id));
  return row;
}

/** The tokens of each agent, newest first. */
export function tokensOfClusterAgents(db: Db, agentIds: readonly number[]): Promise<ClusterAgentTokenRow[]> {
  if (!agentIds.length) return Promise.resolve([]);
  return db
    .select()
    .from(clusterAgentTokens)
    .where(inArray(clusterAgentTokens.agentId, [...agentIds]))
    .orderBy(desc(clusterAgentTokens.id));
}

export async function deleteClusterAgentToken(db: Db, id: number): Promise<void> {
  await db.delete(clusterAgentTokens).where(eq(clusterAgentTokens.id, id));
}
