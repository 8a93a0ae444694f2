// Project verbs, shared by REST and (later) GraphQL: the one lookup under the policy (findProject, projectFacts),
// listings, delete and stars. Creating is in create.ts, updating in update.ts, forking in fork.ts; where a new or
// renamed project may go (namespace, path, visibility) in placement.ts.
import * as q from '../../db/queries/projects.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { notFound, notModified } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { keysetUnsupported } from '../lib/pagination.ts';
import type { Output } from '../lib/validate.ts';
import { assertCan, can, featureAvailable, isAdministrator, projectFeatures, Visibility, type ProjectFacts, type ProjectFeature } from '../lib/policy.ts';
import { FEATURE_COLUMNS, FEATURE_LEVEL, type Feature } from './settings.ts';
import type { ListProjectsInput, ProjectExtras } from './schemas.ts';
import { projectJobStatement } from '../background-jobs/enqueue.ts';
import { projectRunnersToken } from '../runners/registration-token.ts';
import { findUser } from '../users/service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export const projectFacts = (v: q.ProjectView): ProjectFacts => ({
  kind: 'project',
  visibilityLevel: v.project.visibilityLevel,
  accessLevel: v.accessLevel,
  archived: v.project.archived,
  features: projectFeatures(v.project),
});

/**
 * What the project entity shows only to some: the runner registration token and the CI settings to those who
 * administer the project (GitLab's user_can_admin_project), the storage to administrators.
 */
export async function entityExtrasFor(ctx: RequestContext, view: q.ProjectView): Promise<ProjectExtras> {
  const canAdmin = can(ctx.actor, 'project:update', projectFacts(view));
  const runnersToken = canAdmin ? await projectRunnersToken(ctx.config.encryptionKey, view.project.id, view.project.runnersTokenVersion) : null;
  return { runnersToken, canAdmin, isAdmin: isAdministrator(ctx.actor), featureOpen: featureOpenTo(ctx, view) };
}

const POLICY_FEATURE: Record<Feature, ProjectFeature | null> = {
  issues: 'issues',
  repository: 'repository',
  merge_requests: 'mergeRequests',
  forking: 'forking',
  builds: 'builds',
  snippets: 'snippets',
  // No wiki nor pages here yet: their levels alone say whether they are on.
  wiki: null,
  pages: null,
};

/** The entity's `*_enabled`: whether each feature is open to the caller (Project#feature_available?). */
export const featureOpenTo = (ctx: RequestContext, view: q.ProjectView) => (f: Feature) => {
  const feature = POLICY_FEATURE[f];
  return feature ? featureAvailable(ctx.actor, projectFacts(view), feature) : view.project[FEATURE_COLUMNS[f]] >= FEATURE_LEVEL.enabled;
};

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

/** The project re-read after a write (create, update, fork, star), as GET answers it. */
export async function reload(ctx: RequestContext, id: number) {
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

/**
 * POST /projects/:id/archive and /unarchive (Projects::UpdateService with `archived`): an archived project is read
 * only (lib/policy.ts refuses its writes: pushes, issues, merge requests, pipelines...). Idempotent.
 */
export async function setArchived({ ctx, input }: Verb<{ ref: Ref | null; archived: boolean }>) {
  requireUser(ctx);
  const view = await findProject(ctx, input.ref);
  assertCan(ctx.actor, 'project:archive', projectFacts(view));
  if (view.project.archived !== input.archived) await q.updateProject(ctx.db, view.project.id, { archived: input.archived });
  return reload(ctx, view.project.id);
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
 * GET /users/:user_id/projects (the user's personal projects) and /starred_projects (StarredProjectsFinder: none
 * when the user's profile is private to the reader), filtered as GET /projects is.
 */
export async function listUserProjects({ ctx, input }: Verb<Output<typeof ListProjectsInput> & { user: Ref | null }>, which: 'personal' | 'starred') {
  const user = await findUser(ctx, input.user);
  if (which === 'starred' && !can(ctx.actor, 'user:read_profile', { kind: 'user', id: user.id, state: user.state, privateProfile: user.privateProfile })) {
    return { keyset: false, fetch: async () => [], count: async () => 0 };
  }
  return listProjects({ ctx, input, scope: which === 'personal' ? { personalOf: user.id } : { starredBy: user.id } });
}

/** GET /projects/:id/users: the project's team, to anyone who reads the project (UserBasic entities). */
export async function listProjectUsers({ ctx, input }: Verb<{ ref: Ref | null; search?: string | undefined; skip_users?: number[] | undefined }>) {
  const view = await findProject(ctx, input.ref);
  const ns = view.namespace;
  const project = { id: view.project.id, traversalIds: ns.kind === 'group' ? ns.traversalIds : [] };
  const f = { search: input.search || undefined, skip: input.skip_users };
  return {
    fetch: (limit: number, offset: number) => q.listTeamUsers(ctx.db, project, f, limit, offset),
    count: (limit: number) => q.countTeamUsers(ctx.db, project, f, limit),
  };
}

export async function listForks({ ctx, input }: Verb<{ ref: Ref | null } & Output<typeof ListProjectsInput>>) {
  const view = await findProject(ctx, input.ref);
  return listProjects({ ctx, input, scope: { forkedFromId: view.project.id } });
}
