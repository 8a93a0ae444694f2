// What GraphQL's Todo type is resolved from. schema/codegen.ts maps each `<Type>Model` exported here to the GraphQL
// type <Type>.
import type { GroupView } from '../../db/queries/groups.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { TodoRow } from '../../db/schema/index.ts';

/** A to-do with its body (the note it came from, else its target's title) and its project. */
export interface TodoModel {
  todo: TodoRow;
  body: string;
  project: ProjectView | null;
  /** A group's to-do (an epic's): its group. */
  group?: GroupView | null;
}
