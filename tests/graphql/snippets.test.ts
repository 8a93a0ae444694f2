// Query.snippets, the Snippet and SnippetBlob types and createSnippet: exact bodies, visibility through the policy's
// SQL filter, SnippetsFinder's filters, keyset paging both ways, the mutation's payload errors and top-level errors,
// files readable through REST afterwards, and a constant number of queries per page.
import { describe, expect, it } from 'vitest';
import { addMember } from '../factories/groups.ts';
import { createProject } from '../factories/projects.ts';
import { createProjectSnippet, createSnippet } from '../factories/snippets.ts';
import { createUser } from '../factories/users.ts';
import { api, queryCount, TEST_PUBLIC_URL } from '../helpers/app.ts';
import { gql } from './helpers.ts';

const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";
const userGid = (id: number) => `gid://gitlab/User/${id}`;
const personalGid = (id: number) => `gid://gitlab/PersonalSnippet/${id}`;
const projectGid = (id: number) => `gid://gitlab/ProjectSnippet/${id}`;

const FULL = `
  id title description descriptionHtml fileName visibilityLevel webUrl rawUrl createdAt updatedAt
  author { username }
  project { fullPath }
  blob { name path }
  blobs { edges { cursor } nodes { name path rawPath size mode binary externalStorage renderedAsText plainData
    simpleViewer { type fileType collapsed tooLarge loadAsync loadingPartialName renderError } }
    pageInfo { hasNextPage hasPreviousPage } }
  userPermissions { adminSnippet awardEmoji createNote readSnippet reportSnippet updateSnippet }`;

const TEXT_VIEWER = { type: 'simple', fileType: 'text', collapsed: false, tooLarge: false, loadAsync: true, loadingPartialName: 'loading', renderError: null };
const cursor = (n: number) => Buffer.from(JSON.stringify({ id: String(n) })).toString('base64');

/** Titles of the snippets among `ids` the token's user sees. */
async function visibleTitles(ids: number[], token?: string, gidOf: (id: number) => string = personalGid) {
  const res = await gql('query($ids: [SnippetID!]) { snippets(ids: $ids) { nodes { title } } }', { token, variables: { ids: ids.map(gidOf) } });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.snippets.nodes.map((n: { title: string }) => n.title);
}

