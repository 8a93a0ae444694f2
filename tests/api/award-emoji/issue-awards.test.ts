// Award emoji on issues and on notes on issues, through HTTP: the entity, list/get/award/remove, who may do what,
// name rules (gemoji names, `+1` stored as `thumbsup`), duplicates (also concurrent), pagination and query budget.
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { awardEmoji, projects } from '../../../db/schema/index.ts';
import { addMember } from '../../factories/groups.ts';
import { createIssue } from '../../factories/issues.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { api, queryCount, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function setup(visibility: 'public' | 'private' = 'public') {
  const owner = await createUser();
  const reporter = await createUser();
  const guest = await createUser();
  const stranger = await createUser();
  const project = await createProject(owner.token, { visibility });
  await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
  await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
  const issue = await createIssue(owner.token, project.id);
  const issueUrl = `/projects/${project.id}/issues/${issue.iid}`;
  const note = await api.post(`${issueUrl}/notes`, { token: owner.token, body: { body: 'a comment' } });
  expect(note.status).toBe(201);
  return {
    owner,
    reporter,
    guest,
    stranger,
    project,
    issue,
    issueUrl,
    note: note.body as { id: number },
    url: `${issueUrl}/award_emoji`,
    noteUrl: `${issueUrl}/notes/${note.body.id}/award_emoji`,
  };
}

const rows = async (type: 'Issue' | 'Note', id: number) =>
  (
    await testDb()
      .db.select({ n: count() })
      .from(awardEmoji)
      .where(and(eq(awardEmoji.awardableType, type), eq(awardEmoji.awardableId, id)))
  )[0]!.n;

const basic = (u: { id: number; name: string; username: string }) => ({
  id: u.id,
  name: u.name,
  username: u.username,
  state: 'active',
  avatar_url: null,
  web_url: `${TEST_PUBLIC_URL}/${u.username}`,
});

