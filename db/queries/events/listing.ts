// Events: the three listings (a user's, a project's, the caller's), each ONE statement, and the types they take and
// return. The statement's SQL fragments are in listing-sql.ts, the decoding of its rows in listing-rows.ts.
import { sql, type SQL } from 'drizzle-orm';
import { groupAccessLevelSql, groupDescendantAccessSql, projectAccessLevelSql, projectFeaturesSql, type ProjectFeatures, type Viewer } from '../lib/access.ts';
import type { Db } from '../../client.ts';
import {
  events,
  issueAssignees,
  issues,
  mergeRequestAssignees,
  mergeRequests,
  milestones,
  namespaces,
  notes,
  projects,
  pushEventPayloads,
  snippets,
  users,
} from '../../schema/index.ts';
import { rows } from '../lib/raw.ts';
import {
  NOTE_TYPES,
  SNIPPET_TYPES,
  list,
  isoText,
  headSql,
  sourceSql,
  filterSql,
  authorizedProjects,
  visibilitySql,
  eventsFrom,
  visibleScanSql,
} from './listing-sql.ts';
import { type Raw, num, bool, json, toRow } from './listing-rows.ts';

// One statement per listing: the event budget is auth + 1 query whatever per_page is.
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
  /** A project head's features (a user head has none). */
  features: ProjectFeatures | null;
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
  project: { visibilityLevel: number; archived: boolean; accessLevel: number; features: ProjectFeatures } | null;
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
      features: json<ProjectFeatures>(first.head_features),
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
    SELECT head.head_id, head.head_private, head.head_visibility, head.head_archived, head.head_access, head.head_features, ${total} AS total,
      ${events.id} AS id, ${events.projectId} AS project_id, ${events.groupId} AS group_id, ${events.authorId} AS author_id,
      ${events.action} AS action, ${events.targetType} AS target_type, ${events.targetId} AS target_id, ${isoText(events.createdAt)} AS created_at,
      ${users.id} AS author_id, ${users.username} AS author_username, ${users.name} AS author_name, ${users.state} AS author_state, ${users.avatarUrl} AS author_avatar_url,
      ${projects.visibilityLevel} AS project_visibility, ${projects.archived} AS project_archived, ${projectFeaturesSql()} AS project_features,
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
