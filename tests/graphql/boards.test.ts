// GraphQL boards (13.6): Project/Group.board(s), Board and BoardList fields, which issues each list holds and in
// what order, BoardIssueInput filters, boardListCreate / boardListUpdateLimitMetrics with their errors and tiers, and
// the query budget of N lists with M issues.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { boards, issues, lists, listUserPreferences } from '../../db/schema/index.ts';
import { createIssue } from '../factories/issues.ts';
import { createLabel } from '../factories/labels.ts';
import { createMilestone } from '../factories/milestones.ts';
import { queryCount, request, testDb } from '../helpers/app.ts';
import { boardParent, createBoard } from '../api/boards/fixtures.ts';
import { api } from '../helpers/app.ts';

const gid = (type: string, id: number | string) => `gid://gitlab/${type}/${id}`;

function gql(query: string, token: string, variables: Record<string, unknown> = {}, tier: 'free' | 'premium' = 'free') {
  return request('POST', '/api/graphql', { token, body: { query, variables }, env: { INSTANCE_TIER: tier } });
}

const BOARD_QUERY = `query($path: ID!, $id: BoardID!, $filters: BoardIssueInput) { project(fullPath: $path) { board(id: $id) {
  id name hideBacklogList hideClosedList weight milestone { title } assignee { id }
  lists(issueFilters: $filters) { nodes { id title listType position label { title } collapsed issuesCount totalWeight maxIssueCount maxIssueWeight limitMetric
    issues(filters: $filters) { count nodes { iid } } } }
} } }`;

async function boardWithIssues() {
  const fx = await boardParent('projects');
  const board = await createBoard(fx.owner.token, 'projects', fx.id, 'Dev');
  const doing = await createLabel(fx.owner.token, 'projects', fx.id, { name: 'Doing' });
  const review = await createLabel(fx.owner.token, 'projects', fx.id, { name: 'Review' });
  for (const l of [doing, review]) await api.post(`/projects/${fx.id}/boards/${board.id}/lists`, { token: fx.owner.token, body: { label_id: l.id } });
  const made = [];
  made.push(await createIssue(fx.owner.token, fx.id, { title: 'plain one' })); // 1: backlog
  made.push(await createIssue(fx.owner.token, fx.id, { title: 'doing one', labels: 'Doing' })); // 2
  made.push(await createIssue(fx.owner.token, fx.id, { title: 'doing two', labels: 'Doing,Review' })); // 3: both label lists
  made.push(await createIssue(fx.owner.token, fx.id, { title: 'closed one', labels: 'Doing' })); // 4: closed
  await api.put(`/projects/${fx.id}/issues/4`, { token: fx.owner.token, body: { state_event: 'close' } });
  made.push(await createIssue(fx.owner.token, fx.id, { title: 'plain two' })); // 5: backlog
  return { ...fx, board, doing, review, made };
}

