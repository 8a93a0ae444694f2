// Merge request reads and writes. A read is one statement: the MR with its project path, author, closer, merger,
// milestone, labels, assignees, reviewers, counters and its latest diff version (json subqueries), so a page of MRs
// costs one query whatever its size.
import { and, asc, desc, eq, gte, inArray, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { AccessLevel, isAdmin, mergeRequestProjectsFilter, projectAccessLevelSql, type Viewer } from './lib/access.ts';
import type { Db } from '../client.ts';
import {
  awardEmoji,
  ciPipelines,
  gitRefs,
  labelLinks,
  labels,
  mergeRequestAssignees,
  mergeRequestDiffs,
  mergeRequestReviewers,
  mergeRequests,
  milestones,
  namespaces,
  notes,
  projects,
  subscriptions,
  users,
  type MergeRequestState,
} from '../schema/index.ts';
import { type LabelJson, type UserJson } from './issues.ts';
import { insertTimelogStatement } from './issuables/timelogs.ts';
import { deleteLabelLinksOf, replaceLabelLinks } from './labels/writes.ts';
import { deleteSubscriptionsOf } from './notifications/subscriptions.ts';
import { deleteTodosOf, newAssignmentTodosStatement } from './todos/issuables.ts';
import { deleteAwardsOf } from './award-emoji.ts';
import { deleteNotesOf, insertNote } from './notes.ts';
import { liveProjectByRef, type ProjectLookup } from './projects.ts';
import { fuzzySearch } from './lib/search.ts';

const author = alias(users, 'mr_author');
const closer = alias(users, 'mr_closer');
const merger = alias(users, 'mr_merger');
const mergeUser = alias(users, 'mr_merge_user');
const sourceProject = alias(projects, 'mr_source_project');
const milestoneGroup = alias(namespaces, 'milestone_group');

const userJson = (u: string) =>
  sql.raw(`json_build_object('id', ${u}.id, 'name', ${u}.name, 'username', ${u}.username, 'state', ${u}.state, 'avatarUrl', ${u}.avatar_url)`);

const labelsSql = sql<
  LabelJson[]
>`(SELECT COALESCE(json_agg(json_build_object('id', l.id, 'title', l.title, 'color', l.color, 'description', l.description) ORDER BY l.title), '[]'::json) FROM ${labelLinks} ll JOIN ${labels} l ON l.id = ll.label_id WHERE ll.target_type = 'MergeRequest' AND ll.target_id = ${mergeRequests.id})`;
const assigneesSql = sql<
  UserJson[]
>`(SELECT COALESCE(json_agg(${userJson('u')} ORDER BY u.id), '[]'::json) FROM ${mergeRequestAssignees} a JOIN ${users} u ON u.id = a.user_id WHERE a.merge_request_id = ${mergeRequests.id})`;
const reviewersSql = sql<
  UserJson[]
>`(SELECT COALESCE(json_agg(${userJson('u')} ORDER BY u.id), '[]'::json) FROM ${mergeRequestReviewers} r JOIN ${users} u ON u.id = r.user_id WHERE r.merge_request_id = ${mergeRequests.id})`;

/** The latest diff version as the entity needs it (null before the first one is recorded). */
export interface DiffVersionJson {
  id: number;
  baseCommitSha: string | null;
  startCommitSha: string;
  headCommitSha: string;
  state: 'collected' | 'empty';
  commitsCount: number;
  filesCount: number;
}
const latestDiffSql = sql<DiffVersionJson | null>`(SELECT json_build_object('id', d.id, 'baseCommitSha', d.base_commit_sha, 'startCommitSha', d.start_commit_sha, 'headCommitSha', d.head_commit_sha, 'state', d.state, 'commitsCount', d.commits_count, 'filesCount', d.files_count) FROM ${mergeRequestDiffs} d WHERE d.merge_request_id = ${mergeRequests.id} ORDER BY d.id DESC LIMIT 1)`;

/**
 * Confidential notes of the MR row in scope the actor may read (NotePolicy's can_read_confidential): reporters and
 * above, the MR's author and assignees.
 */
export function readableMergeRequestNotesSql(actor: Viewer, confidential: SQL): SQL {
  if (isAdmin(actor)) return sql`true`;
  if (!actor.user) return sql`NOT ${confidential}`;
  const id = actor.user.id;
  return sql`(NOT ${confidential} OR ${mergeRequests.authorId} = ${id} OR EXISTS (SELECT 1 FROM ${mergeRequestAssignees} ca WHERE ca.merge_request_id = ${mergeRequests.id} AND ca.user_id = ${id}) OR ${projectAccessLevelSql(actor)} >= ${AccessLevel.REPORTER})`;
}

/** A branch's tip now, as hex (null when the branch or its project is gone). */
const branchTipSql = (projectId: SQL, branch: SQL) =>
  sql<string | null>`(SELECT encode(r.oid, 'hex') FROM ${gitRefs} r WHERE r.project_id = ${projectId} AND r.name = 'refs/heads/' || ${branch})`;

/** The user (non-system) notes of the MR the actor may read: the count agrees with the notes listing. */
const userNotesCountSql = (actor: Viewer) =>
  sql<number>`(SELECT count(*) FROM ${notes} n WHERE n.noteable_type = 'MergeRequest' AND n.noteable_id = ${mergeRequests.id} AND NOT n.system AND ${readableMergeRequestNotesSql(actor, sql`n.confidential`)})`.mapWith(
    Number,
  );
const awardCountSql = (name: string) =>
  sql<number>`(SELECT count(*) FROM ${awardEmoji} ae WHERE ae.awardable_type = 'MergeRequest' AND ae.awardable_id = ${mergeRequests.id} AND ae.name = ${name})`.mapWith(
    Number,
  );

/** GitLab's subscribed?: an explicit subscription row wins, else participation (author, assignee, commenter). */
const subscribedSql = (userId: number) =>
  sql<boolean>`COALESCE((SELECT s.subscribed FROM ${subscriptions} s WHERE s.subscribable_type = 'MergeRequest' AND s.subscribable_id = ${mergeRequests.id} AND s.user_id = ${userId}),
    ${mergeRequests.authorId} IS NOT DISTINCT FROM ${userId}
    OR EXISTS (SELECT 1 FROM ${mergeRequestAssignees} a2 WHERE a2.merge_request_id = ${mergeRequests.id} AND a2.user_id = ${userId})
    OR EXISTS (SELECT 1 FROM ${notes} n2 WHERE n2.noteable_type = 'MergeRequest' AND n2.noteable_id = ${mergeRequests.id} AND n2.author_id = ${userId} AND NOT n2.system))`.mapWith(
    Boolean,
  );

/** Unresolved resolvable discussions block a merge (blocking_discussions_resolved). */
const unresolvedSql =
  sql<number>`(SELECT count(*) FROM ${notes} n WHERE n.noteable_type = 'MergeRequest' AND n.noteable_id = ${mergeRequests.id} AND n.type IN ('DiffNote', 'DiscussionNote') AND NOT n.system AND n.resolved_at IS NULL)`.mapWith(
    Number,
  );

/**
 * The head pipeline's status (the latest pipeline of the source branch, or for the MR, at the source branch's tip:
 * merge.ts's headPipeline) where the target project requires a successful pipeline to merge; null elsewhere, so the
 * common case costs nothing. It feeds mergeable_ci_state? (detailed_merge_status's ci_must_pass).
 */
const requiredPipelineStatusSql = sql<string | null>`CASE WHEN ${projects.onlyAllowMergeIfPipelineSucceeds} THEN (SELECT p.status FROM ${ciPipelines} p
  WHERE p.project_id = ${mergeRequests.sourceProjectId} AND NOT p.tag AND p.sha = ${branchTipSql(sql`${mergeRequests.sourceProjectId}`, sql`${mergeRequests.sourceBranch}`)}
    AND (p.ref = ${mergeRequests.sourceBranch} OR p.merge_request_id = ${mergeRequests.id})
  ORDER BY p.id DESC LIMIT 1) END`;

function columns(actor: Viewer, subscriberId?: number | null) {
  return {
    mr: mergeRequests,
    projectPath: projects.pathWithNamespace,
    mergeMethod: projects.mergeMethod,
    onlyAllowMergeIfAllDiscussionsAreResolved: projects.onlyAllowMergeIfAllDiscussionsAreResolved,
    onlyAllowMergeIfPipelineSucceeds: projects.onlyAllowMergeIfPipelineSucceeds,
    allowMergeOnSkippedPipeline: sql<boolean>`COALESCE((${projects.settings}->>'allow_merge_on_skipped_pipeline')::boolean, false)`,
    sourceProjectPath: sourceProject.pathWithNamespace,
    author,
    closedBy: closer,
    mergedBy: merger,
    mergeUser,
    milestone: milestones,
    milestoneGroupPath: milestoneGroup.fullPath,
    labels: labelsSql,
    assignees: assigneesSql,
    reviewers: reviewersSql,
    latestDiff: latestDiffSql,
    /** The branches' tips now: a version older than these is refreshed before the MR is shown (RefreshService). */
    sourceHead: branchTipSql(sql`${mergeRequests.sourceProjectId}`, sql`${mergeRequests.sourceBranch}`),
    targetTip: branchTipSql(sql`${mergeRequests.targetProjectId}`, sql`${mergeRequests.targetBranch}`),
    userNotesCount: userNotesCountSql(actor),
    unresolvedDiscussions: unresolvedSql,
    requiredPipelineStatus: requiredPipelineStatusSql,
    upvotes: awardCountSql('thumbsup'),
    downvotes: awardCountSql('thumbsdown'),
    subscribed: subscriberId ? subscribedSql(subscriberId) : sql<boolean>`false`.mapWith(Boolean),
  };
}

const noTotal = sql<number | null>`NULL`.mapWith((v) => (v == null ? null : Number(v)));

export function baseQuery(db: Db, actor: Viewer, subscriberId?: number | null, total: SQL<number | null> = noTotal) {
  return db
    .select({ ...columns(actor, subscriberId), total })
    .from(mergeRequests)
    .innerJoin(projects, eq(projects.id, mergeRequests.targetProjectId))
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .leftJoin(sourceProject, eq(sourceProject.id, mergeRequests.sourceProjectId))
    .leftJoin(author, eq(author.id, mergeRequests.authorId))
    .leftJoin(closer, eq(closer.id, mergeRequests.closedById))
    .leftJoin(merger, eq(merger.id, mergeRequests.mergedById))
    .leftJoin(mergeUser, eq(mergeUser.id, mergeRequests.mergeUserId))
    .leftJoin(milestones, eq(milestones.id, mergeRequests.milestoneId))
    .leftJoin(milestoneGroup, eq(milestoneGroup.id, milestones.groupId))
    .$dynamic();
}

export type MergeRequestView = Awaited<ReturnType<ReturnType<typeof baseQuery>['execute']>>[number];

/** One MR by the live target project's ref (id or full path) and iid, as a statement for a batch beside the project's. */
export const mergeRequestViewByProjectRefQuery = (db: Db, actor: Viewer, ref: ProjectLookup, iid: number, subscriberId?: number | null) =>
  baseQuery(db, actor, subscriberId).where(and(liveProjectByRef(ref), eq(mergeRequests.iid, iid)));

export async function findMergeRequestViewById(db: Db, actor: Viewer, id: number, subscriberId?: number | null): Promise<MergeRequestView | undefined> {
  const [row] = await baseQuery(db, actor, subscriberId).where(eq(mergeRequests.id, id));
  return row;
}

/** MRs by id, in one statement (no visibility check: the caller already decided). */
export async function findMergeRequestViewsByIds(db: Db, actor: Viewer, ids: readonly number[]): Promise<MergeRequestView[]> {
  if (!ids.length) return [];
  return baseQuery(db, actor).where(inArray(mergeRequests.id, [...new Set(ids)]));
}

/** The id of the MR this session inserted last: what the later statements of a creating batch point at. */
export const lastMergeRequestIdSql = () => sql<number>`currval(pg_get_serial_sequence('merge_requests', 'id'))`;

export const lastInsertedMergeRequestViewQuery = (db: Db, actor: Viewer, subscriberId?: number | null) =>
  baseQuery(db, actor, subscriberId).where(eq(mergeRequests.id, lastMergeRequestIdSql()));

// ---- Lists ----

/** A user id, or 'none' / 'any'. */
type UserMatch = number | 'none' | 'any';

/** The filters GitLab's MergeRequestsFinder applies, positively or (`not`) negated. */
export interface MergeRequestConditions {
  authorId?: number;
  authorUsername?: string;
  assigneeId?: UserMatch;
  assigneeUsername?: string;
  reviewerId?: UserMatch;
  reviewerUsername?: string;
  /** Titles that must all be present; or 'none' / 'any'. */
  labels?: string[] | 'none' | 'any';
  /** A title; or 'none' / 'any'. */
  milestone?: string | 'none' | 'any';
  /** An emoji name the actor awarded; or 'none' / 'any'. */
  myReactionEmoji?: { userId: number; name: string | 'none' | 'any' };
  sourceBranch?: string;
  targetBranch?: string;
}

export interface MergeRequestListFilter extends MergeRequestConditions {
  projectId?: number;
  /** MRs of projects in this group and its descendants. */
  groupId?: number;
  state?: MergeRequestState;
  search?: string;
  searchIn?: Array<'title' | 'description'>;
  iids?: number[];
  /** Draft/WIP by title (GitLab's `wip` yes/no). */
  draft?: boolean;
  nonArchived?: boolean;
  createdAfter?: Date;
  createdBefore?: Date;
  updatedAfter?: Date;
  updatedBefore?: Date;
  /** Any of these source / target branches (GraphQL's sourceBranches, targetBranches). */
  sourceBranches?: string[];
  targetBranches?: string[];
  /** Merged at or after / at or before (MergeRequestsFinder's merged_after, merged_before). */
  mergedAfter?: Date;
  mergedBefore?: Date;
  not?: MergeRequestConditions;
}

export type MergeRequestOrder = { by: 'created_at' | 'updated_at'; sort: 'asc' | 'desc' };

/**
 * What makes a merge request a draft: MergeRequest::WIP_REGEX of 13.6, the work-in-progress and draft prefixes
 * (`[WIP]`, `WIP:`, `WIP `, `[Draft]`, `(Draft)`, `Draft:`, `Draft -`), repeated, case-insensitive, with the spaces
 * around them. The one rule for the entities' work_in_progress/draft, the list filters (its SQL twin below runs the
 * same pattern: PostgreSQL's regular expressions read it alike) and the mutations that add or strip the prefix.
 */
export const DRAFT_TITLE = /^\s*(?:\[WIP\]\s*|WIP:\s*|WIP\s+|(?:\[draft\]|\(draft\)|draft:|draft\s-)\s*)+\s*/i;

export const isDraftTitle = (title: string) => DRAFT_TITLE.test(title);

/** MergeRequest.wipless_title: the title without its draft prefixes. */
export const wiplessTitle = (title: string) => title.replace(DRAFT_TITLE, '');

const DRAFT_TITLE_SQL = sql`${mergeRequests.title} ~* ${DRAFT_TITLE.source}`;

const linked = (table: typeof mergeRequestAssignees | typeof mergeRequestReviewers, extra?: SQL) =>
  sql`EXISTS (SELECT 1 FROM ${table} x WHERE x.merge_request_id = ${mergeRequests.id}${extra ? sql` AND ${extra}` : sql``})`;

function userMatch(table: typeof mergeRequestAssignees | typeof mergeRequestReviewers, m: UserMatch | undefined, username: string | undefined): SQL[] {
  const out: SQL[] = [];
  if (m === 'none') out.push(sql`NOT ${linked(table)}`);
  else if (m === 'any') out.push(linked(table));
  else if (m !== undefined) out.push(linked(table, sql`x.user_id = ${m}`));
  if (username !== undefined) out.push(linked(table, sql`x.user_id IN (SELECT u.id FROM ${users} u WHERE lower(u.username) = lower(${username}))`));
  return out;
}

const hasLabel = (title: string) =>
  sql`EXISTS (SELECT 1 FROM ${labelLinks} ll JOIN ${labels} l ON l.id = ll.label_id WHERE ll.target_type = 'MergeRequest' AND ll.target_id = ${mergeRequests.id} AND l.title = ${title})`;
const anyLabel = sql`EXISTS (SELECT 1 FROM ${labelLinks} ll WHERE ll.target_type = 'MergeRequest' AND ll.target_id = ${mergeRequests.id})`;
const awarded = (userId: number, name?: string) =>
  sql`EXISTS (SELECT 1 FROM ${awardEmoji} ae WHERE ae.awardable_type = 'MergeRequest' AND ae.awardable_id = ${mergeRequests.id} AND ae.user_id = ${userId}${name === undefined ? sql`` : sql` AND ae.name = ${name}`})`;

/** Each condition as SQL; `negated` turns them into GitLab's `not[...]` (each condition negated on its own). */
function conditionsSql(c: MergeRequestConditions): SQL[] {
  const out: SQL[] = [];
  if (c.authorId !== undefined) out.push(sql`${mergeRequests.authorId} = ${c.authorId}`);
  if (c.authorUsername !== undefined)
    out.push(sql`${mergeRequests.authorId} IN (SELECT u.id FROM ${users} u WHERE lower(u.username) = lower(${c.authorUsername}))`);
  out.push(...userMatch(mergeRequestAssignees, c.assigneeId, c.assigneeUsername));
  out.push(...userMatch(mergeRequestReviewers, c.reviewerId, c.reviewerUsername));
  if (c.labels === 'none') out.push(sql`NOT ${anyLabel}`);
  else if (c.labels === 'any') out.push(anyLabel);
  else if (c.labels) for (const title of new Set(c.labels)) out.push(hasLabel(title));
  if (c.milestone === 'none') out.push(sql`${mergeRequests.milestoneId} IS NULL`);
  else if (c.milestone === 'any') out.push(sql`${mergeRequests.milestoneId} IS NOT NULL`);
  else if (c.milestone !== undefined) out.push(sql`${mergeRequests.milestoneId} IN (SELECT m.id FROM ${milestones} m WHERE m.title = ${c.milestone})`);
  if (c.myReactionEmoji) {
    const { userId, name } = c.myReactionEmoji;
    if (name === 'none') out.push(sql`NOT ${awarded(userId)}`);
    else if (name === 'any') out.push(awarded(userId));
    else out.push(awarded(userId, name));
  }
  if (c.sourceBranch !== undefined) out.push(sql`${mergeRequests.sourceBranch} = ${c.sourceBranch}`);
  if (c.targetBranch !== undefined) out.push(sql`${mergeRequests.targetBranch} = ${c.targetBranch}`);
  return out;
}

export function listWhere(actor: Viewer, f: MergeRequestListFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [mergeRequestProjectsFilter(actor)];
  if (f.projectId !== undefined) conditions.push(eq(mergeRequests.targetProjectId, f.projectId));
  if (f.groupId !== undefined) conditions.push(sql`${f.groupId} = ANY(${namespaces.traversalIds})`);
  if (f.state) conditions.push(eq(mergeRequests.state, f.state));
  conditions.push(...conditionsSql(f));
  // GitLab's not[]: each given condition excluded on its own (NOT (a) AND NOT (b)); a NULL column never excludes.
  if (f.not) for (const c of conditionsSql(f.not)) conditions.push(sql`(${c}) IS NOT TRUE`);
  if (f.search) {
    const where = f.searchIn?.length ? f.searchIn : ['title', 'description'];
    conditions.push(
      fuzzySearch(
        f.search,
        where.map((c) => (c === 'title' ? mergeRequests.title : mergeRequests.description)),
      ),
    );
  }
  if (f.iids) conditions.push(f.iids.length ? inArray(mergeRequests.iid, f.iids) : sql`false`);
  if (f.draft !== undefined) conditions.push(f.draft ? DRAFT_TITLE_SQL : sql`NOT (${DRAFT_TITLE_SQL})`);
  if (f.nonArchived) conditions.push(eq(projects.archived, false));
  if (f.createdAfter) conditions.push(gte(mergeRequests.createdAt, f.createdAfter));
  if (f.createdBefore) conditions.push(lte(mergeRequests.createdAt, f.createdBefore));
  if (f.updatedAfter) conditions.push(gte(mergeRequests.updatedAt, f.updatedAfter));
  if (f.updatedBefore) conditions.push(lte(mergeRequests.updatedAt, f.updatedBefore));
  if (f.sourceBranches) conditions.push(f.sourceBranches.length ? inArray(mergeRequests.sourceBranch, f.sourceBranches) : sql`false`);
  if (f.targetBranches) conditions.push(f.targetBranches.length ? inArray(mergeRequests.targetBranch, f.targetBranches) : sql`false`);
  if (f.mergedAfter) conditions.push(gte(mergeRequests.mergedAt, f.mergedAfter));
  if (f.mergedBefore) conditions.push(lte(mergeRequests.mergedAt, f.mergedBefore));
  return and(...conditions);
}

function countedQuery(db: Db, actor: Viewer, f: MergeRequestListFilter, limit: number) {
  return db
    .select({ one: sql`1` })
    .from(mergeRequests)
    .innerJoin(projects, eq(projects.id, mergeRequests.targetProjectId))
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .where(listWhere(actor, f))
    .limit(limit);
}

/** A page of MRs; with `countLimit`, each row carries the (capped) number of matches, computed once in the statement. */
export async function listMergeRequestViews(
  db: Db,
  actor: Viewer,
  f: MergeRequestListFilter,
  order: MergeRequestOrder,
  limit: number,
  offset: number,
  countLimit?: number,
) {
  const column = order.by === 'updated_at' ? mergeRequests.updatedAt : mergeRequests.createdAt;
  const dir = order.sort === 'asc' ? asc : desc;
  const total = countLimit ? sql<number | null>`(SELECT count(*) FROM (${countedQuery(db, actor, f, countLimit)}) counted)`.mapWith(Number) : noTotal;
  return baseQuery(db, actor, null, total).where(listWhere(actor, f)).orderBy(dir(column), dir(mergeRequests.id)).limit(limit).offset(offset);
}

export async function countMergeRequests(db: Db, actor: Viewer, f: MergeRequestListFilter, limit: number): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(countedQuery(db, actor, f, limit).as('counted'));
  return row?.n ?? 0;
}

