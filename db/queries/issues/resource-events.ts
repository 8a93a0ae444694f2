// Writers of GitLab's resource_*_events for issues (ResourceEvents::Change{State,Weight,Milestone,Iteration}Service),
// each a statement that joins the batch or transaction of the issue change it records.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { rows } from '../lib/raw.ts';
import { issues } from '../../schema/issues.ts';
import {
  resourceIterationEvents,
  resourceMilestoneEvents,
  resourceStateEvents,
  resourceWeightEvents,
  type TimeboxEventAction,
} from '../../schema/resource-events.ts';

type IssueRef = number | SQL<number>;

export const stateEventStatement = (db: Db, issueId: IssueRef, userId: number | null, state: 'closed' | 'reopened') =>
  db.insert(resourceStateEvents).values({ issueId, userId, state });

export const weightEventStatement = (db: Db, issueId: number, userId: number | null, weight: number | null) =>
  db.insert(resourceWeightEvents).values({ issueId, userId, weight });

export const milestoneEventStatement = (db: Db, issueId: number, userId: number | null, milestoneId: number, action: TimeboxEventAction) =>
  db.insert(resourceMilestoneEvents).values({ issueId, userId, milestoneId, action });

export const iterationEventStatement = (db: Db, issueId: number, userId: number | null, iterationId: number, action: TimeboxEventAction) =>
  db.insert(resourceIterationEvents).values({ issueId, userId, iterationId, action });

/**
 * The events of a new issue, read from the row the batch just inserted (its milestone is resolved by SQL there):
 * `add` of its milestone and iteration, its weight.
 */
export function newIssueEventStatements(db: Db, issueId: SQL<number>, userId: number) {
  return [
    db.execute(sql`INSERT INTO ${resourceMilestoneEvents} (issue_id, user_id, milestone_id, action)
      SELECT ${issues.id}, ${userId}, ${issues.milestoneId}, 'add' FROM ${issues} WHERE ${issues.id} = ${issueId} AND ${issues.milestoneId} IS NOT NULL`),
    db.execute(sql`INSERT INTO ${resourceIterationEvents} (issue_id, user_id, iteration_id, action)
      SELECT ${issues.id}, ${userId}, ${issues.sprintId}, 'add' FROM ${issues} WHERE ${issues.id} = ${issueId} AND ${issues.sprintId} IS NOT NULL`),
    db.execute(sql`INSERT INTO ${resourceWeightEvents} (issue_id, user_id, weight)
      SELECT ${issues.id}, ${userId}, ${issues.weight} FROM ${issues} WHERE ${issues.id} = ${issueId} AND ${issues.weight} IS NOT NULL`),
  ];
}

type Timeboxes = { milestoneId: number | null; sprintId: number | null; weight: number | null };

/**
 * The events of an update from `before` to `after` (fields absent from `after` did not change): a new timebox is an
 * `add` of it, a cleared one a `remove` of the previous one (GitLab records no remove when one replaces another).
 */
export function changeEventStatements(db: Db, issueId: number, userId: number, before: Timeboxes, after: Partial<Timeboxes>) {
  const out = [];
  if (after.milestoneId !== undefined && after.milestoneId !== before.milestoneId) {
    if (after.milestoneId !== null) out.push(milestoneEventStatement(db, issueId, userId, after.milestoneId, 'add'));
    else if (before.milestoneId !== null) out.push(milestoneEventStatement(db, issueId, userId, before.milestoneId, 'remove'));
  }
  if (after.sprintId !== undefined && after.sprintId !== before.sprintId) {
    if (after.sprintId !== null) out.push(iterationEventStatement(db, issueId, userId, after.sprintId, 'add'));
    else if (before.sprintId !== null) out.push(iterationEventStatement(db, issueId, userId, before.sprintId, 'remove'));
  }
  if (after.weight !== undefined && after.weight !== before.weight) out.push(weightEventStatement(db, issueId, userId, after.weight));
  return out;
}

/** One event of a timebox report, oldest first: a timebox add/remove, a state change or a weight change. */
export interface TimeboxReportEvent {
  kind: 'timebox' | 'state' | 'weight';
  issueId: number;
  /** UTC day of the event. */
  day: string;
  timeboxId: number | null;
  action: TimeboxEventAction | null;
  state: 'opened' | 'closed' | 'reopened' | null;
  weight: number | null;
}

/**
 * TimeboxReportService's events: those of the issues ever added to the timebox up to the end of its due day, the
 * timebox's own and their state and weight changes, in time order; at most `limit` rows.
 */
export async function timeboxReportEvents(
  db: Db,
  timebox: { kind: 'milestone' | 'iteration'; id: number; dueDate: string },
  limit: number,
): Promise<TimeboxReportEvent[]> {
  const table = timebox.kind === 'milestone' ? resourceMilestoneEvents : resourceIterationEvents;
  const fk = timebox.kind === 'milestone' ? resourceMilestoneEvents.milestoneId : resourceIterationEvents.iterationId;
  const end = sql`(${timebox.dueDate}::date + 1)::timestamp AT TIME ZONE 'UTC'`;
  const found = await rows<Record<string, unknown>>(
    db,
    sql`
    WITH ids AS (SELECT DISTINCT issue_id FROM ${table} WHERE ${fk} = ${timebox.id} AND action = 'add' AND created_at < ${end})
    SELECT kind, issue_id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, timebox_id, action, state, weight FROM (
      SELECT 'timebox' AS kind, issue_id, created_at, id, ${fk} AS timebox_id, action, NULL::text AS state, NULL::int AS weight
        FROM ${table} WHERE issue_id IN (SELECT issue_id FROM ids) AND created_at < ${end}
      UNION ALL
      SELECT 'state', issue_id, created_at, id, NULL, NULL, state, NULL
        FROM ${resourceStateEvents} WHERE issue_id IN (SELECT issue_id FROM ids) AND created_at < ${end}
      UNION ALL
      SELECT 'weight', issue_id, created_at, id, NULL, NULL, NULL, weight
        FROM ${resourceWeightEvents} WHERE issue_id IN (SELECT issue_id FROM ids) AND created_at < ${end}
    ) e
    ORDER BY created_at, kind, id
    LIMIT ${limit}`,
  );
  return found.map((r) => ({
    kind: r.kind as TimeboxReportEvent['kind'],
    issueId: Number(r.issue_id),
    day: r.day as string,
    timeboxId: r.timebox_id === null ? null : Number(r.timebox_id),
    action: (r.action as TimeboxEventAction | null) ?? null,
    state: (r.state as TimeboxReportEvent['state']) ?? null,
    weight: r.weight === null ? null : Number(r.weight),
  }));
}
