// The SQL fragments of the events listing statement (listing.ts's eventPageSql): the head row, each listing's own
// condition, the filters, and the visibility rule in its three shapes (per row, hashed, ordered).
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  memberGroupIds,
  memberProjectIds,
  projectAccessLevelSql,
  projectFeaturesSql,
  readsProfileSql,
  visibleGroupsFilter,
  visibleProjectsFilter,
  type Viewer,
} from '../lib/access.ts';
import { events, namespaces, projects, users } from '../../schema/index.ts';
import { liveProjectByRef } from '../projects.ts';
import type { EventSource, EventFilter } from './listing.ts';

export const NOTE_TYPES = ['Note', 'DiscussionNote', 'DiffNote', 'LegacyDiffNote'];
export const SNIPPET_TYPES = ['Snippet', 'ProjectSnippet', 'PersonalSnippet'];
export const list = (values: readonly string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );
/** ISO 8601 with milliseconds in UTC, as GitLab renders times. */
export const isoText = (column: SQL | AnyPgColumn) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** Midnight UTC of a `YYYY-MM-DD` day, plus `days`. */
const dayStart = (day: string, days = 0) => sql`((${day}::date + ${days}::int)::timestamp AT TIME ZONE 'UTC')`;

export function headSql(actor: Viewer, source: EventSource): SQL {
  switch (source.kind) {
    case 'author':
    case 'authorized':
      return sql`SELECT ${source.userId}::int AS head_id, false AS head_private, 0 AS head_visibility, false AS head_archived, 0 AS head_access,
        NULL::json AS head_features`;
    case 'user': {
      const byId = typeof source.ref === 'number' || /^\d+$/.test(source.ref);
      // Ids beyond the integer column's range name nobody.
      const where = byId
        ? Number(source.ref) >= 1 && Number(source.ref) <= 2_147_483_647
          ? sql`${users.id} = ${Number(source.ref)}`
          : sql`false`
        : sql`lower(${users.username}) = lower(${String(source.ref)})`;
      return sql`SELECT ${users.id} AS head_id, ${users.privateProfile} AS head_private, 0 AS head_visibility, false AS head_archived, 0 AS head_access,
          NULL::json AS head_features
        FROM ${users} WHERE ${where} LIMIT 1`;
    }
    case 'project': {
      return sql`SELECT ${projects.id} AS head_id, false AS head_private, ${projects.visibilityLevel} AS head_visibility,
          ${projects.archived} AS head_archived, ${projectAccessLevelSql(actor)} AS head_access, ${projectFeaturesSql()} AS head_features
        FROM ${projects} JOIN ${namespaces} ON ${namespaces.id} = ${projects.namespaceId}
        WHERE ${liveProjectByRef(source.ref)} LIMIT 1`;
    }
  }
}

/** The listing's own condition on events (the head CTE is in scope). */
export function sourceSql(actor: Viewer, source: EventSource): SQL {
  switch (source.kind) {
    case 'author':
      return sql`${events.authorId} = ${source.userId}`;
    case 'authorized':
      // Walked project by project (see authorizedProjects): each lateral scan is bound to one authorized project.
      return sql`${events.projectId} = auth.id`;
    case 'user': {
      // A private profile yields nothing unless the viewer may read it (the policy's user:read_profile).
      return sql`${events.authorId} = (SELECT head.head_id FROM head WHERE ${readsProfileSql(actor, sql`head.head_id`, sql`head.head_private`)})`;
    }
    case 'project':
      return sql`${events.projectId} = (SELECT head.head_id FROM head)`;
  }
}

export function filterSql(f: EventFilter): SQL[] {
  const out: SQL[] = [];
  if (f.action !== undefined) out.push(sql`${events.action} = ${f.action}`);
  if (f.targetType !== undefined) out.push(sql`${events.targetType} = ${f.targetType}`);
  // Both bounds exclusive, whole days (GitLab: created_at < before.beginning_of_day, > after.end_of_day).
  if (f.before !== undefined) out.push(sql`${events.createdAt} < ${dayStart(f.before)}`);
  if (f.after !== undefined) out.push(sql`${events.createdAt} >= ${dayStart(f.after, 1)}`);
  if (f.idAfter !== undefined) out.push(sql`${events.id} > ${f.idAfter}`);
  if (f.idBefore !== undefined) out.push(sql`${events.id} < ${f.idBefore}`);
  return out;
}

