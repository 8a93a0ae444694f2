// GraphQL over the merge requests domain (13.6 shapes): Project.mergeRequest(s), Group.mergeRequests,
// User.authored/assignedMergeRequests, the MergeRequest type and Note.position (the mutations are in mutations.ts).
// Lists go through THE list filter (filter.ts, REST's parameter names) in batched read verbs (reads.ts), so a
// connection under a list of parents costs one statement; a page's associations come from per-request DataLoaders.
import { GraphQLError } from 'graphql';
import type { UserRow } from '../../db/schema/index.ts';
import { arrayConnection, keysetConnection, type ConnectionArgs } from '../graphql/connection.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { orNull } from '../graphql/errors.ts';
import type { MergeRequestSort, MergeRequestState, Resolvers } from '../graphql/generated.ts';
import { toGlobalId, iidOf } from '../graphql/ids.ts';
import type { MilestoneModel } from '../milestones/models.ts';
import type { TodoModel } from '../todos/models.ts';
import type { MergeRequestConnectionModel, MergeRequestModel } from './models.ts';
import { taskStatus } from '../issuables/schemas.ts';
import { iso, renderPlainLine, renderPlainText } from '../lib/format.ts';
import { can } from '../lib/policy.ts';
import { discussionsOf, notesOf } from '../notes/resolvers.ts';
import { latestPipeline, pipelineConnection } from '../pipelines/resolvers.ts';
import { mergeRequestNoteable } from '../notes/service.ts';
import { findProject } from '../projects/service.ts';
import { authorOrGhost } from '../users/ghost.ts';
import type { MergeRequestFinderParams } from './filter.ts';
import { isDraft as isDraftTitle, type MergeRequestPageArgs, type MergeRequestParentKind } from './reads.ts';
import { defaultMergeCommitMessage, mergeMessageInput } from './merge-messages.ts';
import { graphqlDiffPosition, type StoredPosition } from './positions.ts';
import { diffHeadSha, mrReference, mrWebUrl } from './schemas.ts';
import { blockingDiscussionsResolved, mergeable, mergeStatusOf, shouldBeRebased } from './mergeability.ts';
import { mergeRequestFacts } from './service.ts';

interface MergeRequestArgs extends ConnectionArgs {
  iids?: readonly string[] | null;
  sourceBranches?: readonly string[] | null;
  targetBranches?: readonly string[] | null;
  state?: MergeRequestState | null;
  labels?: readonly string[] | null;
  mergedAfter?: string | null;
  mergedBefore?: string | null;
  milestoneTitle?: string | null;
  sort?: MergeRequestSort | null;
  assigneeUsername?: string | null;
  authorUsername?: string | null;
}

/** The resolver's arguments as the REST list's parameters (MergeRequestsFinder's params; filter.ts builds the filter). */
function finderParams(args: MergeRequestArgs): MergeRequestFinderParams {
  const p: MergeRequestFinderParams = {};
  // An iid that is no number matches nothing.
  if (args.iids != null) p.iids = args.iids.flatMap((s) => iidOf(s) ?? []);
  if (args.sourceBranches != null) p.source_branches = [...args.sourceBranches];
  if (args.targetBranches != null) p.target_branches = [...args.targetBranches];
  if (args.state != null) p.state = args.state;
  if (args.labels?.length) p.labels = [...args.labels];
  if (args.milestoneTitle != null) p.milestone = args.milestoneTitle;
  if (args.assigneeUsername != null) p.assignee_username = args.assigneeUsername;
  if (args.authorUsername != null) p.author_username = args.authorUsername;
  if (args.mergedAfter != null) p.merged_after = new Date(args.mergedAfter);
  if (args.mergedBefore != null) p.merged_before = new Date(args.mergedBefore);
  return p;
}

/**
 * The keyset order of a sort: created_* by id (the creation order), updated_* by (updated_at, id). GitLab's other
 * sorts (label or milestone priority, merged_at) fall back to the creation order in their direction.
 */
function sortOrder(sort: MergeRequestSort | null | undefined): { by: MergeRequestPageArgs['by']; order: 'asc' | 'desc' } {
  const s = (sort ?? 'created_desc').toLowerCase();
  return { by: s.startsWith('updated') ? 'updated_at' : 'id', order: s.endsWith('asc') ? 'asc' : 'desc' };
}

/**
 * A MergeRequestConnection under a parent: one keyset page (through the per-request loader: one statement for every
 * parent of one kind asked with the same arguments) and count / totalTimeToMerge on demand (one grouped statement).
 * `projectOf` gives each MR's target project (the parent itself under a project).
 */
