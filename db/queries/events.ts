// Events: the insert behind recordEvent (functions/events/record.ts). A push event and its payload go in one
// statement (a data-modifying CTE), so no event is ever without its payload.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  groupAccessLevelSql,
  groupDescendantAccessSql,
  memberGroupIds,
  memberProjectIds,
  projectAccessLevelSql,
  readsProfileSql,
  visibleGroupsFilter,
  visibleProjectsFilter, type Viewer } from './access.ts';
import type { Db } from '../client.ts';
import { events, issueAssignees, issues, mergeRequestAssignees, mergeRequests, milestones, namespaces, notes, projects, pushEventPayloads, snippets, users } from '../schema/index.ts';
import { rows } from './raw.ts';
import { liveProjectByRef } from './projects.ts';

type NewEvent = Omit<typeof events.$inferInsert, 'id' | 'createdAt' | 'updatedAt'> & {
  push?: Omit<typeof pushEventPayloads.$inferInsert, 'eventId'> | undefined;
};

export async function insertEvent(db: Db, { push, ...event }: NewEvent): Promise<void> {
  if (!push) {
    await db.insert(events).values(event);
    return;
  }
  await insertPushEventStatement(db, { ...event, push });
}

/** A push event and its payload as ONE statement, for the batch that moves the ref (or for insertEvent). */
export function insertPushEventStatement(db: Db, { push, ...event }: NewEvent & { push: NonNullable<NewEvent['push']> }) {
  return db.execute(
    sql`WITH e AS (
          INSERT INTO events (project_id, group_id, author_id, action, target_type, target_id)
          VALUES (${event.projectId ?? null}, ${event.groupId ?? null}, ${event.authorId}, ${event.action}, ${event.targetType ?? null}, ${event.targetId ?? null})
          RETURNING id
        )
        INSERT INTO push_event_payloads (event_id, commit_count, action, ref_type, commit_from, commit_to, ref, commit_title, ref_count)
        SELECT e.id, ${push.commitCount}, ${push.action}, ${push.refType}, ${push.commitFrom ?? null}, ${push.commitTo ?? null}, ${push.ref ?? null},
          ${push.commitTitle ?? null}, ${push.refCount ?? null} FROM e`,
  );
}

/** An event without push payload as a statement for a batch; its target id may be SQL (a `currval` in the batch). */
export function insertEventStatement(db: Db, event: Omit<NewEvent, 'push' | 'targetId'> & { targetId: number | SQL | null }) {
  return db.insert(events).values(event as typeof events.$inferInsert);
}

/** Several events in one statement (the housekeeping job's `expired` events). Push events go through insertEvent. */
export async function insertEvents(db: Db, list: Omit<NewEvent, 'push'>[]): Promise<void> {
  if (list.length) await db.insert(events).values(list);
}

// ---- Reads: the three listings, each ONE statement (the event budget is auth + 1 query whatever per_page is) ----
//
// Raw SQL rather than the builder: the statement is a head row (the user or project named in the path, so a missing
// one is told apart from an empty page), a page CTE of event ids (LIMIT n+1 OFFSET o, visibility filtered in SQL),
// the capped total only when pagination needs it, and the page's rows with authors, targets, notes and push
// payloads LEFT JOINed; the builder cannot express that shape. The policy's SQL fragments reference the unaliased
// `projects` and `namespaces` tables, so both levels join them under those names.

/** Which events a listing walks. */
export type EventSource =
  | { kind: 'author'; userId: number }
  | { kind: 'authorized'; userId: number }
  | { kind: 'user'; ref: number | string }
  | { kind: 'project'; ref: { id?: number | undefined; path?: string | undefined } };

export interface EventFilter {
  action?: number | undefined;
  targetType?: string | undefined;
  /** `YYYY-MM-DD`: created before that day began (UTC). */
  before?: string | undefined;
  /** `YYYY-MM-DD`: created after that day ended (UTC). */
  after?: string | undefined;
  sort: 'asc' | 'desc';
  idAfter?: number | undefined;
  idBefore?: number | undefined;
}

