// Which object type a Noteable or CurrentUserTodos value is (GitLab's resolve_type), from the shape of the domains'
// models: merge requests, issues, alerts and epics carry a `view` named for their row, snippets their own model. The
// one place that knows every noteable; the interfaces' resolvers (notes for Noteable, issues for CurrentUserTodos)
// use it.
export type NoteableType = 'MergeRequest' | 'Issue' | 'AlertManagementAlert' | 'Epic' | 'BoardEpic' | 'Snippet';

export function noteableType(obj: object): NoteableType {
  const view = 'view' in obj ? (obj.view as object) : null;
  if (view && 'mr' in view) return 'MergeRequest';
  if (view && 'issue' in view) return 'Issue';
  if (view && 'alert' in view) return 'AlertManagementAlert';
  // Epics (EE), on a board when read through one.
  if (view && 'epic' in view) return 'boardId' in obj ? 'BoardEpic' : 'Epic';
  return 'Snippet';
}
