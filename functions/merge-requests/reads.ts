// Batched merge request reads (GraphQL's connections and fields under many projects, groups, users or MRs at once):
// each verb takes many parents, applies THE list filter (filter.ts, the REST list's) and the policy, and costs one
// statement whatever the number of parents (diff statistics and repository facts: one per distinct project).
// loaders.ts wraps them in DataLoaders.
import { readableClosingIssuesOf } from '../../db/queries/merge-requests/versions.ts';
import type { MergeRequestPageOrder, MergeRequestParentKind } from '../../db/queries/merge-requests/pages.ts';
import {
  countMergeRequestsOfParents,
  findLabelsOfMergeRequests,
  findUserTodosOfMergeRequests,
  listMergeRequestViewsPages,
} from '../../db/queries/merge-requests/pages.ts';
import { findParticipants } from '../issuables/lookups.ts';
import * as q from '../../db/queries/merge-requests.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { findLabel } from '../labels/lookups.ts';
import { changedPaths, findRepositoriesOfProjects } from '../repositories/lookups.ts';
import { byParent } from '../../db/queries/lib/window.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { visibleParticipants } from '../issuables/participants.ts';
import type { RequestContext } from '../lib/context.ts';
import type { KeysetPage } from '../lib/pagination.ts';
import { can } from '../lib/policy.ts';
import { readableProjectsByIds } from '../projects/reads.ts';
import { projectFacts } from '../projects/service.ts';
import { renderDiffs } from '../repositories/diffs/diffs.ts';
import { canMergeToBranch, canPushToBranch, isProtectedBranch } from '../repositories/writes/push-access.ts';
import type { RepositoryInfo } from '../repositories/service.ts';
import { mergeRequestFilter, type MergeRequestFinderParams, type MergeRequestListKind } from './filter.ts';
import { diffHeadSha } from './schemas.ts';
import { mergeRequestFacts } from './service.ts';

/** An MR already found readable, with its target project (what the policy's facts come from). */
export interface MergeRequestWithProject {
  project: ProjectView;
  view: q.MergeRequestView;
}

export type { MergeRequestPageOrder, MergeRequestParentKind } from '../../db/queries/merge-requests/pages.ts';

/** What a page of MRs is asked with: the finder's (REST) parameters, a project to keep to, the keyset order. */
export interface MergeRequestPageArgs {
  params: MergeRequestFinderParams;
  /** User.authoredMergeRequests(projectId/projectPath): only MRs of this project. */
  projectId?: number | undefined;
  by: MergeRequestPageOrder;
}

/** Work in progress by its title (MergeRequest#work_in_progress?: the same prefixes as the list's `wip` filter). */
export const isDraft = (title: string) => q.isDraftTitle(title);
/** The title without its draft prefixes (the same rule). */
export const wiplessTitle = (title: string) => q.wiplessTitle(title);

/** The list kind whose filter a parent kind takes: a project's list, a group's, or the instance-wide one (users). */
const LIST_KIND: Record<MergeRequestParentKind, MergeRequestListKind> = {
  project: 'project',
  namespace: 'group',
  namespaceTree: 'group',
  author: 'all',
  assignee: 'all',
};

/** The filter of a page under parents of this kind; null when nothing can match. */
function pageFilter(ctx: RequestContext, kind: MergeRequestParentKind, args: Omit<MergeRequestPageArgs, 'by'>): q.MergeRequestListFilter | null {
  // GraphQL's resolvers list every MR the actor may read (scope all), archived projects' included (no non_archived).
  const where = mergeRequestFilter(ctx, LIST_KIND[kind], { ...args.params, scope: 'all', non_archived: false });
  if (!where) return null;
  return args.projectId !== undefined ? { ...where, projectId: args.projectId } : where;
}

/** A keyset page of each parent's MRs (Project/Group.mergeRequests, User.authored/assignedMergeRequests): one statement. */
export async function mergeRequestPages(
  ctx: RequestContext,
  kind: MergeRequestParentKind,
  parentIds: readonly number[],
  args: MergeRequestPageArgs,
  page: KeysetPage,
) {
  const filter = pageFilter(ctx, kind, args);
  if (!filter) return parentIds.map(() => []);
  return listMergeRequestViewsPages(ctx.db, ctx.actor, filter, kind, parentIds, args.by, page, ctx.actor.user?.id);
}

