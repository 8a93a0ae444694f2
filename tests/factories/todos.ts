// To-dos are made through the real endpoints (assignment, mentions, POST .../todo); these are the short forms.
import { expect } from 'vitest';
import { api } from '../helpers/app.ts';

export type TodoEntity = {
  id: number;
  action_name: string;
  state: 'pending' | 'done';
  body: string;
  target: { id: number; iid: number; [k: string]: any };
  [k: string]: any;
};

/** POST /projects/:id/issues/:iid/todo as the token's user: their "marked" to-do on the issue. */
export async function markIssueTodo(token: string, projectId: number | string, iid: number): Promise<TodoEntity> {
  const res = await api.post(`/projects/${encodeURIComponent(String(projectId))}/issues/${iid}/todo`, { token });
  if (res.status !== 201) throw new Error(`markIssueTodo failed: ${res.status} ${res.text}`);
  return res.body;
}

/** GET /todos (expects 200). */
export async function listTodos(token: string, query: Record<string, string | number> = {}): Promise<TodoEntity[]> {
  const res = await api.get('/todos', { token, query });
  expect(res.status, res.text).toBe(200);
  return res.body;
}
