// GraphQL issues: Query.issue and Project.issue(s)/label(s)/milestones with the Issue, Label, Milestone and Todo types
// (13.6 shapes): exact bodies, confidential issues through the policy, filters, keyset paging both ways, and the
// query budget of an issue page with authors and award emoji.
import { describe, expect, it } from 'vitest';
import { insertTestIssue } from '../factories/events.ts';
import { addMember } from '../factories/groups.ts';
import { createIssue } from '../factories/issues.ts';
import { createLabel } from '../factories/labels.ts';
import { createMilestone } from '../factories/milestones.ts';
import { createProject } from '../factories/projects.ts';
import { createUser } from '../factories/users.ts';
import { api, queryCount, TEST_PUBLIC_URL } from '../helpers/app.ts';
import { gql } from './helpers.ts';

const gid = (type: string, id: number | string) => `gid://gitlab/${type}/${id}`;

const ISSUE_QUERY = `query($id: IssueID!) { issue(id: $id) {
  id iid title description state type confidential discussionLocked
  author { username } assignees { nodes { username } }
  labels { count nodes { id title description color textColor } }
  milestone { id title description state dueDate startDate webPath projectMilestone groupMilestone subgroupMilestone createdAt updatedAt }
  createdAt updatedAt closedAt dueDate webUrl webPath short: reference full: reference(full: true)
  upvotes downvotes userNotesCount subscribed timeEstimate totalTimeSpent humanTimeEstimate humanTotalTimeSpent
  taskCompletionStatus { count completedCount }
  userPermissions { adminIssue createDesign createNote destroyDesign readDesign readIssue reopenIssue updateIssue }
} }`;

const ISSUE_LISTS_QUERY = `query($id: IssueID!) { issue(id: $id) {
  awardEmoji { nodes { name emoji description unicode unicodeVersion user { username } } }
  currentUserTodos { nodes { id action body state targetType author { username } project { fullPath } group { id } createdAt } }
  pending: currentUserTodos(state: pending) { nodes { id } }
  done: currentUserTodos(state: done) { nodes { id } }
} }`;

