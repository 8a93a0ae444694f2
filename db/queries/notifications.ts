// The notification outbox (db/schema/notifications.ts): the event a change writes, the deliverer's claim, and the
// recipients' candidates. One statement reads every candidate of an event with what NotificationRecipient#notifiable?
// needs: the user, their access level on the project, the level of
// the setting that applies (project, nearest group up the chain that is not `global`, global; participating when
// none is stored) with that setting's flag for the event, and their explicit subscription to the target.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import {
  epics,
  issueAssignees,
  issues,
  members,
  mergeRequestAssignees,
  mergeRequests,
  namespaces,
  notifications,
  notificationSettings,
  notes,
  projects,
  subscriptions,
  users,
  type EmailEvent,
  type NotificationLevel,
  type NotificationRecipient,
  type NotificationReason,
  type NotificationTargetType,
  type UserRow,
} from '../schema/index.ts';
import { intArray, rows } from './lib/raw.ts';

/** Where a candidate came from (the builder turns each into a recipient of GitLab's type). */
export type CandidateSource = 'participant' | 'member' | 'subscriber' | 'label_subscriber' | 'mentioned' | 'assignee' | 'previous_assignee';

export interface CandidateQuery {
  /** The target's project (null for a group-level target: an epic) and the groups above it (or above the target). */
  project: { id: number | null; traversalIds: readonly number[] };
  /** The email event whose flag a custom setting is read for. */
  action: EmailEvent;
  /** The target: its author, assignees and note authors take part; its subscribers are candidates. */
  target: { type: NotificationTargetType; id: number };
  /** Candidates the caller knows (mentioned users, assignees, previous assignees). */
  given: ReadonlyArray<{ userId: number; source: CandidateSource }>;
  /** Labels whose subscribers are candidates (new issues and merge requests). */
  labelIds: readonly number[];
}

export interface Candidate {
  user: UserRow;
  accessLevel: number;
  sources: CandidateSource[];
  level: Exclude<NotificationLevel, 'global'>;
  /** The applying setting's flag for the event (null: never set). */
  eventEnabled: boolean | null;
  /** The explicit subscription to the target: true, false (unsubscribed), or null. */
  subscribed: boolean | null;
}

const TARGET_TABLES = {
  Issue: {
    table: issues,
    authorId: issues.authorId,
    id: issues.id,
    assignees: issueAssignees,
    assigneeParent: issueAssignees.issueId,
    assigneeUser: issueAssignees.userId,
  },
  // Epics have no assignees in 13.6 (Epic#assignees is empty): the author is their only assignee-like participant.
  Epic: { table: epics, authorId: epics.authorId, id: epics.id, assignees: null, assigneeParent: null, assigneeUser: null },
  MergeRequest: {
    table: mergeRequests,
    authorId: mergeRequests.authorId,
    id: mergeRequests.id,
    assignees: mergeRequestAssignees,
    assigneeParent: mergeRequestAssignees.mergeRequestId,
    assigneeUser: mergeRequestAssignees.userId,
  },
} as const;

/**
 * Every candidate of an event, once, with the facts above. Members of the project and its groups (and users with a
 * setting on them) count only when watching or custom: in GitLab every member has a setting row and only those two
 * levels make a non-participant a recipient; anyone else named stays, for the builder to decide.
 */
