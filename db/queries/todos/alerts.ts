// To-dos on alerts (todos.target_type 'AlertManagement::Alert', in the alert's project): the pending ones a change
// checks, the ones an alert change or a mention adds or resolves (statements for the alert's or the note's batch), and
// a user's to-dos on alerts for GraphQL. The todos table is the todos domain's; the alerts and notes domains call
// these through functions/todos/lookups.ts and statements.ts.
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { alerts, notes, todos, type AlertRow } from '../../schema/index.ts';

export const ALERT_TODO_TARGET = 'AlertManagement::Alert' as const;

/** Users among `userIds` who have a pending to-do with `action` on the alert. */
export async function pendingAlertTodoUsers(db: Db, alertId: number, userIds: readonly number[], action: number) {
  if (!userIds.length) return [];
  const rows = await db
    .select({ userId: todos.userId })
    .from(todos)
    .where(
      and(
        eq(todos.targetType, ALERT_TODO_TARGET),
        eq(todos.targetId, alertId),
        inArray(todos.userId, [...userIds]),
        eq(todos.action, action),
        eq(todos.state, 'pending'),
      ),
    );
  return rows.map((r) => r.userId);
}

/** Whether the user has any pending to-do on the alert (TodosFinder state: pending, target: the alert). */
export async function hasPendingAlertTodo(db: Db, alertId: number, userId: number) {
  const [row] = await db
    .select({ id: todos.id })
    .from(todos)
    .where(and(eq(todos.targetType, ALERT_TODO_TARGET), eq(todos.targetId, alertId), eq(todos.userId, userId), eq(todos.state, 'pending')))
    .limit(1);
  return row !== undefined;
}

/**
 * To-dos on the alert (in its project), as a statement for a batch; `rows` must not be empty. `noteId`: the note a
 * mention is in.
 */
export const insertAlertTodosStatement = (
  db: Db,
  alert: Pick<AlertRow, 'id' | 'projectId'>,
  authorId: number,
  rows: ReadonlyArray<{ userId: number; action: number }>,
  noteId?: number | SQL<number>,
) =>
  db
    .insert(todos)
    .values(
      rows.map((r) => ({
        userId: r.userId,
        authorId,
        projectId: alert.projectId,
        targetType: ALERT_TODO_TARGET,
        targetId: alert.id,
        action: r.action,
        noteId: (noteId ?? null) as number | null,
      })),
    )
    .returning();

/** The user's pending to-dos on the alert marked done (TodoService#resolve_todos_for_target on a resolved alert). */
export const resolveAlertTodosStatement = (db: Db, alertId: number, userId: number) =>
  db
    .update(todos)
    .set({ state: 'done', updatedAt: new Date() })
    .where(and(eq(todos.targetType, ALERT_TODO_TARGET), eq(todos.targetId, alertId), eq(todos.userId, userId), eq(todos.state, 'pending')));

/** The user's to-dos on each of the alerts, oldest first, with their bodies (the note's, else the alert's title). */
export async function findUserTodosOfAlerts(db: Db, userId: number, alertIds: readonly number[]) {
  if (!alertIds.length) return [];
  return db
    .select({ todo: todos, body: sql<string>`COALESCE(${notes.body}, ${alerts.title})` })
    .from(todos)
    .innerJoin(alerts, eq(alerts.id, todos.targetId))
    .leftJoin(notes, eq(notes.id, todos.noteId))
    .where(and(eq(todos.userId, userId), eq(todos.targetType, ALERT_TODO_TARGET), inArray(todos.targetId, [...new Set(alertIds)])))
    .orderBy(asc(todos.id));
}
