// What GraphQL's Requirement and TestReport types are resolved from. schema/codegen.ts maps each `<Type>Model` exported
// here to the GraphQL type <Type>.
import type { ProjectView } from '../../db/queries/projects.ts';
import type { RequirementView } from '../../db/queries/requirements.ts';
import type { RequirementTestReportRow } from '../../db/schema/index.ts';

/** A requirement with its project (the license and the policy's facts come from it). */
export interface RequirementModel {
  project: ProjectView;
  view: RequirementView;
}
export type TestReportModel = RequirementTestReportRow;