/** MergeRequestConnection's count and totalTimeToMerge of each parent: one grouped statement. */
export async function mergeRequestCounts(
  ctx: RequestContext,
  kind: MergeRequestParentKind,
  parentIds: readonly number[],
  args: Omit<MergeRequestPageArgs, 'by'>,
) {
  const filter = pageFilter(ctx, kind, args);
  if (!filter) return parentIds.map(() => ({ count: 0, totalTimeToMerge: null }));
  return countMergeRequestsOfParents(ctx.db, ctx.actor, filter, kind, parentIds);
}

/** The labels of each MR, by title. */
export async function labelsOfMergeRequests(ctx: RequestContext, ids: readonly number[]) {
  return byParent(ids, await findLabelsOfMergeRequests(ctx.db, ids), (r) => r.mergeRequestId).map((rows) => rows.map((r) => r.label));
}

/** The cached closing issues of each MR the actor may read (defaultMergeCommitMessage), as project path and iid. */
export async function closingIssuesOfMergeRequests(ctx: RequestContext, ids: readonly number[]) {
  return byParent(ids, await readableClosingIssuesOf(ctx.db, ctx.actor, ids), (r) => r.mergeRequestId).map((rows) =>
    rows.map((r) => ({ projectPath: r.projectPath, iid: r.iid })),
  );
}

/** The current user's to-dos on each MR, oldest first, with their bodies (none when anonymous). */
export async function currentUserTodosOfMergeRequests(ctx: RequestContext, ids: readonly number[]) {
  const rows = ctx.actor.user ? await findUserTodosOfMergeRequests(ctx.db, ctx.actor.user.id, ids) : [];
  return byParent(ids, rows, (r) => r.todo.targetId);
}

/** Participable for each MR: the author, the assignees and the authors of the notes the actor may read (one statement). */
export async function participantsOfMergeRequests(ctx: RequestContext, found: readonly MergeRequestWithProject[]): Promise<UserRow[][]> {
  const ids = found.map((m) => m.view.mr.id);
  const byMr = byParent(ids, await findParticipants(ctx.db, ids, 'MergeRequest'), (r) => r.issueId);
  return found.map(({ project, view }, i) => visibleParticipants(ctx, byMr[i]!, mergeRequestFacts(project, view)));
}

/** One file of an MR's diff statistics (GitLab's Gitaly DiffStats: the new path, numstat's line counts). */
export interface FileDiffStats {
  path: string;
  additions: number;
  deletions: number;
}

/**
 * MergeRequest#diff_stats of each MR: the files of its latest version's diff (merge base, or start, to head) with
 * their added and deleted lines; null without a version. The changed paths of every MR of one target project come
 * from ONE statement (changedPaths takes many pairs), so a page costs one statement per distinct project.
 */
export async function diffStatsOfMergeRequests(ctx: RequestContext, views: readonly q.MergeRequestView[]): Promise<Array<FileDiffStats[] | null>> {
  const out: Array<FileDiffStats[] | null> = views.map(() => null);
  const byProject = new Map<number, number[]>();
  views.forEach((v, i) => {
    if (!v.latestDiff) return;
    const list = byProject.get(v.mr.targetProjectId) ?? [];
    list.push(i);
    byProject.set(v.mr.targetProjectId, list);
  });
  await Promise.all(
    [...byProject].map(async ([projectId, at]) => {
      const pairs = at.map((i) => {
        const d = views[i]!.latestDiff!;
        return { oldCommit: d.baseCommitSha ?? d.startCommitSha, newCommit: d.headCommitSha };
      });
      const changed = await changedPaths(ctx.db, projectId, pairs);
      const byKey = byParent(
        at.map((_, k) => k),
        changed,
        (c) => c.key,
      );
      at.forEach((i, k) => {
        out[i] = renderDiffs(byKey[k]!).map((d) => ({ path: d.entry.new_path, additions: d.additions, deletions: d.deletions }));
      });
    }),
  );
  return out;
}

