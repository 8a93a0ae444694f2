// Group verbs for REST (and later GraphQL): policy first, then the work; multi-row writes in one transaction.
import * as q from '../../db/queries/groups.ts';
import { listProjectViews } from '../projects/lookups.ts';
import { fullPathTaken, lockFullPath, lockLiveNamespace } from '../../db/queries/groups/namespaces.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { isUniqueViolation, notFound, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, can, isAdministrator, Visibility, visibilityName, type GroupFacts } from '../lib/policy.ts';
import { groupRunnersToken } from '../runners/registration-token.ts';
import type { Output } from '../lib/validate.ts';
import { listProjects } from '../projects/service.ts';
import { assertAvatar, storeAvatar } from '../uploads/avatars.ts';
import type { CreateGroupInput, GroupProjectsInput, ListGroupsInput, UpdateGroupInput } from './schemas.ts';
import { groupJobStatement } from '../background-jobs/enqueue.ts';
import { groupSettings, groupSettingsChange, PROJECT_CREATION_BY_VALUE } from './settings.ts';
import { assertVisibilityAllowed, instanceSettings } from '../application-settings/service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export function groupFacts(v: Pick<q.GroupView, 'namespace' | 'accessLevel' | 'hasDescendantAccess'>): GroupFacts {
  const settings = groupSettings(v.namespace);
  return {
    kind: 'group',
    visibilityLevel: v.namespace.visibilityLevel,
    accessLevel: v.accessLevel,
    hasDescendantAccess: v.hasDescendantAccess,
    projectCreationLevel: settings.project_creation_level,
    subgroupCreationLevel: settings.subgroup_creation_level,
  };
}

/** The group the actor may read, or 404 `Group Not Found` (also for groups that exist but are hidden). */
export async function findGroup(ctx: RequestContext, ref: Ref | null) {
  const view = ref ? await q.findGroupView(ctx.db, ctx.actor, ref) : undefined;
  if (!view) throw notFound('Group');
  assertCan(ctx.actor, 'group:read', groupFacts(view));
  return view;
}

async function reload(ctx: RequestContext, id: number) {
  const view = await q.findGroupView(ctx.db, ctx.actor, { id });
  if (!view) throw notFound('Group');
  return view;
}

/**
 * What GroupDetail adds to the group: its own projects the actor can see and the projects shared with it (newest id
 * first, at most 100 each), and the groups it is shared with.
 */
export async function detailOf(ctx: RequestContext, view: q.GroupView) {
  const id = view.namespace.id;
  const newest = { by: 'id', sort: 'desc' } as const;
  const [projects, sharedProjects, sharedWithGroups] = await Promise.all([
    listProjectViews(ctx.db, ctx.actor, { namespaceIds: q.namespaceScope(id, false) }, newest, 100),
    listProjectViews(ctx.db, ctx.actor, { sharedWithGroupId: id }, newest, 100),
    q.groupSharedWith(ctx.db, id),
  ]);
  return { projects, sharedProjects, sharedWithGroups };
}

/**
 * GroupDetail's runners_token (GET /groups/:id): the group's runner registration token for those who administer the
 * group (user_can_admin_group), else null. No key configured: null for everyone.
 */
export async function runnersTokenFor(ctx: RequestContext, view: q.GroupView): Promise<string | null> {
  if (!can(ctx.actor, 'group:admin_runners', groupFacts(view))) return null;
  return groupRunnersToken(ctx.config.encryptionKey, view.namespace.id, view.namespace.runnersTokenVersion);
}

/**
 * GitLab's find_groups: anonymous callers see public groups; administrators every group; other users, unless
 * `all_available=true`, only the groups around their memberships. `owned`/`min_access_level` narrow further.
 */