async function mergeRequestConnection(
  { loaders }: GraphQLContext,
  kind: MergeRequestParentKind,
  parent: number,
  args: MergeRequestArgs,
  options: { projectId?: number | undefined; project?: MergeRequestModel['project'] } = {},
): Promise<MergeRequestConnectionModel> {
  const { by, order } = sortOrder(args.sort);
  const base = { params: finderParams(args), projectId: options.projectId };
  const connection = await keysetConnection<MergeRequestModel>(
    args,
    order,
    (m) => m.view.mr.id,
    async (page) => {
      const views = await loaders.mergeRequestPages.load({ parent, args: { kind, args: { ...base, by }, page } });
      if (options.project) return views.map((view) => ({ project: options.project!, view }));
      const projects = await loaders.projectView.loadMany(views.map((v) => v.mr.targetProjectId));
      return views.flatMap((view, i) => {
        const project = projects[i];
        return project && !(project instanceof Error) ? [{ project, view }] : [];
      });
    },
  );
  const totals = () => loaders.mergeRequestCounts.load({ parent, args: { kind, args: base } });
  return { ...connection, count: async () => (await totals()).count, totalTimeToMerge: async () => (await totals()).totalTimeToMerge };
}

const milestoneOf = (m: MergeRequestModel): MilestoneModel | null => {
  const milestone = m.view.milestone;
  if (!milestone) return null;
  return milestone.groupId !== null
    ? { milestone, projectPath: null, groupPath: m.view.milestoneGroupPath }
    : { milestone, projectPath: m.view.projectPath, groupPath: null };
};

/** Loaded users by id, in order, dropping those gone. */
/** Where an MR's pipelines are listed: its source project (as the actor sees it), source branch and head commit. */
async function sourcePipelineParent(m: MergeRequestModel, { loaders }: GraphQLContext) {
  const sha = diffHeadSha(m.view) ?? m.view.sourceHead;
  const project = m.view.mr.sourceProjectId && sha ? await loaders.projectView.load(m.view.mr.sourceProjectId) : null;
  return project && sha ? { project, sha, ref: m.view.mr.sourceBranch } : null;
}

async function usersOf({ loaders }: GraphQLContext, ids: readonly number[]): Promise<UserRow[]> {
  const users = await loaders.user.loadMany(ids);
  return users.filter((u): u is UserRow => u != null && !(u instanceof Error));
}

