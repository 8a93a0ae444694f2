// Issue reads and writes. A read is one statement: the issue with its project path, author, closer, milestone,
// labels, assignees and counters (json subqueries), so a page of issues costs one query whatever its size.
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  mergeRequestProjectsFilter,
  readsMergeRequestsSql,
  readableIssueNotesSql,
  visibleIssuesFilter,
  visibleProjectsFilter,
  type Viewer,
} from './lib/access.ts';
import type { Db } from '../client.ts';
import {
  awardEmoji,
  issueAssignees,
  issues,
  labelLinks,
  labels,
  mergeRequests,
  mergeRequestsClosingIssues,
  iterations,
  milestones,
  namespaces,
  notes,
  projects,
  subscriptions,
  todos,
  users,
} from '../schema/index.ts';
import { deleteAwardsOf } from './award-emoji.ts';
import type { assignableUsersQuery } from './issuables/assignees.ts';
import { insertTimelogStatement } from './issuables/timelogs.ts';
import { deleteLabelLinksOf, replaceLabelLinks } from './labels/writes.ts';
import { deleteSubscriptionsOf } from './notifications/subscriptions.ts';
import { deleteTodosOf, mentionTodosStatement, newAssignmentTodosStatement } from './todos/issuables.ts';
import { deleteNotesOf } from './notes.ts';
import { liveProjectByRef, type ProjectLookup } from './projects.ts';
import { containsPattern, fuzzySearch } from './lib/search.ts';
import { byParent, rowNumber, singleParentLimit, keysetSql, type KeysetPage } from './lib/window.ts';

const author = alias(users, 'issue_author');
const closer = alias(users, 'issue_closer');
const milestoneGroup = alias(namespaces, 'milestone_group');

/** The UserBasic fields of an assignee, as the page query returns them. */
export interface UserJson {
  id: number;
  name: string;
  username: string;
  state: string;
  avatarUrl: string | null;
}

/** A label of an issue as the page query returns it. */
export interface LabelJson {
  id: number;
  title: string;
  color: string;
  description: string | null;
}

const labelsSql = sql<
  LabelJson[]
>`(SELECT COALESCE(json_agg(json_build_object('id', l.id, 'title', l.title, 'color', l.color, 'description', l.description) ORDER BY l.title), '[]'::json) FROM ${labelLinks} ll JOIN ${labels} l ON l.id = ll.label_id WHERE ll.target_type = 'Issue' AND ll.target_id = ${issues.id})`;
const assigneesSql = sql<
  UserJson[]
>`(SELECT COALESCE(json_agg(json_build_object('id', u.id, 'name', u.name, 'username', u.username, 'state', u.state, 'avatarUrl', u.avatar_url) ORDER BY u.id), '[]'::json) FROM ${issueAssignees} ia JOIN ${users} u ON u.id = ia.user_id WHERE ia.issue_id = ${issues.id})`;
/** The user (non-system) notes of the issue the actor may read: the count agrees with the notes listing. */
const userNotesCountSql = (actor: Viewer) =>
  sql<number>`(SELECT count(*) FROM ${notes} n WHERE n.noteable_type = 'Issue' AND n.noteable_id = ${issues.id} AND NOT n.system AND ${readableIssueNotesSql(actor, sql`n.confidential`)})`.mapWith(
    Number,
  );
const awardCountSql = (name: string) =>
  sql<number>`(SELECT count(*) FROM ${awardEmoji} ae WHERE ae.awardable_type = 'Issue' AND ae.awardable_id = ${issues.id} AND ae.name = ${name})`.mapWith(
    Number,
  );

/** GitLab's subscribed?: an explicit subscription row wins, else participation (author, assignee, commenter). */
const subscribedSql = (userId: number) =>
  sql<boolean>`COALESCE((SELECT s.subscribed FROM ${subscriptions} s WHERE s.subscribable_type = 'Issue' AND s.subscribable_id = ${issues.id} AND s.user_id = ${userId}),
    ${issues.authorId} IS NOT DISTINCT FROM ${userId}
    OR EXISTS (SELECT 1 FROM ${issueAssignees} ia2 WHERE ia2.issue_id = ${issues.id} AND ia2.user_id = ${userId})
    OR EXISTS (SELECT 1 FROM ${notes} n2 WHERE n2.noteable_type = 'Issue' AND n2.noteable_id = ${issues.id} AND n2.author_id = ${userId} AND NOT n2.system))`.mapWith(
    Boolean,
  );