// ---- Writes ----

export function insertMergeRequestStatement(
  db: Db,
  values: Omit<typeof mergeRequests.$inferInsert, 'iid' | 'milestoneId'> & { iid: SQL<number>; milestoneId: SQL<number | null> | null },
) {
  return db.insert(mergeRequests).values(values as unknown as typeof mergeRequests.$inferInsert);
}

/** The assignees (or reviewers) a creating batch links: the assignable users among those asked for, by id. */
export function linkUsersStatement(db: Db, table: 'assignees' | 'reviewers', mergeRequestId: SQL<number> | number, users: SQL) {
  const t = table === 'assignees' ? mergeRequestAssignees : mergeRequestReviewers;
  return db.execute(sql`INSERT INTO ${t} (merge_request_id, user_id) SELECT ${mergeRequestId}, a.id FROM (${users}) a ORDER BY a.id ON CONFLICT DO NOTHING`);
}

/** A new MR's assignees (the assignable of those asked for) and their "assigned" to-dos, as statements for its batch. */
export function assignmentStatements(db: Db, mergeRequestId: SQL<number>, projectId: number, authorId: number, assignable: { getSQL(): SQL }) {
  return [
    linkUsersStatement(db, 'assignees', mergeRequestId, assignable.getSQL()),
    newAssignmentTodosStatement(db, { type: 'MergeRequest', id: mergeRequestId, projectId }, authorId),
  ];
}