describe('Project.board / boards', () => {
  it('answers the board, its lists in GitLab order and which issues each list holds, ordered by relative position', async () => {
    const fx = await boardWithIssues();
    // relative_position ASC NULLS LAST, then id DESC: issue 1 first, then 5 (no position, newer).
    await testDb().db.update(issues).set({ relativePosition: 100 }).where(eq(issues.id, fx.made[0]!.id));
    const res = await gql(BOARD_QUERY, fx.guest.token, { path: fx.project.path_with_namespace, id: gid('Board', fx.board.id) });
    expect(res.body.errors).toBeUndefined();
    const board = res.body.data.project.board;
    expect(board).toMatchObject({
      id: gid('Board', fx.board.id),
      name: 'Dev',
      hideBacklogList: false,
      hideClosedList: false,
      weight: null,
      milestone: null,
      assignee: null,
    });
    const summary = board.lists.nodes.map((l: any) => [
      l.title,
      l.listType,
      l.position,
      l.label?.title ?? null,
      l.issuesCount,
      l.issues.nodes.map((i: any) => i.iid),
    ]);
    expect(summary).toEqual([
      ['Backlog', 'backlog', null, null, 2, ['1', '5']],
      ['Doing', 'label', 0, 'Doing', 2, ['3', '2']],
      ['Review', 'label', 1, 'Review', 1, ['3']],
      ['Closed', 'closed', null, null, 1, ['4']],
    ]);
    expect(board.lists.nodes[0]).toMatchObject({ collapsed: false, totalWeight: 0, maxIssueCount: 0, maxIssueWeight: 0, limitMetric: null });
    expect(board.lists.nodes[0].id).toMatch(/^gid:\/\/gitlab\/List\/\d+$/);

    const boards = await gql(`query($path: ID!) { project(fullPath: $path) { boards { nodes { name } } } }`, fx.guest.token, {
      path: fx.project.path_with_namespace,
    });
    expect(boards.body.data.project.boards.nodes).toEqual([{ name: 'Dev' }]);
    const missing = await gql(`query($path: ID!) { project(fullPath: $path) { board(id: "gid://gitlab/Board/999999") { id } } }`, fx.guest.token, {
      path: fx.project.path_with_namespace,
    });
    expect(missing.body).toEqual({ data: { project: { board: null } } });
  });

  it("lists(id:), hidden backlog and closed lists, and the current user's collapsed preference", async () => {
    const fx = await boardWithIssues();
    const rows = await testDb().db.select().from(lists).where(eq(lists.boardId, fx.board.id)).orderBy(lists.listType, lists.position);
    await testDb().db.insert(listUserPreferences).values({ listId: rows[1]!.id, userId: fx.guest.user.id, collapsed: true });
    await testDb().db.update(boards).set({ hideBacklogList: true, hideClosedList: true }).where(eq(boards.id, fx.board.id));
    const q = `query($path: ID!, $id: BoardID!, $list: ListID) { project(fullPath: $path) { board(id: $id) { hideBacklogList hideClosedList
      all: lists { nodes { title collapsed } } one: lists(id: $list) { nodes { title } } } } }`;
    const vars = { path: fx.project.path_with_namespace, id: gid('Board', fx.board.id), list: gid('List', rows[2]!.id) };
    const guest = await gql(q, fx.guest.token, vars);
    expect(guest.body.data.project.board).toEqual({
      hideBacklogList: true,
      hideClosedList: true,
      all: {
        nodes: [
          { title: 'Doing', collapsed: true },
          { title: 'Review', collapsed: false },
        ],
      },
      one: { nodes: [{ title: 'Review' }] },
    });
    const owner = await gql(q, fx.owner.token, vars);
    expect(owner.body.data.project.board.all.nodes[0].collapsed).toBe(false);
  });

  it('applies BoardIssueInput through the issue finder, and refuses both epic arguments', async () => {
    const fx = await boardWithIssues();
    const path = fx.project.path_with_namespace;
    const id = gid('Board', fx.board.id);
    const bySearch = await gql(BOARD_QUERY, fx.guest.token, { path, id, filters: { search: 'two' } });
    expect(bySearch.body.data.project.board.lists.nodes.map((l: any) => [l.issuesCount, l.issues.nodes.map((i: any) => i.iid)])).toEqual([
      [1, ['5']],
      [1, ['3']],
      [1, ['3']],
      [0, []],
    ]);
    const byLabel = await gql(BOARD_QUERY, fx.guest.token, { path, id, filters: { labelName: ['Review'] } });
    expect(byLabel.body.data.project.board.lists.nodes.map((l: any) => l.issuesCount)).toEqual([0, 1, 1, 0]);
    const notReview = await gql(BOARD_QUERY, fx.guest.token, { path, id, filters: { not: { labelName: ['Review'], authorUsername: 'nobody' } } });
    expect(notReview.body.data.project.board.lists.nodes.map((l: any) => l.issuesCount)).toEqual([2, 1, 0, 1]);
    // myReactionEmoji is the current user's award.
    await api.post(`/projects/${fx.id}/issues/2/award_emoji`, { token: fx.guest.token, body: { name: 'thumbsup' } });
    const mine = await gql(BOARD_QUERY, fx.guest.token, { path, id, filters: { myReactionEmoji: 'thumbsup' } });
    expect(mine.body.data.project.board.lists.nodes.map((l: any) => l.issuesCount)).toEqual([0, 1, 0, 0]);
    const others = await gql(BOARD_QUERY, fx.owner.token, { path, id, filters: { myReactionEmoji: 'thumbsup' } });
    expect(others.body.data.project.board.lists.nodes.map((l: any) => l.issuesCount)).toEqual([0, 0, 0, 0]);
    const notMine = await gql(BOARD_QUERY, fx.guest.token, { path, id, filters: { not: { myReactionEmoji: 'thumbsup' } } });
    expect(notMine.body.data.project.board.lists.nodes.map((l: any) => l.issuesCount)).toEqual([2, 1, 1, 1]);
    // No release exists: a release tag matches nothing.
    const release = await gql(BOARD_QUERY, fx.guest.token, { path, id, filters: { releaseTag: 'v1.0' } });
    expect(release.body.data.project.board.lists.nodes.map((l: any) => l.issuesCount)).toEqual([0, 0, 0, 0]);
    const epic = await gql(BOARD_QUERY, fx.guest.token, { path, id, filters: { epicId: 'gid://gitlab/Epic/1', epicWildcardId: 'ANY' } });
    expect(epic.body.errors[0].message).toBe('Incompatible arguments: epicId, epicWildcardId.');
  });

  it('weight filters and totalWeight on premium; the weight filter is ignored on free', async () => {
    const fx = await boardWithIssues();
    await testDb().db.update(issues).set({ weight: 3 }).where(eq(issues.id, fx.made[1]!.id));
    await testDb().db.update(issues).set({ weight: 5 }).where(eq(issues.id, fx.made[2]!.id));
    const vars = { path: fx.project.path_with_namespace, id: gid('Board', fx.board.id) };
    const all = await gql(BOARD_QUERY, fx.guest.token, vars, 'premium');
    expect(all.body.data.project.board.lists.nodes.map((l: any) => l.totalWeight)).toEqual([0, 8, 5, 0]);
    const three = await gql(BOARD_QUERY, fx.guest.token, { ...vars, filters: { weight: '3' } }, 'premium');
    expect(three.body.data.project.board.lists.nodes.map((l: any) => l.issuesCount)).toEqual([0, 1, 0, 0]);
    const none = await gql(BOARD_QUERY, fx.guest.token, { ...vars, filters: { weight: 'None' } }, 'premium');
    expect(none.body.data.project.board.lists.nodes.map((l: any) => l.issuesCount)).toEqual([2, 0, 0, 1]);
    const notThree = await gql(BOARD_QUERY, fx.guest.token, { ...vars, filters: { not: { weight: '3' } } }, 'premium');
    expect(notThree.body.data.project.board.lists.nodes.map((l: any) => l.issuesCount)).toEqual([2, 1, 1, 1]);
    const free = await gql(BOARD_QUERY, fx.guest.token, { ...vars, filters: { weight: '3' } });
    expect(free.body.data.project.board.lists.nodes.map((l: any) => l.issuesCount)).toEqual([2, 2, 1, 1]);
  });

  it('N lists with M issues cost a constant number of queries', async () => {
    const fx = await boardWithIssues();
    const vars = { path: fx.project.path_with_namespace, id: gid('Board', fx.board.id) };
    const query = BOARD_QUERY.replace(
      'issues(filters: $filters) { count nodes { iid } }',
      'issues(filters: $filters) { count nodes { iid title author { username } labels { nodes { title } } assignees { nodes { username } } } }',
    );
    // The same shape before and after (an issue with an assignee), only more lists and issues.
    await api.put(`/projects/${fx.id}/issues/2`, { token: fx.owner.token, body: { assignee_ids: [fx.reporter.user.id] } });
    const before = queryCount(await gql(query, fx.owner.token, vars));
    for (const name of ['X', 'Y', 'Z']) {
      const l = await createLabel(fx.owner.token, 'projects', fx.id, { name });
      await api.post(`/projects/${fx.id}/boards/${fx.board.id}/lists`, { token: fx.owner.token, body: { label_id: l.id } });
      for (let i = 0; i < 3; i++) await createIssue(fx.owner.token, fx.id, { labels: `${name},Doing`, assignee_ids: [fx.reporter.user.id] });
    }
    const res = await gql(query, fx.owner.token, vars);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.project.board.lists.nodes[5].issues.nodes[0].labels.nodes.map((l: any) => l.title)).toEqual(['Doing', 'Z']);
    expect(res.body.data.project.board.lists.nodes.length).toBe(7);
    expect(queryCount(res)).toBeLessThanOrEqual(before);
    // Token, project, boards, lists, every list's issues (one statement), collapsed, issue rows, their projects,
    // labels, users: 10 whatever the number of lists and issues.
    expect(before).toBeLessThanOrEqual(10);
  });

  it('group boards: one board shown on free, all of them on premium; group lists hold the subprojects issues', async () => {
    const fx = await boardParent('groups');
    const b = await createBoard(fx.owner.token, 'groups', fx.id, 'b');
    await createBoard(fx.owner.token, 'groups', fx.id, 'A');
    await createIssue(fx.owner.token, fx.project.id, { title: 'in group' });
    const q = `query($path: ID!) { group(fullPath: $path) { boards { nodes { name lists { nodes { title issues { nodes { title } } } } } } } }`;
    const free = await gql(q, fx.guest.token, { path: fx.group.full_path });
    expect(free.body.data.group.boards.nodes.map((n: any) => n.name)).toEqual(['A']);
    const premium = await gql(q, fx.guest.token, { path: fx.group.full_path }, 'premium');
    expect(premium.body.data.group.boards.nodes.map((n: any) => n.name)).toEqual(['A', 'b']);
    expect(premium.body.data.group.boards.nodes[1].lists.nodes).toEqual([
      { title: 'Backlog', issues: { nodes: [{ title: 'in group' }] } },
      { title: 'Closed', issues: { nodes: [] } },
    ]);
    const one = await gql(
      `query($path: ID!, $id: BoardID!) { group(fullPath: $path) { board(id: $id) { name } } }`,
      fx.guest.token,
      { path: fx.group.full_path, id: gid('Board', b.id) },
      'premium',
    );
    expect(one.body.data.group.board).toEqual({ name: 'b' });
  });
});