export async function findNotificationCandidates(db: Db, c: CandidateQuery): Promise<Candidate[]> {
  const groupIds = intArray(c.project.traversalIds);
  const parts: SQL[] = [];
  if (c.given.length) {
    parts.push(
      sql`SELECT unnest(${intArray(c.given.map((g) => g.userId))}) AS user_id, unnest(${sql`${`{${c.given.map((g) => g.source).join(',')}}`}::text[]`}) AS source`,
    );
  }
  const t = TARGET_TABLES[c.target.type];
  parts.push(
    sql`SELECT ${t.authorId} AS user_id, 'participant' AS source FROM ${t.table} WHERE ${t.id} = ${c.target.id}`,
    ...(t.assignees ? [sql`SELECT ${t.assigneeUser} AS user_id, 'participant' AS source FROM ${t.assignees} WHERE ${t.assigneeParent} = ${c.target.id}`] : []),
    sql`SELECT ${notes.authorId} AS user_id, 'participant' AS source FROM ${notes}
        WHERE ${notes.noteableType} = ${c.target.type} AND ${notes.noteableId} = ${c.target.id} AND NOT ${notes.system}`,
    sql`SELECT ${subscriptions.userId} AS user_id, 'subscriber' AS source FROM ${subscriptions}
        WHERE ${subscriptions.subscribableType} = ${c.target.type} AND ${subscriptions.subscribableId} = ${c.target.id} AND ${subscriptions.subscribed}`,
  );
  if (c.labelIds.length) {
    // Label#subscribers(project): subscribed through this project or through the group (no project).
    parts.push(sql`SELECT ${subscriptions.userId} AS user_id, 'label_subscriber' AS source FROM ${subscriptions}
      WHERE ${subscriptions.subscribableType} = 'Label' AND ${subscriptions.subscribableId} = ANY(${intArray(c.labelIds)}) AND ${subscriptions.subscribed}
        AND (${subscriptions.projectId} IS NULL OR ${subscriptions.projectId} = ${c.project.id})`);
  }
  parts.push(
    sql`SELECT ${members.userId} AS user_id, 'member' AS source FROM ${members}
        WHERE ((${members.sourceType} = 'Project' AND ${members.sourceId} = ${c.project.id}) OR (${members.sourceType} = 'Namespace' AND ${members.sourceId} = ANY(${groupIds})))
          AND (${members.expiresAt} IS NULL OR ${members.expiresAt} > current_date)`,
    sql`SELECT ${notificationSettings.userId} AS user_id, 'member' AS source FROM ${notificationSettings}
        WHERE ${notificationSettings.projectId} = ${c.project.id} OR ${notificationSettings.namespaceId} = ANY(${groupIds})`,
  );
  const event = sql.identifier(c.action);
  const found = await rows<{
    user_id: number;
    sources: CandidateSource[];
    access_level: number;
    level: NotificationLevel | null;
    event_enabled: boolean | null;
    subscribed: boolean | null;
  }>(
    db,
    sql`WITH c AS (${sql.join(parts, sql` UNION ALL `)}),
      cand AS (SELECT user_id, array_agg(DISTINCT source) AS sources FROM c WHERE user_id IS NOT NULL GROUP BY user_id),
      facts AS (
        SELECT cand.user_id, cand.sources,
          COALESCE((SELECT max(m.access_level) FROM ${members} m WHERE m.user_id = cand.user_id
            AND ((m.source_type = 'Project' AND m.source_id = ${c.project.id}) OR (m.source_type = 'Namespace' AND m.source_id = ANY(${groupIds})))
            AND (m.expires_at IS NULL OR m.expires_at > current_date)), 0) AS access_level,
          s.level, s.event_enabled,
          (SELECT t.subscribed FROM ${subscriptions} t WHERE t.subscribable_type = ${c.target.type} AND t.subscribable_id = ${c.target.id} AND t.user_id = cand.user_id) AS subscribed
        FROM cand
        LEFT JOIN LATERAL (
          SELECT s.level, s.${event} AS event_enabled FROM ${notificationSettings} s
          WHERE s.user_id = cand.user_id AND (
            (s.project_id = ${c.project.id} AND s.level <> 'global')
            OR (s.namespace_id = ANY(${groupIds}) AND s.level <> 'global')
            OR (s.project_id IS NULL AND s.namespace_id IS NULL))
          ORDER BY (s.project_id IS NULL), (s.namespace_id IS NULL), array_position(${groupIds}, s.namespace_id) DESC NULLS LAST
          LIMIT 1
        ) s ON true
      )
      SELECT facts.* FROM facts
      WHERE facts.sources <> ARRAY['member'] OR facts.level IN ('watch', 'custom')`,
  );
  const userIds = found.map((r) => Number(r.user_id));
  const userRows = userIds.length
    ? await db
        .select()
        .from(users)
        .where(sql`${users.id} = ANY(${intArray(userIds)})`)
    : [];
  const byId = new Map(userRows.map((u) => [u.id, u]));
  return found.flatMap((r) => {
    const user = byId.get(Number(r.user_id));
    if (!user) return [];
    const level = !r.level || r.level === 'global' ? 'participating' : r.level;
    return [{ user, accessLevel: Number(r.access_level), sources: r.sources, level, eventEnabled: r.event_enabled, subscribed: r.subscribed }];
  });
}