/** The MR row, locked for the rest of the transaction. */
export async function lockMergeRequest(tx: Db, id: number) {
  const [row] = await tx.select().from(mergeRequests).where(eq(mergeRequests.id, id)).for('update');
  return row;
}

export async function updateMergeRequest(tx: Db, id: number, values: Partial<typeof mergeRequests.$inferInsert>) {
  await tx.update(mergeRequests).set(values).where(eq(mergeRequests.id, id));
}

export const updateMergeRequestStatement = (db: Db, id: number, values: Partial<typeof mergeRequests.$inferInsert>) =>
  db.update(mergeRequests).set(values).where(eq(mergeRequests.id, id));

/** Replaces the MR's assignees or reviewers; returns the users newly linked. */
export async function setUsers(tx: Db, table: 'assignees' | 'reviewers', mergeRequestId: number, userIds: readonly number[]): Promise<number[]> {
  const t = table === 'assignees' ? mergeRequestAssignees : mergeRequestReviewers;
  const removed = await tx.delete(t).where(eq(t.mergeRequestId, mergeRequestId)).returning({ userId: t.userId });
  const before = removed.map((r) => r.userId);
  if (userIds.length)
    await tx
      .insert(t)
      .values(userIds.map((userId) => ({ mergeRequestId, userId })))
      .onConflictDoNothing();
  return userIds.filter((id) => !before.includes(id));
}

