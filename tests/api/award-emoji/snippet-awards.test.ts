// Award emoji on project snippets and on notes on project snippets, through HTTP: the entity, list/get/award/remove,
// visibility (the snippet's own and the project's), names, duplicates, who removes, pagination and query budget.
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { awardEmoji, projects } from '../../../db/schema/index.ts';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createProjectSnippet, type SnippetVisibility } from '../../factories/snippets.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { api, queryCount, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function setup(visibility: 'public' | 'private' = 'public', snippetVisibility: SnippetVisibility = 'public') {
  const owner = await createUser();
  const guest = await createUser();
  const stranger = await createUser();
  const project = await createProject(owner.token, { visibility });
  await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
  const snippet = await createProjectSnippet(owner.token, project.id, { visibility: snippetVisibility });
  const snippetUrl = `/projects/${project.id}/snippets/${snippet.id}`;
  const note = await api.post(`${snippetUrl}/notes`, { token: owner.token, body: { body: 'a comment' } });
  expect(note.status, note.text).toBe(201);
  return {
    owner,
    guest,
    stranger,
    project,
    snippet,
    snippetUrl,
    note: note.body as { id: number },
    url: `${snippetUrl}/award_emoji`,
    noteUrl: `${snippetUrl}/notes/${note.body.id}/award_emoji`,
  };
}

const rows = async (type: 'Snippet' | 'Note', id: number) =>
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

