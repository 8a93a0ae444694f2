// Project verbs, shared by REST and (later) GraphQL.
import { findNamespaceView, findPersonalNamespace, fullPathTaken, lockFullPath, lockLiveNamespace, type NamespaceView } from '../../db/queries/namespaces.ts';
import { forkProjectQueries, namespaceIsLive } from '../../db/queries/repositories/forks.ts';
import * as q from '../../db/queries/projects.ts';
import { EVENT_ACTIONS } from '../../db/schema/index.ts';
import { findRef, setDefaultBranchQuery } from '../../db/queries/repositories/refs.ts';
import { recordEvent } from '../events/record.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { conflict, isDomainError, isUniqueViolation, notFound, notModified, paramErrors, validationFailed } from '../lib/errors.ts';
import { parseRef, type Ref } from '../lib/ids.ts';
import { keysetUnsupported } from '../lib/pagination.ts';
import type { Output } from '../lib/validate.ts';
import { AccessLevel, assertCan, can, complianceFrameworkAvailable, Visibility, visibilityName, type ProjectFacts, type VisibilityName } from '../lib/policy.ts';
import { assertAvatar, storeAvatar, type AvatarUpload } from '../uploads/avatars.ts';
import { createProjectRepository, DEFAULT_BRANCH, prepareReadme } from '../repositories/store/initial-commit.ts';
import { findUser, requireAdmin } from '../users/service.ts';
import { preparePolicy, storePolicy } from '../container-expiration-policies/prepare.ts';
import { setComplianceFramework } from '../../db/queries/compliance-frameworks.ts';
import { pathFromName, type CreateProjectInput, type ForkProjectInput, type ListProjectsInput, type UpdateProjectInput } from './schemas.ts';
import { projectJobStatement } from '../background-jobs/enqueue.ts';
import { projectRunnersToken } from '../runners/registration-token.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export const projectFacts = (v: q.ProjectView): ProjectFacts => ({
  kind: 'project',
  visibilityLevel: v.project.visibilityLevel,
  accessLevel: v.accessLevel,
  archived: v.project.archived,
});

/** The runner registration token, for those who administer the project (GitLab's user_can_admin_project). */
export async function runnersTokenFor(ctx: RequestContext, view: q.ProjectView): Promise<string | null> {
  if (!can(ctx.actor, 'project:update', projectFacts(view))) return null;
  return projectRunnersToken(ctx.config.encryptionKey, view.project.id, view.project.runnersTokenVersion);
}

/** The project the actor may read, or 404 `Project Not Found` (also for projects that exist but are hidden). */
export async function findProject(ctx: RequestContext, ref: Ref | null) {
  return readableProject(ctx, ref ? await q.findProjectView(ctx.db, ctx.actor, ref) : undefined);
}

/** findProject's rule on a project view already read (e.g. in a batch with what the request needs from it). */
export function readableProject(ctx: RequestContext, view: q.ProjectView | undefined) {
  if (!view) throw notFound('Project');
  assertCan(ctx.actor, 'project:read', projectFacts(view));
  return view;
}

async function reload(ctx: RequestContext, id: number) {
  const view = await q.findProjectView(ctx.db, ctx.actor, { id });
  if (!view) throw notFound('Project');
  return view;
}

export function listProjects({ ctx, input, scope = {} }: Verb<Output<typeof ListProjectsInput>> & { scope?: q.ProjectListFilter }) {
  const keyset = input.pagination === 'keyset';
  const orderBy = input.order_by ?? (keyset ? 'id' : 'created_at');
  if (keyset && orderBy !== 'id') throw keysetUnsupported();
  const filter: q.ProjectListFilter = {
    ...scope,
    owned: input.owned,
    starred: input.starred,
    membership: input.membership,
    search: input.search,
    visibility: input.visibility ? Visibility[input.visibility] : undefined,
    archived: input.archived,
    minAccessLevel: input.min_access_level,
    idAfter: input.id_after,
    idBefore: input.id_before,
  };
  // Filters about "me" need a user; GitLab answers them with nothing for anonymous callers.
  const anonymousMine = !ctx.actor.user && (input.owned || input.starred || input.membership || input.min_access_level);
  const order = { by: orderBy, sort: input.sort };
  return {
    keyset,
    fetch: (limit: number, offset: number) => (anonymousMine ? Promise.resolve([]) : q.listProjectViews(ctx.db, ctx.actor, filter, order, limit, offset)),
    count: (limit: number) => (anonymousMine ? Promise.resolve(0) : q.countProjects(ctx.db, ctx.actor, filter, limit)),
  };
}

