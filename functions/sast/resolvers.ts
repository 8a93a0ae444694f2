// GraphQL configureSast (13.6 shape): the resource error where `authorize :push_code` fails; the service's outcome as
// `status` ("success" with `successPath`, or "error" with `errors`).
import { mutation } from '../graphql/errors.ts';
import type { Resolvers } from '../graphql/generated.ts';
import { configureSast } from './service.ts';

export const sastResolvers: Resolvers = {
  Mutation: {
    configureSast: async (_root, { input }, { ctx }) => {
      const { value, errors } = await mutation(() => configureSast({ ctx, input: { projectPath: input.projectPath, configuration: input.configuration } }));
      if (!value) return { clientMutationId: input.clientMutationId, status: 'error', successPath: null, errors };
      if (value.status === 'error') return { clientMutationId: input.clientMutationId, status: 'error', successPath: null, errors: value.errors };
      return { clientMutationId: input.clientMutationId, status: 'success', successPath: value.successPath, errors: [] };
    },
  },
};
