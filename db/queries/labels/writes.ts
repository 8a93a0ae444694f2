// The labels API's writes: a label inserted unless its title is taken in the scope, changed, deleted with its
// subscriptions; an epic's label links replaced.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { labelLinks, labels, subscriptions } from '../../schema/index.ts';
import type { LabelRow } from '../../schema/labels.ts';
import { rows } from '../lib/raw.ts';
import { type LabelScope, type RawLabel, labelFromRaw, scopeFilter } from '../labels.ts';

/**
 * Inserts a label unless one with the title is already available in the scope (own or ancestors'): undefined then
 * (GitLab's 409 "Label already exists"). One statement; a concurrent insert of the same title loses on the unique
 * index and reads as undefined too.
 */
export async function insertLabel(
  db: Db,
  scope: LabelScope,
  values: { title: string; color: string; description: string | null; priority: number | null },
): Promise<LabelRow | undefined> {
  const source = scope.kind === 'project' ? { projectId: scope.projectId, groupId: null } : { projectId: null, groupId: scope.groupId };
  const found = await rows<RawLabel>(
    db,
    sql`INSERT INTO labels (project_id, group_id, title, color, description, priority)
      SELECT ${source.projectId}::int, ${source.groupId}::int, ${values.title}, ${values.color}, ${values.description}, ${values.priority}::int
      WHERE NOT EXISTS (SELECT 1 FROM ${labels} WHERE ${scopeFilter(scope)} AND ${labels.title} = ${values.title})
      ON CONFLICT DO NOTHING
      RETURNING *`,
  );
  return found[0] ? labelFromRaw(found[0]) : undefined;
}

export async function updateLabel(
  db: Db,
  id: number,
  changes: Partial<Pick<LabelRow, 'title' | 'color' | 'description' | 'priority'>>,
): Promise<LabelRow | undefined> {
  const [row] = await db
    .update(labels)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(labels.id, id))
    .returning();
  return row;
}

/** Deletes the label and its subscriptions (polymorphic, no foreign key) in one statement. */
export async function deleteLabel(db: Db, id: number): Promise<boolean> {
  const deleted = await rows<{ id: number }>(
    db,
    sql`WITH d AS (DELETE FROM ${labels} WHERE ${labels.id} = ${id} RETURNING ${labels.id}),
      s AS (DELETE FROM ${subscriptions} WHERE subscribable_type = 'Label' AND subscribable_id IN (SELECT id FROM d))
      SELECT id FROM d`,
  );
  return deleted.length > 0;
}

/** Replaces the label links of an issue, a merge request or an epic with `labelIds` (`fresh`: a new target, none to remove). */
export async function replaceLabelLinks(
  tx: Db,
  targetType: (typeof labelLinks.$inferSelect)['targetType'],
  targetId: number,
  labelIds: readonly number[],
  fresh = false,
): Promise<void> {
  if (!fresh) await deleteLabelLinksOf(tx, targetType, targetId);
  if (labelIds.length)
    await tx
      .insert(labelLinks)
      .values([...new Set(labelIds)].map((labelId) => ({ labelId, targetType, targetId })))
      .onConflictDoNothing();
}

/** Replaces the epic's label links with `labelIds`. */
export const setEpicLabels = (tx: Db, epicId: number, labelIds: readonly number[]) => replaceLabelLinks(tx, 'Epic', epicId, labelIds);

/** The label links of a target being deleted or relabelled (target_id is polymorphic: no foreign key removes them). */
export async function deleteLabelLinksOf(tx: Db, targetType: (typeof labelLinks.$inferSelect)['targetType'], targetId: number): Promise<void> {
  await tx.delete(labelLinks).where(and(eq(labelLinks.targetType, targetType), eq(labelLinks.targetId, targetId)));
}
