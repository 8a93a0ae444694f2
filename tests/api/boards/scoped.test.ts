// Scoped boards (GitLab 13.6 EE scoped_issue_board, Premium): PUT .../boards/:board_id with assignee_id and labels
// (EE update_params; Boards::UpdateService#set_assignee / #set_labels), the Board entity's assignee and labels,
// GraphQL Board.assignee; and BoardIssueInput.assigneeUsername with several names (ANDed, as EE IssuesFinder).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { boardLabels, boards, labels } from '../../../db/schema/index.ts';
import { createIssue } from '../../factories/issues.ts';
import { createLabel } from '../../factories/labels.ts';
import { unique } from '../../factories/users.ts';
import { api, request, testDb, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { boardParent, createBoard, PREMIUM, type BoardParentKind } from './fixtures.ts';

const scopeOf = async (boardId: number) => {
  const [board] = await testDb().db.select().from(boards).where(eq(boards.id, boardId));
  const linked = await testDb().db.select({ labelId: boardLabels.labelId }).from(boardLabels).where(eq(boardLabels.boardId, boardId));
  return { assigneeId: board!.assigneeId, labelIds: linked.map((l) => l.labelId).sort((a, b) => a - b) };
};

describe.each(['projects', 'groups'] as const)('PUT /%s/:id/boards/:board_id scope', (kind: BoardParentKind) => {
  it('premium: sets the assignee (any user by id) and the labels by title, creating missing ones in the parent', async () => {
    const fx = await boardParent(kind);
    const board = await createBoard(fx.owner.token, kind, fx.id);
    const [doingName, freshName] = [unique('Doing'), unique('Fresh')];
    const doing = await createLabel(fx.owner.token, kind, fx.id, { name: doingName });
    const res = await api.put(`/${kind}/${fx.id}/boards/${board.id}`, {
      token: fx.reporter.token,
      body: { assignee_id: fx.stranger.user.id, labels: `${doingName}, ${freshName} ,${doingName}` },
      env: PREMIUM,
    });
    expect(res.status).toBe(200);
    expect(res.body.assignee).toEqual({
      id: fx.stranger.user.id,
      name: fx.stranger.user.name,
      username: fx.stranger.user.username,
      state: 'active',
      avatar_url: null,
      web_url: `${TEST_PUBLIC_URL}/${fx.stranger.user.username}`,
    });
    expect(res.body.labels.map((l: { name: string }) => l.name)).toEqual([doingName, freshName]);
    expect(res.body.labels[0]).toMatchObject({ id: doing.id, name: doingName });
    const [fresh] = await testDb().db.select().from(labels).where(eq(labels.title, freshName));
    expect(kind === 'projects' ? fresh!.projectId : fresh!.groupId).toBe(fx.id);
    expect(await scopeOf(board.id)).toEqual({ assigneeId: fx.stranger.user.id, labelIds: [doing.id, fresh!.id].sort((a, b) => a - b) });
    // GET shows the same scope; an unknown user and an empty label list clear it.
    const got = await api.get(`/${kind}/${fx.id}/boards/${board.id}`, { token: fx.guest.token, env: PREMIUM });
    expect(got.body).toMatchObject({ assignee: { id: fx.stranger.user.id }, labels: [{ name: doingName }, { name: freshName }] });
    const cleared = await api.put(`/${kind}/${fx.id}/boards/${board.id}`, {
      token: fx.reporter.token,
      body: { assignee_id: 999_999, labels: '' },
      env: PREMIUM,
    });
    expect(cleared.body).toMatchObject({ assignee: null, labels: [] });
    expect(await scopeOf(board.id)).toEqual({ assigneeId: null, labelIds: [] });
  });

  it('free: the scope parameters are dropped and the entity has no scope keys', async () => {
    const fx = await boardParent(kind);
    const board = await createBoard(fx.owner.token, kind, fx.id);
    const fresh = unique('Fresh');
    const res = await api.put(`/${kind}/${fx.id}/boards/${board.id}`, {
      token: fx.reporter.token,
      body: { name: 'Renamed', assignee_id: fx.guest.user.id, labels: fresh },
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Renamed');
    for (const key of ['assignee', 'labels', 'milestone', 'weight']) expect(res.body).not.toHaveProperty(key);
    expect(await scopeOf(board.id)).toEqual({ assigneeId: null, labelIds: [] });
    expect(await testDb().db.select().from(labels).where(eq(labels.title, fresh))).toEqual([]);
  });

  it('refuses bad input (400) and guests (403), writing nothing', async () => {
    const fx = await boardParent(kind);
    const board = await createBoard(fx.owner.token, kind, fx.id);
    const bad = await api.put(`/${kind}/${fx.id}/boards/${board.id}`, { token: fx.reporter.token, body: { assignee_id: 'me' }, env: PREMIUM });
    expect({ status: bad.status, body: bad.body }).toEqual({ status: 400, body: { error: 'assignee_id is invalid' } });
    const fresh = unique('Fresh');
    const guest = await api.put(`/${kind}/${fx.id}/boards/${board.id}`, {
      token: fx.guest.token,
      body: { assignee_id: fx.guest.user.id, labels: fresh },
      env: PREMIUM,
    });
    expect({ status: guest.status, body: guest.body }).toEqual({ status: 403, body: { message: '403 Forbidden' } });
    expect(await scopeOf(board.id)).toEqual({ assigneeId: null, labelIds: [] });
    expect(await testDb().db.select().from(labels).where(eq(labels.title, fresh))).toEqual([]);
  });
});

function gql(query: string, token: string, variables: Record<string, unknown> = {}, tier: 'free' | 'premium' = 'free') {
  return request('POST', '/api/graphql', { token, body: { query, variables }, env: { INSTANCE_TIER: tier } });
}

describe('GraphQL Board.assignee and BoardIssueInput.assigneeUsername', () => {
  it('shows the scoped assignee where licensed only', async () => {
    const fx = await boardParent('projects');
    const board = await createBoard(fx.owner.token, 'projects', fx.id);
    await api.put(`/projects/${fx.id}/boards/${board.id}`, { token: fx.owner.token, body: { assignee_id: fx.reporter.user.id }, env: PREMIUM });
    const query = `query($path: ID!, $id: BoardID!) { project(fullPath: $path) { board(id: $id) { assignee { username } } } }`;
    const vars = { path: fx.project.path_with_namespace, id: `gid://gitlab/Board/${board.id}` };
    expect((await gql(query, fx.owner.token, vars, 'premium')).body.data.project.board).toEqual({ assignee: { username: fx.reporter.user.username } });
    expect((await gql(query, fx.owner.token, vars, 'free')).body.data.project.board).toEqual({ assignee: null });
  });

  it('ANDs several assignee usernames (issues assigned to all of them)', async () => {
    const fx = await boardParent('projects');
    const board = await createBoard(fx.owner.token, 'projects', fx.id);
    await createIssue(fx.owner.token, fx.id, { title: 'both', assignee_ids: [fx.reporter.user.id, fx.guest.user.id] });
    await createIssue(fx.owner.token, fx.id, { title: 'reporter only', assignee_ids: [fx.reporter.user.id] });
    await createIssue(fx.owner.token, fx.id, { title: 'nobody' });
    const query = `query($path: ID!, $id: BoardID!, $filters: BoardIssueInput) { project(fullPath: $path) { board(id: $id) {
      lists { nodes { listType issuesCount issues(filters: $filters) { nodes { title } } } } } } }`;
    const backlog = async (names: string[]) => {
      const res = await gql(
        query,
        fx.owner.token,
        { path: fx.project.path_with_namespace, id: `gid://gitlab/Board/${board.id}`, filters: { assigneeUsername: names } },
        'premium',
      );
      expect(res.body.errors).toBeUndefined();
      const list = res.body.data.project.board.lists.nodes.find((l: { listType: string }) => l.listType === 'backlog');
      return list.issues.nodes.map((n: { title: string }) => n.title).sort();
    };
    expect(await backlog([fx.reporter.user.username])).toEqual(['both', 'reporter only']);
    expect(await backlog([fx.reporter.user.username, fx.guest.user.username])).toEqual(['both']);
    expect(await backlog([fx.guest.user.username, fx.stranger.user.username])).toEqual([]);
  });
});
