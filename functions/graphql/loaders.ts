// Per-request DataLoaders (created with the GraphQL context, never shared between requests): each batches the keys
// one tick of resolvers asks for into one call of a domain's batched read verb (functions/<domain>/reads.ts), which
// applies the same filters and policy as the REST listing. Nothing here reads the database itself.
import DataLoader from 'dataloader';
import { awardableKey, awardsOf, type AwardableKey } from '../award-emoji/reads.ts';
import type { BoardModel } from '../boards/models.ts';
import { boardMilestones, collapsedOfLists, issuesOfLists, issueViewsByIds, listsOfBoards, type ListIssuesKey } from '../boards/reads.ts';
import { namespaceFullNames, readableGroupsByIds } from '../groups/reads.ts';
import type { IssueFinderParams } from '../issues/filter.ts';
import { currentUserTodosOfIssues, issueCounts, issuePages, labelsOfIssues, participantsOfIssues, userDiscussionCounts, type IssueWithProject } from '../issues/reads.ts';
import {
  closingIssuesOfMergeRequests,
  currentUserTodosOfMergeRequests,
  diffStatsOfMergeRequests,
  labelsOfMergeRequests,
  mergeRequestCounts,
  mergeRequestPages,
  participantsOfMergeRequests,
  repositoryFactsOfMergeRequests,
  type MergeRequestPageArgs,
  type MergeRequestParentKind,
  type MergeRequestWithProject,
} from '../merge-requests/reads.ts';
import type { MergeRequestView } from '../../db/queries/merge-requests.ts';
import { projectLabelCounts, projectLabelPages, projectLabelsByTitles } from '../labels/reads.ts';
import type { RequestContext } from '../lib/context.ts';
import type { KeysetPage } from '../lib/pagination.ts';
import { memberPages, type MemberPageParams, type MemberParent } from '../members/reads.ts';
import { projectMilestonePages } from '../milestones/reads.ts';
import { noteableKey, readableNotesOf } from '../notes/reads.ts';
import type { Noteable } from '../notes/service.ts';
import { namespaceProjectPages, openIssuesCounts, readableProjectsByIds } from '../projects/reads.ts';
import { commitAuthorsByEmail, gitmodulesOf, lastCommitsOf, lfsOidsOf, repositoriesOf, treesOf, type TreeKey } from '../repositories/reads.ts';
import { filesOfSnippets, snippetPagesOf, type SnippetFinderParams } from '../snippets/reads.ts';
import { usersByIds } from '../users/reads.ts';
import { iterationsOf } from '../iterations/reads.ts';
import { testReportsOf } from '../requirements/reads.ts';
import { agentsOfProjects, tokensOfAgents } from '../cluster-agents/reads.ts';
import { scannerProfilesOfProjects, siteProfilesOfProjects } from '../dast/reads.ts';
import { integrationsOfProjects } from '../alert-integrations/reads.ts';
import { childrenOfEpics, epicsByIds, issueModelsOfEpics, participantsOfEpics, relationCounts, subscribedOf } from '../epics/reads.ts';
import { descendantAggregatesOf } from '../epics/epic-links.ts';
import type { EpicFilter, EpicOrder } from '../../db/queries/epics.ts';
import type { EpicModel } from '../epics/models.ts';
import { currentUserTodosOfEpics } from '../todos/reads.ts';
import { boardEpicPreferences, epicsOfBoard } from '../epics/boards.ts';
import { assigneesOfAlerts, currentUserTodosOfAlerts } from '../alerts/reads.ts';
import { annotationsOf, environmentsOfProjects, type AnnotationWindow } from '../environments/reads.ts';
import type { EnvironmentArgs } from '../environments/service.ts';
import { artifactsOfJobs, jobsOfPipelines, pipelineCountsOf, pipelinePagesOf, pipelinesByIids, type PipelineListFilter, type PipelineListParent, type PipelineParentKind } from '../pipelines/reads.ts';
import type { ProjectModel } from '../projects/models.ts';

/** JSON with object keys sorted (undefined members dropped): equal arguments, equal strings. */
export const stableKey = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]])) : v,
  );

