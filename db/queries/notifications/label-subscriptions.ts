// Label subscriptions (GitLab's Subscribable over Label): who subscribed at which level, as a condition the label
// reads embed, and the write.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { subscriptions } from '../../schema/index.ts';

/** Who asks whether they subscribed to a label, at which level (a project id, or null: the group level). */
export interface LabelSubscriber {
  userId: number;
  projectId: number | null;
}

// ---- Subscriptions (GitLab's Subscribable over Label) ----
//
// A label subscription belongs to a user and a project (subscribing through a project to one of its labels or an
// ancestor group's) or to no project (subscribing through the group). Labels have no participants, so only an
// explicit subscription row counts. subscriptions holds one row per user and label: the level it was last set at.

/**
 * Whether the subscriber subscribed to the `labels` row in scope at their level. The label's id is written qualified:
 * drizzle drops the table name of a single-table select's columns, and a bare "id" would be the subscription's.
 */
export const labelSubscribedSql = (s: LabelSubscriber) =>
  sql<boolean>`EXISTS (SELECT 1 FROM ${subscriptions} ls WHERE ls.subscribable_type = 'Label' AND ls.subscribable_id = ${sql.raw('"labels"."id"')} AND ls.user_id = ${s.userId} AND ls.project_id IS NOT DISTINCT FROM ${s.projectId}::int AND ls.subscribed)`.mapWith(
    Boolean,
  );

/** Subscribes or unsubscribes the user from the label at this level (Subscribable#subscribe / #unsubscribe). */
export async function setLabelSubscription(db: Db, labelId: number, userId: number, projectId: number | null, subscribed: boolean) {
  await db
    .insert(subscriptions)
    .values({ subscribableType: 'Label', subscribableId: labelId, userId, projectId, subscribed })
    .onConflictDoUpdate({
      target: [subscriptions.subscribableType, subscriptions.subscribableId, subscriptions.userId],
      set: { subscribed, projectId, updatedAt: new Date() },
    });
}
