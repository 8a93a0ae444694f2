// What GraphQL's Iteration type is resolved from. schema/codegen.ts maps each `<Type>Model` exported here to the
// GraphQL type <Type>.
export type { IterationModel } from './reads.ts';
