// GraphQL over the instance security dashboard (13.6 shapes): Query.instanceSecurityDashboard { projects },
// addProjectToSecurityDashboard and removeProjectFromSecurityDashboard.
import { arrayConnection } from '../graphql/connection.ts';
import { mutation } from '../graphql/errors.ts';
import type { Resolvers } from '../graphql/generated.ts';
import { expectGlobalId } from '../graphql/ids.ts';
import { addProjectToSecurityDashboard, removeProjectFromSecurityDashboard, securityDashboardProjects, securityDashboardVisible } from './service.ts';

export const securityDashboardResolvers: Resolvers = {
  Query: {
    instanceSecurityDashboard: (_root, _args, { ctx }) => (securityDashboardVisible(ctx) ? { kind: 'instance_security_dashboard' } : null),
  },
  InstanceSecurityDashboard: {
    projects: async (_dashboard, args, { ctx }) => arrayConnection(await securityDashboardProjects(ctx), args, (p) => p.project.id),
  },
  Mutation: {
    addProjectToSecurityDashboard: async (_root, { input }, { ctx }) => {
      // The spec types the id as ID!: a project's global id all the same (anything else is a coercion error).
      const projectId = Number(expectGlobalId(input.id, ['Project']).id);
      const { value, errors } = await mutation(() => addProjectToSecurityDashboard({ ctx, input: { projectId } }));
      return { clientMutationId: input.clientMutationId, errors, project: value };
    },
    removeProjectFromSecurityDashboard: async (_root, { input }, { ctx }) => {
      const { errors } = await mutation(() => removeProjectFromSecurityDashboard({ ctx, input: { projectId: Number(input.id) } }));
      return { clientMutationId: input.clientMutationId, errors };
    },
  },
};
