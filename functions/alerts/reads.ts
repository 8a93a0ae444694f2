// Batched alert reads for GraphQL's per-request loaders (loaders.ts): the assignees and the current
// user's to-dos of a page of alerts (already found readable), one statement each whatever the page's size.
import { findAssigneesOfAlerts } from '../../db/queries/alerts.ts';
import { findUserTodosOfAlerts } from '../todos/lookups.ts';
import { byParent } from '../../db/queries/lib/window.ts';
import type { RequestContext } from '../lib/context.ts';

/** The assignees of each alert, in assignment order. */
export async function assigneesOfAlerts(ctx: RequestContext, alertIds: readonly number[]) {
  return byParent(alertIds, await findAssigneesOfAlerts(ctx.db, alertIds), (r) => r.alertId).map((rows) => rows.map((r) => r.user));
}

/** The current user's to-dos on each alert, oldest first, with their bodies; none for anonymous callers. */
export async function currentUserTodosOfAlerts(ctx: RequestContext, alertIds: readonly number[]) {
  const rows = ctx.actor.user ? await findUserTodosOfAlerts(ctx.db, ctx.actor.user.id, alertIds) : [];
  return byParent(alertIds, rows, (r) => r.todo.targetId);
}