/**
 * Where a new project goes: the given namespace if the actor may create there, else their personal one. A namespace
 * that is missing, hidden or not allowed gets `onDenied` (GitLab: a model error on create, 404 on fork).
 */
async function targetNamespace(ctx: RequestContext, ref: Ref | null | undefined, onDenied: () => Error): Promise<NamespaceView> {
  const user = requireUser(ctx);
  if (ref === undefined) {
    const personal = await findPersonalNamespace(ctx.db, user.id);
    if (!personal) throw onDenied();
    return { namespace: personal, accessLevel: AccessLevel.OWNER, hasDescendantAccess: false };
  }
  const view = ref ? await findNamespaceView(ctx.db, ctx.actor, ref) : undefined;
  if (!view) throw onDenied();
  const ns = view.namespace;
  const allowed =
    ns.kind === 'user'
      ? can(ctx.actor, 'personal_namespace:create_project', { kind: 'personal_namespace', ownerId: ns.ownerId })
      : can(ctx.actor, 'group:create_project', { kind: 'group', visibilityLevel: ns.visibilityLevel, accessLevel: view.accessLevel, hasDescendantAccess: view.hasDescendantAccess });
  if (!allowed) throw onDenied();
  return view;
}

/** GitLab's Projects::CreateService#deny_namespace. */
const namespaceNotValid = () => validationFailed({ namespace: ['is not valid'] });
const targetNamespaceNotFound = () => notFound('Target Namespace');

const pathTaken = () => validationFailed({ path: ['has already been taken'] });

/** Unique-index violations (two requests racing past the checks) as GitLab's model errors. */
function rethrowTaken(error: unknown): never {
  if (isUniqueViolation(error, 'projects_namespace_name_lower_idx')) throw validationFailed({ name: ['has already been taken'] });
  if (isUniqueViolation(error, 'projects_path_with_namespace_lower_idx')) throw pathTaken();
  throw error;
}

/** A project's visibility may not exceed its group's (GitLab's visibility_level validation). */
function checkVisibility(visibility: number, ns: NamespaceView['namespace']) {
  if (ns.kind === 'group' && visibility > ns.visibilityLevel) {
    throw validationFailed({ visibility_level: [`${visibilityName(visibility)} is not allowed in a ${visibilityName(ns.visibilityLevel)} group.`] });
  }
}

interface NewProject {
  name: string;
  path: string;
  description?: string | undefined;
  visibility?: VisibilityName | undefined;
  defaultBranch?: string | undefined;
  avatar?: AvatarUpload | undefined;
  initializeWithReadme?: boolean | undefined;
}

/** Creates the project (and its owner's membership in a personal namespace) in one transaction. */
async function insertProject(ctx: RequestContext, ns: NamespaceView['namespace'], p: NewProject, ownerId: number) {
  const visibility = Visibility[p.visibility ?? 'private'];
  checkVisibility(visibility, ns);
  assertAvatar(p.avatar);
  const creator = ctx.actor.user!;
  // The README commit's objects are built (hashed) before the transaction, which only writes them.
  const readme = p.initializeWithReadme
    ? await prepareReadme({ name: p.name, description: p.description ?? '', branch: p.defaultBranch ?? DEFAULT_BRANCH, author: creator })
    : undefined;
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
      });
      // The owner of a personal namespace owns its projects; group projects inherit the group's members.
      if (ns.kind === 'user') await q.addProjectMember(tx, project.id, ownerId, AccessLevel.OWNER, ctx.actor.user!.id);
      if (p.avatar) await storeAvatar(tx, { kind: 'project', id: project.id }, p.avatar);
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

export async function createProject({ ctx, input }: Verb<Output<typeof CreateProjectInput>>) {
  const ns = await targetNamespace(ctx, input.namespace_id, namespaceNotValid);
  const p = { ...nameAndPath(input), description: input.description, visibility: input.visibility, defaultBranch: input.default_branch, avatar: input.avatar, initializeWithReadme: input.initialize_with_readme };
  return insertProject(ctx, ns.namespace, p, requireUser(ctx).id);
}

/** Administrators create a project in another user's personal namespace. */
export async function createProjectForUser({ ctx, input }: Verb<{ userRef: Ref | null } & Output<typeof CreateProjectInput>>) {
  requireAdmin(ctx);
  const owner = await findUser(ctx, input.userRef);
  const ns = await findPersonalNamespace(ctx.db, owner.id);
  if (!ns) throw notFound('Namespace');
  const p = { ...nameAndPath(input), description: input.description, visibility: input.visibility, defaultBranch: input.default_branch, avatar: input.avatar, initializeWithReadme: input.initialize_with_readme };
  return insertProject(ctx, ns, p, owner.id);
}

