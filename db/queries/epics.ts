// Group epics (GitLab EE): an epic "view" is the row with what Entities::Epic and the Epic GraphQL type need (its
// group's path, author, labels, the dates inherited from the milestones of its issues, award counts), in one
// statement; lists add their capped total to the same statement. Here: the view, the list filter and order, the
// listings and lookups. Beside it in epics/: writes.ts, labels.ts, epic-issues.ts, batched-reads.ts (per-epic
// counts, subscriptions, participants) and board-preferences.ts.
import { and, asc, desc, eq, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { groupAccessLevelSql, isAdmin, visibleGroupsFilter, AccessLevel, type Viewer } from './lib/access.ts';
import type { Db } from '../client.ts';
import { awardEmoji, epicIssues, epics, issues, labelLinks, labels, milestones, namespaces, users } from '../schema/index.ts';
import type { LabelJson, UserJson } from './issues.ts';
import { fuzzySearch } from './lib/search.ts';

const author = alias(users, 'epic_author');

/** An epic's label as the view carries it (a group label; the source ids for its global id). */
export interface EpicLabelJson extends LabelJson {
  groupId: number | null;
  projectId: number | null;
}
const labelsSql = sql<
  EpicLabelJson[]
>`(SELECT COALESCE(json_agg(json_build_object('id', l.id, 'title', l.title, 'color', l.color, 'description', l.description, 'groupId', l.group_id, 'projectId', l.project_id) ORDER BY l.title), '[]'::json) FROM ${labelLinks} ll JOIN ${labels} l ON l.id = ll.label_id WHERE ll.target_type = 'Epic' AND ll.target_id = ${epics.id})`;
const awardCountSql = (name: string) =>
  sql<number>`(SELECT count(*) FROM ${awardEmoji} ae WHERE ae.awardable_type = 'Epic' AND ae.awardable_id = ${epics.id} AND ae.name = ${name})`.mapWith(Number);

/** Epics::UpdateDatesService's inherited dates: the earliest start and latest due date of the milestones of the epic's issues. */
const milestoneDateSql = (agg: 'MIN' | 'MAX', column: 'start_date' | 'due_date') =>
  sql<
    string | null
  >`(SELECT ${sql.raw(agg)}(m.${sql.raw(column)})::text FROM ${epicIssues} ei JOIN ${issues} i ON i.id = ei.issue_id JOIN ${milestones} m ON m.id = i.milestone_id WHERE ei.epic_id = ${epics.id})`;
const startFromMilestones = milestoneDateSql('MIN', 'start_date');
const dueFromMilestones = milestoneDateSql('MAX', 'due_date');
/** The effective dates (Epic#start_date / end_date): the fixed one when fixed, else the inherited one. */
const startDateSql = sql`(CASE WHEN ${epics.startDateIsFixed} THEN ${epics.startDateFixed} ELSE ${startFromMilestones}::date END)`;
const endDateSql = sql`(CASE WHEN ${epics.dueDateIsFixed} THEN ${epics.dueDateFixed} ELSE ${dueFromMilestones}::date END)`;

const noTotal = sql<number | null>`NULL`.mapWith((v) => (v == null ? null : Number(v)));

function columns() {
  return {
    epic: epics,
    groupPath: namespaces.fullPath,
    author: sql<UserJson | null>`CASE WHEN ${author.id} IS NULL THEN NULL ELSE json_build_object('id', ${author.id}, 'name', ${author.name}, 'username', ${author.username}, 'state', ${author.state}, 'avatarUrl', ${author.avatarUrl}) END`,
    labels: labelsSql,
    startDateFromMilestones: startFromMilestones,
    dueDateFromMilestones: dueFromMilestones,
    upvotes: awardCountSql('thumbsup'),
    downvotes: awardCountSql('thumbsdown'),
  };
}

function baseQuery(db: Db, total: SQL<number | null> = noTotal) {
  return db
    .select({ ...columns(), total })
    .from(epics)
    .innerJoin(namespaces, eq(namespaces.id, epics.groupId))
    .leftJoin(author, eq(author.id, epics.authorId))
    .$dynamic();
}

export type EpicView = Omit<Awaited<ReturnType<ReturnType<typeof baseQuery>['execute']>>[number], 'total'>;

export interface EpicFilter {
  /** The group asked about (none: children of `parentIds`, wherever they are). */
  groupId?: number;
  includeDescendants?: boolean;
  /** Ancestor group ids to include as well (include_ancestor_groups). */
  ancestorIds?: readonly number[];
  /** Children of these epics (Epic.children under a list: one statement). */
  parentIds?: readonly number[];
  state?: 'opened' | 'closed';
  authorId?: number;
  authorUsername?: string;
  labels?: readonly string[];
  search?: string;
  iids?: readonly number[];
  /** Epics by id (a child epic named by its global id). */
  ids?: readonly number[];
  iidStartsWith?: string;
  confidential?: boolean;
  milestoneTitle?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  updatedAfter?: Date;
  updatedBefore?: Date;
  /** Epics holding any of these issues (a board's epics). */
  issueIds?: readonly number[];
  /** Epics whose effective dates overlap [start, end] (GraphQL's timeframe). */
  timeframe?: { start: string; end: string };
}

export type EpicOrder = { by: 'created_at' | 'updated_at' | 'start_date' | 'end_date' | 'relative_position'; sort: 'asc' | 'desc' };

const hasLabel = (title: string) =>
  sql`EXISTS (SELECT 1 FROM ${labelLinks} ll JOIN ${labels} l ON l.id = ll.label_id WHERE ll.target_type = 'Epic' AND ll.target_id = ${epics.id} AND l.title = ${title})`;

/** Confidential epics: reporters and above of the epic's group (EpicPolicy), administrators. */
export function readsEpicSql(actor: Viewer): SQL | undefined {
  if (isAdmin(actor)) return undefined;
  if (!actor.user) return eq(epics.confidential, false);
  return or(eq(epics.confidential, false), sql`${groupAccessLevelSql(actor)} >= ${AccessLevel.REPORTER}`);
}

function listWhere(actor: Viewer, f: EpicFilter): SQL | undefined {
  const scope = f.groupId === undefined ? undefined : f.includeDescendants ? sql`${f.groupId} = ANY(${namespaces.traversalIds})` : eq(epics.groupId, f.groupId);
  const conditions: (SQL | undefined)[] = [
    f.ancestorIds?.length && scope ? or(scope, inArray(epics.groupId, [...f.ancestorIds])) : scope,
    visibleGroupsFilter(actor),
    readsEpicSql(actor),
  ];
  if (f.parentIds) conditions.push(f.parentIds.length ? inArray(epics.parentId, [...f.parentIds]) : sql`false`);
  if (f.state) conditions.push(eq(epics.state, f.state));
  if (f.authorId !== undefined) conditions.push(eq(epics.authorId, f.authorId));
  if (f.authorUsername !== undefined) conditions.push(sql`lower(${author.username}) = lower(${f.authorUsername})`);
  if (f.labels) for (const title of new Set(f.labels)) conditions.push(hasLabel(title));
  if (f.search) {
    conditions.push(fuzzySearch(f.search, [epics.title, epics.description]));
  }
  if (f.issueIds)
    conditions.push(
      f.issueIds.length ? sql`EXISTS (SELECT 1 FROM ${epicIssues} ei WHERE ei.epic_id = ${epics.id} AND ei.issue_id IN ${[...f.issueIds]})` : sql`false`,
    );
  if (f.iids) conditions.push(f.iids.length ? inArray(epics.iid, [...f.iids]) : sql`false`);
  if (f.ids) conditions.push(f.ids.length ? inArray(epics.id, [...f.ids]) : sql`false`);
  if (f.iidStartsWith !== undefined) conditions.push(sql`${epics.iid}::text LIKE ${`${f.iidStartsWith}%`}`);
  if (f.confidential !== undefined) conditions.push(eq(epics.confidential, f.confidential));
  if (f.milestoneTitle !== undefined)
    conditions.push(
      sql`EXISTS (SELECT 1 FROM ${epicIssues} ei JOIN ${issues} i ON i.id = ei.issue_id JOIN ${milestones} m ON m.id = i.milestone_id WHERE ei.epic_id = ${epics.id} AND m.title = ${f.milestoneTitle})`,
    );
  if (f.createdAfter) conditions.push(gte(epics.createdAt, f.createdAfter));
  if (f.createdBefore) conditions.push(lte(epics.createdAt, f.createdBefore));
  if (f.updatedAfter) conditions.push(gte(epics.updatedAt, f.updatedAfter));
  if (f.updatedBefore) conditions.push(lte(epics.updatedAt, f.updatedBefore));
  // Epic.within_timeframe: some date set, starting on or before the end and ending on or after the start (a missing
  // date is an open end).
  if (f.timeframe)
    conditions.push(
      sql`(${startDateSql} IS NOT NULL OR ${endDateSql} IS NOT NULL) AND (${startDateSql} IS NULL OR ${startDateSql} <= ${f.timeframe.end}::date) AND (${endDateSql} IS NULL OR ${endDateSql} >= ${f.timeframe.start}::date)`,
    );
  return and(...conditions);
}

function orderBy(order: EpicOrder): SQL[] {
  const dir = order.sort === 'asc' ? sql`ASC` : sql`DESC`;
  switch (order.by) {
    // Epic.order_start_date_asc etc.: NULLS LAST, then id DESC.
    case 'start_date':
      return [sql`${startDateSql} ${dir} NULLS LAST`, desc(epics.id)];
    case 'end_date':
      return [sql`${endDateSql} ${dir} NULLS LAST`, desc(epics.id)];
    case 'relative_position':
      return [sql`${epics.relativePosition} ASC NULLS LAST`, desc(epics.id)];
    default: {
      const column = order.by === 'updated_at' ? epics.updatedAt : epics.createdAt;
      return order.sort === 'asc' ? [asc(column), asc(epics.id)] : [desc(column), desc(epics.id)];
    }
  }
}

function countedQuery(db: Db, actor: Viewer, f: EpicFilter, limit: number) {
  return db
    .select({ one: sql`1` })
    .from(epics)
    .innerJoin(namespaces, eq(namespaces.id, epics.groupId))
    .leftJoin(author, eq(author.id, epics.authorId))
    .where(listWhere(actor, f))
    .limit(limit);
}

/** A page of epics, each row carrying the number of matching epics (capped at countLimit) when asked. */
export async function listEpicViews(db: Db, actor: Viewer, f: EpicFilter, order: EpicOrder, limit: number, offset: number, countLimit?: number) {
  const total = countLimit ? sql<number | null>`(SELECT count(*) FROM (${countedQuery(db, actor, f, countLimit)}) counted)`.mapWith(Number) : noTotal;
  return baseQuery(db, total)
    .where(listWhere(actor, f))
    .orderBy(...orderBy(order))
    .limit(limit)
    .offset(offset);
}

export async function countEpics(db: Db, actor: Viewer, f: EpicFilter, limit: number): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(countedQuery(db, actor, f, limit).as('counted'));
  return row?.n ?? 0;
}

/** One epic of a group by iid (no visibility check: the service decides with the policy). */
export async function findEpicView(db: Db, groupId: number, iid: number): Promise<EpicView | undefined> {
  const [row] = await baseQuery(db)
    .where(and(eq(epics.groupId, groupId), eq(epics.iid, iid)))
    .limit(1);
  return row;
}

/** Epics by id (GraphQL parents, board epics), in no particular order. */
export async function findEpicViewsByIds(db: Db, ids: readonly number[]): Promise<EpicView[]> {
  if (!ids.length) return [];
  return baseQuery(db).where(inArray(epics.id, [...ids]));
}