export function listGroups({ ctx, input, parentId }: Verb<Output<typeof ListGroupsInput>> & { parentId?: number }) {
  const user = ctx.actor.user;
  const allAvailable = input.all_available ?? isAdministrator(ctx.actor);
  const filter: q.GroupListFilter = {
    parentId,
    none: input.owned === true && !user,
    ownedBy: input.owned && user ? user.id : undefined,
    minAccessLevel: user ? input.min_access_level : undefined,
    membershipOnly: !!user && !allAvailable && !input.owned && input.min_access_level === undefined,
    search: input.search || undefined,
    skipIds: input.skip_groups,
    topLevelOnly: input.top_level_only,
  };
  const order = { by: input.order_by, sort: input.sort };
  return {
    fetch: (limit: number, offset: number) => q.listGroupViews(ctx.db, ctx.actor, filter, order, limit, offset),
    count: (limit: number) => q.countGroups(ctx.db, ctx.actor, filter, limit),
  };
}

export async function listSubgroups({ ctx, input }: Verb<{ ref: Ref | null } & Output<typeof ListGroupsInput>>) {
  const parent = await findGroup(ctx, input.ref);
  return listGroups({ ctx, input, parentId: parent.namespace.id });
}

/** The group's projects through the projects list (same filters and orderings); archived ones only on request. */
export async function listGroupProjects({ ctx, input }: Verb<{ ref: Ref | null } & Output<typeof GroupProjectsInput>>) {
  const group = await findGroup(ctx, input.ref);
  const id = group.namespace.id;
  const namespaceIds = q.namespaceScope(id, input.include_subgroups === true);
  // with_shared (default true): also the projects shared with the group itself (GroupProjectsFinder).
  const sharedWithGroupId = input.with_shared === false ? undefined : id;
  return listProjects({ ctx, input: { ...input, archived: input.archived ?? false }, scope: { namespaceIds, sharedWithGroupId } });
}

const visibilityMessage = (level: number, reason: string) => `${visibilityName(level)} is not allowed since ${reason}`;
const TAKEN = () => validationFailed({ path: ['has already been taken'] });

export async function createGroup({ ctx, input }: Verb<Output<typeof CreateGroupInput>>) {
  const user = requireUser(ctx);
  let parent: q.GroupView | undefined;
  if (input.parent_id != null) {
    const parentId = input.parent_id.id;
    parent = await findGroup(ctx, parentId === null ? null : { id: parentId });
    assertCan(ctx.actor, 'group:create_subgroup', groupFacts(parent));
  } else {
    assertCan(ctx.actor, 'user:create_group', { kind: 'user', id: user.id, state: user.state });
  }
  // The instance's defaults for what the request leaves out (default_group_visibility, default_project_creation).
  const instance = await instanceSettings(ctx);
  const level = Visibility[input.visibility ?? (instance.default_group_visibility as keyof typeof Visibility)];
  if (input.visibility) await assertVisibilityAllowed(ctx, level);
  if (parent && level > parent.namespace.visibilityLevel) {
    throw validationFailed({
      visibility_level: [visibilityMessage(level, `the parent group has a ${visibilityName(parent.namespace.visibilityLevel)} visibility.`)],
    });
  }
  assertAvatar(input.avatar);
  const settings = {
    project_creation_level: PROJECT_CREATION_BY_VALUE[instance.default_project_creation as 0 | 1 | 2],
    ...groupSettingsChange(input, { admin: isAdministrator(ctx.actor) }),
  };
  const p = parent?.namespace;
  try {
    const id = await ctx.transaction(async (tx) => {
      // The parent as it is now, held until commit: its deletion or rename waits for this create, then moves it.
      const parentPath = p ? await lockLiveNamespace(tx, p.id) : null;
      if (parentPath === undefined) throw notFound('Group');
      const fullPath = parentPath === null ? input.path : `${parentPath}/${input.path}`;
      // Top-level paths share one space with usernames; below a group, with the group's projects. The path lock
      // serializes this check with project creates and renames that want the same path.
      await lockFullPath(tx, fullPath);
      if (await fullPathTaken(tx, fullPath)) throw TAKEN();
      const groupId = await q.insertGroup(
        tx,
        {
          name: input.name,
          path: input.path,
          description: input.description ?? '',
          visibilityLevel: level,
          settings,
          parent: p && parentPath ? { id: p.id, fullPath: parentPath, traversalIds: p.traversalIds } : null,
        },
        user.id,
      );
      if (input.avatar) await storeAvatar(tx, { kind: 'group', id: groupId }, input.avatar);
      return groupId;
    });
    return reload(ctx, id);
  } catch (error) {
    if (isUniqueViolation(error, 'namespaces_full_path')) throw TAKEN();
    throw error;
  }
}

