// Bad input on create and update: Grape's parameter errors (`{"error":"..."}`) and the Snippets services' errors
// (`{"message":{"error":"..."}}`), always 400, and nothing written.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { snippetFiles, snippets } from '../../../db/schema/index.ts';
import { createProject } from '../../factories/projects.ts';
import { createSnippet } from '../../factories/snippets.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';

const countOf = async (authorId: number) => {
  const [row] = await testDb()
    .db.select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(snippets)
    .where(eq(snippets.authorId, authorId));
  return row!.n;
};

const file = { file_name: 'a.rb', content: 'x' };

describe('snippet parameters', () => {
  const cases: [string, Record<string, unknown>, unknown][] = [
    ['title missing', { ...file }, { error: 'title is missing' }],
    ['title blank', { title: '  ', ...file }, { error: 'title is empty' }],
    ['neither content nor files', { title: 't' }, { error: 'files, content are missing, exactly one parameter must be provided' }],
    ['title and content missing', {}, { error: 'title is missing, files, content are missing, exactly one parameter must be provided' }],
    ['content without file_name', { title: 't', content: 'x' }, { error: 'file_name is missing' }],
    ['content blank', { title: 't', file_name: 'a', content: ' ' }, { error: 'content is empty' }],
    ['both content and files', { title: 't', ...file, files: [{ file_path: 'b', content: 'y' }] }, { error: 'files, content are mutually exclusive' }],
    ['invalid visibility', { title: 't', ...file, visibility: 'secret' }, { error: 'visibility does not have a valid value' }],
    ['files without content', { title: 't', files: [{ file_path: 'b' }] }, { error: 'files[0][content] is missing' }],
    [
      'files with an empty path and empty content',
      {
        title: 't',
        files: [
          { file_path: 'ok', content: 'y' },
          { file_path: '', content: '' },
        ],
      },
      { error: 'files[1][file_path] is empty, files[1][content] is empty' },
    ],
    [
      'files with a traversing path',
      { title: 't', files: [{ file_path: '../etc/passwd', content: 'y' }] },
      { error: 'files[0][file_path] should be a valid file path' },
    ],
    ['files not an array', { title: 't', files: 'a.rb' }, { error: 'files is invalid' }],
    ['title too long', { title: 'x'.repeat(256), ...file }, { message: { error: 'Title is too long (maximum is 255 characters)' } }],
    [
      'file name too long',
      { title: 't', file_name: `${'x'.repeat(256)}`, content: 'x' },
      { message: { error: 'File name is too long (maximum is 255 characters)' } },
    ],
    [
      'duplicate file paths',
      {
        title: 't',
        files: [
          { file_path: 'same.rb', content: 'a' },
          { file_path: 'same.rb', content: 'b' },
        ],
      },
      { message: { error: 'Repository Error creating the snippet - A file with this name already exists' } },
    ],
  ];

  for (const [name, body, expected] of cases) {
    it(`POST /snippets: ${name} -> 400, nothing written`, async () => {
      const { user, token } = await createUser();
      const res = await api.post('/snippets', { token, body });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toEqual(expected);
      expect(await countOf(user.id)).toBe(0);
    });
  }

  it('POST /projects/:id/snippets: visibility is required; the same rules apply; nothing written', async () => {
    const { user, token } = await createUser();
    const project = await createProject(token);
    const base = `/projects/${project.id}/snippets`;
    expect(await api.post(base, { token, body: { title: 't', ...file } })).toMatchObject({
      status: 400,
      body: { error: 'visibility is missing, visibility does not have a valid value' },
    });
    expect(await api.post(base, { token, body: { title: 't', visibility: 'public' } })).toMatchObject({
      status: 400,
      body: { error: 'files, content are missing, exactly one parameter must be provided' },
    });
    expect(await api.post(base, { token, body: { title: 'x'.repeat(300), visibility: 'public', ...file } })).toMatchObject({
      status: 400,
      body: { message: { error: 'Title is too long (maximum is 255 characters)' } },
    });
    expect(await countOf(user.id)).toBe(0);
  });

  it('PUT: at least one parameter, blank title, exclusive files/content, bad visibility, too long title; nothing written', async () => {
    const { token } = await createUser();
    const s = await createSnippet(token, { files: [{ file_path: 'a.txt', content: 'A' }] });
    const put = (body: unknown) => api.put(`/snippets/${s.id}`, { token, body });
    expect(await put({})).toMatchObject({
      status: 400,
      body: { error: 'content, description, files, file_name, title, visibility are missing, at least one parameter must be provided' },
    });
    expect(await put({ title: '' })).toMatchObject({ status: 400, body: { error: 'title is empty' } });
    expect(await put({ content: '' })).toMatchObject({ status: 400, body: { error: 'content is empty' } });
    expect(await put({ content: 'x', files: [{ action: 'update', file_path: 'a.txt', content: 'y' }] })).toMatchObject({
      status: 400,
      body: { error: 'files, content are mutually exclusive' },
    });
    expect(await put({ visibility: 'everyone' })).toMatchObject({ status: 400, body: { error: 'visibility does not have a valid value' } });
    expect(await put({ title: 'y'.repeat(256) })).toMatchObject({ status: 400, body: { message: { error: 'Title is too long (maximum is 255 characters)' } } });
    const [row] = await testDb().db.select().from(snippets).where(eq(snippets.id, s.id));
    expect(row).toMatchObject({ title: s.title, visibilityLevel: 0 });
    expect(
      await testDb().db.select({ path: snippetFiles.path, content: snippetFiles.content }).from(snippetFiles).where(eq(snippetFiles.snippetId, s.id)),
    ).toEqual([{ path: 'a.txt', content: 'A' }]);
  });

  it('anonymous writes are 401 before the parameters are looked at', async () => {
    expect(await api.post('/snippets', { body: {} })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
  });
});
