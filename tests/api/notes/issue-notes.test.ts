// Notes on issues through HTTP: the entity, list/get/create/update/delete, who may do what, the commented event,
// mention to-dos, and bad input that writes nothing.
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, notes, projects, todos } from '../../../db/schema/index.ts';
import { addMember } from '../../factories/groups.ts';
import { createIssue } from '../../factories/issues.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { api, queryCount, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function setup(visibility: 'public' | 'private' = 'public') {
  const owner = await createUser();
  const maintainer = await createUser();
  const reporter = await createUser();
  const guest = await createUser();
  const stranger = await createUser();
  const project = await createProject(owner.token, { visibility });
  await addMember(owner.token, 'projects', project.id, maintainer.user.id, 40);
  await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
  await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
  const issue = await createIssue(owner.token, project.id);
  const url = `/projects/${project.id}/issues/${issue.iid}/notes`;
  return { owner, maintainer, reporter, guest, stranger, project, issue, url };
}

const noteRows = async (issueId: number) =>
  (
    await testDb()
      .db.select({ n: count() })
      .from(notes)
      .where(and(eq(notes.noteableType, 'Issue'), eq(notes.noteableId, issueId)))
  )[0]!.n;
const eventRows = async (projectId: number) => (await testDb().db.select({ n: count() }).from(events).where(eq(events.projectId, projectId)))[0]!.n;

