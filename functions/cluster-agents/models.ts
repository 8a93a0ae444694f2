// What GraphQL's ClusterAgent and ClusterAgentToken types are resolved from: an agent with its project, a token with
// its agent. schema/codegen.ts maps each `<Type>Model` exported here to the GraphQL type <Type>.
export type { ClusterAgentWithProject as ClusterAgentModel, ClusterAgentTokenWithAgent as ClusterAgentTokenModel } from './service.ts';