function columns(actor: Viewer, subscriberId?: number | null) {
  return {
    issue: issues,
    projectPath: projects.pathWithNamespace,
    author,
    closedBy: closer,
    milestone: milestones,
    milestoneGroupPath: milestoneGroup.fullPath,
    labels: labelsSql,
    assignees: assigneesSql,
    userNotesCount: userNotesCountSql(actor),
    upvotes: awardCountSql('thumbsup'),
    downvotes: awardCountSql('thumbsdown'),
    subscribed: subscriberId ? subscribedSql(subscriberId) : sql<boolean>`false`.mapWith(Boolean),
    mergeRequestsCount: closingMergeRequestsCountSql(actor),
  };
}

const closerProject = alias(projects, 'closer_project');
const closerNamespace = alias(namespaces, 'closer_namespace');
/**
 * IssuableMetadata's merge_requests_count: the MRs whose cached closing issues hold the issue
 * (merge_requests_closing_issues), counted where the actor may read them (read_merge_request).
 */
const closingMergeRequestsCountSql = (actor: Viewer) =>
  sql<number>`(SELECT count(*) FROM ${mergeRequestsClosingIssues} ci JOIN ${mergeRequests} cm ON cm.id = ci.merge_request_id
    JOIN ${projects} closer_project ON ${closerProject.id} = cm.target_project_id JOIN ${namespaces} closer_namespace ON ${closerNamespace.id} = ${closerProject.namespaceId}
    WHERE ci.issue_id = ${issues.id} AND ${and(visibleProjectsFilter(actor, closerProject, closerNamespace), readsMergeRequestsSql(actor, closerProject, closerNamespace))})`.mapWith(
    Number,
  );

const noTotal = sql<number | null>`NULL`.mapWith((v) => (v == null ? null : Number(v)));

/**
 * The issue with everything its entity needs as `actor` sees it (counters count what the actor may read), in one
 * SELECT; lists add their capped `total` column.
 */
function baseQuery(db: Db, actor: Viewer, subscriberId?: number | null, total: SQL<number | null> = noTotal) {
  return db
    .select({ ...columns(actor, subscriberId), total })
    .from(issues)
    .innerJoin(projects, eq(projects.id, issues.projectId))
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .leftJoin(author, eq(author.id, issues.authorId))
    .leftJoin(closer, eq(closer.id, issues.closedById))
    .leftJoin(milestones, eq(milestones.id, issues.milestoneId))
    .leftJoin(milestoneGroup, eq(milestoneGroup.id, milestones.groupId))
    .$dynamic();
}

export type IssueView = Awaited<ReturnType<ReturnType<typeof baseQuery>['execute']>>[number];

/** One issue of a project by iid (no visibility check: the service decides with the policy). */
/** One issue by the live project's ref (id or full path) and iid, as a statement for a batch beside the project's. */
export const issueViewByProjectRefQuery = (db: Db, actor: Viewer, ref: ProjectLookup, iid: number, subscriberId?: number | null) =>
  baseQuery(db, actor, subscriberId).where(and(liveProjectByRef(ref), eq(issues.iid, iid)));

/** The id of the issue this session inserted last: what the later statements of a creating batch point at. */
export const lastIssueIdSql = () => sql<number>`currval(pg_get_serial_sequence('issues', 'id'))`;

/** The issue this session inserted last (`currval`): the read that ends a creating batch. */
export const lastInsertedIssueViewQuery = (db: Db, actor: Viewer, subscriberId?: number | null) =>
  baseQuery(db, actor, subscriberId).where(eq(issues.id, lastIssueIdSql()));