export interface EventPageRequest {
  limit: number;
  offset: number;
  /** Count (capped at countLimit) when the page is full, or empty past the first page (what offset pagination asks). */
  perPage: number | null;
  countLimit: number;
}

/** The head of a listing: the user or project the path names, with what the policy needs. */
export interface EventHead {
  id: number;
  privateProfile: boolean;
  visibilityLevel: number;
  archived: boolean;
  accessLevel: number;
}

export interface EventListRow {
  id: number;
  projectId: number | null;
  groupId: number | null;
  authorId: number;
  action: number;
  targetType: string | null;
  targetId: number | null;
  createdAt: string;
  author: { id: number; username: string; name: string; state: string; avatarUrl: string | null };
  project: { visibilityLevel: number; archived: boolean; accessLevel: number } | null;
  group: { visibilityLevel: number; accessLevel: number; hasDescendantAccess: boolean } | null;
  /** The issue the event is about: its target, or the noteable of its note. */
  issue: { id: number; iid: number; title: string; confidential: boolean; authorId: number | null; assigneeIds: number[] } | null;
  /** The merge request the event is about: its target, or the noteable of its note. */
  mergeRequest: { id: number; iid: number; title: string; authorId: number | null; assigneeIds: number[]; discussionLocked: boolean } | null;
  milestone: { iid: number; title: string } | null;
  /** The snippet the event is about: its target, or the noteable of its note. */
  snippet: { title: string; visibilityLevel: number; authorId: number } | null;
  note: {
    id: number;
    type: string | null;
    body: string;
    system: boolean;
    confidential: boolean;
    noteableType: string;
    /** Null for notes on commits. */
    noteableId: number | null;
    createdAt: string;
    updatedAt: string;
    author: { id: number; username: string; name: string; state: string; avatarUrl: string | null } | null;
  } | null;
  push: {
    commitCount: number;
    action: number;
    refType: number;
    commitFrom: string | null;
    commitTo: string | null;
    ref: string | null;
    commitTitle: string | null;
    refCount: number | null;
  } | null;
}

export interface EventPage {
  head: EventHead | null;
  total: number | null;
  rows: EventListRow[];
}

const NOTE_TYPES = ['Note', 'DiscussionNote', 'DiffNote', 'LegacyDiffNote'];
const SNIPPET_TYPES = ['Snippet', 'ProjectSnippet', 'PersonalSnippet'];
const list = (values: readonly string[]) => sql.join(values.map((v) => sql`${v}`), sql`, `);
/** ISO 8601 with milliseconds in UTC, as GitLab renders times. */
const isoText = (column: SQL | AnyPgColumn) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** Midnight UTC of a `YYYY-MM-DD` day, plus `days`. */
const dayStart = (day: string, days = 0) => sql`((${day}::date + ${days}::int)::timestamp AT TIME ZONE 'UTC')`;

function headSql(actor: Viewer, source: EventSource): SQL {
  switch (source.kind) {
    case 'author':
    case 'authorized':
      return sql`SELECT ${source.userId}::int AS head_id, false AS head_private, 0 AS head_visibility, false AS head_archived, 0 AS head_access`;
    case 'user': {
      const byId = typeof source.ref === 'number' || /^\d+$/.test(source.ref);
      // Ids beyond the integer column's range name nobody.
      const where = byId
        ? Number(source.ref) >= 1 && Number(source.ref) <= 2_147_483_647
          ? sql`${users.id} = ${Number(source.ref)}`
          : sql`false`
        : sql`lower(${users.username}) = lower(${String(source.ref)})`;
      return sql`SELECT ${users.id} AS head_id, ${users.privateProfile} AS head_private, 0 AS head_visibility, false AS head_archived, 0 AS head_access
        FROM ${users} WHERE ${where} LIMIT 1`;
    }
    case 'project': {
      return sql`SELECT ${projects.id} AS head_id, false AS head_private, ${projects.visibilityLevel} AS head_visibility,
          ${projects.archived} AS head_archived, ${projectAccessLevelSql(actor)} AS head_access
        FROM ${projects} JOIN ${namespaces} ON ${namespaces.id} = ${projects.namespaceId}
        WHERE ${liveProjectByRef(source.ref)} LIMIT 1`;
    }
  }
}