describe('issue notes: create and read', () => {
  it('creates a note (201, Entities::Note without upvote/downvote) and reads it back', async () => {
    const fx = await setup();
    const res = await api.post(fx.url, { token: fx.guest.token, body: { body: 'First comment' } });
    expect(res.status, res.text).toBe(201);
    const u = fx.guest.user;
    expect(res.body).toEqual({
      id: expect.any(Number),
      type: null,
      body: 'First comment',
      attachment: null,
      author: { id: u.id, name: u.name, username: u.username, state: 'active', avatar_url: null, web_url: `${TEST_PUBLIC_URL}/${u.username}` },
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      system: false,
      noteable_id: fx.issue.id,
      noteable_type: 'Issue',
      resolvable: false,
      confidential: false,
      noteable_iid: fx.issue.iid,
      commands_changes: {},
    });
    expect(res.body).not.toHaveProperty('upvote');
    expect(res.body).not.toHaveProperty('downvote');
    const one = await api.get(`${fx.url}/${res.body.id}`, { token: fx.stranger.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(res.body);
    // The issue counts it and was touched.
    const issue = await api.get(`/projects/${fx.project.id}/issues/${fx.issue.iid}`, { token: fx.owner.token });
    expect(issue.body.user_notes_count).toBe(1);
    expect(new Date(issue.body.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(res.body.created_at).getTime());
  });

  it('records one commented event with the note, shown in the three listings', async () => {
    const fx = await setup();
    const note = await api.post(fx.url, { token: fx.reporter.token, body: { body: 'Looks good' } });
    expect(note.status).toBe(201);
    const res = await api.get(`/projects/${fx.project.id}/events`, { token: fx.owner.token, query: { action: 'commented' } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({
      project_id: fx.project.id,
      action_name: 'commented on',
      target_id: note.body.id,
      target_iid: note.body.id,
      target_type: 'Note',
      target_title: null,
      author_id: fx.reporter.user.id,
      note: note.body,
    });
    const mine = await api.get('/events', { token: fx.reporter.token, query: { target_type: 'note' } });
    expect(mine.body.map((e: any) => e.target_id)).toEqual([note.body.id]);
    const theirs = await api.get(`/users/${fx.reporter.user.id}/events`, { query: { action: 'commented' } });
    expect(theirs.body.map((e: any) => e.note.body)).toEqual(['Looks good']);
  });

  it('lists notes newest first by default, with system notes, filters and pagination headers', async () => {
    const fx = await setup();
    const a = await api.post(fx.url, { token: fx.owner.token, body: { body: 'a' } });
    const b = await api.post(fx.url, { token: fx.owner.token, body: { body: 'b' } });
    expect((await api.put(`/projects/${fx.project.id}/issues/${fx.issue.iid}`, { token: fx.owner.token, body: { state_event: 'close' } })).status).toBe(200);
    let res = await api.get(fx.url, { token: fx.guest.token });
    expect(res.status).toBe(200);
    expect(res.body.map((n: any) => [n.body, n.system])).toEqual([
      ['closed', true],
      ['b', false],
      ['a', false],
    ]);
    expect(res.headers.get('x-total')).toBe('3');
    expect(res.headers.get('x-per-page')).toBe('20');
    res = await api.get(fx.url, { token: fx.guest.token, query: { sort: 'asc', activity_filter: 'only_comments' } });
    expect(res.body.map((n: any) => n.id)).toEqual([a.body.id, b.body.id]);
    expect(res.headers.get('x-total')).toBe('2');
    res = await api.get(fx.url, { token: fx.guest.token, query: { activity_filter: 'only_activity' } });
    expect(res.body.map((n: any) => n.body)).toEqual(['closed']);
    await api.put(`${fx.url}/${a.body.id}`, { token: fx.owner.token, body: { body: 'a, edited' } });
    res = await api.get(fx.url, { token: fx.guest.token, query: { order_by: 'updated_at', per_page: 1 } });
    expect(res.body.map((n: any) => n.body)).toEqual(['a, edited']);
    expect(res.headers.get('x-next-page')).toBe('2');
    expect(res.headers.get('x-total-pages')).toBe('3');
    res = await api.get(fx.url, { token: fx.guest.token, query: { sort: 'up' } });
    expect(res).toMatchObject({ status: 400, body: { error: 'sort does not have a valid value' } });
  });

  it('a page costs the same number of queries whatever per_page is', async () => {
    const fx = await setup();
    const users = [fx.owner, fx.maintainer, fx.reporter, fx.guest];
    for (let i = 0; i < 8; i++) expect((await api.post(fx.url, { token: users[i % 4]!.token, body: { body: `n${i}` } })).status).toBe(201);
    const one = await api.get(fx.url, { token: fx.guest.token, query: { per_page: 1 } });
    const all = await api.get(fx.url, { token: fx.guest.token, query: { per_page: 100 } });
    expect(all.body).toHaveLength(8);
    expect(queryCount(all)).toBeLessThanOrEqual(queryCount(one));
    // authentication, project, issue, the page with its authors and total
    expect(queryCount(all)).toBeLessThanOrEqual(4);
  });
});

describe('issue notes: who may do what', () => {
  it('anonymous callers get 401, even on a public project', async () => {
    const fx = await setup();
    const note = await api.post(fx.url, { token: fx.owner.token, body: { body: 'x' } });
    expect(await api.get(fx.url)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await api.get(`${fx.url}/${note.body.id}`)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await api.post(fx.url, { body: { body: 'y' } })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
  });

  it('a private project or confidential issue is 404 for those who cannot read it', async () => {
    const fx = await setup('private');
    expect(await api.get(fx.url, { token: fx.stranger.token })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await api.post(fx.url, { token: fx.stranger.token, body: { body: 'x' } })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
    const secret = await createIssue(fx.owner.token, fx.project.id, { confidential: true });
    const url = `/projects/${fx.project.id}/issues/${secret.iid}/notes`;
    expect(await api.get(url, { token: fx.guest.token })).toMatchObject({ status: 404, body: { message: '404 Issue Not Found' } });
    expect(await api.post(url, { token: fx.guest.token, body: { body: 'x' } })).toMatchObject({ status: 404, body: { message: '404 Issue Not Found' } });
    expect((await api.post(url, { token: fx.reporter.token, body: { body: 'ok' } })).status).toBe(201);
  });

  it('confidential notes: set by reporters only, read by reporters and the issue author', async () => {
    const fx = await setup();
    const issue = await createIssue(fx.guest.token, fx.project.id);
    const url = `/projects/${fx.project.id}/issues/${issue.iid}/notes`;
    const hidden = await api.post(url, { token: fx.reporter.token, body: { body: 'internal', confidential: true } });
    expect(hidden).toMatchObject({ status: 201, body: { confidential: true } });
    const ignored = await api.post(url, { token: fx.stranger.token, body: { body: 'public', confidential: true } });
    expect(ignored).toMatchObject({ status: 201, body: { confidential: false } });
    const asStranger = await api.get(url, { token: fx.stranger.token });
    expect(asStranger.body.map((n: any) => n.body)).toEqual(['public']);
    expect(await api.get(`${url}/${hidden.body.id}`, { token: fx.stranger.token })).toMatchObject({ status: 404, body: { message: '404 Note Not Found' } });
    expect((await api.get(url, { token: fx.guest.token })).body.map((n: any) => n.body)).toEqual(['public', 'internal']);
    expect((await api.get(`${url}/${hidden.body.id}`, { token: fx.maintainer.token })).status).toBe(200);
    // Its event is hidden the same way.
    const events = await api.get(`/projects/${fx.project.id}/events`, { token: fx.stranger.token, query: { action: 'commented' } });
    expect(events.body.map((e: any) => e.target_id)).toEqual([ignored.body.id]);
  });

  it('edit and delete: the author or maintainers; others 403; system notes never', async () => {
    const fx = await setup();
    const note = await api.post(fx.url, { token: fx.guest.token, body: { body: 'mine' } });
    const url = `${fx.url}/${note.body.id}`;
    expect(await api.put(url, { token: fx.reporter.token, body: { body: 'theirs' } })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await api.delete(url, { token: fx.stranger.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    let res = await api.put(url, { token: fx.guest.token, body: { body: 'mine, edited' } });
    expect(res).toMatchObject({ status: 200, body: { id: note.body.id, body: 'mine, edited', created_at: note.body.created_at } });
    res = await api.put(url, { token: fx.maintainer.token, body: { body: 'moderated' } });
    expect(res).toMatchObject({ status: 200, body: { body: 'moderated', author: { id: fx.guest.user.id } } });
    expect((await api.put(`/projects/${fx.project.id}/issues/${fx.issue.iid}`, { token: fx.owner.token, body: { state_event: 'close' } })).status).toBe(200);
    const system = (await api.get(fx.url, { token: fx.owner.token, query: { activity_filter: 'only_activity' } })).body[0];
    expect(await api.put(`${fx.url}/${system.id}`, { token: fx.owner.token, body: { body: 'rewritten' } })).toMatchObject({ status: 403 });
    expect(await api.delete(`${fx.url}/${system.id}`, { token: (await createAdmin()).token })).toMatchObject({ status: 403 });
    res = await api.delete(url, { token: fx.guest.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await api.get(url, { token: fx.guest.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await api.delete(url, { token: fx.guest.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    // The comment's event stays stored but is no longer shown (its target is gone).
    const events = await api.get(`/projects/${fx.project.id}/events`, { token: fx.owner.token, query: { action: 'commented' } });
    expect(events.body).toEqual([]);
  });

  it('a note of another issue is not found through this one', async () => {
    const fx = await setup();
    const other = await createIssue(fx.owner.token, fx.project.id);
    const note = await api.post(`/projects/${fx.project.id}/issues/${other.iid}/notes`, { token: fx.owner.token, body: { body: 'elsewhere' } });
    expect(await api.get(`${fx.url}/${note.body.id}`, { token: fx.owner.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await api.get(`/projects/${fx.project.id}/issues/999999/notes`, { token: fx.owner.token })).toMatchObject({
      status: 404,
      body: { message: '404 Issue Not Found' },
    });
  });

  it('locked discussions take comments from members only; archived projects from nobody', async () => {
    const fx = await setup();
    expect((await api.put(`/projects/${fx.project.id}/issues/${fx.issue.iid}`, { token: fx.owner.token, body: { discussion_locked: true } })).status).toBe(200);
    expect(await api.post(fx.url, { token: fx.stranger.token, body: { body: 'x' } })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await api.post(fx.url, { token: fx.guest.token, body: { body: 'member' } })).status).toBe(201);
    await testDb().db.update(projects).set({ archived: true }).where(eq(projects.id, fx.project.id));
    expect(await api.post(fx.url, { token: fx.owner.token, body: { body: 'x' } })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
  });

  it('created_at is honoured for owners and ignored for others', async () => {
    const fx = await setup();
    const owned = await api.post(fx.url, { token: fx.owner.token, body: { body: 'old', created_at: '2020-01-02T03:04:05Z' } });
    expect(owned.body).toMatchObject({ created_at: '2020-01-02T03:04:05.000Z', updated_at: '2020-01-02T03:04:05.000Z' });
    const dev = await api.post(fx.url, { token: fx.reporter.token, body: { body: 'now', created_at: '2020-01-02T03:04:05Z' } });
    expect(new Date(dev.body.created_at).getFullYear()).toBeGreaterThan(2020);
  });

  it('mentions in a note give to-dos (with the note) to those who may read it', async () => {
    const fx = await setup('private');
    const res = await api.post(fx.url, { token: fx.owner.token, body: { body: `@${fx.guest.user.username} please look, cc @${fx.stranger.user.username}` } });
    expect(res.status).toBe(201);
    const rows = await testDb()
      .db.select()
      .from(todos)
      .where(and(eq(todos.targetType, 'Issue'), eq(todos.targetId, fx.issue.id)));
    expect(rows.map((t) => ({ userId: t.userId, action: t.action, noteId: t.noteId, authorId: t.authorId }))).toEqual([
      { userId: fx.guest.user.id, action: 7, noteId: res.body.id, authorId: fx.owner.user.id },
    ]);
    // Editing adds to-dos for new mentions only.
    await api.put(`${fx.url}/${res.body.id}`, { token: fx.owner.token, body: { body: `@${fx.guest.user.username} and @${fx.reporter.user.username}` } });
    const after = await testDb()
      .db.select()
      .from(todos)
      .where(and(eq(todos.targetType, 'Issue'), eq(todos.targetId, fx.issue.id)));
    expect(after.map((t) => t.userId).sort()).toEqual([fx.guest.user.id, fx.reporter.user.id].sort());
  });
});

describe('issue notes: bad input writes nothing', () => {
  const cases: Array<[string, (url: string) => [string, Record<string, unknown> | undefined], number, unknown]> = [
    ['no body', (u) => [u, {}], 400, { error: 'body is missing' }],
    ['blank body', (u) => [u, { body: '  ' }], 400, { message: `400 Bad request - Note {:note=>["can't be blank"]}` }],
    [
      '1 MB body',
      (u) => [u, { body: 'x'.repeat(1_000_001) }],
      400,
      { message: '400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}' },
    ],
    ['NUL in body', (u) => [u, { body: 'a\u0000b' }], 400, { error: 'body is invalid' }],
    ['non-boolean confidential', (u) => [u, { body: 'x', confidential: 'maybe' }], 400, { error: 'confidential is invalid' }],
    ['malformed created_at', (u) => [u, { body: 'x', created_at: 'yesterday' }], 400, { error: 'created_at is invalid' }],
    ['year-0 created_at', (u) => [u, { body: 'x', created_at: '0000-01-01T00:00:00Z' }], 400, { error: 'created_at is invalid' }],
    ['non-numeric issue iid', (u) => [u.replace(/issues\/\d+/, 'issues/abc'), { body: 'x' }], 400, { error: 'noteable_id is invalid' }],
  ];
  it.each(cases)('%s', async (_name, make, status, body) => {
    const fx = await setup();
    const before = [await noteRows(fx.issue.id), await eventRows(fx.project.id)];
    const [url, payload] = make(fx.url);
    const res = await api.post(url, { token: fx.owner.token, body: payload });
    expect(res.status, res.text).toBe(status);
    expect(res.body).toEqual(body);
    expect([await noteRows(fx.issue.id), await eventRows(fx.project.id)]).toEqual(before);
  });

  it('updates: blank body, 1 MB body, non-numeric note id; the note is unchanged', async () => {
    const fx = await setup();
    const note = await api.post(fx.url, { token: fx.owner.token, body: { body: 'keep' } });
    const url = `${fx.url}/${note.body.id}`;
    expect(await api.put(url, { token: fx.owner.token, body: { body: '' } })).toMatchObject({ status: 400, body: { error: 'body is empty' } });
    expect(await api.put(url, { token: fx.owner.token, body: { body: 'y'.repeat(1_000_001) } })).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - Failed to save note {:note=>["is too long (maximum is 1000000 characters)"]}' },
    });
    expect(await api.put(`${fx.url}/x1`, { token: fx.owner.token, body: { body: 'z' } })).toMatchObject({ status: 400, body: { error: 'note_id is invalid' } });
    expect((await api.get(url, { token: fx.owner.token })).body).toEqual(note.body);
  });
});
