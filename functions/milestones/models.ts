// What GraphQL's Milestone type is resolved from. schema/codegen.ts maps each `<Type>Model` exported here to the
// GraphQL type <Type>.
import type { MilestoneRow } from '../../db/schema/index.ts';

/** A milestone with the full path of its project or group (for its web path). */
export interface MilestoneModel {
  milestone: MilestoneRow;
  projectPath: string | null;
  groupPath: string | null;
}