describe('Query.issue', () => {
  it('answers every core field, with labels, milestone, assignees, award emoji and the current user todos (exact bodies)', async () => {
    const owner = await createUser();
    const dev = await createUser();
    const project = await createProject(owner.token, { visibility: 'private' });
    await addMember(owner.token, 'projects', project.id, dev.user.id, 30);
    const label = await createLabel(owner.token, 'projects', project.id, { name: 'bug', color: '#ff0000', description: 'Broken' });
    const milestone = await createMilestone(owner.token, 'projects', project.id, {
      title: 'v1',
      description: 'First',
      due_date: '2030-01-31',
      start_date: '2030-01-01',
    });
    const created = await createIssue(owner.token, project.id, {
      title: 'Crash on start',
      description: '- [x] reproduce\n- [ ] fix',
      labels: 'bug',
      milestone_id: milestone.id,
      assignee_ids: [dev.user.id],
      due_date: '2030-01-15',
    });
    const base = `/projects/${project.id}/issues/${created.iid}`;
    expect((await api.post(`${base}/time_estimate`, { token: owner.token, body: { duration: '3h30m' } })).status).toBe(200);
    expect((await api.post(`${base}/add_spent_time`, { token: owner.token, body: { duration: '1h' } })).status).toBe(201);
    expect((await api.post(`${base}/award_emoji`, { token: dev.token, body: { name: '+1' } })).status).toBe(201);
    expect((await api.post(`${base}/notes`, { token: dev.token, body: { body: 'On it' } })).status).toBe(201);
    const rest = (await api.get(base, { token: owner.token })).body;
    const restMilestone = (await api.get(`/projects/${project.id}/milestones/${milestone.id}`, { token: owner.token })).body;
    const labelId = (await api.get(`/projects/${project.id}/labels/bug`, { token: owner.token })).body.id;
    expect(label.name).toBe('bug');

    const res = await gql(ISSUE_QUERY, { token: dev.token, variables: { id: gid('Issue', created.id) } });
    expect(res.body).toEqual({
      data: {
        issue: {
          id: gid('Issue', created.id),
          iid: String(created.iid),
          title: 'Crash on start',
          description: '- [x] reproduce\n- [ ] fix',
          state: 'opened',
          type: 'ISSUE',
          confidential: false,
          discussionLocked: false,
          author: { username: owner.user.username },
          assignees: { nodes: [{ username: dev.user.username }] },
          labels: { count: 1, nodes: [{ id: gid('ProjectLabel', labelId), title: 'bug', description: 'Broken', color: '#ff0000', textColor: '#FFFFFF' }] },
          milestone: {
            id: gid('Milestone', milestone.id),
            title: 'v1',
            description: 'First',
            state: 'active',
            dueDate: '2030-01-31',
            startDate: '2030-01-01',
            webPath: `/${project.path_with_namespace}/-/milestones/${milestone.iid}`,
            projectMilestone: true,
            groupMilestone: false,
            subgroupMilestone: false,
            createdAt: restMilestone.created_at,
            updatedAt: restMilestone.updated_at,
          },
          createdAt: rest.created_at,
          updatedAt: rest.updated_at,
          closedAt: null,
          dueDate: '2030-01-15',
          webUrl: `${TEST_PUBLIC_URL}/${project.path_with_namespace}/-/issues/${created.iid}`,
          webPath: `/${project.path_with_namespace}/-/issues/${created.iid}`,
          short: `#${created.iid}`,
          full: `${project.path_with_namespace}#${created.iid}`,
          upvotes: 1,
          downvotes: 0,
          userNotesCount: 1,
          subscribed: true,
          timeEstimate: 12600,
          totalTimeSpent: 3600,
          humanTimeEstimate: '3h 30m',
          humanTotalTimeSpent: '1h',
          taskCompletionStatus: { count: 2, completedCount: 1 },
          userPermissions: {
            adminIssue: true,
            createDesign: false,
            createNote: true,
            destroyDesign: false,
            readDesign: false,
            readIssue: true,
            reopenIssue: true,
            updateIssue: true,
          },
        },
      },
    });

    // The assignee's "assigned" to-do; marked done through REST, it moves from pending to done.
    const todos = (await api.get('/todos', { token: dev.token })).body as Array<{ id: number; created_at: string }>;
    expect(todos).toHaveLength(1);
    const lists = await gql(ISSUE_LISTS_QUERY, { token: dev.token, variables: { id: gid('Issue', created.id) } });
    expect(lists.body).toEqual({
      data: {
        issue: {
          awardEmoji: {
            nodes: [
              { name: 'thumbsup', emoji: '👍', description: 'thumbs up', unicode: '1f44d', unicodeVersion: '6.0', user: { username: dev.user.username } },
            ],
          },
          currentUserTodos: {
            nodes: [
              {
                id: gid('Todo', todos[0]!.id),
                action: 'assigned',
                body: 'Crash on start',
                state: 'pending',
                targetType: 'ISSUE',
                author: { username: owner.user.username },
                project: { fullPath: project.path_with_namespace },
                group: null,
                createdAt: todos[0]!.created_at,
              },
            ],
          },
          pending: { nodes: [{ id: gid('Todo', todos[0]!.id) }] },
          done: { nodes: [] },
        },
      },
    });
    expect((await api.post(`/todos/${todos[0]!.id}/mark_as_done`, { token: dev.token })).status).toBe(201);
    const after = await gql(ISSUE_LISTS_QUERY, { token: dev.token, variables: { id: gid('Issue', created.id) } });
    expect(after.body.data.issue.pending).toEqual({ nodes: [] });
    expect(after.body.data.issue.done).toEqual({ nodes: [{ id: gid('Todo', todos[0]!.id) }] });
    // The owner has no to-do on it; anonymous callers cannot see the private project's issue at all.
    expect((await gql(ISSUE_LISTS_QUERY, { token: owner.token, variables: { id: gid('Issue', created.id) } })).body.data.issue.currentUserTodos).toEqual({
      nodes: [],
    });
    expect((await gql(ISSUE_LISTS_QUERY, { variables: { id: gid('Issue', created.id) } })).body).toEqual({ data: { issue: null } });
  });

  it('anonymous callers get an empty currentUserTodos on a public issue, and the permissions of a reader', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token, { visibility: 'public' });
    const issue = await createIssue(owner.token, project.id);
    const res = await gql(
      `query($id: IssueID!) { issue(id: $id) { iid subscribed currentUserTodos { nodes { id } pageInfo { hasNextPage } } userPermissions { readIssue createNote updateIssue adminIssue } } }`,
      {
        variables: { id: gid('Issue', issue.id) },
      },
    );
    expect(res.body).toEqual({
      data: {
        issue: {
          iid: String(issue.iid),
          subscribed: false,
          currentUserTodos: { nodes: [], pageInfo: { hasNextPage: false } },
          userPermissions: { readIssue: true, createNote: false, updateIssue: false, adminIssue: false },
        },
      },
    });
  });

  it('a confidential issue is null for a guest, anonymous callers and strangers; its author, assignee and reporters see it', async () => {
    const owner = await createUser();
    const guest = await createUser();
    const guestAuthor = await createUser();
    const reporter = await createUser();
    const project = await createProject(owner.token, { visibility: 'public' });
    await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
    await addMember(owner.token, 'projects', project.id, guestAuthor.user.id, 10);
    await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
    const issue = await createIssue(guestAuthor.token, project.id, { confidential: true });
    const ask = (token?: string) => gql('query($id: IssueID!) { issue(id: $id) { iid confidential } }', { token, variables: { id: gid('Issue', issue.id) } });
    const visible = { data: { issue: { iid: String(issue.iid), confidential: true } } };

    expect((await ask(guest.token)).body).toEqual({ data: { issue: null } });
    expect((await ask()).body).toEqual({ data: { issue: null } });
    expect((await ask((await createUser()).token)).body).toEqual({ data: { issue: null } });
    expect((await ask(guestAuthor.token)).body).toEqual(visible);
    expect((await ask(reporter.token)).body).toEqual(visible);
    expect((await ask(owner.token)).body).toEqual(visible);
    // Nor does the guest find it in the project's list, while the reporter does.
    const list = (token: string) =>
      gql('query($p: ID!) { project(fullPath: $p) { issues { count nodes { iid } } } }', { token, variables: { p: project.path_with_namespace } });
    expect((await list(guest.token)).body.data.project.issues).toEqual({ count: 0, nodes: [] });
    expect((await list(reporter.token)).body.data.project.issues).toEqual({ count: 1, nodes: [{ iid: String(issue.iid) }] });
  });

  it('a missing issue is null; an id of another type is an argument error', async () => {
    const { token } = await createUser();
    expect((await gql('{ issue(id: "gid://gitlab/Issue/999999999") { iid } }', { token })).body).toEqual({ data: { issue: null } });
    const res = await gql('{ issue(id: "gid://gitlab/Project/1") { iid } }', { token });
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors[0].message).toContain('is not a valid id for Issue');
  });
});