describe('award emoji on project snippets', () => {
  it('awards (201), lists, reads one (anonymous too on a public snippet) and removes it', async () => {
    const fx = await setup();
    const res = await api.post(fx.url, { token: fx.stranger.token, body: { name: '+1' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'thumbsup',
      user: basic(fx.stranger.user),
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      awardable_id: fx.snippet.id,
      awardable_type: 'Snippet',
    });
    const list = await api.get(fx.url);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([res.body]);
    expect(list.headers.get('x-total')).toBe('1');
    expect((await api.get(`${fx.url}/${res.body.id}`)).body).toEqual(res.body);
    expect(await api.post(fx.url, { body: { name: 'tada' } })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await api.delete(`${fx.url}/${res.body.id}`)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await api.delete(`${fx.url}/${res.body.id}`, { token: fx.owner.token })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await rows('Snippet', fx.snippet.id)).toBe(1);
    expect((await api.delete(`${fx.url}/${res.body.id}`, { token: fx.stranger.token })).status).toBe(204);
    expect(await rows('Snippet', fx.snippet.id)).toBe(0);
  });

  it('names: unknown or with control characters 400, missing 400, duplicates refused, concurrent awards make one row', async () => {
    const fx = await setup();
    for (const name of ['thumbs\u0000up', 'tada\n', 'nope_not_one']) {
      expect(await api.post(fx.url, { token: fx.guest.token, body: { name } })).toMatchObject({
        status: 400,
        body: { message: { name: ['is not a valid emoji name'] } },
      });
    }
    expect(await api.post(fx.url, { token: fx.guest.token, body: {} })).toMatchObject({ status: 400, body: { error: 'name is missing' } });
    expect(await rows('Snippet', fx.snippet.id)).toBe(0);
    const results = await Promise.all(Array.from({ length: 10 }, () => api.post(fx.url, { token: fx.guest.token, body: { name: 'tada' } })));
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(404)]);
    expect(results.find((r) => r.status === 404)!.body).toEqual({ message: '404 Award Emoji Name has already been taken Not Found' });
    expect(await rows('Snippet', fx.snippet.id)).toBe(1);
  });

  it('a hidden project or snippet is 404; an award of another snippet is 404 Not found', async () => {
    const priv = await setup('private', 'private');
    expect(await api.get(priv.url)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await api.post(priv.url, { token: priv.stranger.token, body: { name: 'tada' } })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
    expect((await api.post(priv.url, { token: priv.guest.token, body: { name: 'tada' } })).status).toBe(201);

    // A private snippet of a public project: members only.
    const fx = await setup('public', 'private');
    expect(await api.get(fx.url)).toMatchObject({ status: 404, body: { message: '404 Snippet Not Found' } });
    expect(await api.post(fx.url, { token: fx.stranger.token, body: { name: 'tada' } })).toMatchObject({
      status: 404,
      body: { message: '404 Snippet Not Found' },
    });
    expect(await api.get(fx.noteUrl, { token: fx.stranger.token })).toMatchObject({ status: 404, body: { message: '404 Snippet Not Found' } });
    const award = await api.post(fx.url, { token: fx.guest.token, body: { name: 'tada' } });
    expect(award.status).toBe(201);
    expect(await api.get(`/projects/${fx.project.id}/snippets/99999999/award_emoji`, { token: fx.owner.token })).toMatchObject({
      status: 404,
      body: { message: '404 Snippet Not Found' },
    });

    const other = await createProjectSnippet(fx.owner.token, fx.project.id, { visibility: 'public' });
    const otherUrl = `/projects/${fx.project.id}/snippets/${other.id}/award_emoji`;
    expect(await api.get(`${otherUrl}/${award.body.id}`, { token: fx.owner.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await api.delete(`${otherUrl}/${award.body.id}`, { token: fx.guest.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    // A snippet of another project is not found under this one.
    expect(await api.get(`/projects/${priv.project.id}/snippets/${other.id}/award_emoji`, { token: priv.owner.token })).toMatchObject({
      status: 404,
      body: { message: '404 Snippet Not Found' },
    });
    expect(await rows('Snippet', fx.snippet.id)).toBe(1);
  });

  it('an archived project takes no awards; an administrator removes anyone’s', async () => {
    const fx = await setup();
    const admin = await createAdmin();
    const award = await api.post(fx.url, { token: fx.guest.token, body: { name: 'eyes' } });
    expect(award.status).toBe(201);
    await testDb().db.update(projects).set({ archived: true }).where(eq(projects.id, fx.project.id));
    expect(await api.post(fx.url, { token: fx.owner.token, body: { name: 'tada' } })).toMatchObject({
      status: 404,
      body: { message: '404 Award Emoji Not Found' },
    });
    expect(await api.post(fx.noteUrl, { token: fx.owner.token, body: { name: 'tada' } })).toMatchObject({
      status: 404,
      body: { message: '404 Award Emoji Not Found' },
    });
    expect((await api.delete(`${fx.url}/${award.body.id}`, { token: admin.token })).status).toBe(204);
    expect(await rows('Snippet', fx.snippet.id)).toBe(0);
  });
});

describe('award emoji on notes on project snippets', () => {
  it('awards a note, lists with pagination in constant queries, reads one and removes it', async () => {
    const fx = await setup();
    const res = await api.post(fx.noteUrl, { token: fx.stranger.token, body: { name: 'heart' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'heart',
      user: basic(fx.stranger.user),
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      awardable_id: fx.note.id,
      awardable_type: 'Note',
    });
    expect((await api.get(`${fx.noteUrl}/${res.body.id}`)).body).toEqual(res.body);
    expect(await api.get(`${fx.url}/${res.body.id}`)).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    for (const t of [fx.owner, fx.guest]) expect((await api.post(fx.noteUrl, { token: t.token, body: { name: 'heart' } })).status).toBe(201);
    const one = await api.get(fx.noteUrl, { query: { per_page: 1 } });
    const all = await api.get(fx.noteUrl, { query: { per_page: 100 } });
    expect(one.headers.get('x-total')).toBe('3');
    expect(one.headers.get('x-next-page')).toBe('2');
    expect(all.body.map((a: any) => a.user.id)).toEqual([fx.stranger.user.id, fx.owner.user.id, fx.guest.user.id]);
    expect(queryCount(all)).toBeLessThanOrEqual(queryCount(one));
    // project, snippet, note, the page with its users and total (anonymous: no authentication query)
    expect(queryCount(all)).toBeLessThanOrEqual(5);
    expect(await api.delete(`${fx.noteUrl}/${res.body.id}`, { token: fx.guest.token })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect((await api.delete(`${fx.noteUrl}/${res.body.id}`, { token: fx.stranger.token })).status).toBe(204);
    expect(await rows('Note', fx.note.id)).toBe(2);
  });

  it('a note not on that snippet is 404 Not found', async () => {
    const fx = await setup();
    const other = await createProjectSnippet(fx.owner.token, fx.project.id, { visibility: 'public' });
    const url = `/projects/${fx.project.id}/snippets/${other.id}/notes/${fx.note.id}/award_emoji`;
    expect(await api.get(url)).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await api.post(url, { token: fx.owner.token, body: { name: 'tada' } })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await rows('Note', fx.note.id)).toBe(0);
  });
});