export async function findIssueView(db: Db, actor: Viewer, projectId: number, iid: number, subscriberId?: number | null): Promise<IssueView | undefined> {
  const [row] = await baseQuery(db, actor, subscriberId).where(and(eq(issues.projectId, projectId), eq(issues.iid, iid)));
  return row;
}

export async function findIssueViewById(db: Db, actor: Viewer, id: number, subscriberId?: number | null): Promise<IssueView | undefined> {
  const [row] = await baseQuery(db, actor, subscriberId).where(eq(issues.id, id));
  return row;
}

/** Issues by id, in one statement (no visibility check: the caller's query already decided); e.g. a page of to-do targets. */
export async function findIssueViewsByIds(db: Db, actor: Viewer, ids: readonly number[]): Promise<IssueView[]> {
  if (!ids.length) return [];
  return baseQuery(db, actor).where(inArray(issues.id, [...new Set(ids)]));
}

export interface IssueListFilter {
  projectId?: number;
  /** Issues of projects in this group and its descendants. */
  groupId?: number;
  authorId?: number;
  authorUsername?: string;
  /** A user id, or 'none' / 'any'. */
  assigneeId?: number | 'none' | 'any';
  /** A username, or several the issue must all be assigned to (EE by_assignee ANDs them). */
  assigneeUsername?: string | readonly string[];
  state?: 'opened' | 'closed';
  /** Titles that must all be present; or 'none' / 'any'. */
  labels?: string[] | 'none' | 'any';
  /** A title; or 'none' / 'any'. */
  milestone?: string | 'none' | 'any';
  search?: string;
  /** Columns `search` looks in (default both). */
  searchIn?: Array<'title' | 'description'>;
  nonArchived?: boolean;
  iids?: number[];
  confidential?: boolean;
  createdAfter?: Date;
  createdBefore?: Date;
  updatedAfter?: Date;
  updatedBefore?: Date;
  /** Issue types to list; by default GitLab's Issue::TYPES_FOR_LIST (test cases are hidden from issue lists). */
  types?: ReadonlyArray<IssueType>;
  /** EE by_iteration: issues in one of these iterations (sprint_id), or with none / any. */
  iterationIds?: readonly number[] | 'none' | 'any';
  /** EE by_iteration: issues whose iteration has this title. */
  iterationTitle?: string;
}

export type IssueType = 'issue' | 'incident' | 'test_case';
/** Issue::TYPES_FOR_LIST: what project, group and global issue lists (and boards) show unless asked otherwise. */
export const TYPES_FOR_LIST: readonly IssueType[] = ['issue', 'incident'];

export type IssueOrder = { by: 'created_at' | 'updated_at'; sort: 'asc' | 'desc' };

const hasLabel = (title: string) =>
  sql`EXISTS (SELECT 1 FROM ${labelLinks} ll JOIN ${labels} l ON l.id = ll.label_id WHERE ll.target_type = 'Issue' AND ll.target_id = ${issues.id} AND l.title = ${title})`;
const anyLabel = sql`EXISTS (SELECT 1 FROM ${labelLinks} ll WHERE ll.target_type = 'Issue' AND ll.target_id = ${issues.id})`;
const anyAssignee = sql`EXISTS (SELECT 1 FROM ${issueAssignees} ia WHERE ia.issue_id = ${issues.id})`;