export const mergeRequestResolvers: Resolvers = {
  Project: {
    mergeRequest: async (project, { iid }, context) => {
      const connection = await mergeRequestConnection(context, 'project', project.project.id, { iids: [iid], first: 1 }, { project });
      return connection.nodes[0] ?? null;
    },
    mergeRequests: (project, args, context) => mergeRequestConnection(context, 'project', project.project.id, args, { project }),
  },
  Group: {
    mergeRequests: (group, args, context) => mergeRequestConnection(context, args.includeSubgroups ? 'namespaceTree' : 'namespace', group.namespace.id, args),
  },
  User: {
    authoredMergeRequests: async (user, args, context) => userMergeRequests(context, 'author', user, args),
    assignedMergeRequests: async (user, args, context) => userMergeRequests(context, 'assignee', user, args),
  },
  MergeRequestConnection: {
    count: (c) => c.count(),
    totalTimeToMerge: (c) => c.totalTimeToMerge(),
  },
  MergeRequest: {
    id: (m) => toGlobalId('MergeRequest', m.view.mr.id),
    iid: (m) => String(m.view.mr.iid),
    title: (m) => m.view.mr.title,
    titleHtml: (m) => renderPlainLine(m.view.mr.title),
    description: (m) => m.view.mr.description,
    descriptionHtml: (m) => renderPlainText(m.view.mr.description),
    state: (m) => m.view.mr.state,
    createdAt: (m) => iso(m.view.mr.createdAt),
    updatedAt: (m) => iso(m.view.mr.updatedAt),
    mergedAt: (m) => iso(m.view.mr.mergedAt),
    project: (m) => m.project,
    projectId: (m) => m.view.mr.targetProjectId,
    targetProject: (m) => m.project,
    targetProjectId: (m) => m.view.mr.targetProjectId,
    sourceProjectId: (m) => m.view.mr.sourceProjectId,
    sourceProject: (m, _a, { loaders }) => {
      const id = m.view.mr.sourceProjectId;
      if (id === null) return null;
      return id === m.project.project.id ? m.project : loaders.projectView.load(id);
    },
    sourceBranch: (m) => m.view.mr.sourceBranch,
    targetBranch: (m) => m.view.mr.targetBranch,
    sourceBranchExists: (m) => m.view.sourceHead !== null,
    targetBranchExists: (m) => m.view.targetTip !== null,
    sourceBranchProtected: async (m, _a, { loaders }) => (await loaders.mergeRequestRepositoryFacts.load(m)).sourceBranchProtected,
    workInProgress: (m) => isDraftTitle(m.view.mr.title),
    draft: (m) => isDraftTitle(m.view.mr.title),
    discussionLocked: (m) => m.view.mr.discussionLocked === true,
    // Merge options: the author's wish to remove the source branch; should_remove_source_branch is the merge's own
    // setting (merge_params), unset until merged with it.
    forceRemoveSourceBranch: (m) => m.view.mr.forceRemoveSourceBranch,
    shouldRemoveSourceBranch: () => null,
    squashOnMerge: (m) => m.view.mr.squash,
    // MergeRequest#allow_collaboration: only a fork's MR can let the target's members push to its source branch.
    allowCollaboration: (m) => m.view.mr.sourceProjectId !== null && m.view.mr.sourceProjectId !== m.view.mr.targetProjectId && m.view.mr.allowCollaboration,
    mergeWhenPipelineSucceeds: (m) => m.view.mr.mergeWhenPipelineSucceeds,
    autoMergeEnabled: (m) => m.view.mr.mergeWhenPipelineSucceeds,
    mergeCommitSha: (m) => m.view.mr.mergeCommitSha,
    mergeError: (m) => m.view.mr.mergeError,
    // Merges and rebases run within the request here: none is ever in progress when a query reads the MR.
    mergeOngoing: () => false,
    inProgressMergeCommitSha: () => null,
    rebaseInProgress: () => false,
    rebaseCommitSha: () => null,
    shouldBeRebased: (m) => shouldBeRebased(m.view),
    mergeStatus: (m) => mergeStatusOf(m.view),
    conflicts: (m) => mergeStatusOf(m.view) === 'cannot_be_merged',
    mergeableDiscussionsState: (m) => blockingDiscussionsResolved(m.view),
    mergeable: (m) => mergeable(m.view),
    // MergeRequest#default_merge_commit_message: the cached closing issues (what the last refresh recorded), as the
    // actor may read them; one statement for every MR of the response.
    defaultMergeCommitMessage: async (m, _a, { loaders }) =>
      defaultMergeCommitMessage(mergeMessageInput(m.view, await loaders.mergeRequestClosingIssues.load(m.view.mr.id))),
    diffHeadSha: (m) => diffHeadSha(m.view),
    diffRefs: (m) => {
      const d = m.view.latestDiff;
      return d ? { baseSha: d.baseCommitSha ?? d.startCommitSha, headSha: d.headCommitSha, startSha: d.startCommitSha } : null;
    },
    commitCount: (m) => m.view.latestDiff?.commitsCount ?? 0,
    diffStats: async (m, { path }, { loaders }) => {
      const stats = (await loaders.mergeRequestDiffStats.load(m.view)) ?? [];
      return path ? stats.filter((s) => s.path === path) : stats;
    },
    diffStatsSummary: async (m, _a, { loaders }) => {
      const stats = await loaders.mergeRequestDiffStats.load(m.view);
      if (!stats) return null;
      const additions = stats.reduce((n, s) => n + s.additions, 0);
      const deletions = stats.reduce((n, s) => n + s.deletions, 0);
      return { additions, deletions, changes: additions + deletions, fileCount: stats.length };
    },
    // The pipelines of the source branch's head commit in the source project; the head pipeline is the newest.
    headPipeline: async (m, _a, context) => latestPipeline(context, 'source', await sourcePipelineParent(m, context)),
    pipelines: async (m, args, context) => pipelineConnection(context, 'source', await sourcePipelineParent(m, context), args),
    // Approvals on the free tier: no approval rules, so nothing is required or left and the MR counts as approved
    // (ApprovalState with the feature unavailable); nobody has approved.
    approved: () => true,
    approvalsLeft: () => 0,
    approvalsRequired: () => 0,
    approvedBy: (_m, args) => arrayConnection<UserRow>([], args, (u) => u.id),
    author: (m, _a, { loaders }) => authorOrGhost(m.view.author ?? (m.view.mr.authorId ? loaders.user.load(m.view.mr.authorId) : null)),
    assignees: async (m, args, context) =>
      arrayConnection(
        await usersOf(
          context,
          m.view.assignees.map((a) => a.id),
        ),
        args,
        (u) => u.id,
      ),
    reviewers: async (m, args, context) =>
      arrayConnection(
        await usersOf(
          context,
          m.view.reviewers.map((a) => a.id),
        ),
        args,
        (u) => u.id,
      ),
    participants: async (m, args, { loaders }) => arrayConnection(await loaders.mergeRequestParticipants.load(m), args, (u) => u.id),
    labels: async (m, args, { loaders }) => {
      const rows = await loaders.mergeRequestLabels.load(m.view.mr.id);
      return { ...arrayConnection(rows, args, (l) => l.id), count: () => rows.length };
    },
    milestone: (m) => milestoneOf(m),
    notes: (m, args, context) => notesOf(context, mergeRequestNoteable(m.project, m.view), args),
    discussions: (m, args, context) => discussionsOf(context, mergeRequestNoteable(m.project, m.view), args),
    // The distinct discussions of the user (non-system) notes the actor may read (the notes the connection lists).
    userDiscussionsCount: async (m, _a, { loaders }) => {
      const notes = await loaders.notes.load(mergeRequestNoteable(m.project, m.view));
      return new Set(notes.filter((n) => !n.note.system).map((n) => n.note.discussionId)).size;
    },
    userNotesCount: (m) => m.view.userNotesCount,
    awardEmoji: async (m, args, { loaders }) => arrayConnection(await loaders.awards.load({ type: 'MergeRequest', id: m.view.mr.id }), args, (a) => a.award.id),
    upvotes: (m) => m.view.upvotes,
    downvotes: (m) => m.view.downvotes,
    subscribed: (m) => m.view.subscribed === true,
    currentUserTodos: async (m, args, { ctx, loaders }) => {
      // Anonymous callers get an empty connection, not null (Types::CurrentUserTodos).
      const rows = ctx.actor.user ? await loaders.currentUserMergeRequestTodos.load(m.view.mr.id) : [];
      const todos: TodoModel[] = rows
        .filter((r) => args.state == null || r.todo.state === args.state)
        .map((r) => ({ todo: r.todo, body: r.body, project: m.project }));
      return arrayConnection(todos, args, (t) => t.todo.id);
    },
    webUrl: (m, _a, { ctx }) => mrWebUrl(m.view, ctx.config),
    reference: (m, { full }) => mrReference(m.view, full === true),
    taskCompletionStatus: (m) => {
      const t = taskStatus(m.view.mr.description);
      return { count: t.count, completedCount: t.completed_count };
    },
    timeEstimate: (m) => m.view.mr.timeEstimate,
    totalTimeSpent: (m) => m.view.mr.totalTimeSpent,
    userPermissions: async (m, _a, { ctx, loaders }) => {
      const facts = mergeRequestFacts(m.project, m.view);
      const repo = await loaders.mergeRequestRepositoryFacts.load(m);
      // MergeRequestPresenter: cherry-pick and revert a merged MR's merge commit, for who may push to the project.
      const merged = m.view.mr.state === 'merged' && m.view.mr.mergeCommitSha !== null;
      return {
        adminMergeRequest: can(ctx.actor, 'merge_request:admin', facts),
        canMerge: repo.canMerge,
        cherryPickOnCurrentMergeRequest: repo.collaborate && merged,
        createNote: can(ctx.actor, 'noteable:create_note', facts),
        pushToSourceBranch: repo.pushToSourceBranch,
        readMergeRequest: can(ctx.actor, 'merge_request:read', facts),
        removeSourceBranch: repo.removeSourceBranch,
        revertOnCurrentMergeRequest: repo.collaborate && merged,
        updateMergeRequest: can(ctx.actor, 'merge_request:update', facts),
      };
    },
  },
  Note: {
    // A DiffNote's stored position (positions.ts owns the shape); other notes have none.
    position: (n) => {
      if (!n.view.note.position) return null;
      // A stored position was complete when saved (DiffNote's validation): its head and start SHAs and path are set.
      const p = graphqlDiffPosition(n.view.note.position as unknown as StoredPosition);
      return { ...p, filePath: p.filePath ?? '', diffRefs: { ...p.diffRefs, headSha: p.diffRefs.headSha ?? '', startSha: p.diffRefs.startSha ?? '' } };
    },
  },
};

/**
 * User.authoredMergeRequests / assignedMergeRequests: the user's MRs the actor may read, optionally in one project
 * (projectPath or projectId, not both; one the actor cannot read gives none).
 */
async function userMergeRequests(
  context: GraphQLContext,
  kind: 'author' | 'assignee',
  user: UserRow,
  args: MergeRequestArgs & { projectPath?: string | null; projectId?: number | null },
): Promise<MergeRequestConnectionModel> {
  if (args.projectPath != null && args.projectId != null) throw new GraphQLError('Only one of [projectPath, projectId] arguments is allowed at the same time.');
  let projectId: number | undefined;
  if (args.projectPath != null || args.projectId != null) {
    const project = await orNull(() => findProject(context.ctx, args.projectPath != null ? { path: args.projectPath } : { id: args.projectId! }));
    // A project the actor cannot read (or none) matches no MR.
    projectId = project ? project.project.id : 0;
  }
  return mergeRequestConnection(context, kind, user.id, args, { projectId });
}