const CREATE = `mutation($input: BoardListCreateInput!) { boardListCreate(input: $input) { errors list { title listType position label { title } milestone { title } assignee { username } } } }`;
const LIMITS = `mutation($input: BoardListUpdateLimitMetricsInput!) { boardListUpdateLimitMetrics(input: $input) { errors list { maxIssueCount maxIssueWeight limitMetric } } }`;

describe('boardListCreate', () => {
  it('creates label lists, returns the backlog, and words GitLab errors', async () => {
    const fx = await boardParent('projects');
    const board = await createBoard(fx.owner.token, 'projects', fx.id);
    const boardId = gid('Board', board.id);
    const label = await createLabel(fx.owner.token, 'projects', fx.id, { name: 'Todo' });
    const ok = await gql(CREATE, fx.reporter.token, { input: { boardId, labelId: gid('ProjectLabel', label.id) } });
    expect(ok.body.data.boardListCreate).toEqual({
      errors: [],
      list: { title: 'Todo', listType: 'label', position: 0, label: { title: 'Todo' }, milestone: null, assignee: null },
    });
    const dup = await gql(CREATE, fx.reporter.token, { input: { boardId, labelId: gid('ProjectLabel', label.id) } });
    expect(dup.body.data.boardListCreate).toEqual({ errors: ['Label has already been taken'], list: null });
    const backlog = await gql(CREATE, fx.reporter.token, { input: { boardId, backlog: true } });
    expect(backlog.body.data.boardListCreate.list).toMatchObject({ title: 'Backlog', listType: 'backlog', position: null });

    const none = await gql(CREATE, fx.reporter.token, { input: { boardId } });
    expect(none.body.errors[0].message).toBe('one and only one of backlog or labelId or milestoneId or assigneeId is required');
    const two = await gql(CREATE, fx.reporter.token, { input: { boardId, backlog: false, labelId: gid('ProjectLabel', label.id) } });
    expect(two.body.errors[0].message).toBe('one and only one of backlog or labelId or milestoneId or assigneeId is required');
    const unknown = await gql(CREATE, fx.reporter.token, { input: { boardId, labelId: gid('ProjectLabel', 999999) } });
    expect(unknown.body.errors[0].message).toBe('Label not found!');
    const guest = await gql(CREATE, fx.guest.token, { input: { boardId, backlog: true } });
    expect(guest.body.errors[0].message).toBe(
      "The resource that you are attempting to access does not exist or you don't have permission to perform this action",
    );
    const stranger = await gql(CREATE, fx.stranger.token, { input: { boardId, backlog: true } });
    expect(stranger.body.errors[0].message).toMatch(/^The resource that you are attempting to access/);
    expect((await testDb().db.select().from(lists).where(eq(lists.boardId, board.id))).length).toBe(3);
  });

  it('milestone and assignee lists: the license error on free, created on premium', async () => {
    const fx = await boardParent('projects');
    const board = await createBoard(fx.owner.token, 'projects', fx.id);
    const boardId = gid('Board', board.id);
    const m = await createMilestone(fx.owner.token, 'projects', fx.id, { title: 'v1' });
    const free = await gql(CREATE, fx.reporter.token, { input: { boardId, milestoneId: gid('Milestone', m.id) } });
    expect(free.body.data.boardListCreate).toEqual({ errors: ['List type Milestone lists not available with your current license'], list: null });
    const premium = await gql(CREATE, fx.reporter.token, { input: { boardId, milestoneId: gid('Milestone', m.id) } }, 'premium');
    expect(premium.body.data.boardListCreate).toEqual({
      errors: [],
      list: { title: 'v1', listType: 'milestone', position: 0, label: null, milestone: { title: 'v1' }, assignee: null },
    });
    const user = await gql(CREATE, fx.reporter.token, { input: { boardId, assigneeId: gid('User', fx.owner.user.id) } }, 'premium');
    expect(user.body.data.boardListCreate.list).toMatchObject({
      title: `@${fx.owner.user.username}`,
      listType: 'assignee',
      position: 1,
      assignee: { username: fx.owner.user.username },
    });
    const stranger = await gql(CREATE, fx.reporter.token, { input: { boardId, assigneeId: gid('User', fx.stranger.user.id) } }, 'premium');
    expect(stranger.body.errors[0].message).toBe('User not found!');
  });
});

