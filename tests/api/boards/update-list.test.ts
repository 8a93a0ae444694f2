// updateBoardList (GitLab 13.6 Mutations::Boards::Lists::Update, Boards::Lists::UpdateService): `collapsed` is the
// caller's own preference (read_list, list_user_preferences), `position` moves a movable list (admin_list,
// Boards::Lists::MoveService); the payload has the list only when something was updated. Core: the same on every tier.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { lists, listUserPreferences } from '../../../db/schema/index.ts';
import { createLabel } from '../../factories/labels.ts';
import { createUser, unique } from '../../factories/users.ts';
import { api, request, testDb } from '../../helpers/app.ts';
import { boardParent, createBoard } from './fixtures.ts';

const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

const UPDATE = `mutation($input: UpdateBoardListInput!) {
  updateBoardList(input: $input) { clientMutationId errors list { id title position collapsed listType } }
}`;
const LISTS = `query($path: ID!, $id: BoardID!) { project(fullPath: $path) { board(id: $id) { lists { nodes { title position collapsed } } } } }`;

function gql(query: string, token: string | undefined, variables: Record<string, unknown> = {}, tier: 'free' | 'premium' = 'free') {
  return request('POST', '/api/graphql', { token, body: { query, variables }, env: { INSTANCE_TIER: tier } });
}

async function fixture() {
  const fx = await boardParent('projects');
  const board = await createBoard(fx.owner.token, 'projects', fx.id, 'Dev');
  const made = [];
  for (const name of ['A', 'B', 'C']) {
    const label = await createLabel(fx.owner.token, 'projects', fx.id, { name: unique(name) });
    const res = await api.post(`/projects/${fx.id}/boards/${board.id}/lists`, { token: fx.owner.token, body: { label_id: label.id } });
    made.push({ id: res.body.id as number, title: label.name as string });
  }
  const [backlog] = await testDb()
    .db.select()
    .from(lists)
    .where(and(eq(lists.boardId, board.id), eq(lists.listType, 0)));
  const positions = async () =>
    (
      await testDb()
        .db.select()
        .from(lists)
        .where(and(eq(lists.boardId, board.id), eq(lists.listType, 1)))
    )
      .map((l) => [l.id, l.position])
      .sort((a, b) => a[1]! - b[1]!)
      .map((p) => p[0]);
  return { ...fx, board, made, backlog: backlog!, positions };
}

const gid = (id: number) => `gid://gitlab/List/${id}`;

describe('updateBoardList', () => {
  it.each(['free', 'premium'] as const)('%s: a reporter moves a list and collapses it for themself only', async (tier) => {
    const fx = await fixture();
    const [a, b, c] = fx.made;
    const res = await gql(UPDATE, fx.reporter.token, { input: { listId: gid(a!.id), position: 2, collapsed: true, clientMutationId: 'x' } }, tier);
    expect(res.body).toEqual({
      data: {
        updateBoardList: { clientMutationId: 'x', errors: [], list: { id: gid(a!.id), title: a!.title, position: 2, collapsed: true, listType: 'label' } },
      },
    });
    expect(await fx.positions()).toEqual([b!.id, c!.id, a!.id]);
    const vars = { path: fx.project.path_with_namespace, id: `gid://gitlab/Board/${fx.board.id}` };
    const mine = (await gql(LISTS, fx.reporter.token, vars, tier)).body.data.project.board.lists.nodes;
    const theirs = (await gql(LISTS, fx.owner.token, vars, tier)).body.data.project.board.lists.nodes;
    expect(mine.find((l: { title: string }) => l.title === a!.title)).toEqual({ title: a!.title, position: 2, collapsed: true });
    expect(theirs.find((l: { title: string }) => l.title === a!.title)).toEqual({ title: a!.title, position: 2, collapsed: false });
  });

  it('a guest may collapse (read_list) but not move (admin_list): a move alone returns no list and changes nothing', async () => {
    const fx = await fixture();
    const [a, b, c] = fx.made;
    const collapsed = await gql(UPDATE, fx.guest.token, { input: { listId: gid(b!.id), collapsed: true } });
    expect(collapsed.body.data.updateBoardList).toEqual({
      clientMutationId: null,
      errors: [],
      list: { id: gid(b!.id), title: b!.title, position: 1, collapsed: true, listType: 'label' },
    });
    const both = await gql(UPDATE, fx.guest.token, { input: { listId: gid(b!.id), position: 0, collapsed: false } });
    expect(both.body.data.updateBoardList.list).toMatchObject({ position: 1, collapsed: false });
    const moved = await gql(UPDATE, fx.guest.token, { input: { listId: gid(b!.id), position: 0 } });
    expect(moved.body.data.updateBoardList).toEqual({ clientMutationId: null, errors: [], list: null });
    expect(await fx.positions()).toEqual([a!.id, b!.id, c!.id]);
  });

  it('an invalid move (same place, out of range, backlog) returns no list; the backlog can be collapsed', async () => {
    const fx = await fixture();
    const [a, b, c] = fx.made;
    for (const [listId, position] of [
      [a!.id, 0],
      [a!.id, 3],
      [a!.id, -1],
      [fx.backlog.id, 1],
    ] as const) {
      const res = await gql(UPDATE, fx.owner.token, { input: { listId: gid(listId), position } });
      expect({ listId, position, out: res.body.data.updateBoardList }).toEqual({ listId, position, out: { clientMutationId: null, errors: [], list: null } });
    }
    expect(await fx.positions()).toEqual([a!.id, b!.id, c!.id]);
    const backlog = await gql(UPDATE, fx.owner.token, { input: { listId: gid(fx.backlog.id), collapsed: true } });
    expect(backlog.body.data.updateBoardList.list).toEqual({ id: gid(fx.backlog.id), title: 'Backlog', position: null, collapsed: true, listType: 'backlog' });
    const rows = await testDb().db.select().from(listUserPreferences).where(eq(listUserPreferences.listId, fx.backlog.id));
    expect(rows.map((r) => [r.userId, r.collapsed])).toEqual([[fx.owner.user.id, true]]);
  });

  it('is the resource error for hidden boards, unknown lists and anonymous callers of private ones; writes nothing', async () => {
    const fx = await fixture();
    const stranger = await createUser();
    const [a] = fx.made;
    for (const [token, listId] of [
      [stranger.token, gid(a!.id)],
      [undefined, gid(a!.id)],
      [fx.owner.token, gid(999_999)],
    ] as const) {
      const res = await gql(UPDATE, token, { input: { listId, position: 2, collapsed: true } });
      expect({ listId, data: res.body.data, errors: res.body.errors?.map((e: { message: string }) => e.message) }).toEqual({
        listId,
        data: { updateBoardList: null },
        errors: [RESOURCE_ERROR],
      });
    }
    expect(await testDb().db.select().from(listUserPreferences).where(eq(listUserPreferences.listId, a!.id))).toEqual([]);
    const bad = await gql(UPDATE, fx.owner.token, { input: { listId: 'gid://gitlab/Board/1', collapsed: true } });
    expect(bad.body.errors).toHaveLength(1);
    expect(bad.body.data).toBeUndefined();
  });
});
