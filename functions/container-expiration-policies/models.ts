// What GraphQL's ContainerExpirationPolicy type is resolved from: a project's policy (its row, or the defaults it was
// created with). schema/codegen.ts maps each `<Type>Model` exported here to the GraphQL type <Type>.
export type { EffectivePolicy as ContainerExpirationPolicyModel } from './rules.ts';
