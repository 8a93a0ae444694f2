// IssuableFinder's scope (13.6 `by_scope`), the one spelling for the issue and merge request finders (REST and
// GraphQL alike): `created_by_me` and `assigned_to_me` are one more condition on the caller, ANDed with the author and
// assignee the parameters asked for, so a contradiction matches nothing (`assignee_id=None` with `assigned_to_me`, or
// another author with `created_by_me`). The instance-wide lists default to the caller's own; anonymous callers must
// ask for `all` there (401, as GitLab), and elsewhere a personal scope of theirs matches nothing.
import type { RequestContext } from '../lib/context.ts';
import { unauthorized } from '../lib/errors.ts';

/** Which list: the instance's (GET /issues, GET /merge_requests), a group's or a project's. */
export type IssuableListKind = 'all' | 'project' | 'group';

/** The conditions a scope narrows: the author and the assignee (a user id, `none` or `any`). */
export interface ScopedConditions {
  authorId?: number;
  assigneeId?: number | 'none' | 'any';
}

/**
 * `filter` with the scope's condition added (a copy), or null when nothing can match. `scope` as given (`-` or `_`);
 * undefined: the list's default.
 */
export function withScope<F extends ScopedConditions>(ctx: RequestContext, kind: IssuableListKind, scope: string | undefined, filter: F): F | null {
  const wanted = (scope ?? (kind === 'all' ? 'created_by_me' : 'all')).replace(/-/g, '_');
  if (wanted === 'all') return filter;
  const me = ctx.actor.user?.id;
  if (me === undefined) {
    if (kind === 'all') throw unauthorized();
    return null;
  }
  if (wanted === 'created_by_me') {
    if (filter.authorId !== undefined && filter.authorId !== me) return null;
    return { ...filter, authorId: me };
  }
  if (typeof filter.assigneeId === 'number' && filter.assigneeId !== me) return null;
  if (filter.assigneeId === 'none') return null;
  return { ...filter, assigneeId: me };
}
