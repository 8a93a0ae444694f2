// To-do reads and writes (GitLab's TodosFinder and TodoService#mark_todos_as_done). A page of to-dos is one
// statement: each to-do with its project and namespace, its author and the body of the note it came from, limited
// to targets the owner may still read (the policy's SQL filter), with the capped total; the targets themselves are
// loaded for the whole page in one more statement per target type (the issues and the merge requests queries).
import { and, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  AccessLevel,
  isAdmin,
  mergeRequestProjectsFilter,
  projectAccessLevelSql,
  visibleGroupsFilter,
  visibleIssuesFilter,
  visibleProjectsFilter,
  type Viewer,
} from './lib/access.ts';
import { readsEpicSql } from './epics.ts';
import type { Db } from '../client.ts';
import { alerts, epics, issues, mergeRequests, namespaces, notes, projects, todos, users } from '../schema/index.ts';

const todoAuthor = alias(users, 'todo_author');

export interface TodoListFilter {
  /** The owner of the to-dos (always the caller). */
  userId: number;
  id?: number;
  state?: 'pending' | 'done';
  /** The stored action number. */
  action?: number;
  /** An author id; null: to-dos without an author (GitLab's `author_id=0`). */
  authorId?: number | null;
  projectId?: number;
  /** To-dos of projects in this group and its descendants. */
  groupId?: number;
  targetType?: string;
  /** Epic to-dos are listed only while epics are licensed (read_epic). */
  epicsAvailable?: boolean;
}

/**
 * The owner's to-dos whose target they may read: an issue under the policy's issue visibility, a merge request under
 * read_merge_request (mergeRequestProjectsFilter), an epic (a group's to-do, no project) under read_epic (the group
 * visible, confidential epics for reporters and above, the license). No other kind of to-do is created here, so a
 * to-do whose target is none of these (or gone) is never listed.
 */
function listWhere(actor: Viewer, f: TodoListFilter): SQL | undefined {
  const readableIssue = and(eq(todos.targetType, 'Issue'), sql`${issues.id} IS NOT NULL`, visibleIssuesFilter(actor));
  const readableMergeRequest = and(eq(todos.targetType, 'MergeRequest'), sql`${mergeRequests.id} IS NOT NULL`, mergeRequestProjectsFilter(actor));
  const readableEpic = f.epicsAvailable
    ? and(eq(todos.targetType, 'Epic'), sql`${epics.id} IS NOT NULL`, visibleGroupsFilter(actor), readsEpicSql(actor))
    : undefined;
  // An alert under read_alert_management_alert: its project readable and the owner a reporter or above there.
  const readableAlert = and(
    eq(todos.targetType, 'AlertManagement::Alert'),
    sql`${alerts.id} IS NOT NULL`,
    visibleProjectsFilter(actor),
    isAdmin(actor) ? undefined : sql`${projectAccessLevelSql(actor)} >= ${AccessLevel.REPORTER}`,
  );
  return and(
    eq(todos.userId, f.userId),
    or(readableIssue, readableMergeRequest, readableEpic, readableAlert),
    f.id !== undefined ? eq(todos.id, f.id) : undefined,
    f.state !== undefined ? eq(todos.state, f.state) : undefined,
    f.action !== undefined ? eq(todos.action, f.action) : undefined,
    f.authorId === null ? isNull(todos.authorId) : f.authorId !== undefined ? eq(todos.authorId, f.authorId) : undefined,
    f.projectId !== undefined ? eq(todos.projectId, f.projectId) : undefined,
    f.groupId !== undefined ? sql`${f.groupId} = ANY(${namespaces.traversalIds})` : undefined,
    f.targetType !== undefined ? eq(todos.targetType, f.targetType as 'Issue') : undefined,
  );
}

/** The target joins: the issue or the merge request, with its project and namespace (what the visibility filters read). */
const issueTarget = and(eq(todos.targetType, 'Issue'), eq(issues.id, todos.targetId));
const mergeRequestTarget = and(eq(todos.targetType, 'MergeRequest'), eq(mergeRequests.id, todos.targetId));
const targetProject = eq(projects.id, sql`COALESCE(${issues.projectId}, ${mergeRequests.targetProjectId}, ${alerts.projectId})`);
const alertTarget = and(eq(todos.targetType, 'AlertManagement::Alert'), eq(alerts.id, todos.targetId));
const epicTarget = and(eq(todos.targetType, 'Epic'), eq(epics.id, todos.targetId));
/** The target's namespace: its project's, or an epic's group. */
const targetNamespace = eq(namespaces.id, sql`COALESCE(${projects.namespaceId}, ${epics.groupId})`);

