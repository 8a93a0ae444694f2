// The domain values GraphQL object types are resolved from (codegen's mappers): resolvers receive and return these,
// and the typecheck fails when a resolver drifts from the SDL or from the domain.
import type { UserRow } from '../../db/schema/index.ts';

export type UserModel = UserRow;
export interface QueryComplexityModel {
  score: number;
  limit: number;
}
