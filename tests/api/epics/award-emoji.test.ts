// Award emoji on group epics and their notes (13.6 EE, Premium) through HTTP: epics by iid here (unlike the notes
// API), the entity, who may award and remove, the tier gate (404 Award Emoji Not Found once the epic is found),
// the epic's upvotes/downvotes, and bad input that writes nothing.
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { awardEmoji } from '../../../db/schema/index.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createEpic, FREE, PREMIUM } from './support.ts';

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

async function setup(visibility: 'private' | 'public' = 'public') {
  const owner = await createUser();
  const guest = await createUser();
  const stranger = await createUser();
  const group = await createGroup(owner.token, { visibility });
  await addMember(owner.token, 'groups', group.id, guest.user.id, 10);
  const epic = await createEpic(owner.token, group.id);
  return { owner, guest, stranger, group, epic, url: `/groups/${group.id}/epics/${epic.iid}/award_emoji` };
}

const awardRows = async (type: 'Epic' | 'Note', id: number) =>
  (
    await testDb()
      .db.select({ n: count() })
      .from(awardEmoji)
      .where(and(eq(awardEmoji.awardableType, type), eq(awardEmoji.awardableId, id)))
  )[0]!.n;

describe('award emoji on epics', () => {
  it('awards, lists, reads and removes by the epic iid; the epic counts its votes', async () => {
    const fx = await setup();
    const res = await api.post(fx.url, { token: fx.stranger.token, body: { name: 'thumbsup' }, env: PREMIUM });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'thumbsup',
      user: expect.objectContaining({ id: fx.stranger.user.id, username: fx.stranger.user.username }),
      created_at: ISO,
      updated_at: ISO,
      awardable_id: fx.epic.id,
      awardable_type: 'Epic',
    });
    await api.post(fx.url, { token: fx.guest.token, body: { name: 'thumbsdown' }, env: PREMIUM });
    const list = await api.get(fx.url, { token: fx.owner.token, env: PREMIUM });
    expect(list.status).toBe(200);
    expect(list.body.map((a: { name: string }) => a.name)).toEqual(['thumbsup', 'thumbsdown']);
    expect(list.headers.get('x-total')).toBe('2');
    const epic = await api.get(`/groups/${fx.group.id}/epics/${fx.epic.iid}`, { token: fx.owner.token, env: PREMIUM });
    expect(epic.body).toMatchObject({ upvotes: 1, downvotes: 1 });
    const one = await api.get(`${fx.url}/${res.body.id}`, { token: fx.guest.token, env: PREMIUM });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(res.body);
    const dup = await api.post(fx.url, { token: fx.stranger.token, body: { name: 'thumbsup' }, env: PREMIUM });
    expect(dup.status).toBe(404);
    expect(dup.body).toEqual({ message: '404 Award Emoji Name has already been taken Not Found' });
    // Only the awarder (or an admin) removes it: others 401.
    const byOther = await api.delete(`${fx.url}/${res.body.id}`, { token: fx.owner.token, env: PREMIUM });
    expect(byOther.status).toBe(401);
    expect((await api.delete(`${fx.url}/${res.body.id}`, { token: fx.stranger.token, env: PREMIUM })).status).toBe(204);
    expect(await awardRows('Epic', fx.epic.id)).toBe(1);
  });

  it('answers 404 for a missing epic, a hidden group, an unreadable or unlicensed epic', async () => {
    const fx = await setup('private');
    const missing = await api.get(`/groups/${fx.group.id}/epics/999/award_emoji`, { token: fx.owner.token, env: PREMIUM });
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not found' }]);
    const hidden = await api.post(fx.url, { token: fx.stranger.token, body: { name: 'thumbsup' }, env: PREMIUM });
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Group Not Found' }]);
    const free = await api.post(fx.url, { token: fx.owner.token, body: { name: 'thumbsup' }, env: FREE });
    expect([free.status, free.body]).toEqual([404, { message: '404 Award Emoji Not Found' }]);
    const freeList = await api.get(fx.url, { token: fx.owner.token, env: FREE });
    expect([freeList.status, freeList.body]).toEqual([404, { message: '404 Award Emoji Not Found' }]);
    const confidential = await createEpic(fx.owner.token, fx.group.id, { confidential: true });
    const guest = await api.post(`/groups/${fx.group.id}/epics/${confidential.iid}/award_emoji`, {
      token: fx.guest.token,
      body: { name: 'thumbsup' },
      env: PREMIUM,
    });
    expect([guest.status, guest.body]).toEqual([404, { message: '404 Award Emoji Not Found' }]);
    expect(await awardRows('Epic', fx.epic.id)).toBe(0);
  });

  it('refuses bad input and writes nothing', async () => {
    const fx = await setup();
    const cases: Array<[Record<string, unknown>, number, unknown]> = [
      [{}, 400, { error: 'name is missing' }],
      [{ name: 'not-an-emoji' }, 400, { message: { name: ['is not a valid emoji name'] } }],
    ];
    for (const [body, status, message] of cases) {
      const res = await api.post(fx.url, { token: fx.owner.token, body, env: PREMIUM });
      expect([body, res.status, res.body]).toEqual([body, status, message]);
    }
    const anonymous = await api.post(fx.url, { body: { name: 'thumbsup' }, env: PREMIUM });
    expect(anonymous.status).toBe(401);
    expect(await awardRows('Epic', fx.epic.id)).toBe(0);
  });
});

describe('award emoji on epic notes', () => {
  it('awards a note of the epic found by iid', async () => {
    const fx = await setup();
    const note = (await api.post(`/groups/${fx.group.id}/epics/${fx.epic.id}/notes`, { token: fx.owner.token, body: { body: 'hi' }, env: PREMIUM })).body;
    const url = `/groups/${fx.group.id}/epics/${fx.epic.iid}/notes/${note.id}/award_emoji`;
    const res = await api.post(url, { token: fx.guest.token, body: { name: 'tada' }, env: PREMIUM });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: 'tada', awardable_id: note.id, awardable_type: 'Note' });
    const list = await api.get(url, { token: fx.stranger.token, env: PREMIUM });
    expect(list.body.map((a: { id: number }) => a.id)).toEqual([res.body.id]);
    const wrongNote = await api.get(`/groups/${fx.group.id}/epics/${fx.epic.iid}/notes/999999999/award_emoji`, { token: fx.owner.token, env: PREMIUM });
    expect([wrongNote.status, wrongNote.body]).toEqual([404, { message: '404 Not found' }]);
    const free = await api.post(url, { token: fx.owner.token, body: { name: 'tada' }, env: FREE });
    expect([free.status, free.body]).toEqual([404, { message: '404 Award Emoji Not Found' }]);
    expect(await awardRows('Note', note.id)).toBe(1);
  });
});

describeAuthorization('POST /groups/:id/epics/:epic_iid/award_emoji', {
  fixture: async () => {
    const fx = await setup('private');
    return { ...fx, allowed: fx.guest.token, nonMember: fx.stranger.token };
  },
  call: (fx, token) => api.post(fx.url, { token, body: { name: 'thumbsup' }, env: PREMIUM }),
  success: 201,
  nonMember: { status: 404, body: { message: '404 Group Not Found' } },
  anonymous: { status: 401, body: { message: '401 Unauthorized' } },
});