export async function mergeRequestUserIds(tx: Db, table: 'assignees' | 'reviewers', mergeRequestId: number): Promise<number[]> {
  const t = table === 'assignees' ? mergeRequestAssignees : mergeRequestReviewers;
  const rows = await tx.select({ id: t.userId }).from(t).where(eq(t.mergeRequestId, mergeRequestId));
  return rows.map((r) => r.id);
}

export async function mergeRequestLabelIds(tx: Db, mergeRequestId: number): Promise<number[]> {
  const rows = await tx
    .select({ id: labelLinks.labelId })
    .from(labelLinks)
    .where(and(eq(labelLinks.targetType, 'MergeRequest'), eq(labelLinks.targetId, mergeRequestId)));
  return rows.map((r) => r.id);
}

export const setMergeRequestLabels = (tx: Db, mergeRequestId: number, labelIds: readonly number[]) =>
  replaceLabelLinks(tx, 'MergeRequest', mergeRequestId, labelIds);

/** A system note on the MR (SystemNoteService), its own discussion. */
export async function insertMergeRequestSystemNote(tx: Db, mr: { id: number; targetProjectId: number }, authorId: number, body: string, action: string) {
  await insertNote(tx, { noteableType: 'MergeRequest', noteableId: mr.id, projectId: mr.targetProjectId, authorId, body, system: true, systemAction: action });
}

