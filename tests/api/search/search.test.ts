// The search API (GitLab 13.6 lib/api/search.rb, basic search): GET /search, /groups/:id/search and
// /projects/:id/search. Every scope finds what the reader may list and nothing else; instance and group searches
// paginate without counting; project searches count. Each test searches for words of its own (unique), since the
// instance search sees every test's data.
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createIssue } from '../../factories/issues.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';

type Row = Record<string, any>;
const word = () => unique('zq').toLowerCase();

async function commit(token: string, projectId: number, actions: Array<Record<string, unknown>>, message = 'init', branch = 'main', start?: string) {
  const res = await api.post(`/projects/${projectId}/repository/commits`, {
    token,
    body: { branch, commit_message: message, actions, ...(start ? { start_branch: start } : {}) },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as Row;
}

const search = (where: string, token: string | undefined, query: Record<string, string>) => api.get(`${where}/search`, { token, query });

describe('GET /search', () => {
  it('issues: what the reader may list, newest updated first, by words or #iid, state and confidential filters, no count', async () => {
    const owner = await createUser();
    const reader = await createUser();
    const w = word();
    const pub = await createProject(owner.token, { visibility: 'public' });
    const hidden = await createProject(owner.token, { visibility: 'private' });
    const first = await createIssue(owner.token, pub.id, { title: `first ${w} bug`, description: 'crash on start' });
    const second = await createIssue(owner.token, pub.id, { title: 'second', description: `the ${w} again` });
    const secret = await createIssue(owner.token, pub.id, { title: `secret ${w}`, confidential: true });
    await createIssue(owner.token, hidden.id, { title: `private ${w}` });
    const closed = await api.put(`/projects/${pub.id}/issues/${first.iid}`, { token: owner.token, body: { state_event: 'close' } });
    expect(closed.status).toBe(200);

    const res = await search('', reader.token, { scope: 'issues', search: w });
    expect(res.status).toBe(200);
    // The close made the first issue the newest updated.
    expect(res.body.map((i: Row) => i.id)).toEqual([first.id, second.id]);
    expect(res.headers.get('x-total')).toBeNull();
    expect(res.headers.get('x-total-pages')).toBeNull();
    expect(res.headers.get('x-page')).toBe('1');
    expect(res.headers.get('x-per-page')).toBe('20');
    expect(res.headers.get('x-next-page')).toBe('');
    expect(res.headers.get('link')).not.toContain('rel="last"');
    // IssueBasic: no _links, references, subscribed or task fields of Entities::Issue.
    const basic = res.body[1];
    expect(basic).toMatchObject({ id: second.id, iid: second.iid, project_id: pub.id, title: 'second', state: 'opened', labels: [], assignees: [] });
    for (const key of ['_links', 'references', 'subscribed', 'has_tasks', 'moved_to_id']) expect(basic).not.toHaveProperty(key);
    expect(Object.keys(basic)).toContain('task_completion_status');

    // The owner also sees the confidential issue and the private project's.
    const all = await search('', owner.token, { scope: 'issues', search: w });
    expect(all.body.map((i: Row) => i.title).sort()).toEqual(['first ' + w + ' bug', `private ${w}`, 'second', `secret ${w}`].sort());
    expect((await search('', owner.token, { scope: 'issues', search: w, confidential: 'true' })).body.map((i: Row) => i.id)).toEqual([secret.id]);
    expect((await search('', reader.token, { scope: 'issues', search: w, state: 'closed' })).body.map((i: Row) => i.id)).toEqual([first.id]);
    expect((await search('', reader.token, { scope: 'issues', search: w, state: 'opened' })).body.map((i: Row) => i.id)).toEqual([second.id]);
    expect((await search('', reader.token, { scope: 'issues', search: w, state: 'merged' })).body).toEqual([]);
    // Every word in one column; a 2-letter word is ignored when longer ones exist.
    expect((await search('', reader.token, { scope: 'issues', search: `${w} crash` })).body).toEqual([]);
    expect((await search('', reader.token, { scope: 'issues', search: `${w} bug` })).body.map((i: Row) => i.id)).toEqual([first.id]);
    expect((await search('', reader.token, { scope: 'issues', search: `${w} on` })).body.map((i: Row) => i.id)).toEqual([first.id, second.id]);
    // `#iid` names issues by iid in every readable project.
    const byIid = await search('', reader.token, { scope: 'issues', search: `#${second.iid}` });
    expect(byIid.body.map((i: Row) => i.id)).toContain(second.id);
    expect(byIid.body.every((i: Row) => i.iid === second.iid)).toBe(true);
  });

  it('projects (fuzzy over path, name and description, newest first), milestones, snippet titles and users', async () => {
    const owner = await createUser();
    const reader = await createUser();
    const w = word();
    const a = await createProject(owner.token, { visibility: 'public', name: `alpha ${w}` });
    const b = await createProject(owner.token, { visibility: 'internal', name: `beta-${w}` });
    await createProject(owner.token, { visibility: 'private', name: `gamma ${w}` });
    const projects = await search('', reader.token, { scope: 'projects', search: w });
    expect(projects.status).toBe(200);
    expect(projects.body.map((p: Row) => p.id)).toEqual([b.id, a.id]);
    // BasicProjectDetails.
    expect(projects.body[0]).toMatchObject({ id: b.id, name: `beta-${w}`, path_with_namespace: b.path_with_namespace, forks_count: 0, star_count: 0 });
    expect(projects.body[0]).not.toHaveProperty('permissions');

    const m = await api.post(`/projects/${a.id}/milestones`, { token: owner.token, body: { title: `v1 ${w}` } });
    expect(m.status).toBe(201);
    const milestones = await search('', reader.token, { scope: 'milestones', search: w });
    expect(milestones.body).toEqual([m.body]);

    const snippet = await api.post('/snippets', { token: owner.token, body: { title: `notes ${w}`, file_name: 'a.txt', content: 'x', visibility: 'public' } });
    expect(snippet.status).toBe(201);
    await api.post('/snippets', { token: owner.token, body: { title: `mine ${w}`, file_name: 'b.txt', content: 'y', visibility: 'private' } });
    const snippets = await search('', reader.token, { scope: 'snippet_titles', search: w });
    expect(snippets.body.map((s: Row) => s.id)).toEqual([snippet.body.id]);
    expect(snippets.body[0]).toEqual(snippet.body);

    const users = await search('', reader.token, { scope: 'users', search: owner.user.username });
    expect(users.body.map((u: Row) => u.id)).toEqual([owner.user.id]);
    // UserBasic.
    expect(Object.keys(users.body[0])).toEqual(['id', 'name', 'username', 'state', 'avatar_url', 'web_url']);
  });

  it('refuses anonymous callers, bad scopes and missing parameters; Elasticsearch scopes are 400', async () => {
    const { token } = await createUser();
    expect(await search('', undefined, { scope: 'issues', search: 'x' })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await search('', token, { scope: 'nope', search: 'x' })).toMatchObject({ status: 400, body: { error: 'scope does not have a valid value' } });
    expect(await search('', token, { scope: 'issues' })).toMatchObject({ status: 400, body: { error: 'search is missing' } });
    expect(await search('', token, { scope: 'issues', search: 'x', state: 'locked' })).toMatchObject({
      status: 400,
      body: { error: 'state does not have a valid value' },
    });
    for (const scope of ['blobs', 'commits', 'notes', 'wiki_blobs']) {
      expect(await search('', token, { scope, search: 'x' })).toMatchObject({
        status: 400,
        body: { message: { error: 'Scope not supported without Elasticsearch!' } },
      });
    }
    // snippet_titles is an instance scope only.
    const group = await createGroup(token);
    expect(await search(`/groups/${group.id}`, token, { scope: 'snippet_titles', search: 'x' })).toMatchObject({
      status: 400,
      body: { error: 'scope does not have a valid value' },
    });
  });
});

describe('GET /groups/:id/search', () => {
  it("the group's projects with its subgroups', their issues and milestones, and its hierarchy's members", async () => {
    const owner = await createUser();
    const member = await createUser();
    const w = word();
    const group = await createGroup(owner.token, { visibility: 'public' });
    const sub = await createGroup(owner.token, { visibility: 'public', parentId: group.id });
    const inGroup = await createProject(owner.token, { visibility: 'public', namespaceId: group.id, name: `in ${w}` });
    const inSub = await createProject(owner.token, { visibility: 'public', namespaceId: sub.id, name: `sub ${w}` });
    const outside = await createProject(owner.token, { visibility: 'public', name: `out ${w}` });
    await addMember(owner.token, 'groups', sub.id, member.user.id, 30);
    const reader = await createUser();

    const projects = await search(`/groups/${group.id}`, reader.token, { scope: 'projects', search: w });
    expect(projects.status).toBe(200);
    expect(projects.body.map((p: Row) => p.id)).toEqual([inSub.id, inGroup.id]);
    expect(projects.headers.get('x-total')).toBeNull();
    const byPath = await search(`/groups/${encodeURIComponent(group.full_path)}/-`, reader.token, { scope: 'projects', search: w });
    expect(byPath.body).toHaveLength(2);

    const i1 = await createIssue(owner.token, inSub.id, { title: `bug ${w}` });
    await createIssue(owner.token, outside.id, { title: `bug ${w}` });
    expect((await search(`/groups/${group.id}`, reader.token, { scope: 'issues', search: w })).body.map((i: Row) => i.id)).toEqual([i1.id]);

    await api.post(`/projects/${outside.id}/milestones`, { token: owner.token, body: { title: `m ${w}` } });
    const m = await api.post(`/projects/${inGroup.id}/milestones`, { token: owner.token, body: { title: `m ${w}` } });
    expect((await search(`/groups/${group.id}`, reader.token, { scope: 'milestones', search: w })).body.map((x: Row) => x.id)).toEqual([m.body.id]);

    const users = await search(`/groups/${group.id}`, reader.token, { scope: 'users', search: member.user.username });
    expect(users.body.map((u: Row) => u.id)).toEqual([member.user.id]);
    expect((await search(`/groups/${group.id}`, reader.token, { scope: 'users', search: (await createUser()).user.username })).body).toEqual([]);

    const hidden = await createGroup(owner.token, { visibility: 'private' });
    expect(await search(`/groups/${hidden.id}`, reader.token, { scope: 'projects', search: w })).toMatchObject({
      status: 404,
      body: { message: '404 Group Not Found' },
    });
  });
});

describe('GET /projects/:id/search', () => {
  it('blobs: content chunks with two lines of context, path matches, filters; commits by message and id; notes; wiki_blobs; counted', async () => {
    const owner = await createUser();
    const reader = await createUser();
    const w = word();
    const p = await createProject(owner.token, { visibility: 'public' });
    const lines = ['one', 'two', `three ${w.toUpperCase()}`, 'four', 'five', 'six', 'seven', 'eight', `nine ${w}`, 'ten'];
    const first = await commit(owner.token, p.id, [
      { action: 'create', file_path: 'src/app.rb', content: lines.join('\n') + '\n' },
      { action: 'create', file_path: `docs/${w}.md`, content: '# title\n' },
      { action: 'create', file_path: 'bin/data.bin', content: Buffer.from(`\u0000${w}`).toString('base64'), encoding: 'base64' },
    ]);
    const second = await commit(
      owner.token,
      p.id,
      [{ action: 'create', file_path: 'README', content: `read ${w}\n` }],
      `Add readme for ${w.toUpperCase()}\n\nbody`,
    );

    const blobs = await search(`/projects/${p.id}`, reader.token, { scope: 'blobs', search: w });
    expect(blobs.status).toBe(200);
    expect(blobs.headers.get('x-total')).toBe('4');
    expect(blobs.body).toEqual([
      { basename: 'README', data: `read ${w}\n`, path: 'README', filename: 'README', id: null, ref: 'main', startline: 1, project_id: p.id },
      {
        basename: `docs/${w}`,
        data: '# title\n',
        path: `docs/${w}.md`,
        filename: `docs/${w}.md`,
        id: expect.stringMatching(/^[0-9a-f]{40}$/),
        ref: 'main',
        startline: 1,
        project_id: p.id,
      },
      {
        basename: 'src/app',
        data: `one\ntwo\nthree ${w.toUpperCase()}\nfour\nfive\n`,
        path: 'src/app.rb',
        filename: 'src/app.rb',
        id: null,
        ref: 'main',
        startline: 1,
        project_id: p.id,
      },
      {
        basename: 'src/app',
        data: `seven\neight\nnine ${w}\nten\n`,
        path: 'src/app.rb',
        filename: 'src/app.rb',
        id: null,
        ref: 'main',
        startline: 7,
        project_id: p.id,
      },
    ]);
    const filtered = await search(`/projects/${p.id}`, reader.token, { scope: 'blobs', search: `${w} extension:rb` });
    expect(filtered.body.map((b: Row) => b.startline)).toEqual([1, 7]);
    expect((await search(`/projects/${p.id}`, reader.token, { scope: 'blobs', search: `${w} -path:src/` })).body.map((b: Row) => b.path)).toEqual([
      'README',
      `docs/${w}.md`,
    ]);
    expect((await search(`/projects/${p.id}`, reader.token, { scope: 'blobs', search: `${w} filename:READ*` })).body.map((b: Row) => b.path)).toEqual([
      'README',
    ]);
    // At a ref: the first commit has no README.
    expect((await search(`/projects/${p.id}`, reader.token, { scope: 'blobs', search: w, ref: first.id })).body.map((b: Row) => b.ref)).toEqual([
      first.id,
      first.id,
      first.id,
    ]);

    const commits = await search(`/projects/${p.id}`, reader.token, { scope: 'commits', search: `readme for ${w}` });
    expect(commits.body.map((c: Row) => c.id)).toEqual([second.id]);
    expect(commits.body[0]).toMatchObject({ id: second.id, title: `Add readme for ${w.toUpperCase()}`, project_id: p.id, status: null, last_pipeline: null });
    expect(commits.body[0]).not.toHaveProperty('stats');
    const bySha = await search(`/projects/${p.id}`, reader.token, { scope: 'commits', search: first.id.slice(0, 10) });
    expect(bySha.body.map((c: Row) => c.id)).toEqual([first.id]);

    const issue = await createIssue(owner.token, p.id, { title: 'with notes' });
    const note = await api.post(`/projects/${p.id}/issues/${issue.iid}/notes`, { token: owner.token, body: { body: `a comment about ${w}` } });
    expect(note.status).toBe(201);
    const secret = await createIssue(owner.token, p.id, { title: 'secret', confidential: true });
    await api.post(`/projects/${p.id}/issues/${secret.iid}/notes`, { token: owner.token, body: { body: `hidden ${w}` } });
    const commitNote = await api.post(`/projects/${p.id}/repository/commits/${second.id}/comments`, {
      token: owner.token,
      body: { note: `on the commit ${w}` },
    });
    expect(commitNote.status).toBe(201);
    const notes = await search(`/projects/${p.id}`, reader.token, { scope: 'notes', search: w });
    expect(notes.headers.get('x-total')).toBe('2');
    expect(notes.body.map((n: Row) => n.body)).toEqual([`on the commit ${w}`, `a comment about ${w}`]);
    expect(notes.body[1]).toEqual({ ...note.body, noteable_iid: issue.iid });
    expect((await search(`/projects/${p.id}`, owner.token, { scope: 'notes', search: w })).body).toHaveLength(3);

    expect(await search(`/projects/${p.id}`, reader.token, { scope: 'wiki_blobs', search: w })).toMatchObject({ status: 200, body: [] });
    expect(await search(`/projects/${p.id}`, reader.token, { scope: 'snippet_titles', search: w })).toMatchObject({
      status: 400,
      body: { error: 'scope does not have a valid value' },
    });
  });

  it('issues, merge requests and users of the project; a project without readable code finds no blobs or commits', async () => {
    const owner = await createUser();
    const dev = await createUser();
    const w = word();
    const p = await createProject(owner.token, { visibility: 'public' });
    await addMember(owner.token, 'projects', p.id, dev.user.id, 30);
    await commit(owner.token, p.id, [{ action: 'create', file_path: 'a.txt', content: `${w}\n` }]);
    await commit(owner.token, p.id, [{ action: 'update', file_path: 'a.txt', content: `${w} 2\n` }], 'change', 'feature', 'main');
    const mr = await api.post(`/projects/${p.id}/merge_requests`, {
      token: owner.token,
      body: { source_branch: 'feature', target_branch: 'main', title: `Change ${w}` },
    });
    expect(mr.status).toBe(201);
    const found = await search(`/projects/${p.id}`, dev.token, { scope: 'merge_requests', search: w });
    expect(found.headers.get('x-total')).toBe('1');
    expect(found.body.map((m: Row) => m.iid)).toEqual([mr.body.iid]);
    expect(found.body[0]).not.toHaveProperty('subscribed');
    expect((await search(`/projects/${p.id}`, dev.token, { scope: 'merge_requests', search: w, state: 'merged' })).body).toEqual([]);

    const users = await search(`/projects/${p.id}`, dev.token, { scope: 'users', search: dev.user.username });
    expect(users.body.map((u: Row) => u.id)).toEqual([dev.user.id]);
    const stranger = await createUser();
    expect((await search(`/projects/${p.id}`, dev.token, { scope: 'users', search: stranger.user.username })).body).toEqual([]);

    // Repository visible to members only: a non-member reads the project but finds no code.
    const hidden = await api.put(`/projects/${p.id}`, {
      token: owner.token,
      body: { repository_access_level: 'private', merge_requests_access_level: 'private', builds_access_level: 'private' },
    });
    expect(hidden.status, hidden.text).toBe(200);
    for (const scope of ['blobs', 'commits', 'merge_requests']) {
      expect(await search(`/projects/${p.id}`, stranger.token, { scope, search: w })).toMatchObject({ status: 200, body: [] });
    }
    expect((await search(`/projects/${p.id}`, dev.token, { scope: 'blobs', search: w })).body).toHaveLength(1);
  });

  describeAuthorization('GET /projects/:id/search', {
    fixture: async () => {
      const owner = await createUser();
      const p = await createProject(owner.token, { visibility: 'private' });
      const guest = await createUser();
      await addMember(owner.token, 'projects', p.id, guest.user.id, 10);
      return { allowed: guest.token, id: p.id, nonMember: (await createUser()).token };
    },
    call: (fx, token) => search(`/projects/${fx.id}`, token, { scope: 'issues', search: 'anything' }),
    nonMember: { status: 404, body: { message: '404 Project Not Found' } },
    success: 200,
  });

  it('an administrator finds everything', async () => {
    const owner = await createUser();
    const admin = await createAdmin();
    const w = word();
    const p = await createProject(owner.token, { visibility: 'private' });
    const issue = await createIssue(owner.token, p.id, { title: w, confidential: true });
    expect((await search(`/projects/${p.id}`, admin.token, { scope: 'issues', search: w })).body.map((i: Row) => i.id)).toEqual([issue.id]);
  });
});
