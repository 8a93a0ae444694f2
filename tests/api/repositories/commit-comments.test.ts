// Commit comments (GitLab 13.6 lib/api/commits.rb GET/POST commits/:sha/comments, Entities::CommitNote): notes on a
// commit kept by its full id, placed on a line of the commit's diff (a LegacyDiffNote) only when that line is in the
// diff, `commented` events shown under download_code, and the project's deletion taking them along.
import { createHash } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { purgeProjectsAndGroups } from '../../../db/queries/housekeeping.ts';
import { notes, projects } from '../../../db/schema/index.ts';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createToken, createUser } from '../../factories/users.ts';
import { api, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';
import { RepoWriter } from './read-support.ts';

type User = Awaited<ReturnType<typeof createUser>>;
let owner: User;
let reporter: User;
let guest: User;
let stranger: User;
let privateId: number;
let publicId: number;
/** On each project: the root commit (README.md added) and its child (line 2 changed, line 4 added). */
let root: string;
let child: string;

const comments = (projectId: number, sha: string) => `/projects/${projectId}/repository/commits/${sha}/comments`;
const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');
/** Entities::UserBasic of a user, as /users/:id shows it. */
const basics = new Map<number, unknown>();
const userBasic = (u: User['user']) => basics.get(u.id);

async function writeHistory(projectId: number) {
  const repo = await RepoWriter.open(projectId);
  const first = await repo.commit('main', { 'README.md': 'one\ntwo\nthree\n' }, 'Initial\n', 1_600_000_000);
  const second = await repo.commit('main', { 'README.md': 'one\n2\nthree\nfour\n' }, 'Change two\n', 1_600_000_100);
  return [first, second] as const;
}

beforeAll(async () => {
  [owner, reporter, guest, stranger] = await Promise.all([createUser(), createUser(), createUser(), createUser()]);
  for (const { user } of [owner, reporter, guest, stranger]) {
    const { id, name, username, state, avatar_url, web_url } = (await api.get(`/users/${user.id}`)).body;
    expect(web_url).toBe(`${TEST_PUBLIC_URL}/${username}`);
    basics.set(id, { id, name, username, state, avatar_url, web_url });
  }
  privateId = (await createProject(owner.token)).id;
  publicId = (await createProject(owner.token, { visibility: 'public' })).id;
  await addMember(owner.token, 'projects', privateId, reporter.user.id, 20);
  await addMember(owner.token, 'projects', privateId, guest.user.id, 10);
  [root, child] = await writeHistory(privateId);
  const [publicRoot, publicChild] = await writeHistory(publicId);
  // Same trees, messages and times: the same commits in both projects.
  expect([publicRoot, publicChild]).toEqual([root, child]);
});

describe('POST commits/:sha/comments', () => {
  it('a comment on the whole commit: Entities::CommitNote with null path, line and line_type', async () => {
    const res = await api.post(comments(privateId, child), { token: reporter.token, body: { note: 'Looks good' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      note: 'Looks good',
      path: null,
      line: null,
      line_type: null,
      author: userBasic(reporter.user),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(Object.keys(res.body)).toEqual(['note', 'path', 'line', 'line_type', 'author', 'created_at']);
  });

  it('placed on an added line, on a removed line (no new line number), and not placed when the line is not in the diff', async () => {
    const post = (body: Record<string, unknown>) => api.post(comments(publicId, child), { token: owner.token, body: { note: 'here', ...body } });
    const added = await post({ path: 'README.md', line: 2, line_type: 'new' });
    expect(added.status, added.text).toBe(201);
    expect(added.body).toMatchObject({ path: 'README.md', line: 2, line_type: 'new' });
    // `-two` sits at new position 2 too: Gitlab::Diff::Line#new_line is nil for removed lines.
    expect((await post({ path: 'README.md', line: 2, line_type: 'old' })).body).toMatchObject({ path: 'README.md', line: null, line_type: 'old' });
    expect((await post({ path: 'README.md', line: '4', line_type: 'new' })).body).toMatchObject({ path: 'README.md', line: 4, line_type: 'new' });
    // A context line, a line past the diff, another file: a comment on the whole commit (201, nulls), as GitLab.
    for (const place of [
      { path: 'README.md', line: 1, line_type: 'new' },
      { path: 'README.md', line: 3, line_type: 'old' },
      { path: 'README.md', line: 99, line_type: 'new' },
      { path: 'nope.txt', line: 1, line_type: 'new' },
    ]) {
      const res = await post(place);
      expect(res.status, JSON.stringify(place)).toBe(201);
      expect(res.body, JSON.stringify(place)).toMatchObject({ path: null, line: null, line_type: null });
    }
    // Stored as GitLab stores them: the commit's full id, no noteable id, the line code of `+2` (old 3, new 2).
    const [stored] = await testDb()
      .db.select()
      .from(notes)
      .where(and(eq(notes.projectId, publicId), eq(notes.commitId, child), eq(notes.type, 'LegacyDiffNote')))
      .limit(1);
    expect(stored).toMatchObject({ noteableType: 'Commit', noteableId: null, lineCode: `${sha1('README.md')}_3_2`, body: 'here' });
  });

  it('on the root commit every line is new (the diff from the empty tree)', async () => {
    const res = await api.post(comments(publicId, root), { token: stranger.token, body: { note: 'first', path: 'README.md', line: 1, line_type: 'new' } });
    expect(res).toMatchObject({ status: 201, body: { note: 'first', path: 'README.md', line: 1, line_type: 'new', author: userBasic(stranger.user) } });
  });

  it('the sha may be a branch, a short id or an escaped name; an unknown one is 404 Commit Not Found', async () => {
    const res = await api.post(comments(privateId, 'main'), { token: owner.token, body: { note: 'on main' } });
    expect(res.status).toBe(201);
    const [stored] = await testDb()
      .db.select()
      .from(notes)
      .where(and(eq(notes.projectId, privateId), eq(notes.body, 'on main')));
    expect(stored!.commitId).toBe(child);
    expect((await api.post(comments(privateId, root.slice(0, 8)), { token: owner.token, body: { note: 'short' } })).status).toBe(201);
    for (const sha of ['unknown', 'f'.repeat(40), 'no%2Fsuch']) {
      expect(await api.post(comments(privateId, sha), { token: owner.token, body: { note: 'x' } }), sha).toMatchObject({
        status: 404,
        body: { message: '404 Commit Not Found' },
      });
      expect(await api.get(comments(privateId, sha), { token: owner.token }), sha).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
    }
  });

  it.each([
    [{}, { error: 'note is missing' }],
    [{ path: 'README.md' }, { error: 'note is missing, line is missing, line_type is missing' }],
    [{ note: 'x', path: 'README.md' }, { error: 'line is missing, line_type is missing' }],
    [{ note: 'x', path: 'README.md', line: 2 }, { error: 'line_type is missing' }],
    [{ note: 'x', path: 'README.md', line: 'two', line_type: 'new' }, { error: 'line is invalid' }],
    [{ note: 'x', path: 'README.md', line: 1.5, line_type: 'new' }, { error: 'line is invalid' }],
    [{ note: 'x', path: 'README.md', line: 2, line_type: 'both' }, { error: 'line_type does not have a valid value' }],
    [{ note: 'x\u0000' }, { error: 'note is invalid' }],
    [{ note: '' }, { message: `Failed to save note {:note=>["can't be blank"]}` }],
    [{ note: '  \n ' }, { message: `Failed to save note {:note=>["can't be blank"]}` }],
  ])('bad input %j: 400 %j', async (body, expected) => {
    const res = await api.post(comments(privateId, child), { token: owner.token, body });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual(expected);
  });

  it('line and line_type are not looked at without a path (Grape `given :path`)', async () => {
    for (const body of [
      { note: 'x', line: 'two', line_type: 'zzz' },
      { note: 'x', path: '', line: 2, line_type: 'new' },
    ]) {
      const res = await api.post(comments(privateId, child), { token: owner.token, body });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ path: null, line: null, line_type: null });
    }
  });
});

describe('GET commits/:sha/comments', () => {
  it("lists the commit's comments oldest first, paginated, each with its place", async () => {
    const p = (await createProject(owner.token, { visibility: 'public' })).id;
    const [, sha] = await writeHistory(p);
    const made = [];
    for (const body of [
      { note: 'a' },
      { note: 'b', path: 'README.md', line: 2, line_type: 'new' },
      { note: 'c', path: 'README.md', line: 2, line_type: 'old' },
    ]) {
      const res = await api.post(comments(p, sha), { token: owner.token, body });
      expect(res.status).toBe(201);
      made.push(res.body);
    }
    const all = await api.get(comments(p, 'main'));
    expect(all.status).toBe(200);
    expect(all.body).toEqual(made);
    expect(all.body.map((c: any) => [c.note, c.path, c.line, c.line_type])).toEqual([
      ['a', null, null, null],
      ['b', 'README.md', 2, 'new'],
      ['c', 'README.md', null, 'old'],
    ]);
    expect(Object.fromEntries(['x-total', 'x-total-pages', 'x-page', 'x-per-page'].map((h) => [h, all.headers.get(h)]))).toEqual({
      'x-total': '3',
      'x-total-pages': '1',
      'x-page': '1',
      'x-per-page': '20',
    });
    const second = await api.get(comments(p, sha), { query: { per_page: '1', page: '2' } });
    expect(second.body).toEqual([made[1]]);
    expect([second.headers.get('x-total'), second.headers.get('x-next-page'), second.headers.get('x-prev-page')]).toEqual(['3', '3', '1']);
    expect(second.headers.get('link')).toContain('rel="next"');
    // Another commit of the project has none of them.
    expect((await api.get(comments(p, root))).body).toEqual([]);
  });

  it.each([
    [{ page: '0' }, 'page does not have a valid value'],
    [{ per_page: 'many' }, 'per_page is invalid'],
  ])('bad pagination %j: 400', async (query, error) => {
    expect(await api.get(comments(publicId, child), { query })).toMatchObject({ status: 400, body: { error } });
  });
});

describe('who may comment (download_code, checked before the parameters)', () => {
  const hidden = { status: 404, body: { message: '404 Project Not Found' } };
  const forbidden = { status: 403, body: { message: '403 Forbidden' } };

  it('a private project: reporters read and comment; guests 403; strangers and anonymous callers 404, whatever they send', async () => {
    expect((await api.get(comments(privateId, child), { token: reporter.token })).status).toBe(200);
    expect((await api.post(comments(privateId, child), { token: reporter.token, body: { note: 'ok' } })).status).toBe(201);
    for (const body of [{ note: 'x' }, {}]) {
      expect(await api.post(comments(privateId, child), { token: guest.token, body })).toMatchObject(forbidden);
      expect(await api.post(comments(privateId, child), { token: stranger.token, body })).toMatchObject(hidden);
    }
    expect(await api.get(comments(privateId, child), { token: guest.token, query: { page: '0' } })).toMatchObject(forbidden);
    expect(await api.get(comments(privateId, 'unknown'), { token: stranger.token })).toMatchObject(hidden);
    expect(await api.get(comments(privateId, child))).toMatchObject(hidden);
  });

  it('a public project: anyone reads, anyone signed in comments; anonymous writes are 401 (app-wide rule)', async () => {
    expect((await api.get(comments(publicId, child))).status).toBe(200);
    // GitLab 13.6 lets this reach the model (400 `Failed to save note {:author=>["can't be blank"]}`); app.ts asks
    // every write for a signed-in caller first.
    for (const id of [publicId, privateId]) {
      expect(await api.post(comments(id, child), { body: { note: 'hi' } })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    }
    expect((await api.post(comments(publicId, child), { token: stranger.token, body: { note: 'hi' } })).status).toBe(201);
  });

  it('archived projects take commit comments (commits.rb asks for download_code only)', async () => {
    const p = (await createProject(owner.token)).id;
    const [, sha] = await writeHistory(p);
    await testDb().db.update(projects).set({ archived: true }).where(eq(projects.id, p));
    expect((await api.post(comments(p, sha), { token: owner.token, body: { note: 'still' } })).status).toBe(201);
  });

  it('a read_api token reads but may not comment; a bad token is 401', async () => {
    const token = await createToken(reporter.user, ['read_api']);
    expect((await api.get(comments(privateId, child), { token })).status).toBe(200);
    expect(await api.post(comments(privateId, child), { token, body: { note: 'x' } })).toMatchObject({ status: 403, body: { error: 'insufficient_scope' } });
    expect(await api.get(comments(privateId, child), { token: 'glpat-not-a-real-token' })).toMatchObject({
      status: 401,
      body: { message: '401 Unauthorized' },
    });
  });
});

describe('the `commented` event', () => {
  it('targets the note (Note or LegacyDiffNote) with its note object, shown to those who may download the code', async () => {
    const p = (await createProject(owner.token)).id;
    await addMember(owner.token, 'projects', p, reporter.user.id, 20);
    await addMember(owner.token, 'projects', p, guest.user.id, 10);
    const [, sha] = await writeHistory(p);
    const plain = await api.post(comments(p, sha), { token: reporter.token, body: { note: 'plain' } });
    const placed = await api.post(comments(p, sha), { token: reporter.token, body: { note: 'placed', path: 'README.md', line: 4, line_type: 'new' } });
    expect([plain.status, placed.status]).toEqual([201, 201]);
    const ids = (
      await testDb()
        .db.select({ id: notes.id, body: notes.body })
        .from(notes)
        .where(and(eq(notes.projectId, p), eq(notes.commitId, sha)))
    ).sort((a, b) => a.id - b.id);
    expect(ids.map((n) => n.body)).toEqual(['plain', 'placed']);

    const listing = await api.get(`/projects/${p}/events`, { token: reporter.token, query: { action: 'commented', sort: 'asc' } });
    expect(listing.status).toBe(200);
    expect(listing.body).toHaveLength(2);
    const [first, second] = listing.body;
    expect(first).toMatchObject({
      project_id: p,
      action_name: 'commented on',
      target_id: ids[0]!.id,
      target_iid: ids[0]!.id,
      target_type: 'Note',
      author_id: reporter.user.id,
      target_title: null,
    });
    expect(first.note).toEqual({
      id: ids[0]!.id,
      type: null,
      body: 'plain',
      attachment: null,
      author: userBasic(reporter.user),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      system: false,
      noteable_id: null,
      noteable_type: 'Commit',
      resolvable: false,
      confidential: false,
      noteable_iid: null,
      commands_changes: {},
    });
    expect(second).toMatchObject({
      target_type: 'LegacyDiffNote',
      target_id: ids[1]!.id,
      note: { type: 'LegacyDiffNote', body: 'placed', noteable_type: 'Commit', noteable_id: null },
    });

    // The author's own and their profile's listings show them too (newest first: these two lead).
    const own = await api.get('/events', { token: reporter.token, query: { action: 'commented' } });
    expect(own.body.slice(0, 2).map((e: any) => e.target_id)).toEqual([ids[1]!.id, ids[0]!.id]);
    const profile = await api.get(`/users/${reporter.user.id}/events`, { token: owner.token, query: { action: 'commented' } });
    expect(profile.body.slice(0, 2).map((e: any) => e.target_id)).toEqual([ids[1]!.id, ids[0]!.id]);
    // target_type=note is the class name: Note only.
    const onlyNotes = await api.get(`/projects/${p}/events`, { token: reporter.token, query: { target_type: 'note' } });
    expect(onlyNotes.body.map((e: any) => e.target_id)).toEqual([ids[0]!.id]);

    // A guest of the private project reads it but not its code: the events are hidden after pagination (still counted).
    const asGuest = await api.get(`/projects/${p}/events`, { token: guest.token, query: { action: 'commented' } });
    expect(asGuest.status).toBe(200);
    expect(asGuest.body).toEqual([]);
    expect(asGuest.headers.get('x-total')).toBe('2');
    for (const viewer of [guest, stranger]) {
      const theirs = await api.get(`/users/${reporter.user.id}/events`, { token: viewer.token, query: { action: 'commented', per_page: '100' } });
      expect(theirs.body.filter((e: any) => e.project_id === p)).toEqual([]);
    }
  });

  it('on a public project anonymous callers see them', async () => {
    const p = (await createProject(owner.token, { visibility: 'public' })).id;
    const [, sha] = await writeHistory(p);
    expect((await api.post(comments(p, sha), { token: stranger.token, body: { note: 'public' } })).status).toBe(201);
    const res = await api.get(`/projects/${p}/events`, { query: { action: 'commented' } });
    expect(res.body.map((e: any) => [e.action_name, e.target_type, e.note.body, e.note.noteable_type])).toEqual([['commented on', 'Note', 'public', 'Commit']]);
  });
});

describe('alongside the other notes', () => {
  it('an issue note is not a commit comment, nor the other way round', async () => {
    const p = (await createProject(owner.token, { visibility: 'public' })).id;
    const [, sha] = await writeHistory(p);
    const issue = await api.post(`/projects/${p}/issues`, { token: owner.token, body: { title: 'Bug' } });
    const note = await api.post(`/projects/${p}/issues/${issue.body.iid}/notes`, { token: owner.token, body: { body: 'on the issue' } });
    expect(note.status).toBe(201);
    expect((await api.post(comments(p, sha), { token: owner.token, body: { note: 'on the commit' } })).status).toBe(201);
    const [commitNote] = await testDb()
      .db.select({ id: notes.id })
      .from(notes)
      .where(and(eq(notes.projectId, p), eq(notes.commitId, sha)));
    const issueNotes = await api.get(`/projects/${p}/issues/${issue.body.iid}/notes`, { token: owner.token });
    expect(issueNotes.body.map((n: any) => n.body)).toEqual(['on the issue']);
    expect(await api.get(`/projects/${p}/issues/${issue.body.iid}/notes/${commitNote!.id}`, { token: owner.token })).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    });
    expect((await api.get(comments(p, sha))).body.map((c: any) => c.note)).toEqual(['on the commit']);
  });

  it('deleting the project removes its commit comments with its other notes', async () => {
    const p = (await createProject(owner.token)).id;
    const [, sha] = await writeHistory(p);
    expect((await api.post(comments(p, sha), { token: owner.token, body: { note: 'bye' } })).status).toBe(201);
    const left = async () =>
      (
        await testDb()
          .db.select({ n: count() })
          .from(notes)
          .where(and(eq(notes.commitId, sha), eq(notes.projectId, p)))
      )[0]!.n;
    expect(await left()).toBe(1);
    expect((await api.delete(`/projects/${p}`, { token: owner.token })).status).toBe(202);
    expect(await api.get(comments(p, sha), { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    // The housekeeping purge deletes the project row: its notes, commit comments included, go with it.
    await purgeProjectsAndGroups(testDb().db, [p], []);
    expect(await left()).toBe(0);
  });
});
