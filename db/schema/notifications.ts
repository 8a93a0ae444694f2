// The notification outbox: one row per notification-setting event (new_merge_request, merge_merge_request,
// close_issue...), written in the same batch or transaction as the change that caused it, so a notification exists
// exactly when its change does and costs the request no read. The scheduled work resolves its recipients through
// each user's applying level and hands the messages to the mail transport (functions/notifications/deliver.ts), as
// GitLab's NotificationService does in its Sidekiq workers; the recipients it chose are kept on the row for a week.
import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { EmailEvent } from './notification-settings.ts';
import { namespaces } from './namespaces.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

/** GitLab's NotificationReason values (the X-GitLab-NotificationReason header); null: no particular reason. */
export const NOTIFICATION_REASONS = ['own_activity', 'assigned', 'mentioned', 'subscribed'] as const;
export type NotificationReason = (typeof NOTIFICATION_REASONS)[number];

/** Project-level targets (issues, merge requests) and group-level ones (epics, GitLab EE). */
export type NotificationTargetType = 'Issue' | 'MergeRequest' | 'Epic';

/** A message sent: to whom, and why. */
export type NotificationRecipient = { user_id: number; reason: NotificationReason | null };

export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The email event (NotificationSetting.email_events' name: the custom action). */
    action: text('action').$type<EmailEvent>().notNull(),
    targetType: text('target_type').$type<NotificationTargetType>().notNull(),
    targetId: integer('target_id').notNull(),
    /** The target's project; null for a group-level target (an epic), which has `groupId` instead. */
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    groupId: integer('group_id').references(() => namespaces.id, { onDelete: 'cascade' }),
    /** Who acted (never told of their own activity). */
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** A reassignment's assignees before it (they are told too). */
    previousAssigneeIds: integer('previous_assignee_ids')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Set when the scheduled work took the row; `recipients` then holds who was sent a message. */
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    recipients: jsonb('recipients').$type<NotificationRecipient[]>(),
  },
  (t) => [
    // The deliverer's queue: pending rows, oldest first.
    index('notifications_pending_idx')
      .on(t.id)
      .where(sql`${t.deliveredAt} IS NULL`),
    index('notifications_target_idx').on(t.targetType, t.targetId),
    check('notifications_one_source', sql`(${t.projectId} IS NULL) <> (${t.groupId} IS NULL)`),
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;