/** THE list filter's condition (issues joined with projects, namespaces and milestones, as countedQuery); boards reuse it. */
export function listWhere(actor: Viewer, f: IssueListFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [visibleIssuesFilter(actor) ?? visibleProjectsFilter(actor)];
  if (f.projectId !== undefined) conditions.push(eq(issues.projectId, f.projectId));
  if (f.groupId !== undefined) conditions.push(sql`${f.groupId} = ANY(${namespaces.traversalIds})`);
  if (f.authorId !== undefined) conditions.push(eq(issues.authorId, f.authorId));
  if (f.authorUsername !== undefined)
    conditions.push(sql`EXISTS (SELECT 1 FROM ${users} u WHERE u.id = ${issues.authorId} AND lower(u.username) = lower(${f.authorUsername}))`);
  if (f.assigneeId === 'none') conditions.push(sql`NOT ${anyAssignee}`);
  else if (f.assigneeId === 'any') conditions.push(anyAssignee);
  else if (f.assigneeId !== undefined)
    conditions.push(sql`EXISTS (SELECT 1 FROM ${issueAssignees} ia WHERE ia.issue_id = ${issues.id} AND ia.user_id = ${f.assigneeId})`);
  for (const username of new Set(f.assigneeUsername === undefined ? [] : typeof f.assigneeUsername === 'string' ? [f.assigneeUsername] : f.assigneeUsername))
    conditions.push(
      sql`EXISTS (SELECT 1 FROM ${issueAssignees} ia JOIN ${users} u ON u.id = ia.user_id WHERE ia.issue_id = ${issues.id} AND lower(u.username) = lower(${username}))`,
    );
  if (f.state) conditions.push(eq(issues.state, f.state));
  if (f.labels === 'none') conditions.push(sql`NOT ${anyLabel}`);
  else if (f.labels === 'any') conditions.push(anyLabel);
  else if (f.labels) for (const title of new Set(f.labels)) conditions.push(hasLabel(title));
  if (f.milestone === 'none') conditions.push(isNull(issues.milestoneId));
  else if (f.milestone === 'any') conditions.push(isNotNull(issues.milestoneId));
  else if (f.milestone !== undefined) conditions.push(eq(milestones.title, f.milestone));
  if (f.search) {
    const where = f.searchIn?.length ? f.searchIn : ['title', 'description'];
    conditions.push(
      fuzzySearch(
        f.search,
        where.map((c) => (c === 'title' ? issues.title : issues.description)),
      ),
    );
  }
  if (f.nonArchived) conditions.push(eq(projects.archived, false));
  if (f.iids) conditions.push(f.iids.length ? inArray(issues.iid, f.iids) : sql`false`);
  if (f.confidential !== undefined) conditions.push(eq(issues.confidential, f.confidential));
  if (f.createdAfter) conditions.push(gte(issues.createdAt, f.createdAfter));
  if (f.createdBefore) conditions.push(lte(issues.createdAt, f.createdBefore));
  if (f.updatedAfter) conditions.push(gte(issues.updatedAt, f.updatedAfter));
  if (f.updatedBefore) conditions.push(lte(issues.updatedAt, f.updatedBefore));
  if (f.iterationIds === 'none') conditions.push(isNull(issues.sprintId));
  else if (f.iterationIds === 'any') conditions.push(isNotNull(issues.sprintId));
  else if (f.iterationIds) conditions.push(f.iterationIds.length ? inArray(issues.sprintId, [...f.iterationIds]) : sql`false`);
  if (f.iterationTitle !== undefined)
    conditions.push(sql`EXISTS (SELECT 1 FROM ${iterations} it WHERE it.id = ${issues.sprintId} AND it.title = ${f.iterationTitle})`);
  conditions.push(inArray(issues.issueType, [...(f.types ?? TYPES_FOR_LIST)]));
  return and(...conditions);
}

function countedQuery(db: Db, actor: Viewer, f: IssueListFilter, limit: number) {
  return db
    .select({ one: sql`1` })
    .from(issues)
    .innerJoin(projects, eq(projects.id, issues.projectId))
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .leftJoin(milestones, eq(milestones.id, issues.milestoneId))
    .where(listWhere(actor, f))
    .limit(limit);
}

/**
 * A page of issues. With `countLimit`, each row also carries the number of matching issues (capped at countLimit),
 * computed once in the same statement, so a full page needs no second round trip for its X-Total.
 */
export async function listIssueViews(db: Db, actor: Viewer, f: IssueListFilter, order: IssueOrder, limit: number, offset: number, countLimit?: number) {
  const column = order.by === 'updated_at' ? issues.updatedAt : issues.createdAt;
  const dir = order.sort === 'asc' ? asc : desc;
  const total = countLimit ? sql<number | null>`(SELECT count(*) FROM (${countedQuery(db, actor, f, countLimit)}) counted)`.mapWith(Number) : noTotal;
  return baseQuery(db, actor, null, total).where(listWhere(actor, f)).orderBy(dir(column), dir(issues.id)).limit(limit).offset(offset);
}