/** GitLab's visibility_level validations of a group: not above its parent, not below its projects or subgroups. */
async function checkVisibility(ctx: RequestContext, group: q.GroupView, level: number) {
  const errors: string[] = [];
  const parentId = group.namespace.parentId;
  const parent = parentId ? await q.findNamespaceRow(ctx.db, parentId) : undefined;
  if (parent && level > parent.visibilityLevel) {
    errors.push(visibilityMessage(level, `the parent group has a ${visibilityName(parent.visibilityLevel)} visibility.`));
  }
  if (await q.hasProjectsAbove(ctx.db, group.namespace.id, level))
    errors.push(visibilityMessage(level, 'this group contains projects with higher visibility.'));
  if (await q.hasSubgroupsAbove(ctx.db, group.namespace.id, level)) errors.push(visibilityMessage(level, 'there are sub-groups with higher visibility.'));
  if (errors.length) throw validationFailed({ visibility_level: errors });
}

export async function updateGroup({ ctx, input }: Verb<{ ref: Ref | null } & Output<typeof UpdateGroupInput>>) {
  requireUser(ctx);
  const group = await findGroup(ctx, input.ref);
  assertCan(ctx.actor, 'group:update', groupFacts(group));
  const g = group.namespace;
  const values: Parameters<typeof q.updateGroup>[2] = {};
  if (input.name !== undefined) values.name = input.name;
  if (input.description !== undefined) values.description = input.description;
  if (input.visibility !== undefined && Visibility[input.visibility] !== g.visibilityLevel) {
    values.visibilityLevel = Visibility[input.visibility];
    await assertVisibilityAllowed(ctx, values.visibilityLevel);
    await checkVisibility(ctx, group, values.visibilityLevel);
  }
  assertAvatar(input.avatar);
  const settings = groupSettingsChange(input, { admin: isAdministrator(ctx.actor) });
  const rename = input.path !== undefined && input.path !== g.path ? input.path : undefined;
  const newFullPath = rename ? g.fullPath.slice(0, g.fullPath.length - g.path.length) + rename : undefined;
  try {
    await ctx.transaction(async (tx) => {
      // A change of case only is the group's own path.
      if (newFullPath && newFullPath.toLowerCase() !== g.fullPath.toLowerCase()) {
        await lockFullPath(tx, newFullPath);
        if (await fullPathTaken(tx, newFullPath, { namespaceId: g.id })) throw TAKEN();
      }
      if (Object.keys(values).length || Object.keys(settings).length) await q.updateGroup(tx, g.id, values, settings);
      if (rename && newFullPath) await q.renameGroupPath(tx, g.id, g.fullPath, rename, newFullPath);
      if (input.avatar) await storeAvatar(tx, { kind: 'group', id: g.id }, input.avatar);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw TAKEN();
    throw error;
  }
  return reload(ctx, g.id);
}

/**
 * 202: the group, its subgroups and their projects disappear from reads now; its group_destroy job (enqueued in the
 * same transaction) purges the rows.
 */
export async function deleteGroup({ ctx, input }: Verb<{ ref: Ref | null }>) {
  requireUser(ctx);
  const group = await findGroup(ctx, input.ref);
  assertCan(ctx.actor, 'group:delete', groupFacts(group));
  const id = group.namespace.id;
  await ctx.transaction(async (tx) => {
    await q.markGroupDeleted(tx, id);
    await groupJobStatement(tx, ctx, 'group_destroy', { fullPath: group.namespace.fullPath }, { group_id: id });
  });
}
