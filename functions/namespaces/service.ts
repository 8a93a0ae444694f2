// Namespace verbs (GET /namespaces, /namespaces/:id): a personal namespace is read by its owner and administrators,
// a group as the group is (lib/policy.ts decides both); anything else is 404 `Namespace Not Found`.
import * as q from '../../db/queries/namespaces.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { notFound } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { can } from '../lib/policy.ts';
import type { Output } from '../lib/validate.ts';
import { groupFacts } from '../groups/service.ts';
import type { ListNamespacesInput } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** GitLab's read_namespace. */
const readable = (ctx: RequestContext, v: q.NamespaceListView) =>
  v.namespace.kind === 'user'
    ? can(ctx.actor, 'personal_namespace:read', { kind: 'personal_namespace', ownerId: v.namespace.ownerId })
    : can(ctx.actor, 'group:read', groupFacts(v));

/** Entities::Namespace's members_count_with_descendants: groups the actor administers (admin_group). */
export const showsMembersCount = (ctx: RequestContext, v: q.NamespaceListView) => v.namespace.kind === 'group' && can(ctx.actor, 'group:update', groupFacts(v));

export async function findNamespace({ ctx, input }: Verb<{ ref: Ref | null }>) {
  requireUser(ctx);
  const view = input.ref ? await q.findNamespaceListView(ctx.db, ctx.actor, input.ref) : undefined;
  if (!view || !readable(ctx, view)) throw notFound('Namespace');
  return view;
}

export function listNamespaces({ ctx, input }: Verb<Output<typeof ListNamespacesInput>>) {
  requireUser(ctx);
  const filter: q.NamespaceListFilter = { ownedOnly: input.owned_only ?? false, search: input.search || undefined };
  return {
    fetch: (limit: number, offset: number) => q.listNamespaceViews(ctx.db, ctx.actor, filter, limit, offset),
    count: (limit: number) => q.countNamespaces(ctx.db, ctx.actor, filter, limit),
  };
}
