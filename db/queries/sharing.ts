// Project and group links (sharing with a group): writes, and the group side of the entities.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { groupGroupLinks, projectGroupLinks } from '../schema/index.ts';

export async function insertProjectLink(tx: Db, values: typeof projectGroupLinks.$inferInsert) {
  const [row] = await tx.insert(projectGroupLinks).values(values).returning();
  return row!;
}

/** Deletes the project's link to the group; false when there was none. */
export async function deleteProjectLink(tx: Db, projectId: number, groupId: number) {
  const rows = await tx
    .delete(projectGroupLinks)
    .where(and(eq(projectGroupLinks.projectId, projectId), eq(projectGroupLinks.groupId, groupId)))
    .returning({ id: projectGroupLinks.id });
  return rows.length > 0;
}

export async function insertGroupLink(tx: Db, values: typeof groupGroupLinks.$inferInsert) {
  const [row] = await tx.insert(groupGroupLinks).values(values).returning();
  return row!;
}

export async function deleteGroupLink(tx: Db, sharedGroupId: number, sharedWithGroupId: number) {
  const rows = await tx
    .delete(groupGroupLinks)
    .where(and(eq(groupGroupLinks.sharedGroupId, sharedGroupId), eq(groupGroupLinks.sharedWithGroupId, sharedWithGroupId)))
    .returning({ id: groupGroupLinks.id });
  return rows.length > 0;
}
