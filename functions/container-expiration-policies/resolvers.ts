// GraphQL over container expiration policies (13.6 shapes): Project.containerExpirationPolicy, null below developer
// access (the type's `authorize :destroy_container_image`), and updateContainerExpirationPolicy, whose model errors
// are ONE sentence (`errors.full_messages.to_sentence`).
import { mutation } from '../graphql/errors.ts';
import type {
  ContainerExpirationPolicyCadenceEnum,
  ContainerExpirationPolicyKeepEnum,
  ContainerExpirationPolicyOlderThanEnum,
  Resolvers,
} from '../graphql/generated.ts';
import { iso, toSentence } from '../lib/format.ts';
import { can } from '../lib/policy.ts';
import { projectFacts } from '../projects/service.ts';
import { CADENCES, effectivePolicy, KEEP_N, OLDER_THAN } from './rules.ts';
import { updateContainerExpirationPolicy } from './service.ts';

const nameOf = <K extends string, V>(map: Record<K, V>, value: V | null) =>
  value === null ? null : ((Object.keys(map) as K[]).find((k) => map[k] === value) ?? null);

export const containerExpirationPolicyResolvers: Resolvers = {
  Project: {
    containerExpirationPolicy: (project, _args, { ctx }) =>
      can(ctx.actor, 'project:destroy_container_image', projectFacts(project)) ? effectivePolicy(project.containerExpirationPolicy, project.project) : null,
  },
  ContainerExpirationPolicy: {
    cadence: (p) => nameOf(CADENCES, p.cadence as (typeof CADENCES)[keyof typeof CADENCES]) as ContainerExpirationPolicyCadenceEnum,
    keepN: (p) => nameOf(KEEP_N, p.keepN as (typeof KEEP_N)[keyof typeof KEEP_N] | null) as ContainerExpirationPolicyKeepEnum | null,
    olderThan: (p) => nameOf(OLDER_THAN, p.olderThan as (typeof OLDER_THAN)[keyof typeof OLDER_THAN] | null) as ContainerExpirationPolicyOlderThanEnum | null,
    enabled: (p) => p.enabled,
    nameRegex: (p) => p.nameRegex,
    nameRegexKeep: (p) => p.nameRegexKeep,
    nextRunAt: (p) => iso(p.nextRunAt),
    createdAt: (p) => iso(p.createdAt),
    updatedAt: (p) => iso(p.updatedAt),
  },
  Mutation: {
    updateContainerExpirationPolicy: async (_root, { input }, { ctx }) => {
      const changes = {
        enabled: input.enabled ?? undefined,
        cadence: input.cadence ? CADENCES[input.cadence] : undefined,
        olderThan: input.olderThan ? OLDER_THAN[input.olderThan] : undefined,
        keepN: input.keepN ? KEEP_N[input.keepN] : undefined,
        nameRegex: input.nameRegex === undefined ? undefined : input.nameRegex,
        nameRegexKeep: input.nameRegexKeep === undefined ? undefined : input.nameRegexKeep,
      };
      const { value, errors } = await mutation(() => updateContainerExpirationPolicy({ ctx, input: { projectPath: input.projectPath, changes } }));
      return { clientMutationId: input.clientMutationId, errors: errors.length ? [toSentence(errors)] : [], containerExpirationPolicy: value };
    },
  },
};