function countedQuery(db: Db, actor: Viewer, f: TodoListFilter, limit: number) {
  return db
    .select({ one: sql`1` })
    .from(todos)
    .leftJoin(issues, issueTarget)
    .leftJoin(mergeRequests, mergeRequestTarget)
    .leftJoin(epics, epicTarget)
    .leftJoin(alerts, alertTarget)
    .leftJoin(projects, targetProject)
    .innerJoin(namespaces, targetNamespace)
    .where(listWhere(actor, f))
    .limit(limit);
}

const noTotal = sql<number | null>`NULL`.mapWith((v) => (v == null ? null : Number(v)));

/**
 * A page of the owner's readable to-dos, newest first (GitLab orders by id desc). With `countLimit`, every row also
 * carries the number of matching to-dos (capped), computed once in the same statement.
 */
export async function listTodoRows(db: Db, actor: Viewer, f: TodoListFilter, limit: number, offset: number, countLimit?: number) {
  const total = countLimit ? sql<number | null>`(SELECT count(*) FROM (${countedQuery(db, actor, f, countLimit)}) counted)`.mapWith(Number) : noTotal;
  return db
    .select({ todo: todos, project: projects, namespace: namespaces, author: todoAuthor, noteBody: notes.body, total })
    .from(todos)
    .leftJoin(issues, issueTarget)
    .leftJoin(mergeRequests, mergeRequestTarget)
    .leftJoin(epics, epicTarget)
    .leftJoin(alerts, alertTarget)
    .leftJoin(projects, targetProject)
    .innerJoin(namespaces, targetNamespace)
    .leftJoin(todoAuthor, eq(todoAuthor.id, todos.authorId))
    .leftJoin(notes, eq(notes.id, todos.noteId))
    .where(listWhere(actor, f))
    .orderBy(desc(todos.id))
    .limit(limit)
    .offset(offset);
}

export type TodoListRow = Awaited<ReturnType<typeof listTodoRows>>[number];

export async function countTodos(db: Db, actor: Viewer, f: TodoListFilter, limit: number): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(countedQuery(db, actor, f, limit).as('counted'));
  return row?.n ?? 0;
}

/** Marks one of the user's to-dos done (GitLab's batch_update: only a state change touches updated_at). */
export async function markTodoDone(db: Db, userId: number, id: number) {
  const [row] = await db
    .update(todos)
    .set({ state: 'done', updatedAt: new Date() })
    .where(and(eq(todos.id, id), eq(todos.userId, userId), eq(todos.state, 'pending')))
    .returning();
  return row;
}

/** Marks every pending to-do of the user done, in one statement. */
export async function markAllTodosDone(db: Db, userId: number) {
  await db
    .update(todos)
    .set({ state: 'done', updatedAt: new Date() })
    .where(and(eq(todos.userId, userId), eq(todos.state, 'pending')));
}

/**
 * To-dos on an epic (GitLab 13.6 EE: Epic is a to-do target of its group, so the to-do has `group_id` and no
 * project), as one statement for a batch; `todos` must not be empty. `noteId`: the note the mention is in.
 */
export function epicTodosStatement(
  db: Db,
  target: { epicId: number; groupId: number },
  authorId: number,
  rows: ReadonlyArray<{ userId: number; action: number }>,
  noteId?: number | SQL<number>,
) {
  return db.insert(todos).values(
    rows.map((r) => ({
      userId: r.userId,
      authorId,
      projectId: null,
      groupId: target.groupId,
      targetType: 'Epic' as const,
      targetId: target.epicId,
      action: r.action,
      noteId: (noteId ?? null) as number | null,
    })),
  );
}

/** The user's to-dos on each of the epics (CurrentUserTodos on Epic), oldest first, with their bodies. */
export async function findUserTodosOfEpics(db: Db, userId: number, epicIds: readonly number[]) {
  if (!epicIds.length) return [];
  return db
    .select({ todo: todos, body: sql<string>`COALESCE(${notes.body}, ${epics.title})` })
    .from(todos)
    .innerJoin(epics, eq(epics.id, todos.targetId))
    .leftJoin(notes, eq(notes.id, todos.noteId))
    .where(and(eq(todos.userId, userId), eq(todos.targetType, 'Epic'), inArray(todos.targetId, [...new Set(epicIds)])))
    .orderBy(todos.id);
}

/** A `marked` to-do (TodoService#mark_todo) for the user on the epic, in its group; the inserted row. */
export async function insertMarkedEpicTodo(db: Db, values: { userId: number; authorId: number; epicId: number; groupId: number }) {
  const [row] = await db
    .insert(todos)
    .values({
      userId: values.userId,
      authorId: values.authorId,
      projectId: null,
      groupId: values.groupId,
      targetType: 'Epic',
      targetId: values.epicId,
      action: 4,
    })
    .returning();
  return row!;
}
