// Explicit subscriptions to issues and merge requests (GitLab's Subscribable): who asked to be told, or not to be.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { subscriptions } from '../../schema/index.ts';

/** Records the user's explicit (un)subscription from the issue (or, `type`, the merge request). */
export async function setSubscription(
  tx: Db,
  issueId: number,
  projectId: number,
  userId: number,
  subscribed: boolean,
  type: 'Issue' | 'MergeRequest' = 'Issue',
) {
  await tx
    .insert(subscriptions)
    .values({ subscribableType: type, subscribableId: issueId, projectId, userId, subscribed })
    .onConflictDoUpdate({
      target: [subscriptions.subscribableType, subscriptions.subscribableId, subscriptions.userId],
      set: { subscribed, updatedAt: new Date() },
    });
}

/** The subscriptions of a target being deleted (subscribable_id is polymorphic: no foreign key removes them). */
export async function deleteSubscriptionsOf(tx: Db, type: 'Issue' | 'MergeRequest', id: number) {
  await tx.delete(subscriptions).where(and(eq(subscriptions.subscribableType, type), eq(subscriptions.subscribableId, id)));
}
