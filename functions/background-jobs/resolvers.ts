// GraphQL over the background job queues: adminBackgroundQueuesDeleteJobs (GitLab's adminSidekiqQueuesDeleteJobs).
// GitLab's shapes: a non-administrator and an unknown queue are top-level errors with their own messages (the
// mutation's `ready?` and its `raise_resource_not_available_error!`), no metadata is the payload's `errors`.
import { GraphQLError } from 'graphql';
import { mutation } from '../graphql/errors.ts';
import type { Resolvers } from '../graphql/generated.ts';
import { isDomainError } from '../lib/errors.ts';
import { deleteJobs, type DeleteJobsInput } from './service.ts';

/** The service's refusals GitLab answers at the top level, with their own message. */
async function topLevelRefusals<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (isDomainError(e, 'forbidden') && e.problem.reason) throw new GraphQLError(e.problem.reason);
    if (isDomainError(e, 'not_found') && e.problem.message) throw new GraphQLError(e.problem.message);
    throw e;
  }
}

export const backgroundJobResolvers: Resolvers = {
  Mutation: {
    adminBackgroundQueuesDeleteJobs: async (_root, { input }, { ctx }) => {
      const meta: DeleteJobsInput['meta'] = {
        user: input.user ?? undefined,
        project: input.project ?? undefined,
        root_namespace: input.rootNamespace ?? undefined,
        subscription_plan: input.subscriptionPlan ?? undefined,
        caller_id: input.callerId ?? undefined,
        related_class: input.relatedClass ?? undefined,
        feature_category: input.featureCategory ?? undefined,
      };
      const { value, errors } = await mutation(() => topLevelRefusals(() => deleteJobs({ ctx, input: { queueName: input.queueName, meta } })));
      return { clientMutationId: input.clientMutationId, errors, result: value };
    },
  },
};
