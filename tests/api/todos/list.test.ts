import { describe, expect, it } from 'vitest';
import { notes, todos } from '../../../db/schema/index.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createIssue } from '../../factories/issues.ts';
import { createProject } from '../../factories/projects.ts';
import { listTodos, markIssueTodo } from '../../factories/todos.ts';
import { createUser } from '../../factories/users.ts';
import { api, queryCount, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';

/** An owner's project in a group, a developer (alice) with to-dos of every kind the issues domain creates. */
async function setup() {
  const owner = await createUser();
  const alice = await createUser();
  const group = await createGroup(owner.token);
  const project = await createProject(owner.token, { namespaceId: group.id });
  await addMember(owner.token, 'projects', project.id, alice.user.id, 30);
  const assigned = await createIssue(owner.token, project.id, { title: 'assigned to alice', assignee_ids: [alice.user.id] });
  const addressed = await createIssue(owner.token, project.id, { title: 'addressed', description: `@${alice.user.username} please look` });
  const mentioned = await createIssue(owner.token, project.id, { title: 'mentioned', description: `see this, @${alice.user.username}` });
  const marked = await createIssue(owner.token, project.id, { title: 'marked by alice' });
  const todo = await markIssueTodo(alice.token, project.id, marked.iid);
  return { owner, alice, group, project, issues: { assigned, addressed, mentioned, marked }, todo };
}

const summary = (list: Array<{ action_name: string; body: string }>) => list.map((t) => [t.action_name, t.body]);

describe('GET /todos', () => {
  it("the caller's pending to-dos, newest first, each the full Todo entity", async () => {
    const fx = await setup();
    const list = await listTodos(fx.alice.token);
    expect(summary(list)).toEqual([
      ['marked', 'marked by alice'],
      ['mentioned', 'mentioned'],
      ['directly_addressed', 'addressed'],
      ['assigned', 'assigned to alice'],
    ]);
    expect(list.map((t) => t.id)).toEqual([...list.map((t) => t.id)].sort((a, b) => b - a));

    // The whole entity: the target is the issue as GET .../issues/:iid shows it (without the single-issue `subscribed`).
    const { subscribed: _, ...issue } = (await api.get(`/projects/${fx.project.id}/issues/${fx.issues.marked.iid}`, { token: fx.alice.token })).body;
    const project = (await api.get(`/projects/${fx.project.id}`, { token: fx.alice.token })).body;
    const expected = {
      id: fx.todo.id,
      project: {
        id: project.id,
        description: project.description,
        name: project.name,
        name_with_namespace: project.name_with_namespace,
        path: project.path,
        path_with_namespace: project.path_with_namespace,
        created_at: project.created_at,
      },
      author: {
        id: fx.alice.user.id,
        name: fx.alice.user.name,
        username: fx.alice.user.username,
        state: 'active',
        avatar_url: null,
        web_url: `${TEST_PUBLIC_URL}/${fx.alice.user.username}`,
      },
      action_name: 'marked',
      target_type: 'Issue',
      target: issue,
      target_url: `${TEST_PUBLIC_URL}/${fx.project.path_with_namespace}/-/issues/${fx.issues.marked.iid}`,
      body: 'marked by alice',
      state: 'pending',
      created_at: fx.todo.created_at,
      updated_at: fx.todo.updated_at,
    };
    expect(list[0]).toEqual(expected);
    // POST .../todo answers with the same serializer.
    expect(fx.todo).toEqual(expected);
    expect(list[3]!.author).toMatchObject({ id: fx.owner.user.id, username: fx.owner.user.username });
    expect(list[3]!.target).toMatchObject({ id: fx.issues.assigned.id, assignees: [expect.objectContaining({ id: fx.alice.user.id })] });

    // Nobody else sees them.
    expect(await listTodos(fx.owner.token)).toEqual([]);
  });

  it('filters: action, author_id (0: none), project_id, group_id, type, state', async () => {
    const fx = await setup();
    const other = await createProject(fx.alice.token);
    const own = await createIssue(fx.alice.token, other.id, { title: 'in her own project' });
    await markIssueTodo(fx.alice.token, other.id, own.iid);
    const bodies = async (query: Record<string, string | number>) => (await listTodos(fx.alice.token, query)).map((t) => t.body);

    expect(await bodies({ action: 'assigned' })).toEqual(['assigned to alice']);
    expect(await bodies({ action: 'mentioned' })).toEqual(['mentioned']);
    expect(await bodies({ action: 'directly_addressed' })).toEqual(['addressed']);
    expect(await bodies({ action: 'marked' })).toEqual(['in her own project', 'marked by alice']);
    expect(await bodies({ action: 'build_failed' })).toEqual([]);
    expect(await bodies({ author_id: fx.owner.user.id })).toEqual(['mentioned', 'addressed', 'assigned to alice']);
    expect(await bodies({ author_id: fx.alice.user.id, action: 'marked' })).toEqual(['in her own project', 'marked by alice']);
    expect(await bodies({ author_id: 0 })).toEqual([]);
    expect(await bodies({ project_id: other.id })).toEqual(['in her own project']);
    expect(await bodies({ project_id: fx.project.id, action: 'marked' })).toEqual(['marked by alice']);
    expect(await bodies({ group_id: fx.group.id })).toEqual(['marked by alice', 'mentioned', 'addressed', 'assigned to alice']);
    expect(await bodies({ group_id: (await createGroup(fx.alice.token)).id })).toEqual([]);
    expect(await bodies({ type: 'Issue' })).toHaveLength(5);
    expect(await bodies({ type: 'MergeRequest' })).toEqual([]);
    expect(await bodies({ state: 'done' })).toEqual([]);

    const done = await api.post(`/todos/${fx.todo.id}/mark_as_done`, { token: fx.alice.token });
    expect(done.status, done.text).toBe(201);
    expect(await bodies({ state: 'done' })).toEqual(['marked by alice']);
    expect(await bodies({ state: 'pending', action: 'marked' })).toEqual(['in her own project']);
    expect(await bodies({})).not.toContain('marked by alice');
  });

  it("invalid filter values: Grape's 400", async () => {
    const fx = await setup();
    const bad = (query: Record<string, string>) => api.get('/todos', { token: fx.alice.token, query });
    expect(await bad({ action: 'approved' })).toMatchObject({ status: 400, body: { error: 'action does not have a valid value' } });
    expect((await bad({ action: 'approved' })).body).toEqual({ error: 'action does not have a valid value' });
    expect(await bad({ state: 'opened' })).toMatchObject({ status: 400, body: { error: 'state does not have a valid value' } });
    expect(await bad({ type: 'issue' })).toMatchObject({ status: 400, body: { error: 'type does not have a valid value' } });
    expect(await bad({ author_id: 'alice' })).toMatchObject({ status: 400, body: { error: 'author_id is invalid' } });
    expect(await bad({ project_id: '1.5' })).toMatchObject({ status: 400, body: { error: 'project_id is invalid' } });
    expect(await bad({ per_page: '0' })).toMatchObject({ status: 400 });
  });

  it('a to-do whose target the user can no longer read is hidden (removed from a private project)', async () => {
    const fx = await setup();
    expect(await listTodos(fx.alice.token)).toHaveLength(4);
    const removed = await api.delete(`/projects/${fx.project.id}/members/${fx.alice.user.id}`, { token: fx.owner.token });
    expect(removed.status, removed.text).toBe(204);
    expect(await listTodos(fx.alice.token)).toEqual([]);
    expect(await listTodos(fx.alice.token, { project_id: fx.project.id })).toEqual([]);
    // Not deleted: back in the project, they are back.
    await addMember(fx.owner.token, 'projects', fx.project.id, fx.alice.user.id, 30);
    expect(await listTodos(fx.alice.token)).toHaveLength(4);
  });

  it("a confidential issue's to-do is hidden from a user who cannot read it, kept for one who can", async () => {
    const owner = await createUser();
    const guest = await createUser();
    const reporter = await createUser();
    const project = await createProject(owner.token);
    await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    const issue = await createIssue(owner.token, project.id, { title: 'soon secret' });
    await markIssueTodo(guest.token, project.id, issue.iid);
    await markIssueTodo(reporter.token, project.id, issue.iid);
    expect(await listTodos(guest.token)).toHaveLength(1);
    const made = await api.put(`/projects/${project.id}/issues/${issue.iid}`, { token: owner.token, body: { confidential: true } });
    expect(made.status, made.text).toBe(200);
    expect(await listTodos(guest.token)).toEqual([]);
    expect((await listTodos(reporter.token)).map((t) => t.target.confidential)).toEqual([true]);
  });

  it("a to-do that came from a note shows the note's body and points at it", async () => {
    const fx = await setup();
    // No notes endpoint yet: the note and its mention to-do are written as the notes domain would write them.
    const db = testDb().db;
    const [note] = await db
      .insert(notes)
      .values({
        noteableType: 'Issue',
        noteableId: fx.issues.marked.id,
        projectId: fx.project.id,
        authorId: fx.owner.user.id,
        body: `@${fx.alice.user.username} ping`,
        discussionId: 'a'.repeat(40),
      })
      .returning();
    const [row] = await db
      .insert(todos)
      .values({
        userId: fx.alice.user.id,
        authorId: fx.owner.user.id,
        projectId: fx.project.id,
        targetType: 'Issue',
        targetId: fx.issues.marked.id,
        action: 7,
        noteId: note!.id,
      })
      .returning();
    const [first] = await listTodos(fx.alice.token);
    expect(first).toMatchObject({
      id: row!.id,
      action_name: 'directly_addressed',
      body: `@${fx.alice.user.username} ping`,
      target_url: `${TEST_PUBLIC_URL}/${fx.project.path_with_namespace}/-/issues/${fx.issues.marked.iid}#note_${note!.id}`,
      target: { id: fx.issues.marked.id, title: 'marked by alice' },
    });
  });

  it('pagination headers', async () => {
    const fx = await setup();
    const res = await api.get('/todos', { token: fx.alice.token, query: { per_page: 3 } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(3);
    expect(Object.fromEntries(['x-page', 'x-per-page', 'x-next-page', 'x-prev-page', 'x-total', 'x-total-pages'].map((h) => [h, res.headers.get(h)]))).toEqual({
      'x-page': '1',
      'x-per-page': '3',
      'x-next-page': '2',
      'x-prev-page': '',
      'x-total': '4',
      'x-total-pages': '2',
    });
    const link = `${TEST_PUBLIC_URL}/api/v4/todos?per_page=3`;
    expect(res.headers.get('link')).toBe(`<${link}&page=2>; rel="next", <${link}&page=1>; rel="first", <${link}&page=2>; rel="last"`);
    const second = await api.get('/todos', { token: fx.alice.token, query: { per_page: 3, page: 2 } });
    expect(second.body.map((t: { action_name: string }) => t.action_name)).toEqual(['assigned']);
    expect([second.headers.get('x-next-page'), second.headers.get('x-prev-page'), second.headers.get('x-total')]).toEqual(['', '1', '4']);
  });

  it('costs a constant number of queries whatever the page size (≤ 3 with authentication)', async () => {
    const owner = await createUser();
    const authors = [owner, await createUser(), await createUser()];
    const me = await createUser();
    const projects = [await createProject(owner.token), await createProject(owner.token)];
    for (const p of projects) {
      await addMember(owner.token, 'projects', p.id, me.user.id, 30);
      for (const a of authors.slice(1)) await addMember(owner.token, 'projects', p.id, a.user.id, 30);
    }
    let n = 0;
    for (const p of projects) {
      for (const a of authors) {
        await createIssue(a.token, p.id, { description: `@${me.user.username} ${n++}`, labels: 'bug' });
        await createIssue(owner.token, p.id, { assignee_ids: [me.user.id, a.user.id] });
      }
    }
    await listTodos(me.token); // the token's first use is recorded once; measure the steady state
    const counts: number[] = [];
    const queries: Array<Record<string, string | number>> = [
      { per_page: 2 },
      { per_page: 100 },
      { per_page: 5, page: 2 },
      { per_page: 5, page: 9 },
      { action: 'assigned', per_page: 100 },
    ];
    for (const query of queries) {
      const res = await api.get('/todos', { token: me.token, query });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('x-total')).toBe(query.action ? '6' : '12');
      counts.push(queryCount(res));
    }
    for (const c of counts) expect(c).toBeLessThanOrEqual(3);
  });
});