/** The listing's own condition on events (the head CTE is in scope). */
function sourceSql(actor: Viewer, source: EventSource): SQL {
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

function filterSql(f: EventFilter): SQL[] {
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
const authorizedProjects = (userId: number) =>
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
function visibilitySql(actor: Viewer): SQL {
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

const eventsFrom = sql`${events}`;

/**
 * The same rule as visibilitySql, for scans that read thousands of events (a deep offset, the capped count): each
 * project's (or group's) verdict is computed once instead of once per event. `hashed`: events with their project and
 * namespace LEFT JOINed under the unaliased names the policy's fragments reference (the planner hashes projects; no
 * order is kept, so for the count only). `ordered`: LATERAL subqueries kept apart by OFFSET 0, so the only plan is a
 * nested loop over the ordered scan of events, which the planner memoizes per project; it keeps the id order and
 * stops at LIMIT.
 */
function visibleScanSql(actor: Viewer, kind: 'hashed' | 'ordered'): { from: SQL; where: SQL } {
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

type Raw = Record<string, unknown>;
const num = (v: unknown) => (v == null ? null : Number(v));
const bool = (v: unknown) => v === true || v === 't' || v === 'true';
const intArray = (v: unknown): number[] => {
  if (v == null) return [];
  if (Array.isArray(v)) return v.map(Number);
  const s = String(v).replace(/^\{|\}$/g, '');
  return s ? s.split(',').map(Number) : [];
};
const userOf = (r: Raw, p: string) =>
  r[`${p}_id`] == null
    ? null
    : { id: Number(r[`${p}_id`]), username: String(r[`${p}_username`]), name: String(r[`${p}_name`]), state: String(r[`${p}_state`]), avatarUrl: (r[`${p}_avatar_url`] as string | null) ?? null };

function toRow(r: Raw): EventListRow {
  return {
    id: Number(r.id),
    projectId: num(r.project_id),
    groupId: num(r.group_id),
    authorId: Number(r.author_id),
    action: Number(r.action),
    targetType: (r.target_type as string | null) ?? null,
    targetId: num(r.target_id),
    createdAt: String(r.created_at),
    author: userOf(r, 'author')!,
    project: r.project_visibility == null ? null : { visibilityLevel: Number(r.project_visibility), archived: bool(r.project_archived), accessLevel: Number(r.project_access) },
    group: r.group_visibility == null ? null : { visibilityLevel: Number(r.group_visibility), accessLevel: Number(r.group_access), hasDescendantAccess: bool(r.group_descendant) },
    issue:
      r.issue_id == null
        ? null
        : {
            id: Number(r.issue_id),
            iid: Number(r.issue_iid),
            title: String(r.issue_title),
            confidential: bool(r.issue_confidential),
            authorId: num(r.issue_author_id),
            assigneeIds: intArray(r.issue_assignee_ids),
          },
    mergeRequest:
      r.mr_id == null
        ? null
        : {
            id: Number(r.mr_id),
            iid: Number(r.mr_iid),
            title: String(r.mr_title),
            authorId: num(r.mr_author_id),
            assigneeIds: intArray(r.mr_assignee_ids),
            discussionLocked: bool(r.mr_discussion_locked),
          },
    milestone: r.milestone_iid == null ? null : { iid: Number(r.milestone_iid), title: String(r.milestone_title) },
    snippet: r.snippet_title == null ? null : { title: String(r.snippet_title), visibilityLevel: Number(r.snippet_visibility), authorId: Number(r.snippet_author_id) },
    note:
      r.note_id == null
        ? null
        : {
            id: Number(r.note_id),
            type: (r.note_type as string | null) ?? null,
            body: String(r.note_body),
            system: bool(r.note_system),
            confidential: bool(r.note_confidential),
            noteableType: String(r.note_noteable_type),
            noteableId: num(r.note_noteable_id),
            createdAt: String(r.note_created_at),
            updatedAt: String(r.note_updated_at),
            author: userOf(r, 'note_author'),
          },
    push:
      r.push_commit_count == null
        ? null
        : {
            commitCount: Number(r.push_commit_count),
            action: Number(r.push_action),
            refType: Number(r.push_ref_type),
            commitFrom: (r.push_commit_from as string | null) ?? null,
            commitTo: (r.push_commit_to as string | null) ?? null,
            ref: (r.push_ref as string | null) ?? null,
            commitTitle: (r.push_commit_title as string | null) ?? null,
            refCount: num(r.push_ref_count),
          },
  };
}

/** One listing page in one statement: the head, the total when needed, and the page's rows with everything joined. */
export async function listEventPage(db: Db, actor: Viewer, source: EventSource, filter: EventFilter, page: EventPageRequest): Promise<EventPage> {
  const raw = await rows<Raw>(db, eventPageSql(actor, source, filter, page));
  const first = raw[0];
  if (!first) return { head: null, total: null, rows: [] };
  return {
    head: {
      id: Number(first.head_id),
      privateProfile: bool(first.head_private),
      visibilityLevel: Number(first.head_visibility),
      archived: bool(first.head_archived),
      accessLevel: Number(first.head_access),
    },
    total: num(first.total),
    rows: raw.filter((r) => r.id != null).map(toRow),
  };
}

/** The statement behind listEventPage (exported for EXPLAIN in benchmarks). */
export function eventPageSql(actor: Viewer, source: EventSource, filter: EventFilter, page: EventPageRequest): SQL {
  // A project listing reads one project, checked by the policy on the head row (404 otherwise, before anything is
  // returned): its events need no per-row visibility filter, so its page and count are plain index range scans.
  const visibility = source.kind === 'project' ? [] : [visibilitySql(actor)];
  const where = sql.join([sourceSql(actor, source), ...visibility, ...filterSql(filter)], sql` AND `);
  const dir = filter.sort === 'asc' ? sql`ASC` : sql`DESC`;
  const scan = (columns: SQL, limit: SQL | number, ordered: boolean) =>
    sql`SELECT ${columns} FROM ${eventsFrom} WHERE ${where}${ordered ? sql` ORDER BY ${events.id} ${dir}` : sql``} LIMIT ${limit}`;
  let pageSql: SQL;
  let countSql: SQL;
  if (source.kind === 'authorized') {
    // scope=all: one index range scan per authorized project (events (project_id, id)), each cut at what the page
    // can use, then merged. A single scan of all events filtered by project would read the whole table for a user
    // with few projects on a large instance.
    const auth = authorizedProjects(source.userId);
    pageSql = sql`SELECT x.id FROM ${auth} CROSS JOIN LATERAL (${scan(sql`${events.id} AS id`, page.limit + page.offset, true)}) x
      ORDER BY x.id ${dir} LIMIT ${page.limit} OFFSET ${page.offset}`;
    countSql = sql`SELECT count(*) FROM (SELECT 1 FROM ${auth} CROSS JOIN LATERAL (${scan(sql`1`, page.countLimit, false)}) x LIMIT ${page.countLimit}) c`;
  } else if (source.kind === 'project') {
    pageSql = sql`SELECT ${events.id} AS id FROM ${eventsFrom} WHERE ${where} ORDER BY ${events.id} ${dir} LIMIT ${page.limit} OFFSET ${page.offset}`;
    countSql = sql`SELECT count(*) FROM (${scan(sql`1`, page.countLimit, false)}) c`;
  } else {
    // A first page (or a keyset page) checks the few rows the ordered scan stops at with the scalar subqueries; a deep
    // offset and the count (up to 10,001 rows, on every full page) check each project once (bench:events, 1M events
    // on PGlite, p50: page 1 29 -> 15 ms, page=500 at per_page=100 113 -> 65 ms).
    const scanWhere = (v: { where: SQL }) => sql.join([sourceSql(actor, source), v.where, ...filterSql(filter)], sql` AND `);
    const ordered = visibleScanSql(actor, 'ordered');
    const hashed = visibleScanSql(actor, 'hashed');
    pageSql =
      page.offset > 0
        ? sql`SELECT ${events.id} AS id FROM ${ordered.from} WHERE ${scanWhere(ordered)} ORDER BY ${events.id} ${dir} LIMIT ${page.limit} OFFSET ${page.offset}`
        : sql`SELECT ${events.id} AS id FROM ${eventsFrom} WHERE ${where} ORDER BY ${events.id} ${dir} LIMIT ${page.limit} OFFSET ${page.offset}`;
    countSql = sql`SELECT count(*) FROM (SELECT 1 FROM ${hashed.from} WHERE ${scanWhere(hashed)} LIMIT ${page.countLimit}) c`;
  }
  const total =
    page.perPage === null
      ? sql`NULL::bigint`
      : sql`CASE WHEN (SELECT count(*) FROM page) > ${page.perPage} OR ((SELECT count(*) FROM page) = 0 AND ${page.offset}::bigint > 0)
          THEN (${countSql}) END`;
  const noteAuthor = sql.raw('note_author');
  const query = sql`WITH head AS (${headSql(actor, source)}),
    page AS MATERIALIZED (${pageSql})
    SELECT head.head_id, head.head_private, head.head_visibility, head.head_archived, head.head_access, ${total} AS total,
      ${events.id} AS id, ${events.projectId} AS project_id, ${events.groupId} AS group_id, ${events.authorId} AS author_id,
      ${events.action} AS action, ${events.targetType} AS target_type, ${events.targetId} AS target_id, ${isoText(events.createdAt)} AS created_at,
      ${users.id} AS author_id, ${users.username} AS author_username, ${users.name} AS author_name, ${users.state} AS author_state, ${users.avatarUrl} AS author_avatar_url,
      ${projects.visibilityLevel} AS project_visibility, ${projects.archived} AS project_archived,
      CASE WHEN ${projects.id} IS NOT NULL THEN ${projectAccessLevelSql(actor)} END AS project_access,
      CASE WHEN ${events.projectId} IS NULL THEN ${namespaces.visibilityLevel} END AS group_visibility,
      CASE WHEN ${events.projectId} IS NULL AND ${namespaces.id} IS NOT NULL THEN ${groupAccessLevelSql(actor)} END AS group_access,
      CASE WHEN ${events.projectId} IS NULL AND ${namespaces.id} IS NOT NULL THEN ${groupDescendantAccessSql(actor)} END AS group_descendant,
      ${issues.id} AS issue_id, ${issues.iid} AS issue_iid, ${issues.title} AS issue_title, ${issues.confidential} AS issue_confidential,
      ${issues.authorId} AS issue_author_id,
      CASE WHEN ${issues.confidential} THEN ARRAY(SELECT ia.user_id FROM ${issueAssignees} ia WHERE ia.issue_id = ${issues.id}) END AS issue_assignee_ids,
      ${mergeRequests.id} AS mr_id, ${mergeRequests.iid} AS mr_iid, ${mergeRequests.title} AS mr_title, ${mergeRequests.authorId} AS mr_author_id,
      ${mergeRequests.discussionLocked} AS mr_discussion_locked,
      CASE WHEN ${notes.confidential} THEN ARRAY(SELECT ma.user_id FROM ${mergeRequestAssignees} ma WHERE ma.merge_request_id = ${mergeRequests.id}) END AS mr_assignee_ids,
      ${milestones.iid} AS milestone_iid, ${milestones.title} AS milestone_title,
      ${snippets.title} AS snippet_title, ${snippets.visibilityLevel} AS snippet_visibility, ${snippets.authorId} AS snippet_author_id,
      ${notes.id} AS note_id, ${notes.type} AS note_type, ${notes.body} AS note_body, ${notes.system} AS note_system,
      ${notes.confidential} AS note_confidential, ${notes.noteableType} AS note_noteable_type, ${notes.noteableId} AS note_noteable_id,
      ${isoText(notes.createdAt)} AS note_created_at, ${isoText(notes.updatedAt)} AS note_updated_at,
      ${noteAuthor}.id AS note_author_id, ${noteAuthor}.username AS note_author_username, ${noteAuthor}.name AS note_author_name,
      ${noteAuthor}.state AS note_author_state, ${noteAuthor}.avatar_url AS note_author_avatar_url,
      ${pushEventPayloads.commitCount} AS push_commit_count, ${pushEventPayloads.action} AS push_action, ${pushEventPayloads.refType} AS push_ref_type,
      ${pushEventPayloads.commitFrom} AS push_commit_from, ${pushEventPayloads.commitTo} AS push_commit_to, ${pushEventPayloads.ref} AS push_ref,
      ${pushEventPayloads.commitTitle} AS push_commit_title, ${pushEventPayloads.refCount} AS push_ref_count
    FROM head
    LEFT JOIN page ON true
    LEFT JOIN ${events} ON ${events.id} = page.id
    LEFT JOIN ${users} ON ${users.id} = ${events.authorId}
    LEFT JOIN ${projects} ON ${projects.id} = ${events.projectId}
    LEFT JOIN ${namespaces} ON ${namespaces.id} = COALESCE(${projects.namespaceId}, ${events.groupId})
    LEFT JOIN ${notes} ON ${events.targetType} IN (${list(NOTE_TYPES)}) AND ${notes.id} = ${events.targetId}
    LEFT JOIN ${users} ${noteAuthor} ON ${noteAuthor}.id = ${notes.authorId}
    LEFT JOIN ${issues} ON ${issues.id} = CASE WHEN ${events.targetType} = 'Issue' THEN ${events.targetId} WHEN ${notes.noteableType} = 'Issue' THEN ${notes.noteableId} END
    LEFT JOIN ${mergeRequests} ON ${mergeRequests.id} = CASE WHEN ${events.targetType} = 'MergeRequest' THEN ${events.targetId} WHEN ${notes.noteableType} = 'MergeRequest' THEN ${notes.noteableId} END
    LEFT JOIN ${milestones} ON ${events.targetType} = 'Milestone' AND ${milestones.id} = ${events.targetId}
    LEFT JOIN ${snippets} ON ${snippets.id} = CASE WHEN ${events.targetType} IN (${list(SNIPPET_TYPES)}) THEN ${events.targetId} WHEN ${notes.noteableType} = 'Snippet' THEN ${notes.noteableId} END
    LEFT JOIN ${pushEventPayloads} ON ${pushEventPayloads.eventId} = ${events.id}
    ORDER BY page.id ${dir}`;
  return query;
}

/** Events of a deleted target keep its type with a null id. */
export async function clearEventTargets(tx: Db, targetType: string, targetId: number) {
  await tx.update(events).set({ targetId: null }).where(and(eq(events.targetType, targetType), eq(events.targetId, targetId)));
}

// ---- Retention ----

/**
 * Deletes up to `batch` events created before `cutoff`, oldest first. SKIP LOCKED lets concurrent runs take disjoint
 * batches instead of waiting on each other; the caller loops until a batch comes back short.
 */
export async function deleteEventsBefore(db: Db, cutoff: SQL, batch: number): Promise<number> {
  const deleted = await rows<{ id: unknown }>(
    db,
    sql`DELETE FROM ${events} WHERE ${events.id} IN (
          SELECT e.id FROM ${events} e WHERE e.created_at < ${cutoff} ORDER BY e.id LIMIT ${batch} FOR UPDATE SKIP LOCKED
        ) RETURNING ${events.id}`,
  );
  return deleted.length;
}