/** Removes the MR and what points at it polymorphically (labels, notes, awards, to-dos, subscriptions). */
export async function deleteMergeRequest(tx: Db, id: number) {
  await deleteLabelLinksOf(tx, 'MergeRequest', id);
  await deleteNotesOf(tx, { type: 'MergeRequest', id });
  await deleteAwardsOf(tx, 'MergeRequest', id);
  await deleteTodosOf(tx, 'MergeRequest', id);
  await deleteSubscriptionsOf(tx, 'MergeRequest', id);
  await tx.delete(mergeRequests).where(eq(mergeRequests.id, id));
}

/** Adds a timelog and moves the MR's total with it (the caller holds the MR's row lock). */
export async function addMergeRequestTimelog(tx: Db, mergeRequestId: number, userId: number, seconds: number) {
  await insertTimelogStatement(tx, { mergeRequestId }, userId, seconds);
  await tx
    .update(mergeRequests)
    .set({ totalTimeSpent: sql`${mergeRequests.totalTimeSpent} + ${seconds}`, updatedAt: new Date() })
    .where(eq(mergeRequests.id, mergeRequestId));
}

/** The open MR of the target project from this source branch, if any (validate_branches' "Another open merge request"). */
export async function findOpenMergeRequestIid(db: Db, targetProjectId: number, sourceProjectId: number, sourceBranch: string, exceptId?: number) {
  const [row] = await db
    .select({ iid: mergeRequests.iid })
    .from(mergeRequests)
    .where(
      and(
        eq(mergeRequests.targetProjectId, targetProjectId),
        eq(mergeRequests.sourceProjectId, sourceProjectId),
        eq(mergeRequests.sourceBranch, sourceBranch),
        inArray(mergeRequests.state, ['opened', 'locked']),
        exceptId === undefined ? undefined : ne(mergeRequests.id, exceptId),
      ),
    )
    .limit(1);
  return row?.iid;
}