/** GitLab's current_user.authorized_projects (direct memberships and those inherited from groups), as `auth`. */
export const authorizedProjects = (userId: number) =>
  sql`(SELECT ap.id FROM ${projects} ap JOIN ${namespaces} an ON an.id = ap.namespace_id
    WHERE ap.deleted_at IS NULL AND (ap.id IN ${memberProjectIds(userId)} OR an.traversal_ids && ${memberGroupIds(userId)})) auth`;

/**
 * Events of projects the actor may read, or of groups it may read (events with neither are never listed, as GitLab's
 * inner join on projects). Epics' events (created, closed, reopened, and their notes: group-level, project null) are
 * never listed: GitLab 13.6's EventsFinder joins events to projects, so "events associated with epics are not
 * available using the API" (doc/api/events.md); they are recorded for the group's activity only.
 * Scalar subqueries on purpose: they cannot be turned into joins, so the planner keeps the
 * ordered index scan on events and stops at LIMIT, checking each row's project by primary key (a join let it hash
 * whole id ranges and sort them).
 */
export function visibilitySql(actor: Viewer): SQL {
  const project = visibleProjectsFilter(actor) ?? sql`true`;
  const group = visibleGroupsFilter(actor) ?? sql`true`;
  return sql`(CASE WHEN ${events.projectId} IS NOT NULL
      THEN COALESCE((SELECT ${project} FROM ${projects} JOIN ${namespaces} ON ${namespaces.id} = ${projects.namespaceId} WHERE ${projects.id} = ${events.projectId}), false)
    WHEN ${events.groupId} IS NOT NULL AND ${listedGroupEvent}
      THEN COALESCE((SELECT ${group} FROM ${namespaces} WHERE ${namespaces.id} = ${events.groupId}), false)
    ELSE false END)`;
}

/** A group-level event the API lists: not an epic's nor a note's (a group-level note is an epic's). */
const listedGroupEvent = sql`(${events.targetType} IS NULL OR ${events.targetType} NOT IN ('Epic', ${list(NOTE_TYPES)}))`;

export const eventsFrom = sql`${events}`;

/**
 * The same rule as visibilitySql, for scans that read thousands of events (a deep offset, the capped count): each
 * project's (or group's) verdict is computed once instead of once per event. `hashed`: events with their project and
 * namespace LEFT JOINed under the unaliased names the policy's fragments reference (the planner hashes projects; no
 * order is kept, so for the count only). `ordered`: LATERAL subqueries kept apart by OFFSET 0, so the only plan is a
 * nested loop over the ordered scan of events, which the planner memoizes per project; it keeps the id order and
 * stops at LIMIT.
 */
export function visibleScanSql(actor: Viewer, kind: 'hashed' | 'ordered'): { from: SQL; where: SQL } {
  const project = visibleProjectsFilter(actor) ?? sql`true`;
  const group = visibleGroupsFilter(actor) ?? sql`true`;
  if (kind === 'hashed') {
    // Each side of the CASE is a hashed subplan: the policy runs once per project (group) to build the set of
    // visible ids, and each event costs one hash probe.
    return {
      from: sql`${events}`,
      where: sql`(CASE WHEN ${events.projectId} IS NOT NULL
          THEN ${events.projectId} IN (SELECT ${projects.id} FROM ${projects} JOIN ${namespaces} ON ${namespaces.id} = ${projects.namespaceId} WHERE ${project})
        WHEN ${events.groupId} IS NOT NULL AND ${listedGroupEvent}
          THEN ${events.groupId} IN (SELECT ${namespaces.id} FROM ${namespaces} WHERE ${group})
        ELSE false END)`,
    };
  }
  return {
    from: sql`${events}
      LEFT JOIN LATERAL (SELECT ${project} AS ok FROM ${projects} JOIN ${namespaces} ON ${namespaces.id} = ${projects.namespaceId} WHERE ${projects.id} = ${events.projectId} OFFSET 0) vp ON true
      LEFT JOIN LATERAL (SELECT ${group} AS ok FROM ${namespaces} WHERE ${namespaces.id} = ${events.groupId} OFFSET 0) vg ON true`,
    where: sql`(CASE WHEN ${events.projectId} IS NOT NULL THEN COALESCE(vp.ok, false) WHEN ${events.groupId} IS NOT NULL AND ${listedGroupEvent} THEN COALESCE(vg.ok, false) ELSE false END)`,
  };
}
