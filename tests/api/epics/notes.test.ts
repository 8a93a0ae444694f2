// Notes and discussions on group epics (13.6 EE, Premium) through HTTP: `:epic_id` is the epic's id (not its iid),
// the Note entity with noteable_type Epic and no project, who may do what (read_epic, create_note, admin_note),
// the tier gate (free: as if the epic did not exist), the group's `commented` event, mention to-dos, bad input.
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { epics, events, notes, todos } from '../../../db/schema/index.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createUser } from '../../factories/users.ts';
import { api, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createEpic, FREE, PREMIUM } from './support.ts';

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

async function setup(visibility: 'private' | 'public' = 'private', epicBody: Record<string, unknown> = {}) {
  const owner = await createUser();
  const maintainer = await createUser();
  const reporter = await createUser();
  const guest = await createUser();
  const stranger = await createUser();
  const group = await createGroup(owner.token, { visibility });
  await addMember(owner.token, 'groups', group.id, maintainer.user.id, 40);
  await addMember(owner.token, 'groups', group.id, reporter.user.id, 20);
  await addMember(owner.token, 'groups', group.id, guest.user.id, 10);
  const epic = await createEpic(owner.token, group.id, epicBody);
  const url = `/groups/${group.id}/epics/${epic.id}/notes`;
  return { owner, maintainer, reporter, guest, stranger, group, epic, url };
}

const noteRows = async (epicId: number) =>
  (
    await testDb()
      .db.select({ n: count() })
      .from(notes)
      .where(and(eq(notes.noteableType, 'Epic'), eq(notes.noteableId, epicId)))
  )[0]!.n;

describe('epic notes: create and read', () => {
  it('creates a note on the epic by id (201, Entities::Note, no noteable_iid) and reads it back', async () => {
    const fx = await setup();
    const res = await api.post(fx.url, { token: fx.guest.token, body: { body: 'First comment' }, env: PREMIUM });
    expect(res.status, res.text).toBe(201);
    const u = fx.guest.user;
    expect(res.body).toEqual({
      id: expect.any(Number),
      type: null,
      body: 'First comment',
      attachment: null,
      author: { id: u.id, name: u.name, username: u.username, state: 'active', avatar_url: null, web_url: `${TEST_PUBLIC_URL}/${u.username}` },
      created_at: ISO,
      updated_at: ISO,
      system: false,
      noteable_id: fx.epic.id,
      noteable_type: 'Epic',
      resolvable: false,
      confidential: false,
      noteable_iid: null,
      commands_changes: {},
    });
    const [row] = await testDb().db.select().from(notes).where(eq(notes.id, res.body.id));
    expect(row).toMatchObject({ projectId: null, noteableType: 'Epic', noteableId: fx.epic.id });
    const one = await api.get(`${fx.url}/${res.body.id}`, { token: fx.reporter.token, env: PREMIUM });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(res.body);
    const list = await api.get(fx.url, { token: fx.owner.token, env: PREMIUM });
    expect(list.status).toBe(200);
    expect(list.body.map((n: { id: number }) => n.id)).toEqual([res.body.id]);
    expect(list.headers.get('x-total')).toBe('1');
    // The note touched the epic; the group (not a project) records `commented`.
    const [epic] = await testDb().db.select().from(epics).where(eq(epics.id, fx.epic.id));
    expect(epic!.updatedAt.toISOString()).toBe(res.body.created_at);
    const recorded = await testDb()
      .db.select()
      .from(events)
      .where(and(eq(events.targetType, 'Note'), eq(events.targetId, res.body.id)));
    expect(recorded).toEqual([expect.objectContaining({ groupId: fx.group.id, projectId: null, authorId: u.id })]);
  });

  it('finds the epic by id, not iid, within the group and its subgroups (404 Not found otherwise)', async () => {
    const fx = await setup();
    const sub = await createGroup(fx.owner.token, { parentId: fx.group.id });
    const subEpic = await createEpic(fx.owner.token, sub.id);
    const viaParent = await api.post(`/groups/${fx.group.id}/epics/${subEpic.id}/notes`, { token: fx.owner.token, body: { body: 'x' }, env: PREMIUM });
    expect(viaParent.status, viaParent.text).toBe(201);
    // The parent's epic is not the subgroup's.
    const other = await api.get(`/groups/${sub.id}/epics/${fx.epic.id}/notes`, { token: fx.owner.token, env: PREMIUM });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ message: '404 Not found' });
    const missing = await api.get(`/groups/${fx.group.id}/epics/999999999/notes`, { token: fx.owner.token, env: PREMIUM });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Not found' });
    const noGroup = await api.get(`/groups/999999999/epics/${fx.epic.id}/notes`, { token: fx.owner.token, env: PREMIUM });
    expect(noGroup.status).toBe(404);
    expect(noGroup.body).toEqual({ message: '404 Group Not Found' });
  });

  it('on the free tier answers as if the epic did not exist, and writes nothing', async () => {
    const fx = await setup();
    const created = await api.post(fx.url, { token: fx.owner.token, body: { body: 'kept' }, env: PREMIUM });
    const before = await noteRows(fx.epic.id);
    for (const [method, path] of [
      ['get', fx.url],
      ['post', fx.url],
      ['get', `${fx.url}/${created.body.id}`],
      ['put', `${fx.url}/${created.body.id}`],
      ['delete', `${fx.url}/${created.body.id}`],
      ['get', `/groups/${fx.group.id}/epics/${fx.epic.id}/discussions`],
    ] as const) {
      const res = await api[method](path, { token: fx.owner.token, ...(method === 'get' ? {} : { body: { body: 'changed' } }), env: FREE });
      expect([method, path, res.status, res.body]).toEqual([method, path, 404, { message: '404 Not found' }]);
    }
    expect(await noteRows(fx.epic.id)).toBe(before);
    const [row] = await testDb().db.select().from(notes).where(eq(notes.id, created.body.id));
    expect(row!.body).toBe('kept');
  });

  it('hides a confidential epic from guests and strangers (404), and a private group from strangers', async () => {
    const fx = await setup('private', { confidential: true });
    for (const who of [fx.guest, fx.stranger]) {
      const res = await api.get(fx.url, { token: who.token, env: PREMIUM });
      expect(res.status).toBe(404);
    }
    const ok = await api.post(fx.url, { token: fx.reporter.token, body: { body: 'seen' }, env: PREMIUM });
    expect(ok.status).toBe(201);
  });

  it('needs a signed-in user (401), even on a public group', async () => {
    const fx = await setup('public');
    const res = await api.get(fx.url, { env: PREMIUM });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
  });
});

