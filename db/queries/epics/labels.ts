// An epic's labels: its label links read back (labels/writes.ts replaces them), and the group labels (of its group or ancestors) that
// create and update resolve by title or id.
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { labelLinks, labels } from '../../schema/index.ts';

/** Label ids of the epic. */
export async function epicLabelIds(db: Db, epicId: number): Promise<number[]> {
  const rows = await db
    .select({ id: labelLinks.labelId })
    .from(labelLinks)
    .where(and(eq(labelLinks.targetType, 'Epic'), eq(labelLinks.targetId, epicId)));
  return rows.map((r) => r.id);
}

/** Group labels of the group or its ancestors by title (GitLab resolves epic labels there), one per title. */
export async function findGroupLabelsByTitles(db: Db, groupIds: readonly number[], titles: readonly string[]) {
  if (!titles.length || !groupIds.length) return [];
  return db
    .select()
    .from(labels)
    .where(and(inArray(labels.groupId, [...groupIds]), inArray(labels.title, [...titles]), isNull(labels.projectId)));
}

/** Group labels (of the given groups) by id. */
export async function findGroupLabelsByIds(db: Db, groupIds: readonly number[], ids: readonly number[]) {
  if (!ids.length || !groupIds.length) return [];
  return db
    .select()
    .from(labels)
    .where(and(inArray(labels.groupId, [...groupIds]), inArray(labels.id, [...ids])));
}