describe('boardListUpdateLimitMetrics', () => {
  it('sets WIP limits on premium; free and bad values change nothing', async () => {
    const fx = await boardParent('projects');
    const board = await createBoard(fx.owner.token, 'projects', fx.id);
    const label = await createLabel(fx.owner.token, 'projects', fx.id);
    const list = (await api.post(`/projects/${fx.id}/boards/${board.id}/lists`, { token: fx.owner.token, body: { label_id: label.id } })).body;
    const listId = gid('List', list.id);
    const none = await gql(LIMITS, fx.reporter.token, { input: { listId } }, 'premium');
    expect(none.body.errors[0].message).toBe('At least one of the arguments limitMetric, maxIssueCount or maxIssueWeight is required');
    const free = await gql(LIMITS, fx.reporter.token, { input: { listId, maxIssueCount: 3 } });
    expect(free.body.data.boardListUpdateLimitMetrics).toEqual({ errors: ['The update was not successful.'], list: null });
    const negative = await gql(LIMITS, fx.reporter.token, { input: { listId, maxIssueCount: -1 } }, 'premium');
    expect(negative.body.data.boardListUpdateLimitMetrics).toEqual({ errors: ['Max issue count must be greater than or equal to 0'], list: null });
    const ok = await gql(LIMITS, fx.reporter.token, { input: { listId, maxIssueCount: 3, maxIssueWeight: 8, limitMetric: 'issue_count' } }, 'premium');
    expect(ok.body.data.boardListUpdateLimitMetrics).toEqual({ errors: [], list: { maxIssueCount: 3, maxIssueWeight: 8, limitMetric: 'issue_count' } });
    const guest = await gql(LIMITS, fx.guest.token, { input: { listId, maxIssueCount: 1 } }, 'premium');
    expect(guest.body.errors[0].message).toMatch(/^The resource that you are attempting to access/);
    // listId is an ID! (the spec's type, 13.6's GraphQL::ID_TYPE) that must name a List.
    const wrong = await gql(LIMITS, fx.reporter.token, { input: { listId: gid('Board', board.id), maxIssueCount: 1 } }, 'premium');
    expect(wrong.body).toEqual({
      data: { boardListUpdateLimitMetrics: null },
      errors: [expect.objectContaining({ message: `"${gid('Board', board.id)}" is not a valid id for List.` })],
    });
    const rest = await api.get(`/projects/${fx.id}/boards/${board.id}/lists/${list.id}`, { token: fx.guest.token, env: { INSTANCE_TIER: 'premium' } });
    expect(rest.body).toMatchObject({ max_issue_count: 3, max_issue_weight: 8, limit_metric: 'issue_count' });
  });
});

