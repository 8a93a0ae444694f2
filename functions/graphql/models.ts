// What GraphQL's own types (not a domain's) are resolved from. schema/codegen.ts maps each `<Type>Model` exported here
// to the GraphQL type <Type>.

/** The score and limit of the operation being run (Query.queryComplexity; graphql/limits.ts computes them). */
export interface QueryComplexityModel {
  score: number;
  limit: number;
}
