// GraphQL's Project.complianceFrameworks (13.6 EE): the project's framework setting as a connection of at most one
// ComplianceFramework, whose name is the ProjectSettingEnum value. Read with the project (no rule of its own).
import { arrayConnection } from '../graphql/connection.ts';
import type { ProjectSettingEnum, Resolvers } from '../graphql/generated.ts';

/** ComplianceManagement::ComplianceFramework's enum: the key's integer (the node's cursor id) and GraphQL name. */
const FRAMEWORKS = { gdpr: [1, 'GDPR'], hipaa: [2, 'HIPAA'], pci_dss: [3, 'PCI_DSS'], soc_2: [4, 'SOC_2'], sox: [5, 'SOX'] } as const satisfies Record<
  string,
  readonly [number, ProjectSettingEnum]
>;

export const complianceFrameworkResolvers: Resolvers = {
  Project: {
    complianceFrameworks: (project, args) => {
      const key = project.complianceFramework;
      return arrayConnection(key ? [{ key }] : [], args, (f) => FRAMEWORKS[f.key][0]);
    },
  },
  ComplianceFramework: {
    name: (f) => FRAMEWORKS[f.key][1],
  },
};
