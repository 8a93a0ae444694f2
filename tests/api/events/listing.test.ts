// The three listings: filters, exclusive date bounds, sort, pagination (offset and keyset), action_name for every
// stored action, notes and push data, the bad-input table, and the query budget.
import { describe, expect, it } from 'vitest';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { insertTestEvent, insertTestIssue, insertTestMilestone, insertTestNote } from '../../factories/events.ts';
import { mergeRequests } from '../../../db/schema/index.ts';
import { api, queryCount, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';

async function setup() {
  const owner = await createUser();
  const p = await createProject(owner.token);
  return { owner, p };
}

describe('action_name for every stored action', () => {
  it('maps as GitLab does, with targets loaded in the page', async () => {
    const { owner, p } = await setup();
    const u = owner.user.id;
    const issue = await insertTestIssue({ projectId: p.id, authorId: u, title: 'An issue' });
    const milestone = await insertTestMilestone({ projectId: p.id, title: 'v1' });
    const note = await insertTestNote({ projectId: p.id, issueId: issue.id, authorId: u, body: 'What an awesome day!' });
    const dnote = await insertTestNote({ projectId: p.id, issueId: issue.id, authorId: u, type: 'DiscussionNote' });
    // An event whose merge request is gone is hidden (read_merge_request on a nil target), so the MR exists.
    const [mr] = await testDb()
      .db.insert(mergeRequests)
      .values({ targetProjectId: p.id, sourceProjectId: p.id, iid: 1, sourceBranch: 'topic', targetBranch: 'main', authorId: u, title: 'An MR' })
      .returning();
    const base = { authorId: u, projectId: p.id };
    const issueT = { targetType: 'Issue', targetId: issue.id };
    const push = (action: 0 | 1 | 2) => ({
      commitCount: 1,
      action,
      refType: 0 as const,
      commitFrom: action === 0 ? null : 'a'.repeat(40),
      commitTo: action === 1 ? null : 'b'.repeat(40),
      ref: 'main',
      commitTitle: 'Add simple search',
    });
    const made = [
      await insertTestEvent({ ...base, action: 'created', ...issueT }),
      await insertTestEvent({ ...base, action: 'updated', ...issueT }),
      await insertTestEvent({ ...base, action: 'closed', ...issueT }),
      await insertTestEvent({ ...base, action: 'reopened', ...issueT }),
      await insertTestEvent({ ...base, action: 'pushed', push: push(0) }),
      await insertTestEvent({ ...base, action: 'pushed', push: push(1) }),
      await insertTestEvent({ ...base, action: 'pushed', push: push(2) }),
      await insertTestEvent({ ...base, action: 'commented', targetType: 'Note', targetId: note.id }),
      await insertTestEvent({ ...base, action: 'commented', targetType: 'DiscussionNote', targetId: dnote.id }),
      await insertTestEvent({ ...base, action: 'merged', targetType: 'MergeRequest', targetId: mr!.id }),
      await insertTestEvent({ ...base, action: 'joined' }),
      await insertTestEvent({ ...base, action: 'left' }),
      await insertTestEvent({ ...base, action: 'destroyed', targetType: 'Milestone', targetId: milestone.id }),
      await insertTestEvent({ ...base, action: 'expired' }),
      await insertTestEvent({ ...base, action: 'created', targetType: 'Milestone', targetId: milestone.id }),
    ];
    const res = await api.get(`/projects/${p.id}/events`, { token: owner.token, query: { sort: 'asc', per_page: 100 } });
    expect(res.status).toBe(200);
    const mine = res.body.filter((e: any) => made.includes(e.id));
    expect(mine.map((e: any) => e.action_name)).toEqual([
      'opened',
      'opened',
      'closed',
      'opened',
      'pushed new',
      'deleted',
      'pushed to',
      'commented on',
      'commented on',
      'accepted',
      'joined',
      'left',
      'destroyed',
      'removed due to membership expiration from',
      'opened',
    ]);
    expect(mine[0]).toMatchObject({ target_type: 'Issue', target_id: issue.id, target_iid: issue.iid, target_title: 'An issue' });
    expect(mine[14]).toMatchObject({ target_type: 'Milestone', target_iid: milestone.iid, target_title: 'v1' });
    expect(mine[4].push_data).toEqual({
      commit_count: 1,
      action: 'created',
      ref_type: 'branch',
      commit_from: null,
      commit_to: 'b'.repeat(40),
      ref: 'main',
      commit_title: 'Add simple search',
      ref_count: null,
    });
    expect(mine[5].push_data.action).toBe('removed');
    expect(mine[6].push_data.action).toBe('pushed');
    expect(mine[0].push_data).toBeUndefined();
    expect(mine[0].note).toBeUndefined();
    expect(mine[7]).toMatchObject({ target_type: 'Note', target_id: note.id, target_iid: note.id, target_title: null });
    expect(mine[7].note).toEqual({
      id: note.id,
      type: null,
      body: 'What an awesome day!',
      attachment: null,
      author: {
        id: u,
        name: owner.user.name,
        username: owner.user.username,
        state: 'active',
        avatar_url: null,
        web_url: `${TEST_PUBLIC_URL}/${owner.user.username}`,
      },
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
      system: false,
      noteable_id: issue.id,
      noteable_type: 'Issue',
      resolvable: false,
      confidential: false,
      noteable_iid: issue.iid,
      commands_changes: {},
    });
    expect(mine[8].note.type).toBe('DiscussionNote');
  });
});

describe('filters', () => {
  it('action and target_type (note matches only stored "Note")', async () => {
    const { owner, p } = await setup();
    const u = owner.user.id;
    const issue = await insertTestIssue({ projectId: p.id, authorId: u });
    const n1 = await insertTestNote({ projectId: p.id, issueId: issue.id, authorId: u });
    const n2 = await insertTestNote({ projectId: p.id, issueId: issue.id, authorId: u, type: 'DiscussionNote' });
    const closed = await insertTestEvent({ authorId: u, projectId: p.id, action: 'closed', targetType: 'Issue', targetId: issue.id });
    const c1 = await insertTestEvent({ authorId: u, projectId: p.id, action: 'commented', targetType: 'Note', targetId: n1.id });
    await insertTestEvent({ authorId: u, projectId: p.id, action: 'commented', targetType: 'DiscussionNote', targetId: n2.id });
    const ids = async (query: Record<string, string>) => (await api.get(`/projects/${p.id}/events`, { token: owner.token, query })).body.map((e: any) => e.id);
    expect(await ids({ action: 'closed' })).toEqual([closed]);
    expect(await ids({ target_type: 'note' })).toEqual([c1]);
    expect(await ids({ target_type: 'issue' })).toEqual([closed]);
    expect(await ids({ target_type: 'issue', action: 'created' })).toEqual([]);
    expect((await ids({ action: 'commented' })).length).toBe(2);
  });

  it('before and after are exclusive whole days (UTC)', async () => {
    const { owner, p } = await setup();
    // Recent days (older events would be removed by the retention job other test files run).
    const day = (offset: number) => new Date(Date.UTC(2026, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);
    const base = Math.floor((Date.now() - Date.UTC(2026, 0, 1)) / 86_400_000) - 60;
    const [d1, d2, d30, d31, d32] = [day(base), day(base + 1), day(base + 29), day(base + 30), day(base + 31)];
    const at = (t: string) => insertTestEvent({ authorId: owner.user.id, projectId: p.id, action: 'joined', createdAt: t });
    const d1end = await at(`${d1}T23:59:59.999Z`);
    const d2start = await at(`${d2}T00:00:00.000Z`);
    const d30late = await at(`${d30}T23:59:59.000Z`);
    const d31start = await at(`${d31}T00:00:00.000Z`);
    const ids = async (query: Record<string, string>) =>
      (await api.get(`/projects/${p.id}/events`, { token: owner.token, query: { sort: 'asc', ...query } })).body.map((e: any) => e.id);
    expect(await ids({ after: d1, before: d31 })).toEqual([d2start, d30late]);
    // Grape's Date also takes one-digit months and days (GitLab's own spec uses after=2016-12-1).
    expect(await ids({ after: d1.replace(/-0/g, '-'), before: d31.replace(/-0/g, '-') })).toEqual([d2start, d30late]);
    expect(await ids({ before: d2 })).toEqual([d1end]);
    expect(await ids({ after: d30, before: d32 })).toEqual([d31start]);
    // before earlier than after: nothing, no error (GitLab does not validate the pair)
    const res = await api.get(`/projects/${p.id}/events`, { token: owner.token, query: { after: d31, before: d1 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('sort asc/desc by id, default desc', async () => {
    const { owner, p } = await setup();
    const a = await insertTestEvent({ authorId: owner.user.id, projectId: p.id, action: 'joined', createdAt: '2030-01-01T00:00:00Z' });
    const b = await insertTestEvent({ authorId: owner.user.id, projectId: p.id, action: 'left', createdAt: new Date(Date.now() - 86_400_000).toISOString() });
    const get = async (query: Record<string, string> = {}) =>
      (await api.get(`/projects/${p.id}/events`, { token: owner.token, query })).body.map((e: any) => e.id);
    const desc = await get();
    expect(desc.slice(0, 2)).toEqual([b, a]);
    expect(await get({ sort: 'desc' })).toEqual(desc);
    expect(await get({ sort: 'asc' })).toEqual([...desc].reverse());
  });
});

describe('bad input', () => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ action: 'opened' }, 'action does not have a valid value'],
    [{ action: 'CLOSED' }, 'action does not have a valid value'],
    [{ target_type: 'Issue' }, 'target_type does not have a valid value'],
    [{ target_type: 'epic' }, 'target_type does not have a valid value'],
    [{ before: '2016-13-01' }, 'before is invalid'],
    [{ before: '2016-02-30' }, 'before is invalid'],
    [{ after: 'yesterday' }, 'after is invalid'],
    [{ after: '2016-1-32' }, 'after is invalid'],
    [{ sort: 'up' }, 'sort does not have a valid value'],
    [{ page: 'x' }, 'page is invalid'],
    [{ per_page: '0' }, 'per_page does not have a valid value'],
    [{ id_after: 'abc' }, 'id_after is invalid'],
    [{ pagination: 'cursor' }, 'pagination does not have a valid value'],
  ];
  for (const [query, error] of cases) {
    it(`${JSON.stringify(query)} -> 400 ${error}`, async () => {
      const { owner, p } = await setup();
      for (const path of ['/events', `/users/${owner.user.id}/events`, `/projects/${p.id}/events`]) {
        const res = await api.get(path, { token: owner.token, query });
        expect(res.status, path).toBe(400);
        expect(res.body).toEqual({ error });
      }
    });
  }

  it('a page far beyond the end is 200 [] on every listing (offsets past 2^31 included)', async () => {
    const { owner, p } = await setup();
    for (const [path, query] of [
      ['/events', { page: '50000000', per_page: '100' }],
      ['/events', { scope: 'all', page: '50000000', per_page: '100' }],
      [`/projects/${p.id}/events`, { page: '99999999999' }],
    ] as const) {
      // With the offset cap off (OFFSET_PAGINATION_LIMIT=0): under the default cap these are 405
      // (tests/api/conventions/pagination-offset-limit.test.ts).
      const res = await api.get(path, { token: owner.token, query, env: { OFFSET_PAGINATION_LIMIT: '0' } });
      expect(res.status, path).toBe(200);
      expect(res.body).toEqual([]);
    }
  });

  it('unknown or non-numeric references: 404', async () => {
    const { owner } = await setup();
    expect(await api.get('/users/999999999/events', { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
    expect(await api.get('/users/no-such-user-xyz/events', { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
    expect(await api.get('/users/99999999999/events', { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
    expect(await api.get('/projects/999999999/events', { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await api.get('/projects/abc/events', { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await api.get('/projects/no%2Fsuch/events', { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  });
});

describe('references', () => {
  it('a user by username (any case), a project by URL-encoded path', async () => {
    const { owner, p } = await setup();
    const byName = await api.get(`/users/${owner.user.username.toUpperCase()}/events`, { token: owner.token });
    expect(byName.status).toBe(200);
    expect(byName.body.map((e: any) => e.project_id)).toEqual([p.id]);
    const byPath = await api.get(`/projects/${encodeURIComponent(p.path_with_namespace)}/events`, { token: owner.token });
    expect(byPath.status).toBe(200);
    expect(byPath.body.map((e: any) => e.action_name)).toEqual(['created']);
  });
});

describe('pagination', () => {
  it('offset headers with totals; keyset with Link rel="next" walks every event once', async () => {
    const { owner, p } = await setup();
    for (let i = 0; i < 6; i++) await insertTestEvent({ authorId: owner.user.id, projectId: p.id, action: 'joined' });
    const url = `/projects/${p.id}/events`;
    const res = await api.get(url, { token: owner.token, query: { per_page: 3, page: 2 } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(3);
    expect(Object.fromEntries(['x-page', 'x-per-page', 'x-next-page', 'x-prev-page', 'x-total', 'x-total-pages'].map((h) => [h, res.headers.get(h)]))).toEqual({
      'x-page': '2',
      'x-per-page': '3',
      'x-next-page': '3',
      'x-prev-page': '1',
      'x-total': '7',
      'x-total-pages': '3',
    });
    expect(res.headers.get('link')).toBe(
      [
        `<${TEST_PUBLIC_URL}/api/v4${url}?per_page=3&page=1>; rel="prev"`,
        `<${TEST_PUBLIC_URL}/api/v4${url}?per_page=3&page=3>; rel="next"`,
        `<${TEST_PUBLIC_URL}/api/v4${url}?per_page=3&page=1>; rel="first"`,
        `<${TEST_PUBLIC_URL}/api/v4${url}?per_page=3&page=3>; rel="last"`,
      ].join(', '),
    );
    const beyond = await api.get(url, { token: owner.token, query: { per_page: 3, page: 9 } });
    expect(beyond.body).toEqual([]);
    expect(beyond.headers.get('x-total')).toBe('7');

    const all = (await api.get(url, { token: owner.token, query: { per_page: 100 } })).body.map((e: any) => e.id);
    for (const sort of ['desc', 'asc'] as const) {
      const seen: number[] = [];
      let query: Record<string, string> = { pagination: 'keyset', per_page: '2', sort };
      for (let guard = 0; guard < 10; guard++) {
        const page = await api.get(url, { token: owner.token, query });
        expect(page.status).toBe(200);
        expect(page.headers.get('x-total')).toBeNull();
        seen.push(...page.body.map((e: any) => e.id));
        const link = page.headers.get('link');
        if (!link) break;
        const m = /^<([^>]+)>; rel="next"$/.exec(link);
        expect(m).not.toBeNull();
        query = Object.fromEntries(new URL(m![1]!).searchParams);
        expect(query[sort === 'asc' ? 'id_after' : 'id_before']).toBeDefined();
      }
      expect(seen).toEqual(sort === 'desc' ? all : [...all].reverse());
    }
  });

  it('a listing costs at most 2 queries (auth + 1) whatever per_page, with several authors, notes and issues', async () => {
    const { owner, p } = await setup();
    const others = [await createUser(), await createUser(), await createUser()];
    const issue = await insertTestIssue({ projectId: p.id, authorId: owner.user.id, confidential: true, assigneeIds: [others[0]!.user.id] });
    for (let i = 0; i < 30; i++) {
      const author = others[i % 3]!.user.id;
      const note = await insertTestNote({ projectId: p.id, issueId: issue.id, authorId: author });
      await insertTestEvent({ authorId: author, projectId: p.id, action: 'commented', targetType: 'Note', targetId: note.id });
      await insertTestEvent({ authorId: author, projectId: p.id, action: 'closed', targetType: 'Issue', targetId: issue.id });
    }
    await api.get('/user', { token: owner.token }); // first use records last_used_at
    for (const [path, query] of [
      [`/projects/${p.id}/events`, { per_page: '100' }],
      [`/projects/${p.id}/events`, { per_page: '10', page: '2' }],
      [`/projects/${p.id}/events`, { per_page: '10', page: '50' }],
      [`/projects/${p.id}/events`, { per_page: '100', pagination: 'keyset' }],
      [`/users/${others[0]!.user.id}/events`, { per_page: '100' }],
      [`/users/${others[0]!.user.username}/events`, { per_page: '5' }],
      ['/events', { per_page: '100', scope: 'all' }],
      ['/events', { per_page: '1' }],
    ] as const) {
      const res = await api.get(path, { token: owner.token, query });
      expect(res.status, path).toBe(200);
      expect(queryCount(res), `${path} ${JSON.stringify(query)}`).toBeLessThanOrEqual(2);
    }
    const full = await api.get(`/projects/${p.id}/events`, { token: owner.token, query: { per_page: '100' } });
    expect(full.body).toHaveLength(61);
    expect(new Set(full.body.map((e: any) => e.author.username)).size).toBe(4);
  });
});
