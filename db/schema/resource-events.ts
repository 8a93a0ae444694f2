// GitLab's resource_*_events for issues: the history of an issue's state, weight, milestone and iteration, written
// in the same batch as the change itself. Burnup charts replay them (TimeboxReportService), so they never change.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { issues } from './issues.ts';
import { iterations } from './iterations.ts';
import { milestones } from './milestones.ts';
import { users } from './users.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const issueId = () =>
  integer('issue_id')
    .notNull()
    .references(() => issues.id, { onDelete: 'cascade' });
const userId = () => integer('user_id').references(() => users.id, { onDelete: 'set null' });

/** ResourceTimeboxEvent.actions: add or remove. */
export type TimeboxEventAction = 'add' | 'remove';

export const resourceStateEvents = pgTable(
  'resource_state_events',
  {
    id: serial('id').primaryKey(),
    issueId: issueId(),
    userId: userId(),
    state: text('state').$type<'opened' | 'closed' | 'reopened'>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('resource_state_events_issue_id_created_at_idx').on(t.issueId, t.createdAt)],
);

export const resourceWeightEvents = pgTable(
  'resource_weight_events',
  {
    id: serial('id').primaryKey(),
    issueId: issueId(),
    userId: userId(),
    /** Null when the weight was cleared. */
    weight: integer('weight'),
    createdAt: createdAt(),
  },
  (t) => [index('resource_weight_events_issue_id_created_at_idx').on(t.issueId, t.createdAt)],
);

export const resourceMilestoneEvents = pgTable(
  'resource_milestone_events',
  {
    id: serial('id').primaryKey(),
    issueId: issueId(),
    userId: userId(),
    milestoneId: integer('milestone_id').references(() => milestones.id, { onDelete: 'cascade' }),
    action: text('action').$type<TimeboxEventAction>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('resource_milestone_events_issue_id_created_at_idx').on(t.issueId, t.createdAt),
    index('resource_milestone_events_milestone_id_idx').on(t.milestoneId),
    check('resource_milestone_events_action', sql`${t.action} IN ('add', 'remove')`),
  ],
);

export const resourceIterationEvents = pgTable(
  'resource_iteration_events',
  {
    id: serial('id').primaryKey(),
    issueId: issueId(),
    userId: userId(),
    iterationId: integer('iteration_id').references(() => iterations.id, { onDelete: 'cascade' }),
    action: text('action').$type<TimeboxEventAction>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('resource_iteration_events_issue_id_created_at_idx').on(t.issueId, t.createdAt),
    index('resource_iteration_events_iteration_id_idx').on(t.iterationId),
    check('resource_iteration_events_action', sql`${t.action} IN ('add', 'remove')`),
  ],
);
