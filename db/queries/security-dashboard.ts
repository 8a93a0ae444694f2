// A user's instance security dashboard projects (users_security_dashboard_projects).
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { securityDashboardProjects } from '../schema/index.ts';

/** Adds the project; false when it was already there (the primary key decides, also for concurrent adds). */
export async function addDashboardProject(db: Db, userId: number, projectId: number): Promise<boolean> {
  const rows = await db.insert(securityDashboardProjects).values({ userId, projectId }).onConflictDoNothing().returning();
  return rows.length > 0;
}

/** Removes the project; false when it was not on the user's dashboard. */
export async function removeDashboardProject(db: Db, userId: number, projectId: number): Promise<boolean> {
  const rows = await db
    .delete(securityDashboardProjects)
    .where(and(eq(securityDashboardProjects.userId, userId), eq(securityDashboardProjects.projectId, projectId)))
    .returning();
  return rows.length > 0;
}

/** The ids of the user's dashboard projects, in id order, at most `limit`. */
export async function dashboardProjectIds(db: Db, userId: number, limit: number): Promise<number[]> {
  const rows = await db
    .select({ projectId: securityDashboardProjects.projectId })
    .from(securityDashboardProjects)
    .where(eq(securityDashboardProjects.userId, userId))
    .orderBy(asc(securityDashboardProjects.projectId))
    .limit(limit);
  return rows.map((r) => r.projectId);
}
