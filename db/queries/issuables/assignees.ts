// Who may be assigned to an issuable (an issue or a merge request): GitLab's Issuable#assignees validation, the
// users who can read the project.
import { and, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { members, users } from '../../schema/index.ts';
import { activeMembershipSql, projectReadersSql } from '../lib/access.ts';

/**
 * Of `userIds`, those who may be assigned: active users who can read the project (members of it or its groups, or
 * anyone not external on an internal/public project). Unknown ids are dropped, as GitLab does.
 */
export async function assignableUserIds(
  db: Db,
  project: { id: number; visibilityLevel: number; traversalIds: number[] },
  userIds: readonly number[],
): Promise<number[]> {
  const ids = [...new Set(userIds)].filter((id) => id >= 1 && id <= 2_147_483_647);
  if (!ids.length) return [];
  return (await assignableUsersQuery(db, project, ids)).map((r) => r.id);
}

/** assignableUserIds as a statement (ordered by id), for a batch or to insert from (newIssueLinkStatements). */
export function assignableUsersQuery(db: Db, project: { id: number; visibilityLevel: number; traversalIds: number[] }, userIds: readonly number[]) {
  const ids = [...new Set(userIds)].filter((id) => id >= 1 && id <= 2_147_483_647);
  const groupIds = project.traversalIds.map(Number);
  const source = or(
    and(eq(members.sourceType, 'Project'), eq(members.sourceId, project.id)),
    groupIds.length ? and(eq(members.sourceType, 'Namespace'), inArray(members.sourceId, groupIds)) : undefined,
  );
  const memberIds = db
    .select({ id: members.userId })
    .from(members)
    .where(and(inArray(members.userId, ids), source, activeMembershipSql));
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.state, 'active'), projectReadersSql(project.visibilityLevel, memberIds)))
    .orderBy(users.id);
}
