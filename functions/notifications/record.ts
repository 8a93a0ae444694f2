// Recording a notification-setting event: the outbox row a change writes beside its own rows (as events/record.ts
// does for events), and the `mailers` job that delivers it, enqueued unless one waits, in the same batch; the job
// runs after the response (a prompt queue). Who is told is decided then, by the deliverer (deliver.ts), as GitLab's
// workers decide it.
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notificationStatement } from '../../db/queries/notifications.ts';
import type { EmailEvent, NotificationTargetType } from '../../db/schema/index.ts';
import { wakeWorkerStatement } from '../background-jobs/enqueue.ts';
import type { RequestContext } from '../lib/context.ts';

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

export type NotifyingContext = Parameters<typeof wakeWorkerStatement>[1];

/** The event's outbox row and the wake-up of its deliverer, as statements for a batch. */
export const notifyStatements = (db: Db, ctx: NotifyingContext, e: NotificationEvent) => [
  notificationStatement(db, {
    action: e.action,
    targetType: e.target.type,
    targetId: e.target.id,
    projectId: e.projectId ?? null,
    groupId: e.groupId ?? null,
    actorId: e.actorId,
    previousAssigneeIds: e.previousAssigneeIds ?? [],
  }),
  wakeWorkerStatement(db, ctx, 'mailers'),
];

/** Inside a transaction: writes the event's outbox row and wakes its deliverer. */
export async function notify(tx: Db, ctx: NotifyingContext, e: NotificationEvent): Promise<void> {
  for (const statement of notifyStatements(tx, ctx, e)) await statement;
}
