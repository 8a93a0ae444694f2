// GitLab's project_compliance_framework_settings (EE, Premium, 13.6): at most one compliance framework per project,
// stored as the framework's key (gdpr, hipaa, pci_dss, soc_2, sox).
import { check, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { projects } from './projects.ts';

export const projectComplianceFrameworkSettings = pgTable(
  'project_compliance_framework_settings',
  {
    projectId: integer('project_id')
      .primaryKey()
      .references(() => projects.id, { onDelete: 'cascade' }),
    framework: text('framework').$type<'gdpr' | 'hipaa' | 'pci_dss' | 'soc_2' | 'sox'>().notNull(),
  },
  (t) => [check('project_compliance_framework_settings_framework', sql`${t.framework} IN ('gdpr', 'hipaa', 'pci_dss', 'soc_2', 'sox')`)],
);
