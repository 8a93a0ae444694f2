import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, snippetFiles, snippets } from '../../../db/schema/index.ts';
import { createSnippet } from '../../factories/snippets.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { api, queryCount, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';

/** Writes of several rows run in a transaction: on the PostgreSQL suite BEGIN and COMMIT are counted round trips. */
const TX = process.env.TEST_DB === 'postgres' ? 2 : 0;

const userBasic = (u: { id: number; username: string; name: string }) => ({
  id: u.id,
  name: u.name,
  username: u.username,
  state: 'active',
  avatar_url: null,
  web_url: `${TEST_PUBLIC_URL}/${u.username}`,
});

const filesOf = (snippetId: number) =>
  testDb()
    .db.select({ path: snippetFiles.path, content: snippetFiles.content, position: snippetFiles.position })
    .from(snippetFiles)
    .where(eq(snippetFiles.snippetId, snippetId))
    .orderBy(snippetFiles.position);

describe('personal snippets', () => {
  it('creates with file_name + content (private by default), reads it back with the Snippet entity, no expires_at, no event', async () => {
    const { user, token } = await createUser();
    const res = await api.post('/snippets', { token, body: { title: 'Hello', description: 'Say hi', file_name: 'hello.rb', content: 'puts "hi"\n' } });
    expect(res.status, res.text).toBe(201);
    const id = res.body.id;
    const web = `${TEST_PUBLIC_URL}/-/snippets/${id}`;
    expect(res.body).toEqual({
      id: expect.any(Number),
      title: 'Hello',
      description: 'Say hi',
      visibility: 'private',
      author: userBasic(user),
      updated_at: expect.any(String),
      created_at: expect.any(String),
      project_id: null,
      web_url: web,
      raw_url: `${web}/raw`,
      file_name: 'hello.rb',
      files: [{ path: 'hello.rb', raw_url: `${web}/raw/master/hello.rb` }],
    });
    expect(Object.keys(res.body)).toEqual([
      'id',
      'title',
      'description',
      'visibility',
      'author',
      'updated_at',
      'created_at',
      'project_id',
      'web_url',
      'raw_url',
      'file_name',
      'files',
    ]);
    expect(res.body).not.toHaveProperty('expires_at');
    // The token, the snippet, its files, its user agent detail (a first use of the token also records it).
    expect(queryCount(res)).toBeLessThanOrEqual(5 + TX);

    const read = await api.get(`/snippets/${id}`, { token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    expect(queryCount(read)).toBeLessThanOrEqual(2);

    const [row] = await testDb().db.select().from(snippets).where(eq(snippets.id, id));
    expect(row).toMatchObject({ type: 'PersonalSnippet', projectId: null, authorId: user.id, visibilityLevel: 0 });
    expect(await filesOf(id)).toEqual([{ path: 'hello.rb', content: 'puts "hi"\n', position: 0 }]);
    // GitLab records no event for snippets.
    expect(await testDb().db.select().from(events).where(eq(events.authorId, user.id))).toEqual([]);
  });

  it('creates with files[] (several files, in order), form-encoded too', async () => {
    const { token } = await createUser();
    const res = await api.post('/snippets', {
      token,
      body: {
        title: 'multi',
        visibility: 'public',
        files: [
          { file_path: 'b.md', content: '# B' },
          { file_path: 'dir/a b.txt', content: 'A' },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    const web = `${TEST_PUBLIC_URL}/-/snippets/${res.body.id}`;
    expect(res.body.visibility).toBe('public');
    expect(res.body.file_name).toBe('b.md');
    expect(res.body.files).toEqual([
      { path: 'b.md', raw_url: `${web}/raw/master/b.md` },
      { path: 'dir/a b.txt', raw_url: `${web}/raw/master/dir/a%20b.txt` },
    ]);
    expect(await filesOf(res.body.id)).toEqual([
      { path: 'b.md', content: '# B', position: 0 },
      { path: 'dir/a b.txt', content: 'A', position: 1 },
    ]);

    // The file path is one URL-encoded segment (the ref is not checked: snippets keep no history).
    const nested = await api.get(`/snippets/${res.body.id}/files/master/${encodeURIComponent('dir/a b.txt')}/raw`, { token });
    expect(nested.status).toBe(200);
    expect(nested.text).toBe('A');

    const form = await api.post('/snippets', { token, form: { title: 'form', file_name: 'f.txt', content: 'x', visibility: 'internal' } });
    expect(form.status, form.text).toBe(201);
    expect(form.body).toMatchObject({ title: 'form', file_name: 'f.txt', visibility: 'internal' });
  });

  it('raw: the first file as text/plain', async () => {
    const { token } = await createUser();
    const s = await createSnippet(token, {
      files: [
        { file_path: 'one.py', content: 'print(1)\n' },
        { file_path: 'two.py', content: 'print(2)\n' },
      ],
    });
    const raw = await api.get(`/snippets/${s.id}/raw`, { token });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(raw.headers.get('content-disposition')).toBe(`inline; filename="one.py"; filename*=UTF-8''one.py`);
    expect(raw.text).toBe('print(1)\n');
    expect(queryCount(raw)).toBeLessThanOrEqual(3);

    const file = await api.get(`/snippets/${s.id}/files/master/two.py/raw`, { token });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(file.text).toBe('print(2)\n');
    expect((await api.get(`/snippets/${s.id}/files/master/nope.py/raw`, { token })).body).toEqual({ message: '404 File Not Found' });
    expect((await api.get(`/snippets/${s.id + 100000}/raw`, { token })).body).toEqual({ message: '404 Snippet Not Found' });
  });

  it("GET /snippets lists the caller's own personal snippets, newest first, paginated; 401 anonymous", async () => {
    const me = await createUser();
    const other = await createUser();
    const a = await createSnippet(me.token, { visibility: 'private' });
    const b = await createSnippet(me.token, { visibility: 'public' });
    const c = await createSnippet(me.token, { visibility: 'internal' });
    await createSnippet(other.token, { visibility: 'public' });
    const all = await api.get('/snippets', { token: me.token });
    expect(all.status).toBe(200);
    expect(all.body.map((s: any) => s.id)).toEqual([c.id, b.id, a.id]);
    expect(all.body[0]).toEqual(c);
    expect(all.headers.get('x-total')).toBe('3');
    expect(all.headers.get('x-page')).toBe('1');
    expect(all.headers.get('x-per-page')).toBe('20');

    const page = await api.get('/snippets', { token: me.token, query: { per_page: 2, page: 2 } });
    expect(page.body.map((s: any) => s.id)).toEqual([a.id]);
    expect(page.headers.get('x-total')).toBe('3');
    expect(page.headers.get('x-total-pages')).toBe('2');
    expect(page.headers.get('x-prev-page')).toBe('1');
    expect(page.headers.get('x-next-page')).toBe('');
    expect(page.headers.get('link')).toContain('rel="first"');

    expect(await api.get('/snippets')).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect((await api.get('/snippets', { token: me.token, query: { page: 0 } })).status).toBe(400);
  });

  it('the list costs a constant number of queries, whatever the number of snippets and files', async () => {
    const me = await createUser();
    await createSnippet(me.token, { files: [{ file_path: 'a', content: 'a' }] });
    const one = await api.get('/snippets', { token: me.token });
    for (let i = 0; i < 5; i++)
      await createSnippet(me.token, {
        files: [
          { file_path: 'a', content: 'a' },
          { file_path: 'b', content: 'b' },
          { file_path: 'c', content: 'c' },
        ],
      });
    const six = await api.get('/snippets', { token: me.token });
    expect(six.body).toHaveLength(6);
    expect(six.body[0].files).toHaveLength(3);
    expect(queryCount(six)).toBeLessThanOrEqual(queryCount(one));
    expect(queryCount(six)).toBeLessThanOrEqual(3);
    console.log(`snippets: list ${queryCount(six)} queries`);
  });

  it('GET /snippets/public lists public personal snippets of everyone (not internal or private, not project snippets)', async () => {
    const me = await createUser();
    const other = await createUser();
    const pub = await createSnippet(other.token, { visibility: 'public' });
    const internal = await createSnippet(other.token, { visibility: 'internal' });
    const priv = await createSnippet(other.token, { visibility: 'private' });
    const res = await api.get('/snippets/public', { token: me.token, query: { per_page: 100 } });
    expect(res.status).toBe(200);
    const ids = res.body.map((s: any) => s.id);
    expect(ids).toContain(pub.id);
    expect(ids).not.toContain(internal.id);
    expect(ids).not.toContain(priv.id);
    expect(res.body.every((s: any) => s.visibility === 'public' && s.project_id === null)).toBe(true);
    expect(res.headers.get('x-per-page')).toBe('100');
    expect(res.headers.get('x-total')).toEqual(expect.any(String));
    expect(await api.get('/snippets/public')).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
  });

  it('visibility of one snippet: author, another user, an external user, anonymous, admin', async () => {
    const author = await createUser();
    const other = await createUser();
    const external = await createUser({ external: true });
    const admin = await createAdmin();
    const snippet = {
      private: await createSnippet(author.token, { visibility: 'private' }),
      internal: await createSnippet(author.token, { visibility: 'internal' }),
      public: await createSnippet(author.token, { visibility: 'public' }),
    };
    const NOT_FOUND = { status: 404, body: { message: '404 Snippet Not Found' } };
    const expected: Record<string, Record<keyof typeof snippet, number>> = {
      author: { private: 200, internal: 200, public: 200 },
      other: { private: 404, internal: 200, public: 200 },
      external: { private: 404, internal: 404, public: 200 },
      anonymous: { private: 404, internal: 404, public: 200 },
      admin: { private: 200, internal: 200, public: 200 },
    };
    const tokens: Record<string, string | undefined> = {
      author: author.token,
      other: other.token,
      external: external.token,
      anonymous: undefined,
      admin: admin.token,
    };
    for (const [who, byVisibility] of Object.entries(expected)) {
      for (const [visibility, status] of Object.entries(byVisibility)) {
        const s = snippet[visibility as keyof typeof snippet];
        const res = await api.get(`/snippets/${s.id}`, { token: tokens[who] });
        expect(res.status, `${who} reads ${visibility}`).toBe(status);
        if (status === 404) expect(res.body).toEqual(NOT_FOUND.body);
        else expect(res.body).toEqual(s);
        const raw = await api.get(`/snippets/${s.id}/raw`, { token: tokens[who] });
        expect(raw.status, `${who} reads ${visibility} raw`).toBe(status);
      }
    }
  });

  it('updates (author or admin; 403 for another user who can see it, 404 when hidden)', async () => {
    const author = await createUser();
    const other = await createUser();
    const admin = await createAdmin();
    const s = await createSnippet(author.token, { visibility: 'internal', files: [{ file_path: 'a.txt', content: 'A' }] });

    const updated = await api.put(`/snippets/${s.id}`, {
      token: author.token,
      body: { title: 'new title', description: null, visibility: 'public', file_name: 'b.txt', content: 'B' },
    });
    expect(updated.status, updated.text).toBe(200);
    const web = `${TEST_PUBLIC_URL}/-/snippets/${s.id}`;
    expect(updated.body).toMatchObject({
      id: s.id,
      title: 'new title',
      description: null,
      visibility: 'public',
      file_name: 'b.txt',
      files: [{ path: 'b.txt', raw_url: `${web}/raw/master/b.txt` }],
    });
    expect(updated.body).not.toHaveProperty('expires_at');
    expect(await filesOf(s.id)).toEqual([{ path: 'b.txt', content: 'B', position: 0 }]);
    expect((await api.get(`/snippets/${s.id}`, { token: author.token })).body).toEqual(updated.body);

    // Only content: the file keeps its name.
    const content = await api.put(`/snippets/${s.id}`, { token: author.token, form: { content: 'C' } });
    expect(content.body.file_name).toBe('b.txt');
    expect((await api.get(`/snippets/${s.id}/raw`, { token: author.token })).text).toBe('C');

    const forbidden = await api.put(`/snippets/${s.id}`, { token: other.token, body: { title: 'hijack' } });
    expect(forbidden).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await api.delete(`/snippets/${s.id}`, { token: other.token })).status).toBe(403);

    const byAdmin = await api.put(`/snippets/${s.id}`, { token: admin.token, body: { title: 'by admin' } });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.title).toBe('by admin');
    expect(byAdmin.body.author.id).toBe(author.user.id);

    const hidden = await createSnippet(author.token, { visibility: 'private' });
    expect(await api.put(`/snippets/${hidden.id}`, { token: other.token, body: { title: 'x' } })).toMatchObject({
      status: 404,
      body: { message: '404 Snippet Not Found' },
    });
    expect(await api.put(`/snippets/${hidden.id}`, { body: { title: 'x' } })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    const [row] = await testDb().db.select().from(snippets).where(eq(snippets.id, hidden.id));
    expect(row!.title).toBe(hidden.title);
  });

  it('updates files with actions: create, update, move, delete (in one transaction)', async () => {
    const { token } = await createUser();
    const s = await createSnippet(token, {
      files: [
        { file_path: 'a.txt', content: 'A' },
        { file_path: 'b.txt', content: 'B' },
      ],
    });
    const res = await api.put(`/snippets/${s.id}`, {
      token,
      body: {
        files: [
          { action: 'update', file_path: 'a.txt', content: 'A2' },
          { action: 'move', previous_path: 'b.txt', file_path: 'c.txt' },
          { action: 'create', file_path: 'd.txt', content: 'D' },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.files.map((f: any) => f.path)).toEqual(['a.txt', 'c.txt', 'd.txt']);
    expect(await filesOf(s.id)).toEqual([
      { path: 'a.txt', content: 'A2', position: 0 },
      { path: 'c.txt', content: 'B', position: 1 },
      { path: 'd.txt', content: 'D', position: 2 },
    ]);
    const del = await api.put(`/snippets/${s.id}`, { token, body: { files: [{ action: 'delete', file_path: 'a.txt' }] } });
    expect(del.body.file_name).toBe('c.txt');

    // Several files: content/file_name are refused.
    expect(await api.put(`/snippets/${s.id}`, { token, body: { content: 'x' } })).toMatchObject({
      status: 400,
      body: { message: { error: 'To update Snippets with multiple files, you must use the `files` parameter' } },
    });
    // A clash fails the whole change: nothing is written.
    const clash = await api.put(`/snippets/${s.id}`, {
      token,
      body: {
        title: 'changed',
        files: [
          { action: 'update', file_path: 'c.txt', content: 'changed' },
          { action: 'create', file_path: 'd.txt', content: 'again' },
        ],
      },
    });
    expect(clash).toMatchObject({ status: 400, body: { message: { error: 'Repository Error updating the snippet - A file with this name already exists' } } });
    expect(await api.put(`/snippets/${s.id}`, { token, body: { files: [{ action: 'update', file_path: 'zzz', content: 'x' }] } })).toMatchObject({
      status: 400,
      body: { message: { error: "Repository Error updating the snippet - A file with this name doesn't exist" } },
    });
    expect(await api.put(`/snippets/${s.id}`, { token, body: { files: [{ action: 'update', file_path: 'c.txt' }] } })).toMatchObject({
      status: 400,
      body: { message: { error: 'Snippet actions have invalid data' } },
    });
    expect(await api.put(`/snippets/${s.id}`, { token, body: { files: [{ action: 'rename', file_path: 'c.txt' }] } })).toMatchObject({
      status: 400,
      body: { error: 'files[0][action] does not have a valid value' },
    });
    expect(await filesOf(s.id)).toEqual([
      { path: 'c.txt', content: 'B', position: 0 },
      { path: 'd.txt', content: 'D', position: 1 },
    ]);
    expect((await api.get(`/snippets/${s.id}`, { token })).body.title).toBe(s.title);
  });

  it('deletes (author: 204, files go too; then 404)', async () => {
    const { token } = await createUser();
    const s = await createSnippet(token);
    // destroy_conditionally!: a snippet changed after If-Unmodified-Since is kept (412).
    const stale = await api.delete(`/snippets/${s.id}`, {
      token,
      headers: { 'If-Unmodified-Since': new Date(Date.parse(s.updated_at) - 60_000).toUTCString() },
    });
    expect(stale).toMatchObject({ status: 412, body: { message: '412 Precondition Failed' } });
    const res = await api.delete(`/snippets/${s.id}`, { token, headers: { 'If-Unmodified-Since': new Date(Date.now() + 60_000).toUTCString() } });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await filesOf(s.id)).toEqual([]);
    expect(await api.get(`/snippets/${s.id}`, { token })).toMatchObject({ status: 404, body: { message: '404 Snippet Not Found' } });
    expect(await api.delete(`/snippets/${s.id}`, { token })).toMatchObject({ status: 404, body: { message: '404 Snippet Not Found' } });
  });

  it("ids: not a number is Grape's 400, an id no row can have is 404; project snippets are not personal ones", async () => {
    const { token } = await createUser();
    expect(await api.get('/snippets/abc', { token })).toMatchObject({ status: 400, body: { error: 'id is invalid' } });
    expect(await api.get('/snippets/99999999999', { token })).toMatchObject({ status: 404, body: { message: '404 Snippet Not Found' } });
    expect(await api.get('/snippets/0', { token })).toMatchObject({ status: 404, body: { message: '404 Snippet Not Found' } });
  });
});