describe('award emoji on issues', () => {
  it('awards (201, Entities::AwardEmoji), lists, reads one, and removes it (204)', async () => {
    const fx = await setup();
    const res = await api.post(fx.url, { token: fx.guest.token, body: { name: 'tada' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'tada',
      user: basic(fx.guest.user),
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      awardable_id: fx.issue.id,
      awardable_type: 'Issue',
    });
    const list = await api.get(fx.url, { token: fx.stranger.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([res.body]);
    const one = await api.get(`${fx.url}/${res.body.id}`, { token: fx.stranger.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(res.body);
    const del = await api.delete(`${fx.url}/${res.body.id}`, { token: fx.guest.token });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect(await rows('Issue', fx.issue.id)).toBe(0);
    expect(await api.get(`${fx.url}/${res.body.id}`, { token: fx.guest.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it('stores `+1` as thumbsup (the issue counts an upvote) and `-1` as thumbsdown', async () => {
    const fx = await setup();
    const up = await api.post(fx.url, { token: fx.guest.token, body: { name: '+1' } });
    expect(up.status, up.text).toBe(201);
    expect(up.body.name).toBe('thumbsup');
    const down = await api.post(fx.url, { token: fx.reporter.token, query: { name: '-1' } });
    expect(down.status, down.text).toBe(201);
    expect(down.body.name).toBe('thumbsdown');
    const issue = await api.get(fx.issueUrl, { token: fx.owner.token });
    expect(issue.body).toMatchObject({ upvotes: 1, downvotes: 1 });
    // `thumbsup` itself after `+1` is the same award.
    expect(await api.post(fx.url, { token: fx.guest.token, body: { name: 'thumbsup' } })).toMatchObject({
      status: 404,
      body: { message: '404 Award Emoji Name has already been taken Not Found' },
    });
  });

  it('refuses unknown names, control characters and whitespace (400) and a missing name, writing nothing', async () => {
    const fx = await setup();
    for (const name of ['not_an_emoji', 'thumbs\u0000up', 'tada\n', ' tada', 'thumbs up', '', ':tada:']) {
      const res = await api.post(fx.url, { token: fx.guest.token, body: { name } });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.body).toEqual({ message: { name: ['is not a valid emoji name'] } });
    }
    expect(await api.post(fx.url, { token: fx.guest.token, body: {} })).toMatchObject({ status: 400, body: { error: 'name is missing' } });
    expect((await api.post(fx.url, { token: fx.guest.token, body: { name: null } })).status).toBe(400);
    expect(await rows('Issue', fx.issue.id)).toBe(0);
    // A number from JSON is a name as Grape coerces it.
    expect(await api.post(fx.url, { token: fx.guest.token, body: { name: 100 } })).toMatchObject({ status: 201, body: { name: '100' } });
  });

  it('refuses the same award twice, and ten concurrent identical awards make exactly one row', async () => {
    const fx = await setup();
    expect((await api.post(fx.url, { token: fx.guest.token, body: { name: 'rocket' } })).status).toBe(201);
    const again = await api.post(fx.url, { token: fx.guest.token, body: { name: 'rocket' } });
    expect(again).toMatchObject({ status: 404, body: { message: '404 Award Emoji Name has already been taken Not Found' } });
    // Another user, or another name, is a different award.
    expect((await api.post(fx.url, { token: fx.reporter.token, body: { name: 'rocket' } })).status).toBe(201);
    expect((await api.post(fx.url, { token: fx.guest.token, body: { name: 'eyes' } })).status).toBe(201);
    expect(await rows('Issue', fx.issue.id)).toBe(3);

    const results = await Promise.all(Array.from({ length: 10 }, () => api.post(fx.url, { token: fx.owner.token, body: { name: 'heart' } })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) {
      expect(r).toMatchObject({ status: 404, body: { message: '404 Award Emoji Name has already been taken Not Found' } });
    }
    const hearts = await testDb()
      .db.select({ n: count() })
      .from(awardEmoji)
      .where(and(eq(awardEmoji.awardableType, 'Issue'), eq(awardEmoji.awardableId, fx.issue.id), eq(awardEmoji.name, 'heart')));
    expect(hearts[0]!.n).toBe(1);
  });

  it('lists oldest first with pagination headers, in a constant number of queries', async () => {
    const fx = await setup();
    const names = ['tada', 'rocket', 'eyes', 'heart', 'smile', 'confused'];
    const users = [fx.owner, fx.reporter, fx.guest];
    const ids: number[] = [];
    for (let i = 0; i < names.length; i++) {
      const res = await api.post(fx.url, { token: users[i % 3]!.token, body: { name: names[i] } });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const page = await api.get(fx.url, { query: { per_page: 4, page: 2 } });
    expect(page.status).toBe(200);
    expect(page.body.map((a: any) => a.id)).toEqual(ids.slice(4));
    expect(page.headers.get('x-total')).toBe('6');
    expect(page.headers.get('x-total-pages')).toBe('2');
    expect(page.headers.get('x-page')).toBe('2');
    expect(page.headers.get('x-per-page')).toBe('4');
    expect(page.headers.get('x-prev-page')).toBe('1');
    expect(page.headers.get('x-next-page')).toBe('');
    expect(page.headers.get('link')).toContain('rel="first"');

    const one = await api.get(fx.url, { token: fx.guest.token, query: { per_page: 1 } });
    const all = await api.get(fx.url, { token: fx.guest.token, query: { per_page: 100 } });
    expect(one.headers.get('x-next-page')).toBe('2');
    expect(all.body.map((a: any) => a.id)).toEqual(ids);
    expect(all.body.map((a: any) => a.user.id)).toEqual(names.map((_, i) => users[i % 3]!.user.id));
    expect(queryCount(all)).toBeLessThanOrEqual(queryCount(one));
    // authentication, project, issue, the page with its users and total
    expect(queryCount(all)).toBeLessThanOrEqual(4);
  });
});

describe('award emoji on issues: who may do what', () => {
  it('anonymous callers read a public project’s awards but may not award or remove (401)', async () => {
    const fx = await setup();
    const award = await api.post(fx.url, { token: fx.guest.token, body: { name: 'tada' } });
    expect((await api.get(fx.url)).body).toEqual([award.body]);
    expect((await api.get(`${fx.url}/${award.body.id}`)).body).toEqual(award.body);
    expect(await api.post(fx.url, { body: { name: 'tada' } })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await api.delete(`${fx.url}/${award.body.id}`)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await rows('Issue', fx.issue.id)).toBe(1);
  });

  it('a private project or a confidential issue is 404 for those who cannot read it', async () => {
    const fx = await setup('private');
    expect(await api.get(fx.url)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await api.get(fx.url, { token: fx.stranger.token })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await api.post(fx.url, { token: fx.stranger.token, body: { name: 'tada' } })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
    expect((await api.get(fx.url, { token: fx.guest.token })).status).toBe(200);

    const secret = await createIssue(fx.owner.token, fx.project.id, { confidential: true });
    const url = `/projects/${fx.project.id}/issues/${secret.iid}/award_emoji`;
    const award = await api.post(url, { token: fx.reporter.token, body: { name: 'tada' } });
    expect(award.status).toBe(201);
    expect(await api.get(url, { token: fx.guest.token })).toMatchObject({ status: 404, body: { message: '404 Issue Not Found' } });
    expect(await api.get(`${url}/${award.body.id}`, { token: fx.guest.token })).toMatchObject({ status: 404, body: { message: '404 Issue Not Found' } });
    expect(await api.post(url, { token: fx.guest.token, body: { name: 'tada' } })).toMatchObject({ status: 404, body: { message: '404 Issue Not Found' } });
    expect(await api.get(`/projects/${fx.project.id}/issues/999999/award_emoji`, { token: fx.owner.token })).toMatchObject({
      status: 404,
      body: { message: '404 Issue Not Found' },
    });
    expect(await rows('Issue', secret.id)).toBe(1);
  });

  it('an award of another awardable, or none, is 404 Not found', async () => {
    const fx = await setup();
    const other = await createIssue(fx.owner.token, fx.project.id);
    const award = await api.post(`/projects/${fx.project.id}/issues/${other.iid}/award_emoji`, { token: fx.guest.token, body: { name: 'tada' } });
    expect(award.status).toBe(201);
    expect(await api.get(`${fx.url}/${award.body.id}`, { token: fx.guest.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await api.delete(`${fx.url}/${award.body.id}`, { token: fx.guest.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await api.get(`${fx.url}/99999999`, { token: fx.guest.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await api.get(`${fx.url}/abc`, { token: fx.guest.token })).toMatchObject({ status: 400, body: { error: 'award_id is invalid' } });
    expect(await rows('Issue', other.id)).toBe(1);
  });

  it('only the awarder or an administrator removes an award (others 401, the row kept)', async () => {
    const fx = await setup();
    const admin = await createAdmin();
    const a = await api.post(fx.url, { token: fx.guest.token, body: { name: 'tada' } });
    const b = await api.post(fx.url, { token: fx.guest.token, body: { name: 'rocket' } });
    for (const other of [fx.owner, fx.reporter, fx.stranger]) {
      expect(await api.delete(`${fx.url}/${a.body.id}`, { token: other.token })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    }
    expect(await rows('Issue', fx.issue.id)).toBe(2);
    expect((await api.delete(`${fx.url}/${a.body.id}`, { token: admin.token })).status).toBe(204);
    expect((await api.delete(`${fx.url}/${b.body.id}`, { token: fx.guest.token })).status).toBe(204);
    expect(await rows('Issue', fx.issue.id)).toBe(0);
  });

  it('a locked discussion refuses awards from non-members (404 Award Emoji Not Found); members still award', async () => {
    const fx = await setup();
    expect((await api.put(fx.issueUrl, { token: fx.owner.token, body: { discussion_locked: true } })).body.discussion_locked).toBe(true);
    expect(await api.post(fx.url, { token: fx.stranger.token, body: { name: 'tada' } })).toMatchObject({
      status: 404,
      body: { message: '404 Award Emoji Not Found' },
    });
    expect(await api.post(fx.noteUrl, { token: fx.stranger.token, body: { name: 'tada' } })).toMatchObject({
      status: 404,
      body: { message: '404 Award Emoji Not Found' },
    });
    expect(await rows('Issue', fx.issue.id)).toBe(0);
    expect((await api.get(fx.url, { token: fx.stranger.token })).status).toBe(200);
    expect((await api.post(fx.url, { token: fx.guest.token, body: { name: 'tada' } })).status).toBe(201);
    expect((await api.post(fx.noteUrl, { token: fx.guest.token, body: { name: 'tada' } })).status).toBe(201);
  });

  it('an archived project takes no awards', async () => {
    const fx = await setup();
    await testDb().db.update(projects).set({ archived: true }).where(eq(projects.id, fx.project.id));
    expect(await api.post(fx.url, { token: fx.owner.token, body: { name: 'tada' } })).toMatchObject({
      status: 404,
      body: { message: '404 Award Emoji Not Found' },
    });
    expect(await api.post(fx.noteUrl, { token: fx.owner.token, body: { name: 'tada' } })).toMatchObject({
      status: 404,
      body: { message: '404 Award Emoji Not Found' },
    });
    expect((await api.get(fx.url, { token: fx.owner.token })).status).toBe(200);
    expect(await rows('Issue', fx.issue.id)).toBe(0);
  });
});

describe('award emoji on notes on issues', () => {
  it('awards a note, lists, reads one and removes it', async () => {
    const fx = await setup();
    const res = await api.post(fx.noteUrl, { token: fx.stranger.token, body: { name: '+1' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'thumbsup',
      user: basic(fx.stranger.user),
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      awardable_id: fx.note.id,
      awardable_type: 'Note',
    });
    const list = await api.get(fx.noteUrl);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([res.body]);
    expect(list.headers.get('x-total')).toBe('1');
    expect((await api.get(`${fx.noteUrl}/${res.body.id}`)).body).toEqual(res.body);
    // The note's award is not the issue's.
    expect(await api.get(`${fx.url}/${res.body.id}`)).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect((await api.get(fx.url)).body).toEqual([]);
    expect(await api.post(fx.noteUrl, { token: fx.stranger.token, body: { name: 'thumbsup' } })).toMatchObject({
      status: 404,
      body: { message: '404 Award Emoji Name has already been taken Not Found' },
    });
    expect(await api.post(fx.noteUrl, { token: fx.stranger.token, body: { name: 'tada\n' } })).toMatchObject({
      status: 400,
      body: { message: { name: ['is not a valid emoji name'] } },
    });
    expect(await api.delete(`${fx.noteUrl}/${res.body.id}`, { token: fx.guest.token })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect((await api.delete(`${fx.noteUrl}/${res.body.id}`, { token: fx.stranger.token })).status).toBe(204);
    expect(await rows('Note', fx.note.id)).toBe(0);
  });

  it('a note not on that issue is 404 Not found; an unreadable note is 404 Award Emoji Not Found', async () => {
    const fx = await setup();
    const other = await createIssue(fx.owner.token, fx.project.id);
    const elsewhere = `/projects/${fx.project.id}/issues/${other.iid}/notes/${fx.note.id}/award_emoji`;
    expect(await api.get(elsewhere, { token: fx.owner.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await api.post(elsewhere, { token: fx.owner.token, body: { name: 'tada' } })).toMatchObject({ status: 404, body: { message: '404 Not found' } });

    const secret = await api.post(`${fx.issueUrl}/notes`, { token: fx.reporter.token, body: { body: 'internal', confidential: true } });
    expect(secret.body.confidential).toBe(true);
    const url = `${fx.issueUrl}/notes/${secret.body.id}/award_emoji`;
    const award = await api.post(url, { token: fx.reporter.token, body: { name: 'eyes' } });
    expect(award.status).toBe(201);
    for (const token of [undefined, fx.stranger.token, fx.guest.token]) {
      expect(await api.get(url, { token })).toMatchObject({ status: 404, body: { message: '404 Award Emoji Not Found' } });
      expect(await api.get(`${url}/${award.body.id}`, { token })).toMatchObject({ status: 404, body: { message: '404 Award Emoji Not Found' } });
    }
    expect(await api.post(url, { token: fx.guest.token, body: { name: 'tada' } })).toMatchObject({
      status: 404,
      body: { message: '404 Award Emoji Not Found' },
    });
    expect(await rows('Note', secret.body.id)).toBe(1);

    // Notes of a private project's issue: 404 Project Not Found for outsiders.
    const priv = await setup('private');
    expect(await api.get(priv.noteUrl)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await api.post(priv.noteUrl, { token: priv.stranger.token, body: { name: 'tada' } })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
  });

  it('ten concurrent identical awards on a note make one row; the list costs constant queries', async () => {
    const fx = await setup();
    const results = await Promise.all(Array.from({ length: 10 }, () => api.post(fx.noteUrl, { token: fx.guest.token, body: { name: 'tada' } })));
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(404)]);
    expect(await rows('Note', fx.note.id)).toBe(1);
    for (const t of [fx.owner, fx.reporter]) expect((await api.post(fx.noteUrl, { token: t.token, body: { name: 'tada' } })).status).toBe(201);
    const one = await api.get(fx.noteUrl, { token: fx.guest.token, query: { per_page: 1 } });
    const all = await api.get(fx.noteUrl, { token: fx.guest.token, query: { per_page: 100 } });
    expect(all.body).toHaveLength(3);
    expect(one.headers.get('x-total')).toBe('3');
    expect(queryCount(all)).toBeLessThanOrEqual(queryCount(one));
    // authentication, project, issue, note, the page with its users and total
    expect(queryCount(all)).toBeLessThanOrEqual(5);
  });
});
