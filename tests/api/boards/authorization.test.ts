// The shared authorization suite for project and group boards and lists: every endpoint wants a signed-in user
// (401, public parents included), a hidden parent is 404, reads need read_board (reading the parent), changes need a
// reporter (403 for guests) and a token that may write.
import { createLabel } from '../../factories/labels.ts';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { boardParent, createBoard, PREMIUM, type BoardParentKind } from './fixtures.ts';

const UNAUTHORIZED = { status: 401, body: { message: '401 Unauthorized' } };
const FORBIDDEN = { status: 403, body: { message: '403 Forbidden' } };

async function withBoard(kind: BoardParentKind, visibility: 'private' | 'public' = 'private') {
  const fx = await boardParent(kind, visibility);
  const board = await createBoard(fx.owner.token, kind, fx.id);
  const label = await createLabel(fx.owner.token, kind, fx.id);
  const list = (await api.post(`/${kind}/${fx.id}/boards/${board.id}/lists`, { token: fx.owner.token, body: { label_id: label.id } })).body as { id: number };
  const other = await createLabel(fx.owner.token, kind, fx.id);
  return { ...fx, board, list, other, nonMember: fx.stranger.token };
}

for (const kind of ['projects', 'groups'] as BoardParentKind[]) {
  const hidden = { status: 404, body: { message: kind === 'groups' ? '404 Group Not Found' : '404 Project Not Found' } };
  const base = (fx: { id: number; board: { id: number } }) => `/${kind}/${fx.id}/boards/${fx.board.id}`;

  describeAuthorization(`GET /${kind}/:id/boards (private)`, {
    fixture: async () => {
      const fx = await withBoard(kind);
      return { ...fx, allowed: fx.guest.token };
    },
    call: (fx, token) => api.get(`/${kind}/${fx.id}/boards`, { token }),
    success: 200,
    nonMember: hidden,
  });

  describeAuthorization(`GET /${kind}/:id/boards/:board_id/lists (public: anonymous still 401)`, {
    fixture: async () => {
      const fx = await withBoard(kind, 'public');
      return { ...fx, allowed: fx.stranger.token };
    },
    call: (fx, token) => api.get(`${base(fx)}/lists`, { token }),
    success: 200,
    anonymous: UNAUTHORIZED,
  });

  describeAuthorization(`POST /${kind}/:id/boards`, {
    fixture: async () => {
      const fx = await withBoard(kind);
      return { ...fx, allowed: fx.reporter.token, insufficientRole: fx.guest.token };
    },
    call: (_fx, token) => api.post(`/${kind}/${_fx.id}/boards`, { token, body: { name: 'x' }, env: PREMIUM }),
    success: 201,
    nonMember: hidden,
    insufficientRole: FORBIDDEN,
  });

  describeAuthorization(`PUT /${kind}/:id/boards/:board_id`, {
    fixture: async () => {
      const fx = await withBoard(kind);
      return { ...fx, allowed: fx.reporter.token, insufficientRole: fx.guest.token };
    },
    call: (fx, token) => api.put(base(fx), { token, body: { name: 'y' } }),
    success: 200,
    nonMember: hidden,
    insufficientRole: FORBIDDEN,
  });

  describeAuthorization(`POST /${kind}/:id/boards/:board_id/lists`, {
    fixture: async () => {
      const fx = await withBoard(kind);
      return { ...fx, allowed: fx.reporter.token, insufficientRole: fx.guest.token };
    },
    call: (fx, token) => api.post(`${base(fx)}/lists`, { token, body: { label_id: fx.other.id } }),
    success: 201,
    nonMember: hidden,
    insufficientRole: FORBIDDEN,
  });

  describeAuthorization(`PUT /${kind}/:id/boards/:board_id/lists/:list_id`, {
    fixture: async () => {
      const fx = await withBoard(kind);
      await api.post(`${base(fx)}/lists`, { token: fx.owner.token, body: { label_id: fx.other.id } });
      return { ...fx, allowed: fx.reporter.token, insufficientRole: fx.guest.token };
    },
    call: (fx, token) => api.put(`${base(fx)}/lists/${fx.list.id}`, { token, body: { position: 1 } }),
    success: 200,
    nonMember: hidden,
    insufficientRole: FORBIDDEN,
  });

  describeAuthorization(`DELETE /${kind}/:id/boards/:board_id/lists/:list_id`, {
    fixture: async () => {
      const fx = await withBoard(kind);
      return { ...fx, allowed: fx.reporter.token, insufficientRole: fx.guest.token };
    },
    call: (fx, token) => api.delete(`${base(fx)}/lists/${fx.list.id}`, { token }),
    success: 204,
    nonMember: hidden,
    insufficientRole: FORBIDDEN,
  });

  describeAuthorization(`DELETE /${kind}/:id/boards/:board_id (premium)`, {
    fixture: async () => {
      const fx = await withBoard(kind);
      return { ...fx, allowed: fx.reporter.token, insufficientRole: fx.guest.token };
    },
    call: (fx, token) => api.delete(base(fx), { token, env: PREMIUM }),
    success: 204,
    nonMember: hidden,
    insufficientRole: FORBIDDEN,
  });
}
