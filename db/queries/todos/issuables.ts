// The to-dos issues and merge requests make (GitLab's TodoService for issuables): assignment, mention and "marked"
// to-dos, as statements their verbs put in their own batch or transaction.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { issueAssignees, mergeRequestAssignees, todos } from '../../schema/index.ts';

export const TODO_MENTIONED = 2;
export const TODO_DIRECTLY_ADDRESSED = 7;

/** What a to-do points at: an issue (the default) or a merge request. */
export type TodoTargetType = 'Issue' | 'MergeRequest';
export interface TodoTarget {
  id: number;
  projectId: number;
  type?: TodoTargetType | undefined;
}

/** Mention to-dos (one per user; `directly addressed` wins over `mentioned`). */
export async function insertMentionTodos(
  tx: Db,
  issue: TodoTarget,
  authorId: number,
  mentions: ReadonlyArray<{ userId: number; direct: boolean }>,
  noteId?: number,
) {
  if (!mentions.length) return;
  await mentionTodosStatement(tx, issue, authorId, mentions, noteId);
}

/**
 * The mention to-dos as one statement, for a batch (the target's id may be SQL: the `currval` of the row the batch
 * inserted); `mentions` must not be empty.
 */
export function mentionTodosStatement(
  db: Db,
  target: { id: number | SQL<number>; projectId: number; type?: TodoTargetType | undefined },
  authorId: number,
  mentions: ReadonlyArray<{ userId: number; direct: boolean }>,
  noteId?: number | SQL<number>,
) {
  return db.insert(todos).values(
    mentions.map((m) => ({
      userId: m.userId,
      authorId,
      projectId: target.projectId,
      targetType: target.type ?? 'Issue',
      targetId: target.id as number,
      action: m.direct ? TODO_DIRECTLY_ADDRESSED : TODO_MENTIONED,
      noteId: (noteId ?? null) as number | null,
    })),
  );
}

export const TODO_ASSIGNED = 1;
export const TODO_MARKED = 4;

/**
 * "Assigned" to-dos for `userIds` on the issue (GitLab's TodoService#create_assignment_todo), skipping users who
 * already have a pending one for it.
 */
export async function insertAssignmentTodos(
  tx: Db,
  issue: { id: number; projectId: number; type?: 'Issue' | 'MergeRequest' },
  authorId: number,
  userIds: readonly number[],
) {
  if (!userIds.length) return;
  const targetType = issue.type ?? 'Issue';
  const pending = await tx
    .select({ userId: todos.userId })
    .from(todos)
    .where(
      and(
        inArray(todos.userId, [...userIds]),
        eq(todos.targetType, targetType),
        eq(todos.targetId, issue.id),
        eq(todos.action, TODO_ASSIGNED),
        eq(todos.state, 'pending'),
      ),
    );
  const skip = new Set(pending.map((r) => r.userId));
  const values = userIds
    .filter((id) => !skip.has(id))
    .map((userId) => ({ userId, authorId, projectId: issue.projectId, targetType, targetId: issue.id, action: TODO_ASSIGNED }));
  if (values.length) await tx.insert(todos).values(values);
}

/** A pending "marked" to-do of the user on the issue (or, `type`, the merge request). */
export async function findPendingMarkedTodo(tx: Db, issueId: number, userId: number, type: TodoTargetType = 'Issue') {
  const [row] = await tx
    .select()
    .from(todos)
    .where(and(eq(todos.userId, userId), eq(todos.targetType, type), eq(todos.targetId, issueId), eq(todos.action, TODO_MARKED), eq(todos.state, 'pending')));
  return row;
}

export async function insertTodo(tx: Db, values: typeof todos.$inferInsert) {
  const [row] = await tx.insert(todos).values(values).returning();
  return row!;
}

/**
 * The "assigned" to-dos of the assignees of an issue or merge request a batch just inserted (its id SQL; a new one
 * has none pending), from the assignee rows the same batch wrote.
 */
export function newAssignmentTodosStatement(db: Db, target: { type: TodoTargetType; id: SQL<number>; projectId: number }, authorId: number) {
  const a =
    target.type === 'Issue'
      ? sql`SELECT user_id, issue_id AS target_id FROM ${issueAssignees} WHERE issue_id = ${target.id}`
      : sql`SELECT user_id, merge_request_id AS target_id FROM ${mergeRequestAssignees} WHERE merge_request_id = ${target.id}`;
  return db.execute(
    sql`INSERT INTO ${todos} (user_id, author_id, project_id, target_type, target_id, action)
      SELECT a.user_id, ${authorId}, ${target.projectId}, ${target.type}, a.target_id, ${TODO_ASSIGNED} FROM (${a}) a ORDER BY a.user_id`,
  );
}

/** The to-dos of a target being deleted (target_id is polymorphic: no foreign key removes them). */
export async function deleteTodosOf(tx: Db, type: TodoTargetType, id: number) {
  await tx.delete(todos).where(and(eq(todos.targetType, type), eq(todos.targetId, id)));
}
