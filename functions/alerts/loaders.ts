// The alerts' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's batched
// verbs.
import { each } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import { assigneesOfAlerts, currentUserTodosOfAlerts } from './reads.ts';

export const alertLoaders = (ctx: RequestContext) => ({
  /** AlertManagementAlert.assignees by alert id. */
  alertAssignees: each((ids: readonly number[]) => assigneesOfAlerts(ctx, ids)),
  /** AlertManagementAlert.todos: the current user's to-dos by alert id (none when anonymous). */
  currentUserAlertTodos: each((ids: readonly number[]) => currentUserTodosOfAlerts(ctx, ids)),
});