/** The outbox row of one event, as a statement for the change's batch or transaction (`targetId` may be SQL). */
export function notificationStatement(
  db: Db,
  e: {
    action: EmailEvent;
    targetType: NotificationTargetType;
    targetId: number | SQL<number>;
    projectId: number | null;
    groupId?: number | null;
    actorId: number;
    previousAssigneeIds?: readonly number[];
  },
) {
  return db.insert(notifications).values({
    action: e.action,
    targetType: e.targetType,
    targetId: e.targetId as number,
    projectId: e.projectId,
    groupId: e.groupId ?? null,
    actorId: e.actorId,
    previousAssigneeIds: [...(e.previousAssigneeIds ?? [])],
  });
}

/**
 * Takes up to `limit` pending events, oldest first, marking them delivered in the same statement; rows another run
 * holds are skipped, so concurrent runs take different events and none is taken twice.
 */
export async function claimNotifications(db: Db, limit: number) {
  const pending = db
    .select({ id: notifications.id })
    .from(notifications)
    .where(sql`${notifications.deliveredAt} IS NULL`)
    .orderBy(notifications.id)
    .limit(limit)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(notifications)
    .set({ deliveredAt: sql`now()` })
    .where(sql`${notifications.id} IN ${pending}`)
    .returning();
  return claimed.sort((a, b) => a.id - b.id);
}

/** Records who an event's messages went to. */
export async function recordRecipients(db: Db, id: number, recipients: readonly NotificationRecipient[]) {
  await db
    .update(notifications)
    .set({ recipients: [...recipients] })
    .where(sql`${notifications.id} = ${id}`);
}

/** Deletes up to `limit` events delivered before `before`; the number deleted. */
export async function deleteDeliveredBefore(db: Db, before: SQL, limit: number): Promise<number> {
  const old = db
    .select({ id: notifications.id })
    .from(notifications)
    .where(sql`${notifications.deliveredAt} < ${before}`)
    .limit(limit)
    .for('update', { skipLocked: true });
  return (
    await db
      .delete(notifications)
      .where(sql`${notifications.id} IN ${old}`)
      .returning({ id: notifications.id })
  ).length;
}

/**
 * Project#emails_disabled? (13.6): the project's own `emails_disabled` setting, or that of its group or any group
 * above it (the settings catalogs, functions/projects/settings.ts and functions/groups/settings.ts, name the key).
 */
export async function emailsDisabled(db: Db, source: { projectId: number | null; traversalIds: readonly number[] }): Promise<boolean> {
  const [row] = await rows<{ disabled: boolean }>(
    db,
    sql`SELECT (EXISTS (SELECT 1 FROM ${projects} WHERE ${projects.id} = ${source.projectId ?? 0} AND (${projects.settings}->>'emails_disabled')::boolean)
      OR EXISTS (SELECT 1 FROM ${namespaces} WHERE ${namespaces.id} = ANY(${`{${source.traversalIds.join(',')}}`}::int[])
        AND (${namespaces.settings}->>'emails_disabled')::boolean)) AS disabled`,
  );
  return row?.disabled === true || String(row?.disabled) === 't';
}