/** What the repositories say about an MR for the actor (MergeRequestPresenter's can_* and the branch facts). */
export interface MergeRequestRepositoryFacts {
  canMerge: boolean;
  pushToSourceBranch: boolean;
  removeSourceBranch: boolean;
  sourceBranchProtected: boolean;
  /** user_can_collaborate_with_project?: push_code on the target project. */
  collaborate: boolean;
}

/**
 * The repository facts of each MR: the target and source repositories (branch protections, default branch) of every
 * MR in one statement, the source projects that are forks in one more.
 */
export async function repositoryFactsOfMergeRequests(ctx: RequestContext, found: readonly MergeRequestWithProject[]): Promise<MergeRequestRepositoryFacts[]> {
  const projectIds = [
    ...new Set(found.flatMap((m) => [m.view.mr.targetProjectId, ...(m.view.mr.sourceProjectId !== null ? [m.view.mr.sourceProjectId] : [])])),
  ];
  const forkIds = [
    ...new Set(
      found.flatMap((m) => (m.view.mr.sourceProjectId !== null && m.view.mr.sourceProjectId !== m.view.mr.targetProjectId ? [m.view.mr.sourceProjectId] : [])),
    ),
  ];
  const [repositories, forks] = await Promise.all([
    findRepositoriesOfProjects(ctx.db, projectIds),
    forkIds.length ? readableProjectsByIds(ctx, forkIds) : Promise.resolve([]),
  ]);
  const repository = new Map<number, RepositoryInfo>(repositories.map((r) => [r.projectId, r]));
  const fork = new Map(forkIds.map((id, i) => [id, forks[i] ?? null]));
  return found.map(({ project, view }) => {
    const m = view.mr;
    const target = repository.get(m.targetProjectId) ?? null;
    const sourceProject = m.sourceProjectId === null ? null : m.sourceProjectId === m.targetProjectId ? project : (fork.get(m.sourceProjectId) ?? null);
    const source = m.sourceProjectId === null ? null : (repository.get(m.sourceProjectId) ?? null);
    const sourceExists = view.sourceHead !== null && sourceProject !== null && source !== null;
    const sourceFacts = sourceProject ? projectFacts(sourceProject) : null;
    const signedIn = ctx.actor.user !== null;
    return {
      // MergeRequest#can_be_merged_by?: may update the target branch (push, or merge under its protection).
      canMerge: signedIn && target !== null && canMergeToBranch(ctx, projectFacts(project), target, m.targetBranch),
      // MergeRequestPresenter#can_push_to_source_branch?: the branch exists and the user may push to it.
      pushToSourceBranch: sourceExists && canPushToBranch(ctx, sourceFacts!, source!, m.sourceBranch),
      // MergeRequest#can_remove_source_branch?: not protected, not the default branch, push_code, and the branch
      // still at the MR's diff head.
      removeSourceBranch:
        sourceExists &&
        !isProtectedBranch(source!, m.sourceBranch) &&
        source!.defaultBranch !== m.sourceBranch &&
        can(ctx.actor, 'project:push_code', sourceFacts!) &&
        diffHeadSha(view) === view.sourceHead,
      // source_branch_exists? && ProtectedBranch.protected?(source_project, source_branch)
      sourceBranchProtected: sourceExists && isProtectedBranch(source!, m.sourceBranch),
      collaborate: can(ctx.actor, 'project:push_code', projectFacts(project)),
    };
  });
}

/**
 * The titles of the labels with these ids that the project's MRs may carry (its own and its ancestor groups'), in
 * the order given; others are dropped, as UpdateService's label_ids filter drops them. One statement per id.
 */
export async function labelTitlesByIds(ctx: RequestContext, project: ProjectView, ids: readonly number[]): Promise<string[]> {
  const groupIds = project.namespace.kind === 'group' ? project.namespace.traversalIds : [];
  const scope = { kind: 'project' as const, projectId: project.project.id, groupIds };
  const found = await Promise.all([...new Set(ids)].map((id) => findLabel(ctx.db, scope, String(id))));
  return found.flatMap((l) => (l ? [l.title] : []));
}
