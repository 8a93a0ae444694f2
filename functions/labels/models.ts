// What GraphQL's Label and LabelConnection types are resolved from. schema/codegen.ts maps each `<Type>Model` exported
// here to the GraphQL type <Type>.
import type { LabelRow } from '../../db/schema/index.ts';
import type { Connection } from '../graphql/connection.ts';

export type LabelModel = LabelRow;
/** LabelConnection: GitLab's `count` over the whole collection, computed only when asked. */
export type LabelConnectionModel = Connection<LabelModel> & { count: () => number | Promise<number> };
