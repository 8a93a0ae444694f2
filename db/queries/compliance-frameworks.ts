// A project's compliance framework setting (one row at most).
import { eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { projectComplianceFrameworkSettings } from '../schema/index.ts';

export type ComplianceFrameworkKey = (typeof projectComplianceFrameworkSettings.$inferSelect)['framework'];

/** Sets the framework (null removes the setting): one statement. */
export async function setComplianceFramework(db: Db, projectId: number, framework: ComplianceFrameworkKey | null): Promise<void> {
  if (framework === null) {
    await db.delete(projectComplianceFrameworkSettings).where(eq(projectComplianceFrameworkSettings.projectId, projectId));
    return;
  }
  await db
    .insert(projectComplianceFrameworkSettings)
    .values({ projectId, framework })
    .onConflictDoUpdate({ target: projectComplianceFrameworkSettings.projectId, set: { framework } });
}