/**
 * A loader of one answer per (parent, arguments): the keys of one tick that share their arguments (stableKey) are
 * answered by one `fetch` over all their parents (which returns one answer per parent, in order). A connection
 * nested under a list of N parents costs one query per distinct set of arguments, not N.
 */
export const perParent = <P, A, T>(fetch: (parents: P[], args: A) => Promise<T[]>) =>
  new DataLoader<{ parent: P; args: A }, T, string>(
    async (keys) => {
      const batches = new Map<string, { args: A; at: number[] }>();
      keys.forEach((k, i) => {
        const s = stableKey(k.args);
        const batch = batches.get(s);
        if (batch) batch.at.push(i);
        else batches.set(s, { args: k.args, at: [i] });
      });
      // All batches answer together (one tick), so what the answers' resolvers load next batches together too.
      const out = new Array<T>(keys.length);
      await Promise.all(
        [...batches.values()].map(async (batch) => {
          const answers = await fetch(batch.at.map((i) => keys[i]!.parent), batch.args);
          batch.at.forEach((i, j) => (out[i] = answers[j]!));
        }),
      );
      return out;
    },
    { cacheKeyFn: stableKey },
  );

/** A loader over a verb that answers one value per key, in the order asked; `cacheKey` names keys that are objects. */
const each = <K, T>(verb: (keys: readonly K[]) => Promise<T[]>, cacheKey?: (key: K) => unknown) =>
  new DataLoader<K, T, unknown>((keys) => verb(keys), cacheKey ? { cacheKeyFn: cacheKey } : {});

const issueId = (i: IssueWithProject) => i.view.issue.id;
const mergeRequestId = (m: MergeRequestWithProject) => m.view.mr.id;

