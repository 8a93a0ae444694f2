import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { todos } from '../../../db/schema/index.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { addMember } from '../../factories/groups.ts';
import { createIssue } from '../../factories/issues.ts';
import { createProject } from '../../factories/projects.ts';
import { listTodos, markIssueTodo } from '../../factories/todos.ts';
import { createToken, createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';

async function setup() {
  const owner = await createUser();
  const alice = await createUser();
  const bob = await createUser();
  const project = await createProject(owner.token);
  await addMember(owner.token, 'projects', project.id, alice.user.id, 30);
  await addMember(owner.token, 'projects', project.id, bob.user.id, 30);
  const issue = await createIssue(owner.token, project.id, { title: 'to do', assignee_ids: [alice.user.id, bob.user.id] });
  const todo = await markIssueTodo(alice.token, project.id, issue.iid);
  return { owner, alice, bob, project, issue, todo };
}

const stateOf = async (id: number) => (await testDb().db.select().from(todos).where(eq(todos.id, id)))[0]!;

describe('POST /todos/:id/mark_as_done', () => {
  it('201 with the to-do, done; marking it again changes nothing', async () => {
    const fx = await setup();
    const res = await api.post(`/todos/${fx.todo.id}/mark_as_done`, { token: fx.alice.token });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ ...fx.todo, state: 'done', updated_at: expect.any(String) });
    expect(new Date(res.body.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(fx.todo.updated_at).getTime());
    expect((await listTodos(fx.alice.token)).map((t) => t.action_name)).toEqual(['assigned']);
    expect((await listTodos(fx.alice.token, { state: 'done' })).map((t) => t.id)).toEqual([fx.todo.id]);

    const again = await api.post(`/todos/${fx.todo.id}/mark_as_done`, { token: fx.alice.token });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(res.body);
  });

  it('another user\'s to-do, or none: 404 "Not found", and it stays pending', async () => {
    const fx = await setup();
    const res = await api.post(`/todos/${fx.todo.id}/mark_as_done`, { token: fx.bob.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 Not found' });
    expect((await stateOf(fx.todo.id)).state).toBe('pending');
    // Administrators have no to-dos of others either.
    const admin = await createUser({ admin: true });
    expect(await api.post(`/todos/${fx.todo.id}/mark_as_done`, { token: admin.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await api.post('/todos/2147483647/mark_as_done', { token: fx.alice.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await api.post('/todos/99999999999/mark_as_done', { token: fx.alice.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it('a non-numeric id: 400 "id is invalid"', async () => {
    const fx = await setup();
    const res = await api.post('/todos/abc/mark_as_done', { token: fx.alice.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'id is invalid' });
  });

  it('a to-do whose target the user can no longer read: 404, unchanged', async () => {
    const fx = await setup();
    await api.delete(`/projects/${fx.project.id}/members/${fx.alice.user.id}`, { token: fx.owner.token });
    expect(await api.post(`/todos/${fx.todo.id}/mark_as_done`, { token: fx.alice.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect((await stateOf(fx.todo.id)).state).toBe('pending');
  });
});

describe('POST /todos/mark_as_done', () => {
  it("204 without a body; every pending to-do of the caller is done, nobody else's", async () => {
    const fx = await setup();
    expect(await listTodos(fx.alice.token)).toHaveLength(2);
    const res = await api.post('/todos/mark_as_done', { token: fx.alice.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await listTodos(fx.alice.token)).toEqual([]);
    expect((await listTodos(fx.alice.token, { state: 'done' })).map((t) => t.action_name)).toEqual(['marked', 'assigned']);
    expect((await listTodos(fx.bob.token)).map((t) => t.action_name)).toEqual(['assigned']);
    // Nothing left to mark: still 204.
    expect((await api.post('/todos/mark_as_done', { token: fx.alice.token })).status).toBe(204);
  });

  it('is one statement', async () => {
    const fx = await setup();
    await listTodos(fx.alice.token); // the token's first use is recorded once
    const res = await api.post('/todos/mark_as_done', { token: fx.alice.token });
    const m = /desc="(\d+) quer/.exec(res.headers.get('server-timing') ?? '');
    expect(Number(m![1])).toBeLessThanOrEqual(2);
    const rows = await testDb().db.select({ state: todos.state }).from(todos).where(eq(todos.userId, fx.alice.user.id));
    expect(rows.map((r) => r.state)).toEqual(['done', 'done']);
  });
});

describe('token scopes', () => {
  it('read_api lists but cannot mark; api does both', async () => {
    const fx = await setup();
    const readApi = await createToken(fx.alice.user, ['read_api']);
    expect(await listTodos(readApi)).toHaveLength(2);
    for (const path of [`/todos/${fx.todo.id}/mark_as_done`, '/todos/mark_as_done']) {
      const res = await api.post(path, { token: readApi });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'insufficient_scope', scope: 'api read_api' });
    }
    const pending = await testDb()
      .db.select({ state: todos.state })
      .from(todos)
      .where(inArray(todos.userId, [fx.alice.user.id]));
    expect(pending.map((r) => r.state)).toEqual(['pending', 'pending']);
    const readUser = await createToken(fx.alice.user, ['read_user']);
    expect(await api.get('/todos', { token: readUser })).toMatchObject({ status: 403, body: { error: 'insufficient_scope' } });
  });

  it('anonymous: 401, before any parameter is looked at', async () => {
    expect(await api.get('/todos')).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await api.get('/todos', { query: { action: 'bogus' } })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await api.post('/todos/1/mark_as_done')).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await api.post('/todos/abc/mark_as_done')).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await api.post('/todos/mark_as_done')).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
  });
});

describeAuthorization('GET /todos', {
  fixture: async () => ({ allowed: (await createUser()).token }),
  call: (_fx, token) => api.get('/todos', { token }),
  success: 200,
});

describeAuthorization('POST /todos/:id/mark_as_done', {
  fixture: async () => {
    const fx = await setup();
    return { allowed: fx.alice.token, otherUser: fx.bob.token, id: fx.todo.id };
  },
  call: (fx, token) => api.post(`/todos/${fx.id}/mark_as_done`, { token }),
  success: 201,
  otherUser: { status: 404, body: { message: '404 Not found' } },
});

describeAuthorization('POST /todos/mark_as_done', {
  fixture: async () => ({ allowed: (await createUser()).token }),
  call: (_fx, token) => api.post('/todos/mark_as_done', { token }),
  success: 204,
});
