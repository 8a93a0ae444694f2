// Batched to-do reads for GraphQL (loaders.ts wraps these): the current user's to-dos on many
// epics at once (CurrentUserTodos on Epic and BoardEpic), none for anonymous callers.
import { findUserTodosOfEpics } from '../../db/queries/todos.ts';
import { byParent } from '../../db/queries/lib/window.ts';
import type { RequestContext } from '../lib/context.ts';

/** The current user's to-dos on each epic, oldest first, with their bodies (the note's, else the epic's title). */
export async function currentUserTodosOfEpics(ctx: RequestContext, epicIds: readonly number[]) {
  const rows = ctx.actor.user ? await findUserTodosOfEpics(ctx.db, ctx.actor.user.id, epicIds) : [];
  return byParent(epicIds, rows, (r) => r.todo.targetId);
}
