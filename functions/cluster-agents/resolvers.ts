// GraphQL over cluster agents (13.6 shapes): Project.clusterAgent(name) and clusterAgents (by name, with `count`),
// ClusterAgent and ClusterAgentToken, and the four mutations. Top-level resource errors where GitLab's `authorize`
// fails (not a maintainer, a hidden or missing agent); the license and the name's validation in `errors`.
import { arrayConnection } from '../graphql/connection.ts';
import { mutation } from '../graphql/errors.ts';
import type { Resolvers } from '../graphql/generated.ts';
import { toGlobalId } from '../graphql/ids.ts';
import { iso } from '../lib/format.ts';
import { showSecret } from '../lib/no-store.ts';
import { createClusterAgent, createClusterAgentToken, deleteClusterAgent, deleteClusterAgentToken, findClusterAgentByName } from './service.ts';

export const clusterAgentResolvers: Resolvers = {
  Project: {
    clusterAgent: (project, { name }, { ctx }) => findClusterAgentByName(ctx, project, name),
    clusterAgents: async (project, args, { loaders }) => {
      const agents = await loaders.projectClusterAgents.load(project);
      return { ...arrayConnection(agents, args, (a) => a.agent.id), count: agents.length };
    },
  },
  ClusterAgent: {
    id: (a) => toGlobalId('Clusters::Agent', a.agent.id),
    name: (a) => a.agent.name,
    project: (a) => a.project,
    createdAt: (a) => iso(a.agent.createdAt),
    updatedAt: (a) => iso(a.agent.updatedAt),
    tokens: async (a, args, { loaders }) => {
      const tokens = (await loaders.clusterAgentTokens.load(a.agent.id)).map((token) => ({ agent: a, token }));
      return { ...arrayConnection(tokens, args, (t) => t.token.id), count: tokens.length };
    },
  },
  ClusterAgentToken: {
    // ClustersAgentTokenID serializes the number as gid://gitlab/Clusters::AgentToken/<id>.
    id: (t) => t.token.id,
    clusterAgent: (t) => t.agent,
    createdAt: (t) => iso(t.token.createdAt),
  },
  Mutation: {
    createClusterAgent: async (_root, { input }, { ctx }) => {
      const { value, errors } = await mutation(() => createClusterAgent({ ctx, input: { projectPath: input.projectPath, name: input.name } }));
      return { clientMutationId: input.clientMutationId, errors, clusterAgent: value };
    },
    clusterAgentDelete: async (_root, { input }, { ctx }) => {
      const { errors } = await mutation(() => deleteClusterAgent({ ctx, input: { id: Number(input.id) } }));
      return { clientMutationId: input.clientMutationId, errors };
    },
    clusterAgentTokenCreate: async (_root, { input }, { ctx }) => {
      const { value, errors } = await mutation(() => createClusterAgentToken({ ctx, input: { agentId: Number(input.clusterAgentId) } }));
      return {
        clientMutationId: input.clientMutationId,
        errors,
        secret: showSecret(ctx, value?.secret ?? null),
        token: value ? { agent: value.agent, token: value.token } : null,
      };
    },
    clusterAgentTokenDelete: async (_root, { input }, { ctx }) => {
      const { errors } = await mutation(() => deleteClusterAgentToken({ ctx, input: { id: Number(input.id) } }));
      return { clientMutationId: input.clientMutationId, errors };
    },
  },
};