describe('Query.snippets', () => {
  it('a personal snippet: the whole Snippet and its blobs, exactly', async () => {
    const { user, token } = await createUser();
    const reader = await createUser();
    const s = await createSnippet(token, {
      title: 'Two files',
      description: 'Some <b>notes</b>',
      visibility: 'public',
      files: [
        { file_path: 'main.rb', content: 'puts "<hi>"\nexit\n' },
        { file_path: 'docs/read me.txt', content: 'héllo' },
      ],
    });
    const res = await gql(`query($ids: [SnippetID!]) { snippets(ids: $ids) { nodes { ${FULL} } } }`, {
      token: reader.token,
      variables: { ids: [personalGid(s.id)] },
    });
    const web = `${TEST_PUBLIC_URL}/-/snippets/${s.id}`;
    expect(res.body).toEqual({
      data: {
        snippets: {
          nodes: [
            {
              id: personalGid(s.id),
              title: 'Two files',
              description: 'Some <b>notes</b>',
              descriptionHtml: '<p dir="auto">Some &lt;b&gt;notes&lt;/b&gt;</p>',
              fileName: 'main.rb',
              visibilityLevel: 'public',
              webUrl: web,
              rawUrl: `${web}/raw`,
              createdAt: s.created_at,
              updatedAt: s.updated_at,
              author: { username: user.username },
              project: null,
              blob: { name: 'main.rb', path: 'main.rb' },
              blobs: {
                edges: [{ cursor: cursor(1) }, { cursor: cursor(2) }],
                nodes: [
                  {
                    name: 'main.rb',
                    path: 'main.rb',
                    rawPath: `/-/snippets/${s.id}/raw/master/main.rb`,
                    size: 17,
                    mode: '100644',
                    binary: false,
                    externalStorage: null,
                    renderedAsText: true,
                    plainData:
                      '<span id="LC1" class="line" lang="plaintext">puts "&lt;hi&gt;"</span>\n<span id="LC2" class="line" lang="plaintext">exit</span>',
                    simpleViewer: TEXT_VIEWER,
                  },
                  {
                    name: 'read me.txt',
                    path: 'docs/read me.txt',
                    rawPath: `/-/snippets/${s.id}/raw/master/docs/read%20me.txt`,
                    size: 6,
                    mode: '100644',
                    binary: false,
                    externalStorage: null,
                    renderedAsText: true,
                    plainData: '<span id="LC1" class="line" lang="plaintext">héllo</span>',
                    simpleViewer: TEXT_VIEWER,
                  },
                ],
                pageInfo: { hasNextPage: false, hasPreviousPage: false },
              },
              // A reader who is not the author: may award and read, not change.
              userPermissions: { adminSnippet: false, awardEmoji: true, createNote: false, readSnippet: true, reportSnippet: false, updateSnippet: false },
            },
          ],
        },
      },
    });
    // The author may change it; blobs(paths:) narrows the files.
    const own = await gql(
      `query($ids: [SnippetID!]) { snippets(ids: $ids) { nodes { userPermissions { adminSnippet updateSnippet readSnippet } blobs(paths: ["docs/read me.txt"]) { nodes { path } } } } }`,
      {
        token,
        variables: { ids: [personalGid(s.id)] },
      },
    );
    expect(own.body.data.snippets.nodes).toEqual([
      { userPermissions: { adminSnippet: true, updateSnippet: true, readSnippet: true }, blobs: { nodes: [{ path: 'docs/read me.txt' }] } },
    ]);
  });

  it('a project snippet: ProjectSnippet id, project, project URLs and the members’ permissions', async () => {
    const owner = await createUser();
    const guest = await createUser();
    const project = await createProject(owner.token, { visibility: 'private' });
    await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
    const s = await createProjectSnippet(owner.token, project.id, {
      title: 'Project one',
      visibility: 'private',
      files: [{ file_path: 'run.sh', content: 'echo 1' }],
    });
    const res = await gql(`query($ids: [SnippetID!]) { snippets(ids: $ids) { nodes { ${FULL} } } }`, {
      token: guest.token,
      variables: { ids: [projectGid(s.id)] },
    });
    const web = `${TEST_PUBLIC_URL}/${project.path_with_namespace}/-/snippets/${s.id}`;
    expect(res.body).toEqual({
      data: {
        snippets: {
          nodes: [
            {
              id: projectGid(s.id),
              title: 'Project one',
              description: null,
              descriptionHtml: '',
              fileName: 'run.sh',
              visibilityLevel: 'private',
              webUrl: web,
              rawUrl: `${web}/raw`,
              createdAt: s.created_at,
              updatedAt: s.updated_at,
              author: { username: owner.user.username },
              project: { fullPath: project.path_with_namespace },
              blob: { name: 'run.sh', path: 'run.sh' },
              blobs: {
                edges: [{ cursor: cursor(1) }],
                nodes: [
                  {
                    name: 'run.sh',
                    path: 'run.sh',
                    rawPath: `/${project.path_with_namespace}/-/snippets/${s.id}/raw/master/run.sh`,
                    size: 6,
                    mode: '100644',
                    binary: false,
                    externalStorage: null,
                    renderedAsText: true,
                    plainData: '<span id="LC1" class="line" lang="plaintext">echo 1</span>',
                    simpleViewer: TEXT_VIEWER,
                  },
                ],
                pageInfo: { hasNextPage: false, hasPreviousPage: false },
              },
              userPermissions: { adminSnippet: false, awardEmoji: true, createNote: true, readSnippet: true, reportSnippet: false, updateSnippet: false },
            },
          ],
        },
      },
    });
    // Non-members and anonymous callers do not see it (the project is private).
    const stranger = await createUser();
    expect(await visibleTitles([s.id], stranger.token, projectGid)).toEqual([]);
    expect(await visibleTitles([s.id], undefined, projectGid)).toEqual([]);
    expect(await visibleTitles([s.id], owner.token, projectGid)).toEqual(['Project one']);
  });

  it('Noteable: a project snippet’s notes and discussions; a personal snippet has none', async () => {
    const { token } = await createUser();
    const project = await createProject(token, { visibility: 'public' });
    const ps = await createProjectSnippet(token, project.id, { visibility: 'public' });
    const personal = await createSnippet(token, { visibility: 'public' });
    const note = await api.post(`/projects/${project.id}/snippets/${ps.id}/notes`, { token, body: { body: 'First comment' } });
    expect(note.status).toBe(201);
    const res = await gql(
      `query($ids: [SnippetID!]) { snippets(ids: $ids) { nodes { id notes { nodes { id body } } discussions { nodes { notes { nodes { body } } } } } } }`,
      { token, variables: { ids: [projectGid(ps.id), personalGid(personal.id)] } },
    );
    expect(res.body).toEqual({
      data: {
        snippets: {
          nodes: [
            { id: personalGid(personal.id), notes: { nodes: [] }, discussions: { nodes: [] } },
            {
              id: projectGid(ps.id),
              notes: { nodes: [{ id: `gid://gitlab/Note/${note.body.id}`, body: 'First comment' }] },
              discussions: { nodes: [{ notes: { nodes: [{ body: 'First comment' }] } }] },
            },
          ],
        },
      },
    });
  });

  it('visibility: private for the author only, internal for signed-in users, public for everyone', async () => {
    const author = await createUser();
    const other = await createUser();
    const external = await createUser({ external: true });
    const priv = await createSnippet(author.token, { title: 'private one', visibility: 'private' });
    const internal = await createSnippet(author.token, { title: 'internal one', visibility: 'internal' });
    const pub = await createSnippet(author.token, { title: 'public one', visibility: 'public' });
    const ids = [priv.id, internal.id, pub.id];
    expect(await visibleTitles(ids, author.token)).toEqual(['public one', 'internal one', 'private one']);
    expect(await visibleTitles(ids, other.token)).toEqual(['public one', 'internal one']);
    expect(await visibleTitles(ids, external.token)).toEqual(['public one']);
    expect(await visibleTitles(ids)).toEqual(['public one']);
    // A private snippet of a public project: its project's members only.
    const project = await createProject(author.token, { visibility: 'public' });
    const ps = await createProjectSnippet(author.token, project.id, { title: 'members only', visibility: 'private' });
    expect(await visibleTitles([ps.id], other.token, projectGid)).toEqual([]);
    expect(await visibleTitles([ps.id], undefined, projectGid)).toEqual([]);
    await addMember(author.token, 'projects', project.id, other.user.id, 10);
    expect(await visibleTitles([ps.id], other.token, projectGid)).toEqual(['members only']);
  });

  it('filters: authorId, projectId, type, visibility, explore; authorId with projectId is an error', async () => {
    const author = await createUser();
    const reader = await createUser();
    const project = await createProject(author.token, { visibility: 'public' });
    await createSnippet(author.token, { title: 'mine private', visibility: 'private' });
    await createSnippet(author.token, { title: 'mine public', visibility: 'public' });
    await createSnippet(author.token, { title: 'mine internal', visibility: 'internal' });
    await createProjectSnippet(author.token, project.id, { title: 'in project', visibility: 'public' });
    const titles = async (args: string, token = author.token) => {
      const defs = [args.includes('$a') ? '$a: UserID' : '', args.includes('$p') ? '$p: ProjectID' : ''].filter(Boolean).join(', ');
      const res = await gql(`query(${defs}) { snippets(${args}) { nodes { title } } }`, {
        token,
        variables: {
          ...(args.includes('$a') ? { a: userGid(author.user.id) } : {}),
          ...(args.includes('$p') ? { p: `gid://gitlab/Project/${project.id}` } : {}),
        },
      });
      expect(res.body.errors).toBeUndefined();
      return res.body.data.snippets.nodes.map((n: { title: string }) => n.title);
    };
    expect(await titles('authorId: $a')).toEqual(['in project', 'mine internal', 'mine public', 'mine private']);
    expect(await titles('authorId: $a', reader.token)).toEqual(['in project', 'mine internal', 'mine public']);
    expect(await titles('projectId: $p')).toEqual(['in project']);
    expect(await titles('authorId: $a, type: personal')).toEqual(['mine internal', 'mine public', 'mine private']);
    expect(await titles('authorId: $a, type: project')).toEqual(['in project']);
    expect(await titles('authorId: $a, visibility: public')).toEqual(['in project', 'mine public']);
    expect(await titles('authorId: $a, visibility: private')).toEqual(['mine private']);
    // Explore: personal snippets open to the reader (never private ones, not even the author's own).
    expect(await titles('authorId: $a, explore: true')).toEqual(['mine internal', 'mine public']);
    const both = await gql('query($a: UserID, $p: ProjectID) { snippets(authorId: $a, projectId: $p) { nodes { title } } }', {
      token: author.token,
      variables: { a: userGid(author.user.id), p: `gid://gitlab/Project/${project.id}` },
    });
    expect(both.body).toMatchObject({
      data: { snippets: null },
      errors: [{ message: 'Filtering by both an author and a project is not supported', path: ['snippets'] }],
    });
  });

  it('User.snippets (authored) and Project.snippets go through the same finder and visibility', async () => {
    const author = await createUser();
    const reader = await createUser();
    const project = await createProject(author.token, { visibility: 'public' });
    await createSnippet(author.token, { title: 'own private', visibility: 'private' });
    await createSnippet(author.token, { title: 'own public', visibility: 'public' });
    await createProjectSnippet(author.token, project.id, { title: 'project public', visibility: 'public' });
    await createProjectSnippet(author.token, project.id, { title: 'project private', visibility: 'private' });
    const query = `query($u: String!, $p: ID!) {
      user(username: $u) { all: snippets { nodes { title } } personal: snippets(type: personal) { nodes { title } } }
      project(fullPath: $p) { snippets { nodes { title } } open: snippets(visibility: public) { nodes { title } } } }`;
    const variables = { u: author.user.username, p: project.path_with_namespace };
    expect((await gql(query, { token: author.token, variables })).body).toEqual({
      data: {
        user: {
          all: { nodes: [{ title: 'project private' }, { title: 'project public' }, { title: 'own public' }, { title: 'own private' }] },
          personal: { nodes: [{ title: 'own public' }, { title: 'own private' }] },
        },
        project: { snippets: { nodes: [{ title: 'project private' }, { title: 'project public' }] }, open: { nodes: [{ title: 'project public' }] } },
      },
    });
    expect((await gql(query, { token: reader.token, variables })).body).toEqual({
      data: {
        user: { all: { nodes: [{ title: 'project public' }, { title: 'own public' }] }, personal: { nodes: [{ title: 'own public' }] } },
        project: { snippets: { nodes: [{ title: 'project public' }] }, open: { nodes: [{ title: 'project public' }] } },
      },
    });
  });

  it('pages by id, newest first: first/after forwards and last/before backwards', async () => {
    const { user, token } = await createUser();
    const made = [];
    for (let i = 1; i <= 5; i++) made.push(await createSnippet(token, { title: `s${i}` }));
    const ids = made.map((s) => s.id);
    const page = async (args: string) => {
      const res = await gql(
        `query($a: UserID) { snippets(authorId: $a, ${args}) { nodes { title } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
        {
          token,
          variables: { a: userGid(user.id) },
        },
      );
      expect(res.body.errors).toBeUndefined();
      return res.body.data.snippets;
    };
    const first = await page('first: 2');
    expect(first).toEqual({
      nodes: [{ title: 's5' }, { title: 's4' }],
      pageInfo: { hasNextPage: true, hasPreviousPage: false, startCursor: cursor(ids[4]!), endCursor: cursor(ids[3]!) },
    });
    const second = await page(`first: 2, after: "${first.pageInfo.endCursor}"`);
    expect(second).toEqual({
      nodes: [{ title: 's3' }, { title: 's2' }],
      pageInfo: { hasNextPage: true, hasPreviousPage: true, startCursor: cursor(ids[2]!), endCursor: cursor(ids[1]!) },
    });
    const third = await page(`first: 2, after: "${second.pageInfo.endCursor}"`);
    expect(third).toEqual({
      nodes: [{ title: 's1' }],
      pageInfo: { hasNextPage: false, hasPreviousPage: true, startCursor: cursor(ids[0]!), endCursor: cursor(ids[0]!) },
    });
    const last = await page('last: 2');
    expect(last).toEqual({
      nodes: [{ title: 's2' }, { title: 's1' }],
      pageInfo: { hasNextPage: false, hasPreviousPage: true, startCursor: cursor(ids[1]!), endCursor: cursor(ids[0]!) },
    });
    const before = await page(`last: 2, before: "${last.pageInfo.startCursor}"`);
    expect(before).toEqual({
      nodes: [{ title: 's4' }, { title: 's3' }],
      pageInfo: { hasNextPage: true, hasPreviousPage: true, startCursor: cursor(ids[3]!), endCursor: cursor(ids[2]!) },
    });
    const start = await page(`last: 2, before: "${before.pageInfo.startCursor}"`);
    expect(start).toEqual({
      nodes: [{ title: 's5' }],
      pageInfo: { hasNextPage: true, hasPreviousPage: false, startCursor: cursor(ids[4]!), endCursor: cursor(ids[4]!) },
    });
    const bad = await gql('{ snippets(after: "nonsense") { nodes { title } } }', { token });
    expect(bad.body.errors[0].message).toBe('Please provide a valid cursor');
  });

  it('a page costs the same number of queries for 3 and 30 snippets (author and blobs batched)', async () => {
    const count = async (n: number) => {
      const { user, token } = await createUser();
      for (let i = 0; i < n; i++) {
        await createSnippet(token, {
          files: [
            { file_path: `a${i}.txt`, content: 'a' },
            { file_path: `b${i}.txt`, content: 'b' },
          ],
        });
      }
      const res = await gql(
        'query($a: UserID) { snippets(authorId: $a, first: 100) { nodes { title author { username } blobs { nodes { name path size plainData } } } } }',
        {
          token,
          variables: { a: userGid(user.id) },
        },
      );
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.snippets.nodes).toHaveLength(n);
      expect(res.body.data.snippets.nodes.every((s: any) => s.author.username === user.username && s.blobs.nodes.length === 2)).toBe(true);
      return queryCount(res);
    };
    const few = await count(3);
    const many = await count(30);
    expect(many).toBe(few);
    // Authentication, the page (authors, project facts and file paths joined) and the files' contents.
    expect(few).toBe(3);
  });
});

const CREATE = `mutation($input: CreateSnippetInput!) { createSnippet(input: $input) {
  clientMutationId errors spam
  snippet { id title description visibilityLevel fileName webUrl author { username } project { fullPath } blobs { nodes { path size } } } } }`;

describe('createSnippet', () => {
  it('creates a personal snippet from blobActions with the REST service; files are readable through REST; clientMutationId echoes', async () => {
    const { user, token } = await createUser();
    const res = await gql(CREATE, {
      token,
      variables: {
        input: {
          title: 'From GraphQL',
          description: 'desc',
          visibilityLevel: 'internal',
          blobActions: [
            { action: 'create', filePath: 'one.rb', content: 'puts 1\n' },
            { action: 'create', filePath: 'dir/two.md', content: '# two' },
          ],
          clientMutationId: 'abc-1',
        },
      },
    });
    const id = Number(/\/(\d+)$/.exec(res.body.data?.createSnippet?.snippet?.id ?? '')?.[1]);
    expect(res.body).toEqual({
      data: {
        createSnippet: {
          clientMutationId: 'abc-1',
          errors: [],
          spam: false,
          snippet: {
            id: personalGid(id),
            title: 'From GraphQL',
            description: 'desc',
            visibilityLevel: 'internal',
            fileName: 'one.rb',
            webUrl: `${TEST_PUBLIC_URL}/-/snippets/${id}`,
            author: { username: user.username },
            project: null,
            blobs: {
              nodes: [
                { path: 'one.rb', size: 7 },
                { path: 'dir/two.md', size: 5 },
              ],
            },
          },
        },
      },
    });
    const rest = await api.get(`/snippets/${id}`, { token });
    expect(rest.body).toMatchObject({ title: 'From GraphQL', visibility: 'internal', project_id: null, file_name: 'one.rb' });
    expect((await api.get(`/snippets/${id}/raw`, { token })).text).toBe('puts 1\n');
    expect((await api.get(`/snippets/${id}/files/master/${encodeURIComponent('dir/two.md')}/raw`, { token })).text).toBe('# two');
    // A create action without a path gets GitLab's default name.
    const unnamed = await gql(CREATE, {
      token,
      variables: { input: { title: 'no name', visibilityLevel: 'private', blobActions: [{ action: 'create', filePath: '', content: 'x' }] } },
    });
    expect(unnamed.body.data.createSnippet).toMatchObject({ errors: [], snippet: { fileName: 'snippetfile1.txt' } });
  });

  it('creates a project snippet with projectPath (reporters and above)', async () => {
    const owner = await createUser();
    const reporter = await createUser();
    const project = await createProject(owner.token, { visibility: 'private' });
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    const res = await gql(CREATE, {
      token: reporter.token,
      variables: {
        input: {
          title: 'Project snippet',
          visibilityLevel: 'private',
          projectPath: project.path_with_namespace,
          blobActions: [{ action: 'create', filePath: 'a.txt', content: 'A' }],
        },
      },
    });
    const id = Number(/\/(\d+)$/.exec(res.body.data?.createSnippet?.snippet?.id ?? '')?.[1]);
    expect(res.body).toEqual({
      data: {
        createSnippet: {
          clientMutationId: null,
          errors: [],
          spam: false,
          snippet: {
            id: projectGid(id),
            title: 'Project snippet',
            description: null,
            visibilityLevel: 'private',
            fileName: 'a.txt',
            webUrl: `${TEST_PUBLIC_URL}/${project.path_with_namespace}/-/snippets/${id}`,
            author: { username: reporter.user.username },
            project: { fullPath: project.path_with_namespace },
            blobs: { nodes: [{ path: 'a.txt', size: 1 }] },
          },
        },
      },
    });
    expect((await api.get(`/projects/${project.id}/snippets/${id}/raw`, { token: owner.token })).text).toBe('A');
    expect((await api.get(`/projects/${project.id}/snippets/${id}`, { token: owner.token })).body).toMatchObject({
      title: 'Project snippet',
      project_id: project.id,
    });
  });

  it('validation failures are payload errors with a null snippet, as the model words them', async () => {
    const { token } = await createUser();
    const run = async (input: Record<string, unknown>) =>
      (await gql(CREATE, { token, variables: { input: { visibilityLevel: 'private', clientMutationId: 'x', ...input } } })).body;
    const ok = [{ action: 'create', filePath: 'a.txt', content: 'a' }];
    expect(await run({ title: '  ', blobActions: ok })).toEqual({
      data: { createSnippet: { clientMutationId: 'x', errors: ["Title can't be blank"], spam: false, snippet: null } },
    });
    expect((await run({ title: '' })).data.createSnippet.errors).toEqual(["Title can't be blank", "Content can't be blank"]);
    expect((await run({ title: 'x'.repeat(256), blobActions: ok })).data.createSnippet.errors).toEqual(['Title is too long (maximum is 255 characters)']);
    // Only create actions with content are valid on creation; checked before the model.
    expect((await run({ title: '', blobActions: [{ action: 'update', filePath: 'a.txt', content: 'a' }] })).data.createSnippet).toMatchObject({
      errors: ['Snippet actions have invalid data'],
      snippet: null,
    });
    expect((await run({ title: 't', blobActions: [{ action: 'create', filePath: 'a.txt' }] })).data.createSnippet.errors).toEqual([
      'Snippet actions have invalid data',
    ]);
    expect((await run({ title: 't', blobActions: [...ok, ...ok] })).data.createSnippet.errors).toEqual([
      'Repository Error creating the snippet - A file with this name already exists',
    ]);
  });

  it('a project the caller cannot create snippets in, or no caller at all: the top-level resource error', async () => {
    const owner = await createUser();
    const other = await createUser();
    const privateProject = await createProject(owner.token, { visibility: 'private' });
    const publicProject = await createProject(owner.token, { visibility: 'public' });
    const input = (projectPath?: string) => ({
      input: { title: 't', visibilityLevel: 'public', projectPath, blobActions: [{ action: 'create', filePath: 'a', content: 'a' }], clientMutationId: 'c' },
    });
    for (const path of [privateProject.path_with_namespace, publicProject.path_with_namespace, 'no/such-project']) {
      const res = await gql(CREATE, { token: other.token, variables: input(path) });
      expect(res.body).toEqual({
        data: { createSnippet: null },
        errors: [{ message: RESOURCE_ERROR, locations: [{ line: 1, column: 41 }], path: ['createSnippet'] }],
      });
    }
    const anonymous = await gql(CREATE, { variables: input() });
    expect(anonymous.body).toMatchObject({ data: { createSnippet: null }, errors: [{ message: RESOURCE_ERROR, path: ['createSnippet'] }] });
    // Nothing was created for the refused calls.
    const res = await gql('query($a: UserID) { snippets(authorId: $a) { nodes { id } } }', { token: owner.token, variables: { a: userGid(other.user.id) } });
    expect(res.body.data.snippets.nodes).toEqual([]);
  });
});