describe('epic notes: update and delete (admin_note)', () => {
  it('lets the author and group maintainers edit and delete; others get 403', async () => {
    const fx = await setup('public');
    const note = (await api.post(fx.url, { token: fx.guest.token, body: { body: 'mine' }, env: PREMIUM })).body;
    const byReporter = await api.put(`${fx.url}/${note.id}`, { token: fx.reporter.token, body: { body: 'theirs' }, env: PREMIUM });
    expect(byReporter.status).toBe(403);
    expect(byReporter.body).toEqual({ message: '403 Forbidden' });
    const byAuthor = await api.put(`${fx.url}/${note.id}`, { token: fx.guest.token, body: { body: 'edited' }, env: PREMIUM });
    expect(byAuthor.status).toBe(200);
    expect(byAuthor.body.body).toBe('edited');
    const byMaintainer = await api.put(`${fx.url}/${note.id}`, { token: fx.maintainer.token, body: { body: 'moderated' }, env: PREMIUM });
    expect(byMaintainer.status).toBe(200);
    expect((await api.delete(`${fx.url}/${note.id}`, { token: fx.stranger.token, env: PREMIUM })).status).toBe(403);
    expect((await api.delete(`${fx.url}/${note.id}`, { token: fx.maintainer.token, env: PREMIUM })).status).toBe(204);
    expect(await noteRows(fx.epic.id)).toBe(0);
    const gone = await api.get(`${fx.url}/${note.id}`, { token: fx.owner.token, env: PREMIUM });
    expect(gone.status).toBe(404);
  });

  it('refuses bad input and writes nothing', async () => {
    const fx = await setup();
    const cases: Array<[Record<string, unknown>, number, unknown]> = [
      [{}, 400, { error: 'body is missing' }],
      [{ body: '   ' }, 400, { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' }],
    ];
    for (const [body, status, message] of cases) {
      const res = await api.post(fx.url, { token: fx.owner.token, body, env: PREMIUM });
      expect([body, res.status, res.body]).toEqual([body, status, message]);
    }
    const bad = await api.get(`/groups/${fx.group.id}/epics/abc/notes`, { token: fx.owner.token, env: PREMIUM });
    expect(bad.status).toBe(400);
    expect(await noteRows(fx.epic.id)).toBe(0);
  });
});

describe('epic discussions', () => {
  it('creates, lists, replies to, edits and deletes a thread on the epic', async () => {
    const fx = await setup('public');
    const base = `/groups/${fx.group.id}/epics/${fx.epic.id}/discussions`;
    const created = await api.post(base, { token: fx.guest.token, body: { body: 'Thread' }, env: PREMIUM });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{40}$/),
      individual_note: false,
      notes: [expect.objectContaining({ type: 'DiscussionNote', body: 'Thread', noteable_type: 'Epic', noteable_id: fx.epic.id, noteable_iid: null })],
    });
    const id = created.body.id as string;
    const reply = await api.post(`${base}/${id}/notes`, { token: fx.reporter.token, body: { body: 'Reply' }, env: PREMIUM });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ type: 'DiscussionNote', body: 'Reply', noteable_type: 'Epic' });
    const one = await api.get(`${base}/${id}`, { token: fx.stranger.token, env: PREMIUM });
    expect(one.status).toBe(200);
    expect(one.body.notes.map((n: { body: string }) => n.body)).toEqual(['Thread', 'Reply']);
    const list = await api.get(base, { token: fx.owner.token, env: PREMIUM });
    expect(list.status).toBe(200);
    expect(list.body.map((d: { id: string }) => d.id)).toEqual([id]);
    const edited = await api.put(`${base}/${id}/notes/${reply.body.id}`, { token: fx.reporter.token, body: { body: 'Edited' }, env: PREMIUM });
    expect(edited.status).toBe(200);
    expect(edited.body.body).toBe('Edited');
    expect((await api.delete(`${base}/${id}/notes/${reply.body.id}`, { token: fx.reporter.token, env: PREMIUM })).status).toBe(204);
    // An individual note on an epic can be replied to (EE's replyable types include Epic).
    const single = await api.post(fx.url, { token: fx.owner.token, body: { body: 'Single' }, env: PREMIUM });
    const [stored] = await testDb().db.select().from(notes).where(eq(notes.id, single.body.id));
    const replyToSingle = await api.post(`${base}/${stored!.discussionId}/notes`, { token: fx.owner.token, body: { body: 'Re' }, env: PREMIUM });
    expect(replyToSingle.status, replyToSingle.text).toBe(201);
    const missing = await api.get(`${base}/${'0'.repeat(40)}`, { token: fx.owner.token, env: PREMIUM });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Discussion Not Found' });
  });
});

