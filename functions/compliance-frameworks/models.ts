// What GraphQL's ComplianceFramework type is resolved from. schema/codegen.ts maps each `<Type>Model` exported here to
// the GraphQL type <Type>.
import type { ProjectView } from '../../db/queries/projects.ts';

/** A project's compliance framework: its key. */
export interface ComplianceFrameworkModel {
  key: NonNullable<ProjectView['complianceFramework']>;
}