export async function countIssues(db: Db, actor: Viewer, f: IssueListFilter, limit: number): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(countedQuery(db, actor, f, limit).as('counted'));
  return row?.n ?? 0;
}

// ---- Writes (inside the caller's transaction) ----

/** insertIssue as a statement for a batch, its iid SQL (the counter the batch advanced). */
export function insertIssueStatement(
  db: Db,
  values: Omit<typeof issues.$inferInsert, 'iid' | 'milestoneId'> & { iid: SQL<number>; milestoneId: SQL<number | null> | null },
) {
  return db.insert(issues).values(values as unknown as typeof issues.$inferInsert);
}

/**
 * The links of an issue a batch just inserted (its id SQL): the assignable users among those asked for
 * (assignableUsersQuery) with their "assigned" to-dos (a new issue has none pending), and the mention to-dos; as
 * statements for that batch (none when there is nothing to link).
 */
export function newIssueLinkStatements(
  db: Db,
  issue: { id: SQL<number>; projectId: number },
  authorId: number,
  assignees: ReturnType<typeof assignableUsersQuery> | null,
  mentions: ReadonlyArray<{ userId: number; direct: boolean }>,
  noteId?: SQL<number>,
) {
  const statements = [];
  if (assignees) {
    statements.push(
      db.execute(sql`INSERT INTO ${issueAssignees} (issue_id, user_id) SELECT ${issue.id}, a.id FROM (${assignees}) a ORDER BY a.id ON CONFLICT DO NOTHING`),
    );
    statements.push(newAssignmentTodosStatement(db, { ...issue, type: 'Issue' }, authorId));
  }
  if (mentions.length) statements.push(mentionTodosStatement(db, { ...issue, type: 'Issue' }, authorId, mentions, noteId));
  return statements;
}

export async function insertIssue(tx: Db, values: typeof issues.$inferInsert) {
  const [row] = await tx.insert(issues).values(values).returning();
  return row!;
}

/** The issue row, locked for the rest of the transaction. */
export async function lockIssue(tx: Db, id: number) {
  const [row] = await tx.select().from(issues).where(eq(issues.id, id)).for('update');
  return row;
}

export async function updateIssue(tx: Db, id: number, values: Partial<typeof issues.$inferInsert>) {
  await tx.update(issues).set(values).where(eq(issues.id, id));
}

/** Replaces the issue's assignees; returns the users newly assigned and the assignees before. */
export async function setAssignees(tx: Db, issueId: number, userIds: readonly number[]): Promise<{ added: number[]; previous: number[] }> {
  const removed = await tx.delete(issueAssignees).where(eq(issueAssignees.issueId, issueId)).returning({ userId: issueAssignees.userId });
  const previous = removed.map((r) => r.userId);
  if (userIds.length)
    await tx
      .insert(issueAssignees)
      .values(userIds.map((userId) => ({ issueId, userId })))
      .onConflictDoNothing();
  return { added: userIds.filter((id) => !previous.includes(id)), previous };
}

export async function issueAssigneeIds(tx: Db, issueId: number): Promise<number[]> {
  const rows = await tx.select({ id: issueAssignees.userId }).from(issueAssignees).where(eq(issueAssignees.issueId, issueId));
  return rows.map((r) => r.id);
}

export async function issueLabelIds(tx: Db, issueId: number): Promise<number[]> {
  const rows = await tx
    .select({ id: labelLinks.labelId })
    .from(labelLinks)
    .where(and(eq(labelLinks.targetType, 'Issue'), eq(labelLinks.targetId, issueId)));
  return rows.map((r) => r.id);
}

/** Replaces the issue's labels (`fresh`: a new issue, nothing to remove). */
export const setLabelLinks = (tx: Db, issueId: number, labelIds: readonly number[], fresh = false) => replaceLabelLinks(tx, 'Issue', issueId, labelIds, fresh);