const MOVE = `mutation($input: IssueMoveListInput!) { issueMoveList(input: $input) { errors issue { iid state labels { nodes { title } } } } }`;

describe('issueMoveList', () => {
  it('moves an issue between lists by swapping labels, closing and reopening, and between two issues', async () => {
    const fx = await boardWithIssues();
    const rows = await testDb().db.select().from(lists).where(eq(lists.boardId, fx.board.id)).orderBy(lists.listType, lists.position);
    const [backlog, doing, review, closed] = [rows[0]!, rows[1]!, rows[2]!, rows[3]!];
    const base = { boardId: gid('Board', fx.board.id), projectPath: fx.project.path_with_namespace };
    const move = (input: Record<string, unknown>, token = fx.reporter.token) => gql(MOVE, token, { input: { ...base, ...input } });
    const labelsOf = (r: any) => r.body.data.issueMoveList.issue.labels.nodes.map((l: any) => l.title);

    const toDoing = await move({ iid: '1', fromListId: String(backlog.id), toListId: String(doing.id) });
    expect(toDoing.body.data.issueMoveList.errors).toEqual([]);
    expect(labelsOf(toDoing)).toEqual(['Doing']);
    const toReview = await move({ iid: '1', fromListId: String(doing.id), toListId: String(review.id) });
    expect(labelsOf(toReview)).toEqual(['Review']);
    const toClosed = await move({ iid: '3', fromListId: String(doing.id), toListId: String(closed.id) });
    expect(toClosed.body.data.issueMoveList.issue).toEqual({ iid: '3', state: 'closed', labels: { nodes: [] } });
    const reopened = await move({ iid: '4', fromListId: String(closed.id), toListId: String(doing.id) });
    expect(reopened.body.data.issueMoveList.issue).toMatchObject({ state: 'opened', labels: { nodes: [{ title: 'Doing' }] } });

    // Between two issues: after issue 2 (placed first), before issue 4.
    await testDb().db.update(issues).set({ relativePosition: 10 }).where(eq(issues.id, fx.made[1]!.id));
    await testDb().db.update(issues).set({ relativePosition: 50 }).where(eq(issues.id, fx.made[3]!.id));
    const between = await move({ iid: '5', moveAfterId: String(fx.made[1]!.id), moveBeforeId: String(fx.made[3]!.id) });
    expect(between.body.data.issueMoveList.errors).toEqual([]);
    const [moved] = await testDb().db.select().from(issues).where(eq(issues.id, fx.made[4]!.id));
    expect(moved!.relativePosition).toBe(30);
  });

  it('REST issue updates move issues between lists as the board does (labels, state)', async () => {
    const fx = await boardWithIssues();
    const vars = { path: fx.project.path_with_namespace, id: gid('Board', fx.board.id) };
    const counts = async () => (await gql(BOARD_QUERY, fx.guest.token, vars)).body.data.project.board.lists.nodes.map((l: any) => l.issuesCount);
    expect(await counts()).toEqual([2, 2, 1, 1]);
    await api.put(`/projects/${fx.id}/issues/2`, { token: fx.owner.token, body: { remove_labels: 'Doing', add_labels: 'Review' } });
    expect(await counts()).toEqual([2, 1, 2, 1]);
    await api.put(`/projects/${fx.id}/issues/1`, { token: fx.owner.token, body: { state_event: 'close' } });
    expect(await counts()).toEqual([1, 1, 2, 2]);
  });

  it('words GitLab errors: argument checks, an unreadable board or an issue the user may not update', async () => {
    const fx = await boardWithIssues();
    const base = { boardId: gid('Board', fx.board.id), projectPath: fx.project.path_with_namespace, iid: '1' };
    const none = await gql(MOVE, fx.reporter.token, { input: base });
    expect(none.body.errors[0].message).toBe('At least one of the arguments fromListId, toListId, afterId or beforeId is required');
    const half = await gql(MOVE, fx.reporter.token, { input: { ...base, fromListId: '1' } });
    expect(half.body.errors[0].message).toBe('Both fromListId and toListId must be present');
    const stranger = await gql(MOVE, fx.stranger.token, { input: { ...base, moveAfterId: String(fx.made[1]!.id) } });
    expect(stranger.body.errors[0].message).toMatch(/^The resource that you are attempting to access/);
    const missing = await gql(MOVE, fx.reporter.token, { input: { ...base, boardId: gid('Board', 999999), moveAfterId: '1' } });
    expect(missing.body.errors[0].message).toMatch(/^The resource that you are attempting to access/);
    const [before] = await testDb().db.select().from(issues).where(eq(issues.id, fx.made[0]!.id));
    expect(before!.relativePosition).toBeNull();
  });
});
