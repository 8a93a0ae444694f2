// The activity log: one row per recorded action (GitLab's events), written only by the recordEvent service in the
// same transaction as the action; push events carry a payload row (push_event_payloads), ready for pushes.
import { bigint, bigserial, index, integer, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { namespaces } from './namespaces.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

/**
 * GitLab's Event actions with their stored numbers: created 1, updated 2, closed 3, reopened 4, pushed 5,
 * commented 6, merged 7, joined 8, left 9, destroyed 10, expired 11, approved 12.
 */
export const EVENT_ACTIONS = {
  created: 1,
  updated: 2,
  closed: 3,
  reopened: 4,
  pushed: 5,
  commented: 6,
  merged: 7,
  joined: 8,
  left: 9,
  destroyed: 10,
  expired: 11,
  approved: 12,
} as const;
export type EventAction = keyof typeof EVENT_ACTIONS;

export const events = pgTable(
  'events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    groupId: integer('group_id').references(() => namespaces.id, { onDelete: 'cascade' }),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    action: smallint('action').notNull(),
    /** The target's class name as stored ('Issue', 'Note', 'DiffNote', 'Milestone', 'Snippet', ...); null for pushes, joins and project creation. */
    targetType: text('target_type'),
    targetId: integer('target_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The three listings walk these newest first (ORDER BY id DESC), keyset on id.
    index('events_project_id_id_idx').on(t.projectId, t.id),
    index('events_author_id_id_idx').on(t.authorId, t.id),
    index('events_target_idx').on(t.targetType, t.targetId),
    // Retention deletes by age in bounded batches.
    index('events_created_at_idx').on(t.createdAt),
  ],
);

/** GitLab's PushEventPayload: action 0 created, 1 removed, 2 pushed; ref_type 0 branch, 1 tag. */
export const pushEventPayloads = pgTable('push_event_payloads', {
  eventId: bigint('event_id', { mode: 'number' })
    .primaryKey()
    .references(() => events.id, { onDelete: 'cascade' }),
  commitCount: integer('commit_count').notNull(),
  action: smallint('action').notNull(),
  refType: smallint('ref_type').notNull(),
  commitFrom: text('commit_from'),
  commitTo: text('commit_to'),
  ref: text('ref'),
  commitTitle: text('commit_title'),
  refCount: integer('ref_count'),
});

export type EventRow = typeof events.$inferSelect;
