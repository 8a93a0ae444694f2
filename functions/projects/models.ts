// What GraphQL's Project type is resolved from. schema/codegen.ts maps each `<Type>Model` exported here to the GraphQL
// type <Type>.
import type { ProjectView } from '../../db/queries/projects.ts';

export type ProjectModel = ProjectView;