/** Ids of labels of the project (or its ancestor groups) with these titles. */
export async function findLabelIdsByTitle(db: Db, projectId: number, groupIds: readonly number[], titles: readonly string[]): Promise<number[]> {
  if (!titles.length) return [];
  const rows = await db
    .select({ id: labels.id })
    .from(labels)
    .where(
      and(
        inArray(labels.title, [...titles]),
        groupIds.length ? or(eq(labels.projectId, projectId), inArray(labels.groupId, [...groupIds])) : eq(labels.projectId, projectId),
      ),
    );
  return rows.map((r) => r.id);
}

/** Removes the issue and what points at it polymorphically (labels, notes, awards, to-dos, subscriptions). */
export async function deleteIssue(tx: Db, id: number) {
  await deleteLabelLinksOf(tx, 'Issue', id);
  await deleteNotesOf(tx, { type: 'Issue', id });
  await deleteAwardsOf(tx, 'Issue', id);
  await deleteTodosOf(tx, 'Issue', id);
  await deleteSubscriptionsOf(tx, 'Issue', id);
  await tx.delete(issues).where(eq(issues.id, id));
}

// ---- Time tracking ----

/** Adds a timelog and moves the issue's total with it (the caller holds the issue's row lock). */
export async function addTimelog(tx: Db, issueId: number, userId: number, seconds: number) {
  await insertTimelogStatement(tx, { issueId }, userId, seconds);
  await tx
    .update(issues)
    .set({ totalTimeSpent: sql`${issues.totalTimeSpent} + ${seconds}`, updatedAt: new Date() })
    .where(eq(issues.id, issueId));
}

// ---- GraphQL pages (keyset by id) ----

/**
 * A keyset page of issues for each of several projects (GraphQL's Project.issues, alone or under a list of projects),
 * in one statement: the list filter and the policy's visibility, the caller's keyset condition and order, the first
 * `page.limit` rows of each project (row_number() over the project's rows); each row as the entity query loads it
 * (author and milestone joined), with `subscribed` for `subscriberId`. One list per project, in the order asked.
 */
export async function listIssueViewsPages(
  db: Db,
  actor: Viewer,
  f: Omit<IssueListFilter, 'projectId'>,
  projectIds: readonly number[],
  keyset: KeysetPage,
  subscriberId?: number | null,
) {
  const page = keysetSql(issues.id, keyset);
  if (!projectIds.length) return [];
  // The tables listWhere reads (as countedQuery), each row numbered within its project.
  const w = singleParentLimit(
    db
      .select({ wid: sql<number>`${issues.id}`.as('wid'), rn: rowNumber(issues.projectId, page.orderBy) })
      .from(issues)
      .innerJoin(projects, eq(projects.id, issues.projectId))
      .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
      .leftJoin(milestones, eq(milestones.id, issues.milestoneId))
      .where(and(listWhere(actor, f), inArray(issues.projectId, [...projectIds]), page.where))
      .$dynamic(),
    projectIds.length === 1,
    page,
  ).as('w');
  const rows = await baseQuery(db, actor, subscriberId)
    .innerJoin(w, eq(w.wid, issues.id))
    .where(sql`${w.rn} <= ${page.limit}`)
    .orderBy(issues.projectId, w.rn);
  return byParent(projectIds, rows, (r) => r.issue.projectId);
}

/** The number of matching issues of each project (IssueConnection.count, alone or under a list): one grouped count. */
export async function countIssuesOfProjects(db: Db, actor: Viewer, f: Omit<IssueListFilter, 'projectId'>, projectIds: readonly number[]): Promise<number[]> {
  if (!projectIds.length) return [];
  const rows = await db
    .select({ projectId: issues.projectId, n: sql<number>`count(*)`.mapWith(Number) })
    .from(issues)
    .innerJoin(projects, eq(projects.id, issues.projectId))
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .leftJoin(milestones, eq(milestones.id, issues.milestoneId))
    .where(and(listWhere(actor, f), inArray(issues.projectId, [...projectIds])))
    .groupBy(issues.projectId);
  const counts = new Map(rows.map((r) => [r.projectId, r.n]));
  return projectIds.map((id) => counts.get(id) ?? 0);
}

