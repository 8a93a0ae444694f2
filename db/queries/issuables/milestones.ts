// The milestone an issuable may carry: one of its project's or of an ancestor group's (GitLab ignores any other).
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { milestones } from '../../schema/index.ts';

/** findIssuableMilestone as SQL for the issue a batch inserts: the milestone's id, or NULL when it is not one of these. */
export const issuableMilestoneIdSql = (milestoneId: number, projectId: number, groupIds: readonly number[]) =>
  sql<number | null>`(SELECT ${milestones.id} FROM ${milestones} WHERE ${and(
    eq(milestones.id, milestoneId),
    groupIds.length ? or(eq(milestones.projectId, projectId), inArray(milestones.groupId, [...groupIds])) : eq(milestones.projectId, projectId),
  )})`;

/** A milestone of the project or of one of its ancestor groups (GitLab ignores any other). */
export async function findIssuableMilestone(db: Db, milestoneId: number, projectId: number, groupIds: readonly number[]) {
  const [row] = await db
    .select({ id: milestones.id })
    .from(milestones)
    .where(
      and(
        eq(milestones.id, milestoneId),
        groupIds.length ? or(eq(milestones.projectId, projectId), inArray(milestones.groupId, [...groupIds])) : eq(milestones.projectId, projectId),
      ),
    );
  return row;
}
