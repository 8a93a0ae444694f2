// What GraphQL's Group and Namespace types are resolved from. schema/codegen.ts maps each `<Type>Model` exported here
// to the GraphQL type <Type>.
import type { GroupView } from '../../db/queries/groups.ts';

export type GroupModel = GroupView;
/**
 * A namespace: a group, or a user's personal namespace (resolved from the project or user it belongs to). The full
 * name (ancestors' names) is loaded on demand when the value was built without it (a project's namespace).
 */
export type NamespaceModel = Omit<GroupView, 'fullName'> & { fullName?: string | undefined };