export async function updateProject({ ctx, input }: Verb<{ ref: Ref | null } & Output<typeof UpdateProjectInput>>) {
  const view = await findProject(ctx, input.ref);
  assertCan(ctx.actor, 'project:update', projectFacts(view));
  const movesHead = input.default_branch !== undefined && !view.repository.empty && input.default_branch !== view.repository.defaultBranch;
  // Projects::UpdateService#validate! runs Project#change_head before anything is saved: a branch the repository
  // lacks is the model's base error, and nothing of the request is applied.
  if (movesHead && (await findRef(ctx.db, view.project.id, `refs/heads/${input.default_branch}`)) === undefined) {
    throw validationFailed({ base: [`Could not change HEAD: branch '${input.default_branch}' does not exist`] });
  }
  const values: Parameters<typeof q.updateProject>[2] = {};
  if (input.name !== undefined) values.name = input.name;
  if (input.description !== undefined) values.description = input.description;
  if (input.default_branch !== undefined) values.defaultBranch = input.default_branch;
  if (input.merge_method !== undefined) values.mergeMethod = input.merge_method;
  if (input.remove_source_branch_after_merge !== undefined) values.removeSourceBranchAfterMerge = input.remove_source_branch_after_merge;
  if (input.only_allow_merge_if_all_discussions_are_resolved !== undefined) values.onlyAllowMergeIfAllDiscussionsAreResolved = input.only_allow_merge_if_all_discussions_are_resolved;
  if (input.only_allow_merge_if_pipeline_succeeds !== undefined) values.onlyAllowMergeIfPipelineSucceeds = input.only_allow_merge_if_pipeline_succeeds;
  if (input.visibility !== undefined) {
    values.visibilityLevel = Visibility[input.visibility];
    checkVisibility(values.visibilityLevel, view.namespace);
  }
  assertAvatar(input.avatar);
  // Nested attributes: the policy is validated with the project (nothing is written when either is invalid) and
  // saved in the same transaction.
  const attrs = input.container_expiration_policy_attributes;
  const policy = attrs
    ? preparePolicy(
        view,
        { enabled: attrs.enabled, cadence: attrs.cadence, olderThan: attrs.older_than, keepN: attrs.keep_n, nameRegex: attrs.name_regex, nameRegexKeep: attrs.name_regex_keep },
        'container_expiration_policy.',
      )
    : undefined;
  // EE's compliance framework: set by owners and administrators where licensed; for anyone else (or unlicensed) the
  // parameter is dropped without a word, as Projects::UpdateService does.
  const framework = input.compliance_framework_setting?.framework;
  const setFramework =
    framework !== undefined && complianceFrameworkAvailable(ctx.config.instanceTier) && can(ctx.actor, 'project:admin_compliance_framework', projectFacts(view));
  const renamed = input.path !== undefined && input.path.toLowerCase() !== view.project.path.toLowerCase();
  if (input.path !== undefined) {
    values.path = input.path;
    values.pathWithNamespace = `${view.namespace.fullPath}/${input.path}`;
  }
  try {
    if (renamed || input.avatar || policy || setFramework) {
      await ctx.transaction(async (tx) => {
        if (renamed) {
          // The namespace as it is now, held against a delete that would move its paths (and leave ours behind).
          const namespacePath = await lockLiveNamespace(tx, view.namespace.id);
          if (namespacePath === undefined) throw notFound('Project');
          values.pathWithNamespace = `${namespacePath}/${input.path}`;
          await lockFullPath(tx, values.pathWithNamespace);
          if (await fullPathTaken(tx, values.pathWithNamespace!, { projectId: view.project.id })) throw pathTaken();
        }
        await q.updateProject(tx, view.project.id, values);
        if (input.avatar) await storeAvatar(tx, { kind: 'project', id: view.project.id }, input.avatar);
        if (policy) await storePolicy(tx, view.project.id, policy);
        if (setFramework) await setComplianceFramework(tx, view.project.id, framework || null);
      });
    } else await q.updateProject(ctx.db, view.project.id, values);
  } catch (error) {
    rethrowTaken(error);
  }
  // The repository's HEAD (what the entity's default_branch shows) moves to the branch checked above.
  if (movesHead) await setDefaultBranchQuery(ctx.db, view.project.id, input.default_branch!);
  return reload(ctx, view.project.id);
}

