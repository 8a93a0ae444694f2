// An epic's labels: the group labels (of its group or ancestors) that create and update resolve by title or id; its
// label links are labels/writes.ts's.
import { and, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { labels } from '../../schema/index.ts';

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