/** The labels of each issue (by issue id), ordered by title, in one statement. */
export async function findLabelsOfIssues(db: Db, issueIds: readonly number[]) {
  if (!issueIds.length) return [];
  return db
    .select({ issueId: labelLinks.targetId, label: labels })
    .from(labelLinks)
    .innerJoin(labels, eq(labels.id, labelLinks.labelId))
    .where(and(eq(labelLinks.targetType, 'Issue'), inArray(labelLinks.targetId, [...new Set(issueIds)])))
    .orderBy(asc(labels.title), asc(labels.id));
}

/** The user's to-dos on these issues (oldest first), each with its body: the note it came from, else the issue's title. */
export async function findUserTodosOfIssues(db: Db, userId: number, issueIds: readonly number[]) {
  if (!issueIds.length) return [];
  return db
    .select({ todo: todos, body: sql<string>`COALESCE(${notes.body}, ${issues.title})` })
    .from(todos)
    .innerJoin(issues, eq(issues.id, todos.targetId))
    .leftJoin(notes, eq(notes.id, todos.noteId))
    .where(and(eq(todos.userId, userId), eq(todos.targetType, 'Issue'), inArray(todos.targetId, [...new Set(issueIds)])))
    .orderBy(asc(todos.id));
}

/**
 * The number of distinct discussions of user (non-system) notes the actor may read of each issue, in one grouped
 * count (0: none). The issues were found readable; their project and namespace are joined for the notes' rule.
 */
export async function countUserDiscussionsOfIssues(db: Db, actor: Viewer, issueIds: readonly number[]) {
  if (!issueIds.length) return [];
  return db
    .select({ id: notes.noteableId, n: sql<number>`count(DISTINCT ${notes.discussionId})`.mapWith(Number) })
    .from(notes)
    .innerJoin(issues, eq(issues.id, notes.noteableId))
    .innerJoin(projects, eq(projects.id, issues.projectId))
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .where(
      and(
        eq(notes.noteableType, 'Issue'),
        inArray(notes.noteableId, [...new Set(issueIds)]),
        eq(notes.system, false),
        readableIssueNotesSql(actor, notes.confidential),
      ),
    )
    .groupBy(notes.noteableId);
}

// ---- Merge requests that name an issue ----

/**
 * Merge requests whose title or description may name an issue numbered `iid` (a `#<iid>` reference or an
 * `/issues/<iid>` link, in any project the actor may read merge requests of: read_merge_request's SQL twin), newest
 * first, at most `limit`: the candidates the caller parses (functions/issues/related-merge-requests.ts) to keep those
 * that really name the issue. `projectId` restricts them to one target project.
 */
export async function mergeRequestsNamingIssueNumber(db: Db, actor: Viewer, iid: number, options: { projectId?: number; limit: number }) {
  const hash = containsPattern(`#${iid}`);
  const link = containsPattern(`/issues/${iid}`);
  const text = sql`(${mergeRequests.title} || ' ' || COALESCE(${mergeRequests.description}, ''))`;
  return db
    .select({
      id: mergeRequests.id,
      title: mergeRequests.title,
      description: mergeRequests.description,
      state: mergeRequests.state,
      projectPath: projects.pathWithNamespace,
    })
    .from(mergeRequests)
    .innerJoin(projects, eq(projects.id, mergeRequests.targetProjectId))
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .where(
      and(
        options.projectId === undefined ? undefined : eq(mergeRequests.targetProjectId, options.projectId),
        or(sql`${text} LIKE ${hash}`, sql`${text} LIKE ${link}`),
        mergeRequestProjectsFilter(actor),
      ),
    )
    .orderBy(desc(mergeRequests.id))
    .limit(options.limit);
}

/** The ids of the merge requests of the project with these iids (references `!iid` in an issue). */
export async function mergeRequestIdsByIids(db: Db, projectId: number, iids: readonly number[]): Promise<number[]> {
  if (!iids.length) return [];
  const found = await db
    .select({ id: mergeRequests.id })
    .from(mergeRequests)
    .where(and(eq(mergeRequests.targetProjectId, projectId), inArray(mergeRequests.iid, [...new Set(iids)])));
  return found.map((r) => r.id);
}
