// Notes on project snippets: the same five endpoints as on issues, the snippet's own visibility, no to-dos.
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notes, todos } from '../../../db/schema/index.ts';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createProjectSnippet } from '../../factories/snippets.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';

async function setup(visibility: 'public' | 'private' = 'private') {
  const owner = await createUser();
  const guest = await createUser();
  const stranger = await createUser();
  const project = await createProject(owner.token, { visibility: 'public' });
  await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
  const snippet = await createProjectSnippet(owner.token, project.id, { visibility });
  return { owner, guest, stranger, project, snippet, url: `/projects/${project.id}/snippets/${snippet.id}/notes` };
}

describe('snippet notes', () => {
  it('create, list, get, update, delete on a project snippet', async () => {
    const fx = await setup();
    const created = await api.post(fx.url, { token: fx.guest.token, body: { body: `Nice, @${fx.owner.user.username}` } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      type: null,
      system: false,
      noteable_id: fx.snippet.id,
      noteable_type: 'Snippet',
      noteable_iid: null,
      confidential: false,
    });
    const list = await api.get(fx.url, { token: fx.owner.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([created.body]);
    expect(list.headers.get('x-total')).toBe('1');
    expect((await api.get(`${fx.url}/${created.body.id}`, { token: fx.owner.token })).body).toEqual(created.body);
    const updated = await api.put(`${fx.url}/${created.body.id}`, { token: fx.guest.token, body: { body: 'Nice.' } });
    expect(updated).toMatchObject({ status: 200, body: { body: 'Nice.' } });
    // The snippet was touched by the comment.
    const snippet = await api.get(`/projects/${fx.project.id}/snippets/${fx.snippet.id}`, { token: fx.owner.token });
    expect(new Date(snippet.body.updated_at).getTime()).toBeGreaterThan(new Date(fx.snippet.updated_at).getTime());
    // Mentions on snippets make no to-dos (Note#can_create_todo?).
    const made = await testDb().db.select({ n: count() }).from(todos).where(eq(todos.userId, fx.owner.user.id));
    expect(made[0]!.n).toBe(0);
    expect((await api.delete(`${fx.url}/${created.body.id}`, { token: fx.owner.token })).status).toBe(204);
    expect((await api.get(fx.url, { token: fx.owner.token })).body).toEqual([]);
  });

  it("a private snippet's notes are 404 Snippet Not Found to non-members; anonymous callers 401", async () => {
    const fx = await setup('private');
    expect(await api.get(fx.url, { token: fx.stranger.token })).toMatchObject({ status: 404, body: { message: '404 Snippet Not Found' } });
    expect(await api.post(fx.url, { token: fx.stranger.token, body: { body: 'x' } })).toMatchObject({
      status: 404,
      body: { message: '404 Snippet Not Found' },
    });
    expect(await api.get(fx.url)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await api.get(`/projects/${fx.project.id}/snippets/99999999/notes`, { token: fx.owner.token })).toMatchObject({
      status: 404,
      body: { message: '404 Snippet Not Found' },
    });
    expect(await api.get(`/projects/${fx.project.id}/snippets/abc/notes`, { token: fx.owner.token })).toMatchObject({
      status: 400,
      body: { error: 'noteable_id is invalid' },
    });
    const pub = await setup('public');
    expect((await api.post(pub.url, { token: pub.stranger.token, body: { body: 'hello' } })).status).toBe(201);
  });

  it('deleting the snippet deletes its notes', async () => {
    const fx = await setup('public');
    expect((await api.post(fx.url, { token: fx.guest.token, body: { body: 'bye' } })).status).toBe(201);
    expect((await api.delete(`/projects/${fx.project.id}/snippets/${fx.snippet.id}`, { token: fx.owner.token })).status).toBe(204);
    const left = await testDb()
      .db.select({ n: count() })
      .from(notes)
      .where(and(eq(notes.noteableType, 'Snippet'), eq(notes.noteableId, fx.snippet.id)));
    expect(left[0]!.n).toBe(0);
  });
});
