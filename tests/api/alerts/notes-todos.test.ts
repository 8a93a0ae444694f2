// Alerts as noteables and to-do targets: createNote with an AlertManagement::Alert global id (who may read alerts
// may comment), the notes and discussions of the alert (Noteable), and alert to-dos in GET /todos (listed while the
// owner may still read the alert).
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { projects } from '../../../db/schema/index.ts';
import { api, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';
import { alertProject, createAlert, gql, RESOURCE_ERROR } from './support.ts';

const NOTE = `mutation($id: ID!, $body: String!, $discussion: ID) { createNote(input: { noteableId: $id, body: $body, discussionId: $discussion }) {
  errors note { body system author { username } project { fullPath } discussion { id } userPermissions { adminNote createNote awardEmoji } } } }`;

const NOTES = `query($path: ID!, $iid: String) { project(fullPath: $path) { alertManagementAlert(iid: $iid) {
  updatedAt notes { nodes { body } } discussions { nodes { notes { nodes { body } } } } } } }`;

describe('notes on alerts', () => {
  it('createNote on an alert by its global id; replies join the discussion; notes and discussions list them', async () => {
    const fx = await alertProject();
    const a = await createAlert(fx.project.id, { updatedAt: new Date('2026-01-01T00:00:00Z') });
    const id = `gid://gitlab/AlertManagement::Alert/${a.id}`;
    const first = await gql(NOTE, fx.reporter.token, { id, body: 'Seen it' });
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.createNote).toMatchObject({
      errors: [],
      note: {
        body: 'Seen it',
        system: false,
        author: { username: fx.reporter.user.username },
        project: { fullPath: fx.path },
        userPermissions: { adminNote: true, createNote: true, awardEmoji: true },
      },
    });
    const reply = await gql(NOTE, fx.developer.token, { id, body: 'On it', discussion: first.body.data.createNote.note.discussion.id });
    expect(reply.body.data.createNote.errors).toEqual([]);
    const res = await gql(NOTES, fx.reporter.token, { path: fx.path, iid: String(a.iid) });
    const alert = res.body.data.project.alertManagementAlert;
    expect(alert.notes).toEqual({ nodes: [{ body: 'Seen it' }, { body: 'On it' }] });
    expect(alert.discussions).toEqual({ nodes: [{ notes: { nodes: [{ body: 'Seen it' }, { body: 'On it' }] } }] });
    // A note touches its noteable.
    expect(Date.parse(alert.updatedAt)).toBeGreaterThan(Date.parse('2026-01-02T00:00:00Z'));
    // Its notes take award emoji (a note is Awardable; the alert itself is not).
    const noteId = (
      await gql(
        `query($path: ID!, $iid: String) { project(fullPath: $path) { alertManagementAlert(iid: $iid) { notes { nodes { id } } } } }`,
        fx.reporter.token,
        { path: fx.path, iid: String(a.iid) },
      )
    ).body.data.project.alertManagementAlert.notes.nodes[0].id;
    const award = await gql(
      `mutation($id: ID!) { awardEmojiAdd(input: { awardableId: $id, name: "eyes" }) { errors awardEmoji { name user { username } } } }`,
      fx.developer.token,
      { id: noteId },
    );
    expect(award.body.data.awardEmojiAdd).toEqual({ errors: [], awardEmoji: { name: 'eyes', user: { username: fx.developer.user.username } } });
  });

  it('is the resource error for who may not read alerts (guests, outsiders) and for unknown alerts; nothing written', async () => {
    const fx = await alertProject();
    const a = await createAlert(fx.project.id);
    for (const [token, id] of [
      [fx.guest.token, `gid://gitlab/AlertManagement::Alert/${a.id}`],
      [fx.outsider.token, `gid://gitlab/AlertManagement::Alert/${a.id}`],
      [undefined, `gid://gitlab/AlertManagement::Alert/${a.id}`],
      [fx.developer.token, `gid://gitlab/AlertManagement::Alert/${a.id + 100000}`],
    ] as const) {
      const res = await gql(NOTE, token, { id, body: 'x' });
      expect(res.body.data).toEqual({ createNote: null });
      expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual([RESOURCE_ERROR]);
    }
    // An archived project takes no notes (the alert is still read); archiving has no endpoint yet.
    await testDb().db.update(projects).set({ archived: true }).where(eq(projects.id, fx.project.id));
    const archived = await gql(NOTE, fx.developer.token, { id: `gid://gitlab/AlertManagement::Alert/${a.id}`, body: 'x' });
    expect(archived.body).toMatchObject({ data: { createNote: null }, errors: [{ message: RESOURCE_ERROR }] });
    const res = await gql(NOTES, fx.reporter.token, { path: fx.path, iid: String(a.iid) });
    expect(res.body.data.project.alertManagementAlert.notes.nodes).toEqual([]);
  });
});

