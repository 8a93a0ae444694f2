// The lists of issues and merge requests (IssuableFinder's parents): the instance's (GET /issues, GET /merge_requests),
// a group's or a project's. The parent is found first (404 when hidden), before the filter decides that nothing can
// match.
import { findGroup } from '../groups/service.ts';
import type { RequestContext } from '../lib/context.ts';
import type { Ref } from '../lib/ids.ts';
import { findProject } from '../projects/service.ts';

export type IssuableListSource = { kind: 'all' } | { kind: 'project'; ref: Ref | null } | { kind: 'group'; ref: Ref | null };

/** The list's parent as the filter's columns: `projectId`, `groupId` or neither (the instance's list). */
export async function listParent(ctx: RequestContext, source: IssuableListSource): Promise<{ projectId?: number; groupId?: number }> {
  if (source.kind === 'project') return { projectId: (await findProject(ctx, source.ref)).project.id };
  if (source.kind === 'group') return { groupId: (await findGroup(ctx, source.ref)).namespace.id };
  return {};
}
