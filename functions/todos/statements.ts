// The statements of the todos domain's queries that other domains put in their own batch or transaction
// (own-queries in .dependency-cruiser.cjs: a domain imports only its own queries). A leaf: it imports only db/queries,
// so importing it closes no cycle.
export { insertAlertTodosStatement, resolveAlertTodosStatement } from '../../db/queries/todos/alerts.ts';
export {
  TODO_ASSIGNED,
  TODO_DIRECTLY_ADDRESSED,
  TODO_MARKED,
  TODO_MENTIONED,
  findPendingMarkedTodo,
  insertAssignmentTodos,
  insertMentionTodos,
  insertTodo,
  mentionTodosStatement,
  type TodoTarget,
  type TodoTargetType,
} from '../../db/queries/todos/issuables.ts';
