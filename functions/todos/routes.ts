// The to-do list (GitLab's lib/api/todos.rb). Creating to-dos belongs to the issues and merge requests domains
// (assignment, mentions, POST /projects/:id/{issues,merge_requests}/:iid/todo); this is the reading and the marking done.
import { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import { requireUser } from '../lib/auth.ts';
import { parseParams, path } from '../lib/validate.ts';
import { ListTodosInput, TodoPath, toTodo } from './schemas.ts';
import * as todos from './service.ts';

export const todoRoutes = new Hono<AppEnv>();

// GitLab's `before { authenticate! }` runs ahead of Grape's parameter validation: anonymous callers get 401 whatever
// they send, so the parameters are read after authentication (parseParams), not by a validator middleware.
todoRoutes.get('/todos', async (c) => {
  const { ctx } = c.var;
  requireUser(ctx);
  const input = await parseParams(c, ListTodosInput());
  const list = await todos.listTodos({ ctx, input });
  const rows = await paginate(c, pageRequest(input), list.fetch, list.count);
  return c.json(rows.map((r) => toTodo(r, ctx.config)));
});

todoRoutes.post('/todos/mark_as_done', async (c) => {
  await todos.markAllTodosDone({ ctx: c.var.ctx, input: null });
  return c.body(null, 204);
});

todoRoutes.post('/todos/:id/mark_as_done', path(TodoPath), async (c) => {
  const { ctx } = c.var;
  const view = await todos.markTodoDone({ ctx, input: { id: c.req.valid('param').id } });
  return c.json(toTodo(view, ctx.config), 201);
});
