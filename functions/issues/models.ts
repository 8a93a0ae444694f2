// What GraphQL's Issue and IssueConnection types are resolved from. schema/codegen.ts maps each `<Type>Model` exported
// here to the GraphQL type <Type>.
import type { IssueView } from '../../db/queries/issues.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { Connection } from '../graphql/connection.ts';

/** An issue with the project it belongs to (the policy's facts come from both). */
export interface IssueModel {
  project: ProjectView;
  view: IssueView;
}
/** IssueConnection: GitLab's `count` over the whole filtered collection, computed only when asked. */
export type IssueConnectionModel = Connection<IssueModel> & { count: () => number | Promise<number> };