describe('epic notes: mention to-dos', () => {
  it('gives a to-do to mentioned users who may read the epic, pointing at the epic in its group', async () => {
    const fx = await setup('private');
    const res = await api.post(fx.url, {
      token: fx.owner.token,
      body: { body: `Hey @${fx.reporter.user.username} and @${fx.stranger.user.username}` },
      env: PREMIUM,
    });
    expect(res.status).toBe(201);
    const rows = await testDb()
      .db.select()
      .from(todos)
      .where(and(eq(todos.targetType, 'Epic'), eq(todos.targetId, fx.epic.id)));
    expect(rows).toEqual([
      expect.objectContaining({
        userId: fx.reporter.user.id,
        authorId: fx.owner.user.id,
        groupId: fx.group.id,
        projectId: null,
        noteId: res.body.id,
        action: 2,
        state: 'pending',
      }),
    ]);
  });
});

// The shared authorization suite: notes follow the epic (a hidden group is 404, a confidential epic is hidden from
// guests: `404 Not found`); editing another's note needs a maintainer.
describeAuthorization('POST /groups/:id/epics/:epic_id/notes', {
  fixture: async () => {
    const fx = await setup('private', { confidential: true });
    return { ...fx, allowed: fx.reporter.token, nonMember: fx.stranger.token, insufficientRole: fx.guest.token };
  },
  call: (fx, token) => api.post(fx.url, { token, body: { body: 'hello' }, env: PREMIUM }),
  success: 201,
  nonMember: { status: 404, body: { message: '404 Group Not Found' } },
  insufficientRole: { status: 404, body: { message: '404 Not found' } },
});

describeAuthorization('PUT /groups/:id/epics/:epic_id/notes/:note_id', {
  fixture: async () => {
    const fx = await setup('public');
    const note = (await api.post(fx.url, { token: fx.guest.token, body: { body: 'mine' }, env: PREMIUM })).body as { id: number };
    return { ...fx, noteUrl: `${fx.url}/${note.id}`, allowed: fx.guest.token, otherUser: fx.reporter.token, nonMember: fx.stranger.token };
  },
  call: (fx, token) => api.put(fx.noteUrl, { token, body: { body: 'edited' }, env: PREMIUM }),
  success: 200,
  nonMember: { status: 403, body: { message: '403 Forbidden' } },
  otherUser: { status: 403, body: { message: '403 Forbidden' } },
});
