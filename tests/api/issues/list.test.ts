import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { issues, milestones, projects } from '../../../db/schema/index.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createIssue } from '../../factories/issues.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';
import { api, queryCount, testDb } from '../../helpers/app.ts';

const titles = (res: { body: Array<{ title: string }> }) => res.body.map((i) => i.title).sort();

async function setup(visibility: 'private' | 'public' = 'private') {
  const owner = await createUser();
  const reporter = await createUser();
  const guest = await createUser();
  const stranger = await createUser();
  const group = await createGroup(owner.token, { visibility });
  const project = await createProject(owner.token, { namespaceId: group.id, visibility });
  await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
  await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
  return { owner, reporter, guest, stranger, group, project };
}

describe('GET /projects/:id/issues filters', () => {
  it('state, labels (AND, None, Any), milestone, assignee, author, search, iids, confidential, dates, order', async () => {
    const fx = await setup();
    const [milestone] = await testDb().db.insert(milestones).values({ iid: 1, projectId: fx.project.id, title: 'v1' }).returning();
    const p = fx.project.id;
    const a = await createIssue(fx.owner.token, p, { title: 'alpha 100%', labels: 'bug,ux', assignee_ids: [fx.reporter.user.id], milestone_id: milestone!.id });
    const b = await createIssue(fx.owner.token, p, { title: 'beta', description: 'has needle_x inside', labels: 'bug' });
    const c = await createIssue(fx.reporter.token, p, { title: 'gamma', confidential: true });
    await api.put(`/projects/${p}/issues/${b.iid}`, { token: fx.owner.token, body: { state_event: 'close' } });
    await testDb()
      .db.update(issues)
      .set({ createdAt: new Date('2020-01-01T00:00:00Z') })
      .where(eq(issues.id, a.id));

    const list = async (query: Record<string, string | string[]>, token = fx.owner.token) => {
      const res = await api.get(`/projects/${p}/issues`, { token, query });
      expect(res.status, res.text).toBe(200);
      return titles(res);
    };
    expect(await list({})).toEqual(['alpha 100%', 'beta', 'gamma']);
    expect(await list({ state: 'opened' })).toEqual(['alpha 100%', 'gamma']);
    expect(await list({ state: 'closed' })).toEqual(['beta']);
    expect(await list({ labels: 'bug' })).toEqual(['alpha 100%', 'beta']);
    expect(await list({ labels: 'bug,ux' })).toEqual(['alpha 100%']);
    expect(await list({ labels: 'ux,nope' })).toEqual([]);
    expect(await list({ labels: 'None' })).toEqual(['gamma']);
    expect(await list({ labels: 'Any' })).toEqual(['alpha 100%', 'beta']);
    expect(await list({ milestone: 'v1' })).toEqual(['alpha 100%']);
    expect(await list({ milestone: 'None' })).toEqual(['beta', 'gamma']);
    expect(await list({ milestone: 'Any' })).toEqual(['alpha 100%']);
    expect(await list({ assignee_id: String(fx.reporter.user.id) })).toEqual(['alpha 100%']);
    expect(await list({ assignee_id: 'None' })).toEqual(['beta', 'gamma']);
    expect(await list({ assignee_id: 'Any' })).toEqual(['alpha 100%']);
    expect(await list({ assignee_username: fx.reporter.user.username })).toEqual(['alpha 100%']);
    expect(await list({ 'assignee_username[]': [fx.reporter.user.username] })).toEqual(['alpha 100%']);
    expect(await list({ author_id: String(fx.reporter.user.id) })).toEqual(['gamma']);
    expect(await list({ search: 'NEEDLE_x' })).toEqual(['beta']);
    expect(await list({ search: '100%' })).toEqual(['alpha 100%']);
    expect(await list({ search: 'needle', in: 'title' })).toEqual([]);
    expect(await list({ search: 'needle', in: 'description' })).toEqual(['beta']);
    expect(await list({ search: 'needle', in: 'title,description' })).toEqual(['beta']);
    // Gitlab::SQL::Pattern: LIKE's wildcards are literal, words of 3+ characters match anywhere (all of them, in one
    // column), a shorter query only the whole value; quoted phrases are one word.
    expect(await list({ search: '0%' })).toEqual([]);
    expect(await list({ search: '_x ' })).toEqual([]);
    expect(await list({ search: 'GAMMA' })).toEqual(['gamma']);
    expect(await list({ search: 'alpha 100%' })).toEqual(['alpha 100%']);
    expect(await list({ search: '100% alpha' })).toEqual(['alpha 100%']);
    expect(await list({ search: '"100% alpha"' })).toEqual([]);
    expect(await list({ search: 'alpha needle' })).toEqual([]);
    expect(await list({ search: 'e_x' })).toEqual(['beta']);
    expect(await list({ 'iids[]': [String(a.iid), String(c.iid)] })).toEqual(['alpha 100%', 'gamma']);
    expect(await list({ confidential: 'true' })).toEqual(['gamma']);
    expect(await list({ confidential: 'false' })).toEqual(['alpha 100%', 'beta']);
    expect(await list({ created_before: '2021-01-01' })).toEqual(['alpha 100%']);
    expect(await list({ created_after: '2021-01-01T00:00:00Z' })).toEqual(['beta', 'gamma']);

    const detailed = await api.get(`/projects/${p}/issues`, { token: fx.owner.token, query: { with_labels_details: 'true', 'iids[]': [String(a.iid)] } });
    expect(detailed.body[0].labels).toEqual([
      {
        id: expect.any(Number),
        name: 'bug',
        color: expect.stringMatching(/^#/),
        description: null,
        description_html: '',
        text_color: expect.stringMatching(/^#/),
      },
      {
        id: expect.any(Number),
        name: 'ux',
        color: expect.stringMatching(/^#/),
        description: null,
        description_html: '',
        text_color: expect.stringMatching(/^#/),
      },
    ]);
    expect(detailed.body[0].milestone).toMatchObject({
      id: milestone!.id,
      iid: 1,
      project_id: p,
      title: 'v1',
      state: 'active',
      web_url: expect.stringContaining(`/${fx.project.path_with_namespace}/-/milestones/1`),
    });

    const ordered = async (query: Record<string, string>) =>
      (await api.get(`/projects/${p}/issues`, { token: fx.owner.token, query })).body.map((i: { iid: number }) => i.iid);
    expect(await ordered({})).toEqual([c.iid, b.iid, a.iid]);
    expect(await ordered({ sort: 'asc' })).toEqual([a.iid, b.iid, c.iid]);
    expect(await ordered({ order_by: 'updated_at' })).toEqual([b.iid, c.iid, a.iid]);

    const bad: Array<[Record<string, string>, string]> = [
      [{ state: 'open' }, 'state does not have a valid value'],
      [{ order_by: 'title; drop' }, 'order_by does not have a valid value'],
      [{ sort: 'up' }, 'sort does not have a valid value'],
      [{ 'iids[]': 'x' }, 'iids[0] is invalid'],
      [{ author_id: 'me' }, 'author_id is invalid'],
      [{ created_after: 'yesterday' }, 'created_after is invalid'],
      [{ search: 'a\u0000' }, 'search is invalid'],
      [{ per_page: '0' }, 'per_page does not have a valid value'],
    ];
    for (const [query, error] of bad) {
      const res = await api.get(`/projects/${p}/issues`, { token: fx.owner.token, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body).toEqual({ error });
    }
  });

  it('lists have no `subscribed`; pagination headers', async () => {
    const fx = await setup();
    for (let i = 0; i < 3; i++) await createIssue(fx.owner.token, fx.project.id);
    const res = await api.get(`/projects/${fx.project.id}/issues`, { token: fx.owner.token, query: { per_page: '2' } });
    expect(res.body).toHaveLength(2);
    expect(res.body[0]).not.toHaveProperty('subscribed');
    expect(res.headers.get('x-total')).toBe('3');
    expect(res.headers.get('x-total-pages')).toBe('2');
    expect(res.headers.get('x-next-page')).toBe('2');
    const page2 = await api.get(`/projects/${fx.project.id}/issues`, { token: fx.owner.token, query: { per_page: '2', page: '2' } });
    expect(page2.body).toHaveLength(1);
    expect(page2.headers.get('x-prev-page')).toBe('1');
  });
});

describe('bad dates', () => {
  it('impossible or out-of-range dates are 400 `<param> is invalid`, never a database error', async () => {
    const { owner, project } = await setup();
    for (const [param, value] of [
      ['created_after', '0000-01-01'],
      ['updated_before', '2020-02-30'],
      ['created_before', '0000-06-01T00:00:00Z'],
      ['created_after', '10000-01-01'],
    ] as const) {
      const res = await api.get(`/projects/${project.id}/issues`, { token: owner.token, query: { [param]: value } });
      expect(res.status, `${param}=${value}`).toBe(400);
      expect(res.body).toEqual({ error: `${param} is invalid` });
    }
    const created = await api.post(`/projects/${project.id}/issues`, { token: owner.token, body: { title: 'x', created_at: '0000-01-01T00:00:00Z' } });
    expect(created).toMatchObject({ status: 400, body: { error: 'created_at is invalid' } });
  });
});

describe('confidential issues in lists', () => {
  it('guests and outsiders do not see them (nor count them); reporters, authors and assignees do', async () => {
    const fx = await setup('public');
    const author = await createUser();
    const assignee = await createUser();
    await addMember(fx.owner.token, 'projects', fx.project.id, author.user.id, 10);
    await addMember(fx.owner.token, 'projects', fx.project.id, assignee.user.id, 10);
    await createIssue(fx.owner.token, fx.project.id, { title: 'open one' });
    await createIssue(author.token, fx.project.id, { title: 'secret by author', confidential: true });
    await createIssue(fx.owner.token, fx.project.id, { title: 'secret assigned', confidential: true, assignee_ids: [assignee.user.id] });
    const seen = async (token?: string) => {
      const res = await api.get(`/projects/${fx.project.id}/issues`, { token });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total')).toBe(String(res.body.length));
      return titles(res);
    };
    const all = ['open one', 'secret assigned', 'secret by author'];
    expect(await seen(fx.owner.token)).toEqual(all);
    expect(await seen(fx.reporter.token)).toEqual(all);
    expect(await seen((await createAdmin()).token)).toEqual(all);
    expect(await seen(author.token)).toEqual(['open one', 'secret by author']);
    expect(await seen(assignee.token)).toEqual(['open one', 'secret assigned']);
    expect(await seen(fx.guest.token)).toEqual(['open one']);
    expect(await seen(fx.stranger.token)).toEqual(['open one']);
    expect(await seen(undefined)).toEqual(['open one']);
    // The same on the group and global lists.
    const group = await api.get(`/groups/${fx.group.id}/issues`, { token: fx.guest.token });
    expect(titles(group)).toEqual(['open one']);
    const global = await api.get('/issues', { token: fx.stranger.token, query: { scope: 'all', search: 'secret' } });
    expect(global.body.filter((i: { project_id: number }) => i.project_id === fx.project.id)).toEqual([]);
  });

  it('private projects are invisible to outsiders: 404 on the project list', async () => {
    const fx = await setup();
    await createIssue(fx.owner.token, fx.project.id);
    expect(await api.get(`/projects/${fx.project.id}/issues`, { token: fx.stranger.token })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
    expect(await api.get(`/groups/${fx.group.id}/issues`, { token: fx.stranger.token })).toMatchObject({
      status: 404,
      body: { message: '404 Group Not Found' },
    });
  });
});

describe('GET /groups/:id/issues and GET /issues', () => {
  it('group lists include subgroups; /issues scopes', async () => {
    const fx = await setup();
    const sub = await createGroup(fx.owner.token, { parentId: fx.group.id });
    const subProject = await createProject(fx.owner.token, { namespaceId: sub.id });
    const other = await createProject(fx.owner.token);
    const tag = unique('scope');
    await createIssue(fx.owner.token, fx.project.id, { title: `${tag} top` });
    await createIssue(fx.owner.token, subProject.id, { title: `${tag} sub`, assignee_ids: [fx.owner.user.id] });
    await createIssue(fx.owner.token, other.id, { title: `${tag} other` });
    await createIssue(fx.reporter.token, fx.project.id, { title: `${tag} by reporter` });
    expect(titles(await api.get(`/groups/${fx.group.id}/issues`, { token: fx.owner.token }))).toEqual([`${tag} by reporter`, `${tag} sub`, `${tag} top`]);
    expect(titles(await api.get(`/groups/${sub.id}/issues`, { token: fx.owner.token }))).toEqual([`${tag} sub`]);
    // Archived projects are left out of group and instance lists unless non_archived=false.
    await testDb().db.update(projects).set({ archived: true }).where(eq(projects.id, subProject.id));
    expect(titles(await api.get(`/groups/${fx.group.id}/issues`, { token: fx.owner.token }))).toEqual([`${tag} by reporter`, `${tag} top`]);
    expect(titles(await api.get(`/groups/${fx.group.id}/issues`, { token: fx.owner.token, query: { non_archived: 'false' } }))).toEqual([
      `${tag} by reporter`,
      `${tag} sub`,
      `${tag} top`,
    ]);
    expect(titles(await api.get(`/projects/${subProject.id}/issues`, { token: fx.owner.token }))).toEqual([`${tag} sub`]);
    await testDb().db.update(projects).set({ archived: false }).where(eq(projects.id, subProject.id));

    const mine = (query: Record<string, string>, token = fx.owner.token) => api.get('/issues', { token, query: { search: tag, ...query } });
    expect(titles(await mine({}))).toEqual([`${tag} other`, `${tag} sub`, `${tag} top`]);
    expect(titles(await mine({ scope: 'assigned_to_me' }))).toEqual([`${tag} sub`]);
    // The scope is one more condition (IssuableFinder#by_scope, shared with merge requests): with assignee_id=None
    // or another author nothing matches; `Any` keeps the caller's.
    expect(titles(await mine({ scope: 'assigned_to_me', assignee_id: 'None' }))).toEqual([]);
    expect(titles(await mine({ scope: 'assigned_to_me', assignee_id: 'Any' }))).toEqual([`${tag} sub`]);
    expect(titles(await mine({ scope: 'created_by_me', author_id: String(fx.reporter.user.id) }))).toEqual([]);
    expect(titles(await mine({ scope: 'all' }))).toEqual([`${tag} by reporter`, `${tag} other`, `${tag} sub`, `${tag} top`]);
    expect(titles(await mine({}, fx.reporter.token))).toEqual([`${tag} by reporter`]);
    // The reporter sees the group project's issues but not the owner's personal project.
    expect(titles(await mine({ scope: 'all' }, fx.reporter.token))).toEqual([`${tag} by reporter`, `${tag} top`]);
    expect(await api.get('/issues')).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect((await api.get('/issues', { query: { scope: 'all', search: tag } })).body).toEqual([]);
    expect(await mine({ scope: 'mine' })).toMatchObject({ status: 400, body: { error: 'scope does not have a valid value' } });
  });
});

describe('query budget', () => {
  it('a page of 100 issues with labels, assignees, milestone costs at most 3 queries', async () => {
    const fx = await setup();
    const [milestone] = await testDb().db.insert(milestones).values({ iid: 1, projectId: fx.project.id, title: 'm' }).returning();
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        createIssue(fx.owner.token, fx.project.id, {
          labels: `l${i % 3},common`,
          assignee_ids: [fx.reporter.user.id, fx.guest.user.id],
          milestone_id: milestone!.id,
        }),
      ),
    );
    for (const [path, query] of [
      [`/projects/${fx.project.id}/issues`, {}],
      [`/groups/${fx.group.id}/issues`, {}],
      ['/issues', { scope: 'all' }],
      [`/projects/${fx.project.id}/issues`, { labels: 'common', state: 'opened', search: 'Issue' }],
    ] as const) {
      const res = await api.get(path, { token: fx.owner.token, query: { per_page: '100', ...query } });
      expect(res.status).toBe(200);
      if (path !== '/issues') {
        expect(res.body).toHaveLength(30);
        for (const issue of res.body) {
          expect(issue.labels).toContain('common');
          expect(issue.assignees).toHaveLength(2);
          expect(issue.milestone).toMatchObject({ id: milestone!.id, title: 'm' });
        }
      }
      expect(queryCount(res), `${path} ${JSON.stringify(query)}`).toBeLessThanOrEqual(3);
    }
    // A page that is not the last one needs the total: it comes with the page, not from a second query.
    const paged = await api.get(`/projects/${fx.project.id}/issues`, { token: fx.owner.token, query: { per_page: '10', page: '2' } });
    expect(paged.body).toHaveLength(10);
    expect(paged.headers.get('x-total')).toBe('30');
    expect(paged.headers.get('x-total-pages')).toBe('3');
    expect(queryCount(paged)).toBeLessThanOrEqual(3);
    const single = await api.get(`/projects/${fx.project.id}/issues/1`, { token: fx.owner.token });
    expect(queryCount(single)).toBeLessThanOrEqual(3);
  });
});
