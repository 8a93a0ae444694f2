// What GraphQL's MergeRequest and MergeRequestConnection types are resolved from. schema/codegen.ts maps each
// `<Type>Model` exported here to the GraphQL type <Type>.
import type { MergeRequestView } from '../../db/queries/merge-requests.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { Connection } from '../graphql/connection.ts';

/** A merge request with its target project (the policy's facts come from both). */
export interface MergeRequestModel {
  project: ProjectView;
  view: MergeRequestView;
}
/** MergeRequestConnection: `count` and `totalTimeToMerge` over the whole filtered collection, computed only when asked. */
export type MergeRequestConnectionModel = Connection<MergeRequestModel> & {
  count: () => number | Promise<number>;
  totalTimeToMerge: () => number | null | Promise<number | null>;
};