export function createLoaders(ctx: RequestContext) {
  return {
    user: each((ids: readonly number[]) => usersByIds(ctx, ids)),
    /** Iterations by id (null when missing): Issue.iteration. */
    iteration: each((ids: readonly number[]) => iterationsOf(ctx, ids)),
    /** Award emoji with their users, oldest first, by awardable. */
    awards: each((keys: readonly AwardableKey[]) => awardsOf(ctx, keys), awardableKey),
    /** The notes the actor may read, with their authors, oldest first, by noteable. */
    notes: each((noteables: readonly Noteable[]) => readableNotesOf(ctx, noteables), (n) => noteableKey(n.key)),
    /** Labels by issue id, by title. */
    issueLabels: each((ids: readonly number[]) => labelsOfIssues(ctx, ids)),
    /** Distinct discussions of user notes by issue id. */
    issueUserDiscussionsCount: each((ids: readonly number[]) => userDiscussionCounts(ctx, ids)),
    /** The users who take part in an issue, as the actor may see them. */
    issueParticipants: each((found: readonly IssueWithProject[]) => participantsOfIssues(ctx, found), issueId),
    /** The current user's to-dos by issue id (none when anonymous). */
    currentUserIssueTodos: each((ids: readonly number[]) => currentUserTodosOfIssues(ctx, ids)),
    /** The current user's to-dos by epic id (none when anonymous). */
    currentUserEpicTodos: each((ids: readonly number[]) => currentUserTodosOfEpics(ctx, ids)),
    /** Projects the actor may read, by id (null when missing or hidden). */
    projectView: each((ids: readonly number[]) => readableProjectsByIds(ctx, ids)),
    /** Groups the actor may read, by namespace id (null when missing or hidden): projects' groups, groups' parents. */
    groupView: each((ids: readonly number[]) => readableGroupsByIds(ctx, ids)),
    /** "Parent / Child" full names of namespaces by id. */
    namespaceFullName: each((ids: readonly number[]) => namespaceFullNames(ctx, ids)),
    /** Open issues of a project the actor may count (confidential ones for reporters and above). */
    openIssuesCount: each((views: readonly ProjectModel[]) => openIssuesCounts(ctx, views), (v) => v.project.id),
    // ---- Connections nested under lists: one query per page arguments whatever the number of parents ----
    /** Project.issues/issue pages by project id. */
    issuePages: perParent((projectIds: number[], a: { params: IssueFinderParams; page: KeysetPage }) => issuePages(ctx, projectIds, a.params, a.page)),
    /** IssueConnection.count by project id (one grouped count). */
    issueCounts: perParent((projectIds: number[], params: IssueFinderParams) => issueCounts(ctx, projectIds, params)),
    /** Project/Group.mergeRequests, User.authored/assignedMergeRequests pages by parent id (of one kind per batch). */
    mergeRequestPages: perParent((parentIds: number[], a: { kind: MergeRequestParentKind; args: MergeRequestPageArgs; page: KeysetPage }) =>
      mergeRequestPages(ctx, a.kind, parentIds, a.args, a.page),
    ),
    /** MergeRequestConnection.count / totalTimeToMerge by parent id (one grouped statement). */
    mergeRequestCounts: perParent((parentIds: number[], a: { kind: MergeRequestParentKind; args: Omit<MergeRequestPageArgs, 'by'> }) =>
      mergeRequestCounts(ctx, a.kind, parentIds, a.args),
    ),
    /** Labels by MR id, by title. */
    mergeRequestLabels: each((ids: readonly number[]) => labelsOfMergeRequests(ctx, ids)),
    /** The cached closing issues the actor may read, by MR id (one statement for every MR of the response). */
    mergeRequestClosingIssues: each((ids: readonly number[]) => closingIssuesOfMergeRequests(ctx, ids)),
    /** The current user's to-dos by MR id (none when anonymous). */
    currentUserMergeRequestTodos: each((ids: readonly number[]) => currentUserTodosOfMergeRequests(ctx, ids)),
    /** The users who take part in an MR, as the actor may see them. */
    mergeRequestParticipants: each((found: readonly MergeRequestWithProject[]) => participantsOfMergeRequests(ctx, found), mergeRequestId),
    /** An MR's latest diff statistics by file (one statement per distinct target project). */
    mergeRequestDiffStats: each((views: readonly MergeRequestView[]) => diffStatsOfMergeRequests(ctx, views), (v) => v.mr.id),
    /** What the repositories allow the actor on an MR (merge, push to / remove the source branch). */
    mergeRequestRepositoryFacts: each((found: readonly MergeRequestWithProject[]) => repositoryFactsOfMergeRequests(ctx, found), mergeRequestId),
    /** Project.label(title): a project's own label by (project id, title). */
    projectLabelByTitle: each((pairs: ReadonlyArray<{ projectId: number; title: string }>) => projectLabelsByTitles(ctx, pairs), stableKey),
    /** Project.labels pages and counts by project id. */
    projectLabelPages: perParent((projectIds: number[], a: { search: string | undefined; page: KeysetPage }) => projectLabelPages(ctx, projectIds, a.search, a.page)),
    projectLabelCounts: perParent((projectIds: number[], a: { search: string | undefined }) => projectLabelCounts(ctx, projectIds, a.search)),
    /** Project.milestones pages by project id. */
    projectMilestonePages: perParent((projectIds: number[], a: { page: KeysetPage }) => projectMilestonePages(ctx, projectIds, a.page)),
    /** User.snippets / Project.snippets pages by author / project id. */
    snippetPages: perParent(
      (parentIds: number[], a: { parent: 'authorId' | 'projectId'; params: Omit<SnippetFinderParams, 'authorId' | 'projectId'>; page: KeysetPage }) =>
        snippetPagesOf(ctx, a.parent, parentIds, a.params, a.page),
    ),
    /** projectMembers/groupMembers pages by member source (null where the actor may not see the members). */
    memberPages: perParent((parents: MemberParent[], a: MemberPageParams & { page: KeysetPage }) => memberPages(ctx, parents, a, a.page)),
    /** Group.projects/Namespace.projects pages by namespace (with or without its subgroups). */
    namespaceProjectPages: perParent((parents: Array<{ id: number; subgroups: boolean }>, a: { search: string | undefined; page: KeysetPage }) =>
      namespaceProjectPages(ctx, parents, a.search, a.page),
    ),
    /** A snippet's files with their contents, in order, by snippet id. */
    snippetFiles: each((ids: readonly number[]) => filesOfSnippets(ctx, ids)),
    // ---- Repositories (functions/repositories/reads.ts) ----
    /** Project.repository by project (null where the actor may not read the code). */
    repository: each((views: readonly ProjectModel[]) => repositoriesOf(ctx, views), (v) => v.project.id),
    /** Repository.tree by (project, ref, path, recursive): the whole listing, once per distinct key. */
    tree: each((keys: readonly TreeKey[]) => treesOf(ctx, keys), (k) => stableKey({ project: k.repo.projectId, ref: k.ref, path: k.path, recursive: k.recursive })),
    /** Tree.lastCommit by (project, commit, path). */
    lastCommit: each((keys: ReadonlyArray<{ projectId: number; commitOid: string; path: string }>) => lastCommitsOf(ctx, keys), stableKey),
    /** Blob.lfsOid by (project, blob): every blob of a page in one statement. */
    lfsOid: each((keys: ReadonlyArray<{ projectId: number; oid: string }>) => lfsOidsOf(ctx, keys), stableKey),
    /** Submodule urls by path from `.gitmodules` by (project, commit): every tree of a request in one statement. */
    gitmodules: each((keys: ReadonlyArray<{ projectId: number; commitOid: string }>) => gitmodulesOf(ctx, keys), stableKey),
    /** Requirement.testReports by requirement id, oldest first. */
    requirementTestReports: each((ids: readonly number[]) => testReportsOf(ctx, ids)),
    /** Project.clusterAgents by project, by name (none where the actor may not read them). */
    projectClusterAgents: each((projects: readonly ProjectModel[]) => agentsOfProjects(ctx, projects), (p) => p.project.id),
    /** Project.dastSiteProfiles / dastScannerProfiles by project, by id (none where the actor may not read them). */
    projectDastSiteProfiles: each((projects: readonly ProjectModel[]) => siteProfilesOfProjects(ctx, projects), (p) => p.project.id),
    projectDastScannerProfiles: each((projects: readonly ProjectModel[]) => scannerProfilesOfProjects(ctx, projects), (p) => p.project.id),
    /** ClusterAgent.tokens by agent id, newest first. */
    clusterAgentTokens: each((ids: readonly number[]) => tokensOfAgents(ctx, ids)),
    /** Project.alertManagementIntegrations by project, in id order (none where the actor does not manage them). */
    projectAlertIntegrations: each((projects: readonly ProjectModel[]) => integrationsOfProjects(ctx, projects), (p) => p.project.id),
    /** Commit.author by the commit's author email (case-insensitive: the verb lower-cases). */
    commitAuthor: each((emails: readonly string[]) => commitAuthorsByEmail(ctx, emails), (e) => e.toLowerCase()),
    // ---- Issue boards (functions/boards/reads.ts) ----
    /** Board.lists by board: every board of a request in one query. */
    boardLists: each((found: readonly BoardModel[]) => listsOfBoards(ctx, found), (b) => b.board.id),
    /** BoardList issue ids, count and weight by (list, filters): one statement per board parent and filter set. */
    boardListIssues: each((keys: readonly ListIssuesKey[]) => issuesOfLists(ctx, keys), (k) => stableKey({ list: k.list.view.list.id, filters: k.filters })),
    /** Board list issues by id (ids found visible by boardListIssues). */
    boardIssue: each((ids: readonly number[]) => issueViewsByIds(ctx, ids)),
    /** BoardList.collapsed by list id, for the current user. */
    boardListCollapsed: each((ids: readonly number[]) => collapsedOfLists(ctx, ids)),
    /** A scoped board's milestone by id, with its owner's path. */
    boardMilestone: each(async (ids: readonly number[]) => {
      const found = new Map((await boardMilestones(ctx, ids)).map((m) => [m.milestone.id, m]));
      return ids.map((id) => found.get(id) ?? null);
    }),
    // ---- Group epics (functions/epics/reads.ts) ----
    /** Readable epics by id (parents), null when missing or hidden. */
    epic: each((ids: readonly number[]) => epicsByIds(ctx, ids)),
    /** Epic.children by parent epic id and filters: one statement per filter set. */
    epicChildren: perParent((parentIds: number[], a: { filter: Omit<EpicFilter, 'parentIds'>; order: EpicOrder }) => childrenOfEpics(ctx, parentIds, a.filter, a.order)),
    /** Epic.issues by epic id (readable issues, in the epic's order). */
    epicIssues: each((epics: readonly EpicModel[]) => issueModelsOfEpics(ctx, epics), (e) => e.view.epic.id),
    /** Children and issue counts by epic id (hasChildren, hasIssues). */
    epicRelations: each((ids: readonly number[]) => relationCounts(ctx, ids)),
    /** Epic.participants by epic: one statement for the page. */
    epicParticipants: each((epics: readonly EpicModel[]) => participantsOfEpics(ctx, epics), (e) => e.view.epic.id),
    /** Epic.subscribed by epic id. */
    epicSubscribed: each((ids: readonly number[]) => subscribedOf(ctx, ids)),
    /** Epic.descendantCounts / descendantWeightSum by epic id: one statement for the page. */
    epicDescendants: each((ids: readonly number[]) => descendantAggregatesOf(ctx, ids)),
    /** Board.epics by (board, the ids of its issues): one statement per board. */
    boardEpics: each(
      (keys: ReadonlyArray<{ board: BoardModel; issueIds: number[] }>) => Promise.all(keys.map((k) => epicsOfBoard(ctx, k.board, k.issueIds))),
      (k) => stableKey({ board: k.board.board.id, issueIds: k.issueIds }),
    ),
    /** BoardEpic.userPreferences by (board, epic): one statement per board. */
    boardEpicPreferences: perParent((epicIds: number[], boardId: number) => boardEpicPreferences(ctx, boardId, epicIds)),
    // ---- Alerts (functions/alerts/reads.ts) ----
    /** AlertManagementAlert.assignees by alert id. */
    alertAssignees: each((ids: readonly number[]) => assigneesOfAlerts(ctx, ids)),
    /** AlertManagementAlert.todos: the current user's to-dos by alert id (none when anonymous). */
    currentUserAlertTodos: each((ids: readonly number[]) => currentUserTodosOfAlerts(ctx, ids)),
    // ---- Environments (functions/environments/reads.ts) ----
    /** Project.environment/environments by project, per arguments (none where the actor may not read them). */
    projectEnvironments: perParent((projects: ProjectModel[], args: EnvironmentArgs) => environmentsOfProjects(ctx, projects, args)),
    /** MetricsDashboard.annotations by (environment, dashboard path, time range). */
    dashboardAnnotations: each((windows: readonly AnnotationWindow[]) => annotationsOf(ctx, windows), stableKey),
    // ---- Pipelines (functions/pipelines/reads.ts) ----
    /** Project/Commit/MergeRequest.pipelines pages by parent (null where the actor may not read them). */
    pipelinePages: perParent((parents: PipelineListParent[], a: { kind: PipelineParentKind; filter: PipelineListFilter; page: KeysetPage }) =>
      pipelinePagesOf(ctx, a.kind, parents, a.filter, a.page),
    ),
    /** PipelineConnection.count by parent (one grouped statement). */
    pipelineCounts: perParent((parents: PipelineListParent[], a: { kind: PipelineParentKind; filter: PipelineListFilter }) => pipelineCountsOf(ctx, a.kind, parents, a.filter)),
    /** Project.pipeline(iid) by (project, iid). */
    pipelineByIid: each(
      (keys: ReadonlyArray<{ project: ProjectModel; iid: number }>) => pipelinesByIids(ctx, keys),
      (k) => stableKey({ project: k.project.project.id, iid: k.iid }),
    ),
    /** The latest jobs of each pipeline with their needs: stages, groups, jobs and needs of a page in one statement. */
    pipelineJobs: each((ids: readonly number[]) => jobsOfPipelines(ctx, ids)),
    /** CiJob.artifacts by job id. */
    jobArtifacts: each((ids: readonly number[]) => artifactsOfJobs(ctx, ids)),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
