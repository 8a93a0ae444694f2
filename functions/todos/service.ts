// To-do verbs (GitLab's lib/api/todos.rb with TodosFinder and TodoService). Every to-do belongs to its user: the
// caller only ever reads or changes their own, and only those whose target they may still read (the policy's
// issue, merge request and epic visibility filters, in the same statement that loads the page).
import { findIssueViewsByIds } from '../issues/lookups.ts';
import { TODO_MARKED, insertTodo } from '../../db/queries/todos/issuables.ts';
import { findMergeRequestViewsByIds } from '../merge-requests/lookups.ts';
import { findIssueById } from '../issues/service.ts';
import { findMergeRequestById } from '../merge-requests/service.ts';
import { findEpicViewsByIds } from '../epics/lookups.ts';
import { findAlertViewsByIds } from '../alerts/lookups.ts';
import { epicsAvailable } from '../lib/policy.ts';
import * as q from '../../db/queries/todos.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { notFound, recordNotFound } from '../lib/errors.ts';
import { epicsByIds } from '../epics/reads.ts';
import { COUNT_LIMIT } from '../lib/pagination.ts';
import { TODO_ACTION_FILTERS, type ListTodosParams, type TodoView } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** The page's targets, one statement per target type; a to-do whose target vanished meanwhile is left out. */
async function withTargets(ctx: RequestContext, rows: q.TodoListRow[]): Promise<TodoView[]> {
  const idsOf = (type: string) => rows.filter((r) => r.todo.targetType === type).map((r) => r.todo.targetId);
  const [issueViews, mrViews, epicViews, alertViews] = await Promise.all([
    idsOf('Issue').length ? findIssueViewsByIds(ctx.db, ctx.actor, idsOf('Issue')) : [],
    idsOf('MergeRequest').length ? findMergeRequestViewsByIds(ctx.db, ctx.actor, idsOf('MergeRequest')) : [],
    idsOf('Epic').length ? findEpicViewsByIds(ctx.db, idsOf('Epic')) : [],
    idsOf('AlertManagement::Alert').length ? findAlertViewsByIds(ctx.db, idsOf('AlertManagement::Alert')) : [],
  ]);
  const alerts = new Map(alertViews.map((v) => [v.alert.id, v.alert]));
  const issues = new Map(issueViews.map((v) => [v.issue.id, v]));
  const mrs = new Map(mrViews.map((v) => [v.mr.id, v]));
  const epics = new Map(epicViews.map((v) => [v.epic.id, v]));
  return rows.flatMap((r): TodoView[] => {
    if (r.todo.targetType === 'Epic') {
      // Its readability was the page query's (read_epic in SQL); the namespace joined is the epic's group.
      const epic = epics.get(r.todo.targetId);
      return epic ? [{ todo: r.todo, project: null, author: r.author, noteBody: r.noteBody, epic, group: r.namespace }] : [];
    }
    if (!r.project) return [];
    const base = { todo: r.todo, project: { project: r.project, namespace: r.namespace }, author: r.author, noteBody: r.noteBody };
    if (r.todo.targetType === 'AlertManagement::Alert') {
      // Its readability was the page query's (read_alert_management_alert in SQL).
      const alert = alerts.get(r.todo.targetId);
      return alert ? [{ ...base, alert }] : [];
    }
    if (r.todo.targetType === 'MergeRequest') {
      const mergeRequest = mrs.get(r.todo.targetId);
      return mergeRequest ? [{ ...base, mergeRequest }] : [];
    }
    const issue = issues.get(r.todo.targetId);
    return issue ? [{ ...base, issue }] : [];
  });
}

/** GET /todos: the caller's to-dos, pending unless `state=done`, newest first. */
export async function listTodos({ ctx, input }: Verb<ListTodosParams>) {
  const user = requireUser(ctx);
  const filter: q.TodoListFilter = { userId: user.id, state: input.state ?? 'pending', epicsAvailable: epicsAvailable(ctx.config.instanceTier) };
  if (input.action !== undefined) filter.action = TODO_ACTION_FILTERS[input.action];
  if (input.author_id !== undefined) filter.authorId = input.author_id === 0 ? null : input.author_id;
  if (input.project_id !== undefined) filter.projectId = input.project_id;
  if (input.group_id !== undefined) filter.groupId = input.group_id;
  if (input.type !== undefined) filter.targetType = input.type;
  // The page query carries the (capped) total, so paginate's count costs no query unless the page is empty.
  let total: number | undefined;
  return {
    fetch: async (limit: number, offset: number) => {
      const rows = await q.listTodoRows(ctx.db, ctx.actor, filter, limit, offset, COUNT_LIMIT + 1);
      if (rows[0]) total = Number(rows[0].total);
      return withTargets(ctx, rows);
    },
    count: (limit: number) => (total !== undefined ? Promise.resolve(Math.min(total, limit)) : q.countTodos(ctx.db, ctx.actor, filter, limit)),
  };
}

/** POST /todos/:id/mark_as_done: the caller's to-do, done (already done: unchanged); anyone else's is 404. */
export async function markTodoDone({ ctx, input }: Verb<{ id: number | null }>): Promise<TodoView> {
  const user = requireUser(ctx);
  if (input.id === null) throw recordNotFound();
  const [row] = await q.listTodoRows(ctx.db, ctx.actor, { userId: user.id, id: input.id, epicsAvailable: epicsAvailable(ctx.config.instanceTier) }, 1, 0);
  if (!row) throw recordNotFound();
  const todo = row.todo.state === 'done' ? row.todo : ((await q.markTodoDone(ctx.db, user.id, row.todo.id)) ?? { ...row.todo, state: 'done' as const });
  const [view] = await withTargets(ctx, [{ ...row, todo }]);
  if (!view) throw recordNotFound();
  return view;
}

/** POST /todos/mark_as_done: every pending to-do of the caller, done, in one statement. */
export async function markAllTodosDone({ ctx }: Verb<unknown>) {
  const user = requireUser(ctx);
  await q.markAllTodosDone(ctx.db, user.id);
}

/**
 * GraphQL's todoCreate (13.6: TodoService#mark_todo for the current user, `authorize :create_todo`: who may read the
 * target): a `marked` to-do on an issue or a merge request (in its project) or an epic (in its group). A missing or
 * unreadable target (an unlicensed epic included) is not found.
 */
export async function markTodoOn({ ctx, input }: Verb<{ type: string; id: number }>) {
  const user = requireUser(ctx);
  const mark = { userId: user.id, authorId: user.id, targetId: input.id, action: TODO_MARKED };
  if (input.type === 'Issue') {
    const { project, view } = await findIssueById(ctx, input.id);
    const todo = await insertTodo(ctx.db, { ...mark, projectId: project.project.id, targetType: 'Issue' });
    return { todo, body: view.issue.title, project, group: null };
  }
  if (input.type === 'MergeRequest') {
    const { project, view } = await findMergeRequestById(ctx, input.id);
    const todo = await insertTodo(ctx.db, { ...mark, projectId: project.project.id, targetType: 'MergeRequest' });
    return { todo, body: view.mr.title, project, group: null };
  }
  if (input.type !== 'Epic') throw notFound('Todoable');
  const [model] = await epicsByIds(ctx, [input.id]);
  if (!model) throw notFound('Epic');
  const todo = await q.insertMarkedEpicTodo(ctx.db, { userId: user.id, authorId: user.id, epicId: model.view.epic.id, groupId: model.view.epic.groupId });
  return { todo, body: model.view.epic.title, project: null, group: model.group };
}
