// What GraphQL's User type is resolved from. schema/codegen.ts maps each `<Type>Model` exported here to the GraphQL
// type <Type>.
import type { UserRow } from '../../db/schema/index.ts';

export type UserModel = UserRow;