describe('Project.issues', () => {
  it('filters by iid, iids, state, labels, milestone, author, assignee and search; counts; Project.issue by iid', async () => {
    const owner = await createUser();
    const dev = await createUser();
    const project = await createProject(owner.token, { visibility: 'private' });
    await addMember(owner.token, 'projects', project.id, dev.user.id, 30);
    const milestone = await createMilestone(owner.token, 'projects', project.id, { title: 'M1' });
    const a = await createIssue(owner.token, project.id, { title: 'Alpha crash', labels: 'bug,ui', milestone_id: milestone.id });
    const b = await createIssue(dev.token, project.id, { title: 'Beta feature', labels: 'ui' });
    const c = await createIssue(owner.token, project.id, { title: 'Gamma', description: 'crash again', assignee_ids: [dev.user.id] });
    await api.put(`/projects/${project.id}/issues/${b.iid}`, { token: owner.token, body: { state_event: 'close' } });
    const iids = async (args: string) => {
      const res = await gql(`query($p: ID!) { project(fullPath: $p) { issues${args} { count nodes { iid } } } }`, {
        token: owner.token,
        variables: { p: project.path_with_namespace },
      });
      expect(res.body.errors).toBeUndefined();
      const conn = res.body.data.project.issues;
      expect(conn.count).toBe(conn.nodes.length);
      return conn.nodes.map((n: { iid: string }) => Number(n.iid));
    };
    expect(await iids('')).toEqual([c.iid, b.iid, a.iid]);
    expect(await iids('(sort: created_asc)')).toEqual([a.iid, b.iid, c.iid]);
    expect(await iids('(sort: CREATED_ASC)')).toEqual([a.iid, b.iid, c.iid]);
    expect(await iids(`(iid: "${b.iid}")`)).toEqual([b.iid]);
    expect(await iids(`(iids: ["${a.iid}", "${c.iid}", "x"])`)).toEqual([c.iid, a.iid]);
    expect(await iids('(state: opened)')).toEqual([c.iid, a.iid]);
    expect(await iids('(state: closed)')).toEqual([b.iid]);
    expect(await iids('(state: locked)')).toEqual([]);
    expect(await iids('(state: all)')).toEqual([c.iid, b.iid, a.iid]);
    expect(await iids('(labelName: ["ui"])')).toEqual([b.iid, a.iid]);
    expect(await iids('(labelName: ["ui", "bug"])')).toEqual([a.iid]);
    expect(await iids('(milestoneTitle: ["M1"])')).toEqual([a.iid]);
    expect(await iids(`(authorUsername: "${dev.user.username}")`)).toEqual([b.iid]);
    expect(await iids(`(assigneeUsername: "${dev.user.username}")`)).toEqual([c.iid]);
    expect(await iids('(search: "crash")')).toEqual([c.iid, a.iid]);

    const one = await gql(`query($p: ID!) { project(fullPath: $p) { issue(iid: "${b.iid}") { title state closedAt } none: issue(iid: "999") { iid } } }`, {
      token: owner.token,
      variables: { p: project.path_with_namespace },
    });
    const restB = (await api.get(`/projects/${project.id}/issues/${b.iid}`, { token: owner.token })).body;
    expect(one.body).toEqual({ data: { project: { issue: { title: 'Beta feature', state: 'closed', closedAt: restB.closed_at }, none: null } } });
  });

  it('pages forwards (first/after) and backwards (last/before) with pageInfo', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await insertTestIssue({ projectId: project.id, authorId: owner.user.id, title: `issue ${i}` }));
    // created_desc: newest first.
    const titles = made.map((m) => m.title).reverse();
    const page = async (args: string) => {
      const res = await gql(
        `query($p: ID!) { project(fullPath: $p) { issues(${args}) { edges { cursor node { title } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`,
        {
          token: owner.token,
          variables: { p: project.path_with_namespace },
        },
      );
      expect(res.body.errors).toBeUndefined();
      return res.body.data.project.issues;
    };
    const first = await page('first: 2');
    expect(first.edges.map((e: any) => e.node.title)).toEqual(titles.slice(0, 2));
    expect(first.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: first.edges[0].cursor, endCursor: first.edges[1].cursor });
    expect(JSON.parse(Buffer.from(first.pageInfo.endCursor, 'base64').toString())).toEqual({ id: String(made[3]!.id) });
    const second = await page(`first: 2, after: "${first.pageInfo.endCursor}"`);
    expect(second.edges.map((e: any) => e.node.title)).toEqual(titles.slice(2, 4));
    expect(second.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const third = await page(`first: 2, after: "${second.pageInfo.endCursor}"`);
    expect(third.edges.map((e: any) => e.node.title)).toEqual(titles.slice(4));
    expect(third.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

    const last = await page('last: 2');
    expect(last.edges.map((e: any) => e.node.title)).toEqual(titles.slice(3));
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const before = await page(`last: 2, before: "${last.pageInfo.startCursor}"`);
    expect(before.edges.map((e: any) => e.node.title)).toEqual(titles.slice(1, 3));
    expect(before.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const start = await page(`last: 2, before: "${before.pageInfo.startCursor}"`);
    expect(start.edges.map((e: any) => e.node.title)).toEqual(titles.slice(0, 1));
    expect(start.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
  });

  it('budget: a page of issues with authors and award emoji costs the same few queries for 10 and 100 issues', async () => {
    const owner = await createUser();
    const fans = [await createUser(), await createUser()];
    const budget = async (n: number) => {
      const project = await createProject(owner.token, { visibility: 'public' });
      const made = [];
      for (let i = 0; i < n; i++) made.push(await insertTestIssue({ projectId: project.id, authorId: owner.user.id }));
      for (const issue of made.slice(0, 3)) {
        for (const fan of fans) await api.post(`/projects/${project.id}/issues/${issue.iid}/award_emoji`, { token: fan.token, body: { name: 'tada' } });
      }
      const res = await gql(
        `{ project(fullPath: "${project.path_with_namespace}") { issues(first: 100) { nodes { iid title author { username } awardEmoji { nodes { name user { username } } } } } } }`,
        { token: owner.token },
      );
      expect(res.body.errors).toBeUndefined();
      const nodes = res.body.data.project.issues.nodes;
      expect(nodes).toHaveLength(n);
      expect(nodes.at(-1)).toEqual({
        iid: String(made[0]!.iid),
        title: made[0]!.title,
        author: { username: owner.user.username },
        awardEmoji: { nodes: fans.map((f) => ({ name: 'tada', user: { username: f.user.username } })) },
      });
      return queryCount(res);
    };
    const ten = await budget(10);
    const hundred = await budget(100);
    console.log(`issue page budget: ${ten} queries for 10 issues, ${hundred} for 100`);
    // Token, project, the issue page (authors joined), the award emoji with their users (one DataLoader query).
    expect(ten).toBeLessThanOrEqual(4);
    expect(hundred).toBe(ten);
  });
});

describe('Project.label(s) and Project.milestones', () => {
  it('finds a label by title, searches and pages labels with count, pages milestones', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    for (const name of ['backend', 'bug', 'frontend']) await createLabel(owner.token, 'projects', project.id, { name, color: '#428bca' });
    const m1 = await createMilestone(owner.token, 'projects', project.id, { title: 'One' });
    const m2 = await createMilestone(owner.token, 'projects', project.id, { title: 'Two' });
    const res = await gql(
      `query($p: ID!) { project(fullPath: $p) {
        label(title: "bug") { title color textColor description descriptionHtml }
        missing: label(title: "nope") { title }
        labels(first: 2) { count nodes { title } pageInfo { hasNextPage endCursor } }
        searched: labels(searchTerm: "end") { count nodes { title } }
        milestones(last: 1) { nodes { id title state } pageInfo { hasPreviousPage hasNextPage } }
      } }`,
      { token: owner.token, variables: { p: project.path_with_namespace } },
    );
    expect(res.body.errors).toBeUndefined();
    const p = res.body.data.project;
    expect(p.label).toEqual({ title: 'bug', color: '#428bca', textColor: '#FFFFFF', description: null, descriptionHtml: '' });
    expect(p.missing).toBeNull();
    expect(p.labels).toMatchObject({ count: 3, nodes: [{ title: 'backend' }, { title: 'bug' }], pageInfo: { hasNextPage: true } });
    expect(p.searched).toEqual({ count: 2, nodes: [{ title: 'backend' }, { title: 'frontend' }] });
    expect(p.milestones).toEqual({
      nodes: [{ id: gid('Milestone', m2.id), title: 'Two', state: 'active' }],
      pageInfo: { hasPreviousPage: true, hasNextPage: false },
    });
    expect(m1.title).toBe('One');
  });
});
