// Recording a notification-setting event: the outbox row a change writes beside its own rows (as events/record.ts
// does for events). Who is told is decided later, by the deliverer (deliver.ts), as GitLab's workers decide it.
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notificationStatement } from '../../db/queries/notifications.ts';
import type { EmailEvent, NotificationTargetType } from '../../db/schema/index.ts';

export interface NotificationEvent {
  action: EmailEvent;
  target: { type: NotificationTargetType; id: number | SQL<number> };
  /** The target's project, or (group-level targets: epics) its group. */
  projectId?: number | undefined;
  groupId?: number | undefined;
  actorId: number;
  /** A reassignment's assignees before it. */
  previousAssigneeIds?: readonly number[] | undefined;
}

/** The event's outbox row, as a statement for a batch. */
export const notifyStatement = (db: Db, e: NotificationEvent) =>
  notificationStatement(db, { action: e.action, targetType: e.target.type, targetId: e.target.id, projectId: e.projectId ?? null, groupId: e.groupId ?? null, actorId: e.actorId, previousAssigneeIds: e.previousAssigneeIds ?? [] });

/** Inside a transaction: writes the event's outbox row. */
export async function notify(tx: Db, e: NotificationEvent): Promise<void> {
  await notifyStatement(tx, e);
}