describe('mentions in notes on alerts', () => {
  it('give to-dos to the mentioned who may read the alert (reporters and above), not to guests', async () => {
    const fx = await alertProject();
    const a = await createAlert(fx.project.id, { title: 'Pager storm' });
    const body = `@${fx.reporter.user.username} see this, and @${fx.maintainer.user.username} and @${fx.guest.user.username} too`;
    const res = await gql(NOTE, fx.developer.token, { id: `gid://gitlab/AlertManagement::Alert/${a.id}`, body });
    expect(res.body.data.createNote.errors).toEqual([]);
    const todosOf = async (token: string) => (await api.get('/todos', { token })).body as Array<Record<string, any>>;
    expect((await todosOf(fx.reporter.token)).map((t) => [t.action_name, t.target_type, t.body])).toEqual([
      ['directly_addressed', 'AlertManagement::Alert', body],
    ]);
    const [maintainers] = await todosOf(fx.maintainer.token);
    expect(maintainers).toMatchObject({
      action_name: 'mentioned',
      target: { iid: a.iid, title: 'Pager storm' },
      author: { username: fx.developer.user.username },
    });
    expect(maintainers!.target_url).toMatch(new RegExp(`/-/alert_management/${a.iid}/details$`));
    expect(await todosOf(fx.guest.token)).toEqual([]);
  });
});

describe('alert to-dos in GET /todos', () => {
  it('lists them with the alert as target while the owner may read it, filters by type', async () => {
    const fx = await alertProject();
    const a = await createAlert(fx.project.id, { title: 'Disk 95%' });
    const todo = await gql(`mutation($path: ID!, $iid: String!) { alertTodoCreate(input: { projectPath: $path, iid: $iid }) { errors } }`, fx.developer.token, {
      path: fx.path,
      iid: String(a.iid),
    });
    expect(todo.body.data.alertTodoCreate.errors).toEqual([]);
    const list = await api.get('/todos', { token: fx.developer.token, query: { type: 'AlertManagement::Alert' } });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total')).toBe('1');
    expect(list.body).toEqual([
      {
        id: expect.any(Number),
        project: expect.objectContaining({ id: fx.project.id, path_with_namespace: fx.path }),
        author: expect.objectContaining({ username: fx.developer.user.username }),
        action_name: 'marked',
        target_type: 'AlertManagement::Alert',
        target: { iid: a.iid, title: 'Disk 95%' },
        target_url: `${TEST_PUBLIC_URL}/${fx.path}/-/alert_management/${a.iid}/details`,
        body: 'Disk 95%',
        state: 'pending',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
    expect((await api.get('/todos', { token: fx.developer.token, query: { type: 'Issue' } })).body).toEqual([]);
    // Marked done through the to-dos API like any other.
    const done = await api.post(`/todos/${list.body[0].id}/mark_as_done`, { token: fx.developer.token });
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({ state: 'done', target: { iid: a.iid } });
    // A developer demoted to guest no longer reads the alert: its to-dos are not listed.
    await gql(`mutation($path: ID!, $iid: String!) { alertTodoCreate(input: { projectPath: $path, iid: $iid }) { errors } }`, fx.developer.token, {
      path: fx.path,
      iid: String(a.iid),
    });
    expect((await api.get('/todos', { token: fx.developer.token })).body).toHaveLength(1);
    const demote = await api.put(`/projects/${fx.project.id}/members/${fx.developer.user.id}`, { token: fx.owner.token, body: { access_level: 10 } });
    expect(demote.status).toBe(200);
    expect((await api.get('/todos', { token: fx.developer.token })).body).toEqual([]);
  });
});
