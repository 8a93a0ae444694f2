// Sharing a project or a group with a group (GitLab's Projects::GroupLinks and Groups::GroupLinks services). What a
// link grants is not decided here: db/queries/lib/access.ts folds links into the access levels the policy reads.
import * as q from '../../db/queries/sharing.ts';
import { findGroupView } from '../groups/lookups.ts';
import type { RequestContext } from '../lib/context.ts';
import { badRequest, conflict, isUniqueViolation, notFound, notFoundMessage } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, can } from '../lib/policy.ts';
import { findGroup, groupFacts } from '../groups/service.ts';
import { groupSettings } from '../groups/settings.ts';
import { findProject, projectFacts } from '../projects/service.ts';

type Verb<I> = { ctx: RequestContext; input: I };
interface LinkInput {
  ref: Ref | null;
  group_id: number | null;
  group_access: number;
  expires_at?: string | null | undefined;
}

/** The group to share with, when the actor may read it (GitLab's read_namespace), else undefined. */
async function readableGroup(ctx: RequestContext, id: number | null) {
  const view = id === null ? undefined : await findGroupView(ctx.db, ctx.actor, { id });
  return view && can(ctx.actor, 'group:read', groupFacts(view)) ? view : undefined;
}

export async function shareProject({ ctx, input }: Verb<LinkInput>) {
  const project = await findProject(ctx, input.ref);
  assertCan(ctx.actor, 'project:update', projectFacts(project));
  const ns = project.namespace;
  // Project#allowed_to_share_with_group?: the namespace's share_with_group_lock.
  if (ns.kind === 'group' && groupSettings(ns).share_with_group_lock) throw badRequest('The project sharing with group is disabled');
  const group = await readableGroup(ctx, input.group_id);
  if (!group) throw notFoundMessage('Not Found');
  // ProjectGroupLink#different_group: the project's own group and its ancestors already grant what they grant.
  if (ns.kind === 'group' && ns.traversalIds.includes(group.namespace.id)) {
    throw conflict('Project cannot be shared with the group it is in or one of its ancestors.');
  }
  try {
    return await q.insertProjectLink(ctx.db, {
      projectId: project.project.id,
      groupId: group.namespace.id,
      groupAccess: input.group_access,
      expiresAt: input.expires_at ?? null,
    });
  } catch (error) {
    if (isUniqueViolation(error, 'project_group_links_project_group_key')) throw conflict('Group already shared with this group');
    throw error;
  }
}

export async function unshareProject({ ctx, input }: Verb<{ ref: Ref | null; groupId: number | null }>) {
  const project = await findProject(ctx, input.ref);
  assertCan(ctx.actor, 'project:update', projectFacts(project));
  const deleted = input.groupId !== null && (await q.deleteProjectLink(ctx.db, project.project.id, input.groupId));
  if (!deleted) throw notFound('Group Link');
}

/**
 * Groups::GroupLinks::CreateService: the shared group's owners (admin_group_member) share it with a group they can
 * read; anything else is its 404 `Not Found`.
 */
export async function shareGroup({ ctx, input }: Verb<LinkInput>) {
  const shared = await findGroup(ctx, input.ref);
  const withGroup = input.group_id === null ? null : await findGroup(ctx, { id: input.group_id });
  if (!withGroup) throw notFound('Group');
  if (!can(ctx.actor, 'group:admin_members', groupFacts(shared))) throw notFoundMessage('Not Found');
  try {
    await q.insertGroupLink(ctx.db, {
      sharedGroupId: shared.namespace.id,
      sharedWithGroupId: withGroup.namespace.id,
      groupAccess: input.group_access,
      expiresAt: input.expires_at ?? null,
    });
  } catch (error) {
    if (isUniqueViolation(error, 'group_group_links_shared_key')) throw conflict('Shared group The group has already been shared with this group');
    throw error;
  }
  return shared;
}

export async function unshareGroup({ ctx, input }: Verb<{ ref: Ref | null; groupId: number | null }>) {
  const shared = await findGroup(ctx, input.ref);
  assertCan(ctx.actor, 'group:admin_members', groupFacts(shared));
  const deleted = input.groupId !== null && (await q.deleteGroupLink(ctx.db, shared.namespace.id, input.groupId));
  if (!deleted) throw notFound();
}
