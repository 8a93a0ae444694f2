// GraphQL's todoCreate (13.6): a `marked` to-do for the current user on a TodoableID target (an issue, a merge
// request or an epic), through functions/todos/service.ts markTodoOn.
import { mutation, resourceNotAvailable } from '../graphql/errors.ts';
import type { Resolvers } from '../graphql/generated.ts';
import { markTodoOn } from './service.ts';

export const todoResolvers: Resolvers = {
  Mutation: {
    todoCreate: async (_root, { input }, { ctx }) => {
      const { value, errors } = await mutation(async () => {
        const { type, id } = input.targetId;
        if (typeof id !== 'number') throw resourceNotAvailable();
        return markTodoOn({ ctx, input: { type, id } });
      });
      return { clientMutationId: input.clientMutationId ?? null, errors, todo: value };
    },
  },
};
