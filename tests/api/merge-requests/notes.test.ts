// Notes and award emoji on merge requests through HTTP (GitLab 13.6 lib/api/notes.rb and award_emoji.rb): the
// Entities::Note of an MR note (noteable_type, noteable_iid, resolvable), list/get/create/update/delete, the
// commented event, the touched MR and its user_notes_count, mention to-dos, who may do what, and awards on the MR
// and on its notes.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { todos } from '../../../db/schema/index.ts';
import { addMember } from '../../factories/groups.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { basic, ISO, mrProject, mrs, openMergeRequest } from './support.ts';

const NOTE_KEYS = [
  'id',
  'type',
  'body',
  'attachment',
  'author',
  'created_at',
  'updated_at',
  'system',
  'noteable_id',
  'noteable_type',
  'resolvable',
  'confidential',
  'noteable_iid',
  'commands_changes',
];

async function setup() {
  const fx = await mrProject('mr-notes');
  const mr = await openMergeRequest(fx);
  const guest = await createUser();
  await addMember(fx.owner.token, 'projects', fx.project.id, guest.user.id, 10);
  const stranger = await createUser();
  const url = `${mrs(fx)}/${mr.iid}/notes`;
  return { ...fx, mr, guest, stranger, url };
}

describe('merge request notes', () => {
  it('creates a note (201, Entities::Note with noteable_type MergeRequest), reads, lists, updates and deletes it', async () => {
    const fx = await setup();
    const res = await api.post(fx.url, { token: fx.reporter.token, body: { body: 'Looks fine' } });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body)).toEqual(NOTE_KEYS);
    expect(res.body).toEqual({
      id: expect.any(Number),
      type: null,
      body: 'Looks fine',
      attachment: null,
      author: basic(fx.reporter.user),
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      system: false,
      noteable_id: fx.mr.id,
      noteable_type: 'MergeRequest',
      resolvable: false,
      confidential: false,
      noteable_iid: fx.mr.iid,
      commands_changes: {},
    });
    const one = await api.get(`${fx.url}/${res.body.id}`, { token: fx.developer.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(res.body);

    const list = await api.get(fx.url, { token: fx.owner.token });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total')).toBe('1');
    expect(list.body).toEqual([res.body]);

    // The MR counts it and was touched.
    const mr = await api.get(`${mrs(fx)}/${fx.mr.iid}`, { token: fx.owner.token });
    expect(mr.body.user_notes_count).toBe(1);
    expect(mr.body.updated_at).toBe(res.body.created_at);

    // The commented event points at the note.
    const ev = await api.get(`/projects/${fx.project.id}/events`, { token: fx.owner.token, query: { action: 'commented' } });
    expect(ev.body.map((e: Record<string, unknown>) => [e.target_type, e.target_id, e.author_id])).toEqual([['Note', res.body.id, fx.reporter.user.id]]);

    // Its author edits it; a developer may not (403); the author deletes it.
    const edited = await api.put(`${fx.url}/${res.body.id}`, { token: fx.reporter.token, body: { body: 'Looks great' } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toEqual({ ...res.body, body: 'Looks great', updated_at: expect.stringMatching(ISO) });
    const refused = await api.put(`${fx.url}/${res.body.id}`, { token: fx.developer.token, body: { body: 'mine now' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: '403 Forbidden' });
    expect((await api.delete(`${fx.url}/${res.body.id}`, { token: fx.developer.token })).status).toBe(403);
    expect((await api.delete(`${fx.url}/${res.body.id}`, { token: fx.reporter.token })).status).toBe(204);
    expect((await api.get(`${fx.url}/${res.body.id}`, { token: fx.owner.token })).body).toEqual({ message: '404 Not found' });
    expect((await api.get(`${mrs(fx)}/${fx.mr.iid}`, { token: fx.owner.token })).body.user_notes_count).toBe(0);
  });

  it('gives a to-do to a mentioned member who may read the MR, not to a stranger', async () => {
    const fx = await setup();
    const res = await api.post(fx.url, {
      token: fx.owner.token,
      body: { body: `@${fx.developer.user.username} and @${fx.stranger.user.username} please look` },
    });
    expect(res.status, res.text).toBe(201);
    const rows = await testDb()
      .db.select()
      .from(todos)
      .where(and(eq(todos.targetType, 'MergeRequest'), eq(todos.targetId, fx.mr.id)));
    expect(rows.map((t) => [t.userId, t.noteId])).toEqual([[fx.developer.user.id, res.body.id]]);
  });

  it('a missing MR is 404 MergeRequest Not Found, as is one the caller cannot read; a blank body 400; anonymous 401', async () => {
    const fx = await setup();
    const missing = await api.get(`${mrs(fx)}/999/notes`, { token: fx.owner.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 MergeRequest Not Found' });
    // A guest of a private project does not read its merge requests.
    const guest = await api.get(fx.url, { token: fx.guest.token });
    expect(guest.status).toBe(404);
    expect(guest.body).toEqual({ message: '404 MergeRequest Not Found' });
    const stranger = await api.post(fx.url, { token: fx.stranger.token, body: { body: 'hi' } });
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual({ message: '404 Project Not Found' });
    const blank = await api.post(fx.url, { token: fx.owner.token, body: { body: '  ' } });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ message: '400 Bad request - Note {:note=>["can\'t be blank"]}' });
    expect((await api.get(fx.url)).status).toBe(401);
    expect((await api.get(fx.url, { token: fx.owner.token })).body).toEqual([]);
  });
});

describe('award emoji on merge requests and their notes', () => {
  it('awards the MR (201), lists, reads one, refuses a duplicate and removes it; the MR counts upvotes', async () => {
    const fx = await setup();
    const base = `${mrs(fx)}/${fx.mr.iid}/award_emoji`;
    const res = await api.post(base, { token: fx.developer.token, body: { name: 'thumbsup' } });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body)).toEqual(['id', 'name', 'user', 'created_at', 'updated_at', 'awardable_id', 'awardable_type']);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'thumbsup',
      user: basic(fx.developer.user),
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      awardable_id: fx.mr.id,
      awardable_type: 'MergeRequest',
    });
    const list = await api.get(base, { token: fx.reporter.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([res.body]);
    expect((await api.get(`${base}/${res.body.id}`, { token: fx.owner.token })).body).toEqual(res.body);
    const again = await api.post(base, { token: fx.developer.token, body: { name: 'thumbsup' } });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 Award Emoji Name has already been taken Not Found' });
    expect((await api.get(`${mrs(fx)}/${fx.mr.iid}`, { token: fx.owner.token })).body.upvotes).toBe(1);
    // Only its awarder (or an administrator) removes it.
    expect((await api.delete(`${base}/${res.body.id}`, { token: fx.owner.token })).status).toBe(401);
    expect((await api.delete(`${base}/${res.body.id}`, { token: fx.developer.token })).status).toBe(204);
    expect((await api.get(base, { token: fx.owner.token })).body).toEqual([]);
    // A missing MR is `404 Not found` (find_by!); a guest of the private project is told 404 Award Emoji Not Found.
    expect((await api.get(`${mrs(fx)}/999/award_emoji`, { token: fx.owner.token })).body).toEqual({ message: '404 Not found' });
    const guest = await api.get(base, { token: fx.guest.token });
    expect(guest.status).toBe(404);
    expect(guest.body).toEqual({ message: '404 Award Emoji Not Found' });
  });

  it('awards a note of the MR, lists and removes it', async () => {
    const fx = await setup();
    const note = await api.post(fx.url, { token: fx.owner.token, body: { body: 'Ship it' } });
    const base = `${fx.url}/${note.body.id}/award_emoji`;
    const res = await api.post(base, { token: fx.reporter.token, body: { name: 'tada' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'tada',
      user: basic(fx.reporter.user),
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      awardable_id: note.body.id,
      awardable_type: 'Note',
    });
    expect((await api.get(base, { token: fx.developer.token })).body).toEqual([res.body]);
    expect((await api.delete(`${base}/${res.body.id}`, { token: fx.reporter.token })).status).toBe(204);
    expect((await api.get(`${fx.url}/999999/award_emoji`, { token: fx.owner.token })).body).toEqual({ message: '404 Not found' });
  });
});

type AuthFx = Awaited<ReturnType<typeof setup>> & { allowed: string; nonMember: string; insufficientRole: string };

const authFixture = async (): Promise<AuthFx> => {
  const fx = await setup();
  return { ...fx, allowed: fx.reporter.token, nonMember: fx.stranger.token, insufficientRole: fx.guest.token };
};

describeAuthorization('GET merge request notes', {
  fixture: authFixture,
  call: (fx, token) => api.get(fx.url, { token }),
  success: 200,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 404, body: { message: '404 MergeRequest Not Found' } },
});

describeAuthorization('POST merge request notes', {
  fixture: authFixture,
  call: (fx, token) => api.post(fx.url, { token, body: { body: 'hello' } }),
  success: 201,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 404, body: { message: '404 MergeRequest Not Found' } },
});

describeAuthorization('POST merge request award emoji', {
  fixture: authFixture,
  call: (fx, token) => api.post(`${mrs(fx)}/${fx.mr.iid}/award_emoji`, { token, body: { name: 'thumbsup' } }),
  success: 201,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 404, body: { message: '404 Award Emoji Not Found' } },
});
