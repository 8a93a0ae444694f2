// To-dos on group epics (13.6 EE, Premium) through HTTP: mention to-dos from an epic's description (create and
// update) for readers only, GET /todos with the Todo entity of a group's to-do (group instead of project, the Epic
// entity as target, the epic's URL), the type filter, marking done, and the tier gate.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { todos } from '../../../db/schema/index.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createUser } from '../../factories/users.ts';
import { api, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';
import { createEpic, FREE, PREMIUM } from './support.ts';

async function setup() {
  const owner = await createUser();
  const reporter = await createUser();
  const guest = await createUser();
  const stranger = await createUser();
  const group = await createGroup(owner.token, { visibility: 'private' });
  await addMember(owner.token, 'groups', group.id, reporter.user.id, 20);
  await addMember(owner.token, 'groups', group.id, guest.user.id, 10);
  return { owner, reporter, guest, stranger, group };
}

const epicTodos = async (epicId: number) =>
  testDb()
    .db.select()
    .from(todos)
    .where(and(eq(todos.targetType, 'Epic'), eq(todos.targetId, epicId)));

describe('epic mention to-dos', () => {
  it('gives to-dos to readers mentioned in a new epic, and to newly mentioned ones on update', async () => {
    const fx = await setup();
    const epic = await createEpic(fx.owner.token, fx.group.id, { description: `@${fx.guest.user.username} and @${fx.stranger.user.username} please look` });
    expect(await epicTodos(epic.id)).toEqual([
      expect.objectContaining({ userId: fx.guest.user.id, authorId: fx.owner.user.id, groupId: fx.group.id, projectId: null, action: 7, noteId: null }),
    ]);
    const res = await api.put(`/groups/${fx.group.id}/epics/${epic.iid}`, {
      token: fx.owner.token,
      body: { description: `@${fx.guest.user.username} and now @${fx.reporter.user.username}` },
      env: PREMIUM,
    });
    expect(res.status).toBe(200);
    const rows = await epicTodos(epic.id);
    expect(rows.map((r) => [r.userId, r.action]).sort()).toEqual(
      [
        [fx.guest.user.id, 7],
        [fx.reporter.user.id, 2],
      ].sort(),
    );
  });

  it('gives none on a confidential epic to a mentioned guest', async () => {
    const fx = await setup();
    const epic = await createEpic(fx.owner.token, fx.group.id, { confidential: true, description: `@${fx.guest.user.username} @${fx.reporter.user.username}` });
    expect((await epicTodos(epic.id)).map((r) => r.userId)).toEqual([fx.reporter.user.id]);
  });
});

describe('GET /todos with epic to-dos', () => {
  it('lists an epic to-do with the group, the Epic entity and its URL; filters by type; marks it done', async () => {
    const fx = await setup();
    const epic = await createEpic(fx.owner.token, fx.group.id, { title: 'Roadmap' });
    const note = await api.post(`/groups/${fx.group.id}/epics/${epic.id}/notes`, {
      token: fx.owner.token,
      body: { body: `cc @${fx.reporter.user.username}` },
      env: PREMIUM,
    });
    expect(note.status).toBe(201);
    const res = await api.get('/todos', { token: fx.reporter.token, env: PREMIUM });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    const todo = res.body[0];
    expect(todo).toEqual({
      id: expect.any(Number),
      group: {
        id: fx.group.id,
        name: fx.group.name,
        path: fx.group.path,
        kind: 'group',
        full_path: fx.group.full_path,
        parent_id: null,
        avatar_url: null,
        web_url: `${TEST_PUBLIC_URL}/groups/${fx.group.full_path}`,
      },
      author: expect.objectContaining({ id: fx.owner.user.id }),
      action_name: 'mentioned',
      target_type: 'Epic',
      target: expect.objectContaining({ id: epic.id, iid: epic.iid, group_id: fx.group.id, title: 'Roadmap', web_url: epic.web_url }),
      target_url: `${epic.web_url}#note_${note.body.id}`,
      body: `cc @${fx.reporter.user.username}`,
      state: 'pending',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(todo).not.toHaveProperty('project');
    expect(todo.target).not.toHaveProperty('start_date_is_fixed');
    const typed = await api.get('/todos?type=Epic', { token: fx.reporter.token, env: PREMIUM });
    expect(typed.body.map((t: { id: number }) => t.id)).toEqual([todo.id]);
    const issues = await api.get('/todos?type=Issue', { token: fx.reporter.token, env: PREMIUM });
    expect(issues.body).toEqual([]);
    const byGroup = await api.get(`/todos?group_id=${fx.group.id}`, { token: fx.reporter.token, env: PREMIUM });
    expect(byGroup.body.map((t: { id: number }) => t.id)).toEqual([todo.id]);
    // Unlicensed, epics cannot be read: their to-dos are not listed.
    const free = await api.get('/todos', { token: fx.reporter.token, env: FREE });
    expect(free.body).toEqual([]);
    const done = await api.post(`/todos/${todo.id}/mark_as_done`, { token: fx.reporter.token, env: PREMIUM });
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({ id: todo.id, state: 'done', target_type: 'Epic' });
    expect((await api.get('/todos', { token: fx.reporter.token, env: PREMIUM })).body).toEqual([]);
  });

  it('drops the to-do of an epic the owner can no longer read', async () => {
    const fx = await setup();
    const epic = await createEpic(fx.owner.token, fx.group.id, { description: `@${fx.guest.user.username}` });
    expect((await api.get('/todos', { token: fx.guest.token, env: PREMIUM })).body).toHaveLength(1);
    await api.put(`/groups/${fx.group.id}/epics/${epic.iid}`, { token: fx.owner.token, body: { confidential: true }, env: PREMIUM });
    const res = await api.get('/todos', { token: fx.guest.token, env: PREMIUM });
    expect(res.body).toEqual([]);
    expect(res.headers.get('x-total')).toBe('0');
  });
});
