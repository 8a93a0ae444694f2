// Project and group issue boards: GET/POST /{projects,groups}/:id/boards, GET/PUT/DELETE .../boards/:board_id, and
// the board's lists: GET/POST .../boards/:board_id/lists, GET/PUT/DELETE .../lists/:list_id.
import { Hono } from 'hono';
import * as z from 'zod/mini';
import { authenticated } from '../lib/auth.ts';
import type { AppEnv } from '../lib/context.ts';
import { groupRef, projectRef } from '../lib/ids.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import { params, path, schema } from '../lib/validate.ts';
import { BoardPath, CreateBoardInput, CreateListInput, ListInput, ListPath, MoveListInput, toBoard, toList, UpdateBoardInput } from './schemas.ts';
import * as boardLists from './lists.ts';
import * as boards from './service.ts';

export const boardRoutes = new Hono<AppEnv>();

const PARENTS = [
  { kind: 'project', prefix: '/projects', ref: projectRef },
  { kind: 'group', prefix: '/groups', ref: groupRef },
] as const;

for (const { kind, prefix, ref } of PARENTS) {
  const ParentPath = schema(() => z.object({ id: ref() }));
  const BoardItemPath = schema(() => z.object({ id: ref(), ...BoardPath() }));
  const ListItemPath = schema(() => z.object({ id: ref(), ...ListPath() }));
  const base = `${prefix}/:id/boards`;

  boardRoutes.get(base, authenticated, path(ParentPath), params(ListInput), async (c) => {
    const { ctx } = c.var;
    const list = await boards.listBoards({ ctx, input: { kind, ref: c.req.valid('param').id } });
    const rows = await paginate(c, pageRequest(c.req.valid('query')), list.fetch, list.count);
    return c.json(rows.map((v) => toBoard(v, list.owner, ctx.config)));
  });

  boardRoutes.get(`${base}/:board_id`, authenticated, path(BoardItemPath), async (c) => {
    const { ctx } = c.var;
    const { id, board_id } = c.req.valid('param');
    const r = await boards.getBoard({ ctx, input: { kind, ref: id, id: board_id } });
    return c.json(toBoard(r.view, r.owner, ctx.config));
  });

  boardRoutes.post(base, authenticated, path(ParentPath), params(CreateBoardInput), async (c) => {
    const { ctx } = c.var;
    const r = await boards.createBoard({ ctx, input: { kind, ref: c.req.valid('param').id, ...c.req.valid('query') } });
    return c.json(toBoard(r.view, r.owner, ctx.config), 201);
  });

  boardRoutes.put(`${base}/:board_id`, authenticated, path(BoardItemPath), params(UpdateBoardInput), async (c) => {
    const { ctx } = c.var;
    const { id, board_id } = c.req.valid('param');
    const r = await boards.updateBoard({ ctx, input: { kind, ref: id, id: board_id, ...c.req.valid('query') } });
    return c.json(toBoard(r.view, r.owner, ctx.config));
  });

  boardRoutes.delete(`${base}/:board_id`, authenticated, path(BoardItemPath), async (c) => {
    const { id, board_id } = c.req.valid('param');
    await boards.deleteBoard({ ctx: c.var.ctx, input: { kind, ref: id, id: board_id } });
    return c.body(null, 204);
  });

  boardRoutes.get(`${base}/:board_id/lists`, authenticated, path(BoardItemPath), params(ListInput), async (c) => {
    const { ctx } = c.var;
    const { id, board_id } = c.req.valid('param');
    const list = await boardLists.listLists({ ctx, input: { kind, ref: id, boardId: board_id } });
    const rows = await paginate(c, pageRequest(c.req.valid('query')), list.fetch, list.count);
    return c.json(rows.map((v) => toList(v, ctx.config)));
  });

  boardRoutes.get(`${base}/:board_id/lists/:list_id`, authenticated, path(ListItemPath), async (c) => {
    const { ctx } = c.var;
    const { id, board_id, list_id } = c.req.valid('param');
    return c.json(toList(await boardLists.getList({ ctx, input: { kind, ref: id, boardId: board_id, id: list_id } }), ctx.config));
  });

  boardRoutes.post(`${base}/:board_id/lists`, authenticated, path(BoardItemPath), params(CreateListInput), async (c) => {
    const { ctx } = c.var;
    const { id, board_id } = c.req.valid('param');
    const list = await boardLists.createList({ ctx, input: { kind, ref: id, boardId: board_id, ...c.req.valid('query') } });
    return c.json(toList(list, ctx.config), 201);
  });

  boardRoutes.put(`${base}/:board_id/lists/:list_id`, authenticated, path(ListItemPath), params(MoveListInput), async (c) => {
    const { ctx } = c.var;
    const { id, board_id, list_id } = c.req.valid('param');
    const list = await boardLists.moveList({ ctx, input: { kind, ref: id, boardId: board_id, id: list_id, position: c.req.valid('query').position } });
    return c.json(toList(list, ctx.config));
  });

  boardRoutes.delete(`${base}/:board_id/lists/:list_id`, authenticated, path(ListItemPath), async (c) => {
    const { id, board_id, list_id } = c.req.valid('param');
    await boardLists.deleteList({ ctx: c.var.ctx, input: { kind, ref: id, boardId: board_id, id: list_id } });
    return c.body(null, 204);
  });
}
