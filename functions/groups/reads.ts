// Batched group and namespace reads for GraphQL (a project's group, a group's parent, a membership's group, full
// names under a page): one query for every id asked, the policy deciding what is readable.
import { findGroupViewsByIds, namespaceFullNames as findFullNames, type GroupView } from '../../db/queries/groups.ts';
import { findNamespaceView } from '../../db/queries/groups/namespaces.ts';
import type { RequestContext } from '../lib/context.ts';
import { can } from '../lib/policy.ts';
import { groupFacts } from './service.ts';

/** The groups the actor may read, by namespace id, in the order asked (null when missing, deleted or hidden). */
export async function readableGroupsByIds(ctx: RequestContext, ids: readonly number[]): Promise<Array<GroupView | null>> {
  const found = new Map((await findGroupViewsByIds(ctx.db, ctx.actor, ids)).map((g) => [g.namespace.id, g]));
  return ids.map((id) => {
    const group = found.get(id);
    return group && can(ctx.actor, 'group:read', groupFacts(group)) ? group : null;
  });
}

/** "Parent / Child" full names of namespaces by id, in the order asked (null when missing). */
export async function namespaceFullNames(ctx: RequestContext, ids: readonly number[]): Promise<Array<string | null>> {
  const found = new Map((await findFullNames(ctx.db, ids)).map((r) => [r.id, r.fullName]));
  return ids.map((id) => found.get(id) ?? null);
}

/**
 * A namespace by full path, if the actor may read it: a group by group:read; a personal namespace (NamespacePolicy's
 * read_namespace) by its owner and administrators.
 */
export async function findReadableNamespace(ctx: RequestContext, fullPath: string) {
  const view = await findNamespaceView(ctx.db, ctx.actor, { path: fullPath });
  if (!view) return null;
  if (view.namespace.kind === 'group') return can(ctx.actor, 'group:read', groupFacts(view)) ? view : null;
  return can(ctx.actor, 'personal_namespace:read', { kind: 'personal_namespace', ownerId: view.namespace.ownerId }) ? view : null;
}
