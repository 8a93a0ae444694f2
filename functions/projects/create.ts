// Creating a project (POST /projects, and /projects/user/:id for administrators): the project, its owner's
// membership in a personal namespace, its avatar, its `created` event and its repository in one transaction.
import type { NamespaceView } from '../../db/queries/groups/namespaces.ts';
import { findPersonalNamespace, fullPathTaken, lockFullPath, lockLiveNamespace } from '../groups/lookups.ts';
import * as q from '../../db/queries/projects.ts';
import { addProjectMember } from '../members/statements.ts';
import { recordEvent } from '../events/record.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { notFound, paramErrors, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import type { Output } from '../lib/validate.ts';
import { AccessLevel, Visibility, type VisibilityName } from '../lib/policy.ts';
import { assertAvatar, storeAvatar, type AvatarUpload } from '../uploads/avatars.ts';
import { createProjectRepository, DEFAULT_BRANCH, prepareReadme } from '../repositories/store/initial-commit.ts';
import { findUser, requireAdmin } from '../users/service.ts';
import { pathFromName, PROJECT_PATH_MESSAGE, type CreateProjectInput } from './schemas.ts';
import { isValidPath } from '../users/schemas.ts';
import { reload } from './service.ts';
import { assertVisibilityAllowed, instanceSettings } from '../application-settings/service.ts';
import { newProjectColumns, settingsChange, type SettingsChange } from './settings.ts';
import { changesFromAttributes, preparePolicy, storePolicy } from '../container-expiration-policies/prepare.ts';
import type { ProjectRow } from '../../db/schema/index.ts';
import { targetNamespace, namespaceForNewProject, namespaceNotValid, pathTaken, rethrowTaken, checkVisibility } from './placement.ts';

type Verb<I> = { ctx: RequestContext; input: I };

interface NewProject {
  name: string;
  path: string;
  description?: string | undefined;
  visibility?: VisibilityName | undefined;
  defaultBranch?: string | undefined;
  avatar?: AvatarUpload | undefined;
  initializeWithReadme?: boolean | undefined;
  /** The settings the request sets (settings.ts), validated; none for a project created by a push. */
  settings?: SettingsChange | undefined;
  /** The container expiration policy the request sets, validated (stored with the project). */
  policy?: ReturnType<typeof preparePolicy> | undefined;
  mergeSettings?: Partial<
    Pick<ProjectRow, 'mergeMethod' | 'removeSourceBranchAfterMerge' | 'onlyAllowMergeIfAllDiscussionsAreResolved' | 'onlyAllowMergeIfPipelineSucceeds'>
  >;
}

/** Creates the project (and its owner's membership in a personal namespace) in one transaction. */
async function insertProject(ctx: RequestContext, ns: NamespaceView['namespace'], p: NewProject, ownerId: number) {
  // The instance's defaults for what the request leaves out (ApplicationSetting: default_project_visibility,
  // default_branch_name, shared_runners_enabled) and its restricted visibility levels.
  const instance = await instanceSettings(ctx);
  const visibility = p.visibility ? Visibility[p.visibility] : Visibility[instance.default_project_visibility as VisibilityName];
  checkVisibility(visibility, ns);
  if (p.visibility) await assertVisibilityAllowed(ctx, visibility);
  const branch = p.defaultBranch ?? ((instance.default_branch_name as string | null) || DEFAULT_BRANCH);
  assertAvatar(p.avatar);
  const creator = ctx.actor.user!;
  // The README commit's objects are built (hashed) before the transaction, which only writes them.
  const readme = p.initializeWithReadme ? await prepareReadme({ name: p.name, description: p.description ?? '', branch, author: creator }) : undefined;
  try {
    const row = await ctx.transaction(async (tx) => {
      // The namespace as it is now, held until commit: its deletion or rename waits for this create, then moves it.
      const namespacePath = await lockLiveNamespace(tx, ns.id);
      if (namespacePath === undefined) throw namespaceNotValid();
      const fullPath = `${namespacePath}/${p.path}`;
      // Projects and subgroups share the path space: lock the path, then check both.
      await lockFullPath(tx, fullPath);
      if (await fullPathTaken(tx, fullPath)) throw pathTaken();
      const project = await q.insertProject(tx, {
        namespaceId: ns.id,
        creatorId: ctx.actor.user!.id,
        name: p.name,
        path: p.path,
        pathWithNamespace: fullPath,
        description: p.description ?? '',
        visibilityLevel: visibility,
        defaultBranch: readme?.branch ?? p.defaultBranch ?? null,
        ...p.mergeSettings,
        sharedRunnersEnabled: instance.shared_runners_enabled as boolean,
        ...newProjectColumns(visibility, p.settings ?? { columns: {}, settings: {} }),
      });
      // The owner of a personal namespace owns its projects; group projects inherit the group's members.
      if (ns.kind === 'user') await addProjectMember(tx, project.id, ownerId, AccessLevel.OWNER, ctx.actor.user!.id);
      if (p.avatar) await storeAvatar(tx, { kind: 'project', id: project.id }, p.avatar);
      if (p.policy) await storePolicy(tx, project.id, p.policy);
      // GitLab's Projects::CreateService records `created` (forks too: repositories/forks.ts); the personal owner's
      // membership records no `joined` (ProjectMember skips the namespace holder).
      await recordEvent(tx, { action: 'created', authorId: ownerId, projectId: project.id });
      // Every project has a repository, made with it.
      await createProjectRepository(tx, { projectId: project.id, readme, authorId: creator.id });
      return project;
    });
    return reload(ctx, row.id);
  } catch (error) {
    rethrowTaken(error);
  }
}