/** 202: the project disappears from reads now; its project_destroy job (enqueued in the same batch) purges its rows. */
export async function deleteProject({ ctx, input }: Verb<{ ref: Ref | null }>) {
  requireUser(ctx);
  const view = await findProject(ctx, input.ref);
  assertCan(ctx.actor, 'project:delete', projectFacts(view));
  const id = view.project.id;
  await ctx.batch((db) => [
    q.markProjectDeleted(db, id),
    projectJobStatement(db, ctx, 'project_destroy', { fullPath: view.project.pathWithNamespace }, { project_id: id }),
  ]);
}

/** Star/unstar: `changed` false means nothing happened (304). */
export async function setStar({ ctx, input }: Verb<{ ref: Ref | null; starred: boolean }>) {
  const user = requireUser(ctx);
  const view = await findProject(ctx, input.ref);
  assertCan(ctx.actor, 'project:star', projectFacts(view));
  const changed = await ctx.transaction((tx) => (input.starred ? q.addStar(tx, user.id, view.project.id) : q.removeStar(tx, user.id, view.project.id)));
  if (!changed) throw notModified();
  return reload(ctx, view.project.id);
}

export async function listStarrers({ ctx, input }: Verb<{ ref: Ref | null; search?: string | undefined }>) {
  const view = await findProject(ctx, input.ref);
  return {
    fetch: (limit: number, offset: number) => q.listStarrers(ctx.db, ctx.actor, view.project.id, input.search, limit, offset),
    count: (limit: number) => q.countStarrers(ctx.db, ctx.actor, view.project.id, input.search, limit),
  };
}

/**
 * POST /projects/:id/fork: the source (one read), the target namespace (one read), then the whole write as one batch
 * of two statements (db/queries/repositories/forks.ts: locks, then every row the fork needs, its repository's refs
 * included, in one data-modifying statement) and the fork as GET answers it: a constant number of queries whatever
 * the repository's size.
 */
export async function forkProject({ ctx, input }: Verb<{ ref: Ref | null } & Output<typeof ForkProjectInput>>) {
  const user = requireUser(ctx);
  const source = await findProject(ctx, input.ref);
  assertCan(ctx.actor, 'project:fork', projectFacts(source));
  // The first of namespace_id, namespace, namespace_path that was given (a given but unusable one is not skipped).
  const nsRef = input.namespace_id !== undefined ? input.namespace_id : input.namespace !== undefined ? input.namespace : input.namespace_path !== undefined ? parseRef(input.namespace_path) : undefined;
  const target = await targetNamespace(ctx, nsRef, targetNamespaceNotFound);
  const ns = target.namespace;
  // A fork is never more visible than its source, nor than its group.
  const wanted = Math.min(input.visibility ? Visibility[input.visibility] : source.project.visibilityLevel, source.project.visibilityLevel);
  const visibility = Math.min(wanted, ns.kind === 'group' ? ns.visibilityLevel : Visibility.public);
  try {
    const [, inserted] = await ctx.batch((db) =>
      forkProjectQueries(db, {
        sourceId: source.project.id,
        namespaceId: ns.id,
        personal: ns.kind === 'user',
        ownerId: user.id,
        creatorId: user.id,
        name: input.name ?? source.project.name,
        path: input.path ?? source.project.path,
        description: input.description ?? source.project.description,
        visibilityLevel: visibility,
        defaultBranch: source.project.defaultBranch ?? null,
        createdAction: EVENT_ACTIONS.created,
      }),
    );
    const [row] = resultRows<{ id: number }>(inserted);
    // Nothing written: the namespace went away (its lock found no live row) or the path is taken (the same answers
    // as a create's transaction gives).
    if (!row) throw (await namespaceIsLive(ctx.db, ns.id)) ? pathTaken() : namespaceNotValid();
    return await reload(ctx, Number(row.id));
  } catch (error) {
    // GitLab answers fork failures with 409 and the model errors.
    try {
      rethrowTaken(error);
    } catch (mapped) {
      if (isDomainError(mapped, 'invalid') && mapped.problem.kind === 'model') throw conflict(mapped.problem.fields);
      throw mapped;
    }
  }
}

/** Rows of a batch's `execute` result, whichever driver ran it (as db/queries/raw.ts's `rows`). */
const resultRows = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

export async function listForks({ ctx, input }: Verb<{ ref: Ref | null } & Output<typeof ListProjectsInput>>) {
  const view = await findProject(ctx, input.ref);
  return listProjects({ ctx, input, scope: { forkedFromId: view.project.id } });
}