function nameAndPath(input: { name?: string | undefined; path?: string | undefined }) {
  if (!input.name && !input.path) throw paramErrors(['name, path are missing, at least one parameter must be provided']);
  const path = input.path ?? pathFromName(input.name!);
  return { name: input.name ?? path, path };
}

/** What POST /projects and /projects/user/:id make of their parameters (the model's errors thrown first). */
async function newProject(ctx: RequestContext, input: Output<typeof CreateProjectInput>): Promise<NewProject> {
  const settings = await settingsChange(input, ctx.config.instanceTier, undefined);
  const mergeSettings: NewProject['mergeSettings'] = {};
  if (input.merge_method !== undefined) mergeSettings.mergeMethod = input.merge_method;
  if (input.remove_source_branch_after_merge !== undefined) mergeSettings.removeSourceBranchAfterMerge = input.remove_source_branch_after_merge;
  if (input.only_allow_merge_if_all_discussions_are_resolved !== undefined)
    mergeSettings.onlyAllowMergeIfAllDiscussionsAreResolved = input.only_allow_merge_if_all_discussions_are_resolved;
  if (input.only_allow_merge_if_pipeline_succeeds !== undefined) mergeSettings.onlyAllowMergeIfPipelineSucceeds = input.only_allow_merge_if_pipeline_succeeds;
  const attrs = input.container_expiration_policy_attributes;
  // A new project has no policy yet: the defaults, changed by the request (validated as on update).
  const policy = attrs
    ? preparePolicy({ containerExpirationPolicy: null, project: { createdAt: new Date() } }, changesFromAttributes(attrs), 'container_expiration_policy.')
    : undefined;
  return {
    ...nameAndPath(input),
    description: input.description,
    visibility: input.visibility,
    defaultBranch: input.default_branch,
    avatar: input.avatar,
    initializeWithReadme: input.initialize_with_readme,
    settings,
    mergeSettings,
    policy,
  };
}

export async function createProject({ ctx, input }: Verb<Output<typeof CreateProjectInput>>) {
  const ns = await targetNamespace(ctx, input.namespace_id, namespaceNotValid);
  return insertProject(ctx, ns.namespace, await newProject(ctx, input), requireUser(ctx).id);
}

/**
 * Push to create (GitLab's GitAccessProject#ensure_project_on_push!): a push to a path where nothing is, in a
 * namespace the pusher may create projects in, creates a private project there, named after its path. False when
 * the path is not the pusher's to create (no such namespace, no right there, taken): git answers then as for any
 * missing project. `dryRun` (the push's ref advertisement) only says whether the push would create it. A path
 * GitLab's format refuses throws the model's error (`{ path: [...] }`).
 */
export async function createProjectByPush(ctx: RequestContext, fullPath: string, o: { dryRun: boolean }): Promise<boolean> {
  const at = fullPath.lastIndexOf('/');
  const ns = at > 0 ? await namespaceForNewProject(ctx, { path: fullPath.slice(0, at) }) : undefined;
  if (!ns || (await fullPathTaken(ctx.db, fullPath))) return false;
  const path = fullPath.slice(at + 1);
  if (!isValidPath(path)) throw validationFailed({ path: [PROJECT_PATH_MESSAGE] });
  if (!o.dryRun) await insertProject(ctx, ns.namespace, { name: path, path, visibility: 'private' }, requireUser(ctx).id);
  return true;
}

/** Administrators create a project in another user's personal namespace. */
export async function createProjectForUser({ ctx, input }: Verb<{ userRef: Ref | null } & Output<typeof CreateProjectInput>>) {
  requireAdmin(ctx);
  const owner = await findUser(ctx, input.userRef);
  const ns = await findPersonalNamespace(ctx.db, owner.id);
  if (!ns) throw notFound('Namespace');
  return insertProject(ctx, ns, await newProject(ctx, input), owner.id);
}
