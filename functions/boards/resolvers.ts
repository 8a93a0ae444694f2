// GraphQL over issue boards (13.6): Project/Group.board(s), Board, BoardList and its issues, boardListCreate,
// updateBoardList and boardListUpdateLimitMetrics. Lists and their issues come through per-request loaders (loaders.ts), so N
// lists with M issues each cost a constant number of queries.
import { GraphQLError } from 'graphql';
import { arrayConnection, type ConnectionArgs } from '../graphql/connection.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { mutation } from '../graphql/errors.ts';
import type { Resolvers } from '../graphql/generated.ts';
import { expectGlobalId, toGlobalId } from '../graphql/ids.ts';
import type { IssueModel } from '../issues/models.ts';
import type { MilestoneModel } from '../milestones/models.ts';
import { incompatibleEpicArguments, INCOMPATIBLE_EPIC_ARGUMENTS, type BoardIssueFilters } from './issue-filters.ts';
import type { BoardListModel, BoardModel } from './models.ts';
import { moveIssue } from './move.ts';
import { createBoardList, updateBoardList, updateListLimits } from './mutations.ts';
import { boardsOf } from './reads.ts';
import { listTypeName } from './schemas.ts';
import { groupParent, licensed, projectParent } from './service.ts';

const checkFilters = (f: BoardIssueFilters | null | undefined) => {
  if (incompatibleEpicArguments(f)) throw new GraphQLError(INCOMPATIBLE_EPIC_ARGUMENTS);
  return f ?? null;
};

/** GitLab's List#title: the label's name, "Backlog", "Closed", the assignee's reference, the milestone's title. */
function listTitle({ view }: BoardListModel): string {
  switch (listTypeName(view.list.listType)) {
    case 'label':
      return view.label!.title;
    case 'assignee':
      return `@${view.user!.username}`;
    case 'milestone':
      return view.milestone!.title;
    case 'backlog':
      return 'Backlog';
    default:
      return 'Closed';
  }
}

const listIssues = ({ loaders }: GraphQLContext, list: BoardListModel, filters: BoardIssueFilters | null) => loaders.boardListIssues.load({ list, filters });

async function issueConnection(context: GraphQLContext, list: BoardListModel, filters: BoardIssueFilters | null, args: ConnectionArgs) {
  const { ids, count } = await listIssues(context, list, filters);
  const page = arrayConnection(ids, args, (id) => id);
  const { loaders } = context;
  const models = await Promise.all(
    page.nodes.map(async (id): Promise<IssueModel | null> => {
      const view = await loaders.boardIssue.load(id);
      const project = view && (await loaders.projectView.load(view.issue.projectId));
      return view && project ? { project, view } : null;
    }),
  );
  const byId = new Map(models.filter((m): m is IssueModel => m !== null).map((m) => [m.view.issue.id, m]));
  const edges = page.edges.flatMap((e) => (byId.has(e.node) ? [{ cursor: e.cursor, node: byId.get(e.node)! }] : []));
  return { edges, nodes: edges.map((e) => e.node), pageInfo: page.pageInfo, count: () => count };
}

const boardMilestone = async ({ loaders }: GraphQLContext, id: number | null): Promise<MilestoneModel | null> => {
  if (id === null || id <= 0) return null;
  const found = await loaders.boardMilestone.load(id);
  if (!found) return null;
  const { milestone, path } = found;
  return { milestone, projectPath: milestone.projectId !== null ? path : null, groupPath: milestone.groupId !== null ? path : null };
};

const boards = (context: GraphQLContext, parent: BoardModel['parent'], id: number | null | undefined) => boardsOf(context.ctx, parent, id ?? undefined);

export const boardResolvers: Resolvers = {
  Project: {
    board: async (project, { id }, context) => (await boards(context, projectParent(project), id))[0] ?? null,
    boards: async (project, args, context) => arrayConnection(await boards(context, projectParent(project), args.id), args, (b) => b.board.id),
  },
  Group: {
    board: async (group, { id }, context) => (await boards(context, groupParent(group), id))[0] ?? null,
    boards: async (group, args, context) => arrayConnection(await boards(context, groupParent(group), args.id), args, (b) => b.board.id),
  },
  Board: {
    id: (b) => toGlobalId('Board', b.board.id),
    name: (b) => b.board.name,
    hideBacklogList: (b) => b.board.hideBacklogList,
    hideClosedList: (b) => b.board.hideClosedList,
    // The scope (EE scoped_issue_board): nothing without the license.
    weight: (b, _args, { ctx }) => (licensed(ctx, 'scoped_issue_board') ? b.board.weight : null),
    milestone: (b, _args, context) => (licensed(context.ctx, 'scoped_issue_board') ? boardMilestone(context, b.board.milestoneId) : null),
    assignee: (b, _args, { ctx, loaders }) =>
      licensed(ctx, 'scoped_issue_board') && b.board.assigneeId !== null ? loaders.user.load(b.board.assigneeId) : null,
    lists: async (b, args, { loaders }) => {
      const issueFilters = checkFilters(args.issueFilters);
      const all = (await loaders.boardLists.load(b)).map((l) => ({ ...l, issueFilters }));
      const found = args.id == null ? all : all.filter((l) => l.view.list.id === args.id);
      return arrayConnection(found, args, (l) => l.view.list.id);
    },
  },
  BoardList: {
    id: (l) => toGlobalId('List', l.view.list.id),
    title: listTitle,
    listType: (l) => listTypeName(l.view.list.listType),
    position: (l) => l.view.list.position,
    label: (l) => l.view.label,
    milestone: (l) => {
      const m = l.view.milestone;
      if (!m) return null;
      return { milestone: m, projectPath: m.projectId !== null ? l.view.milestonePath : null, groupPath: m.groupId !== null ? l.view.milestonePath : null };
    },
    assignee: (l) => (listTypeName(l.view.list.listType) === 'assignee' ? l.view.user : null),
    collapsed: (l, _args, { loaders }) => loaders.boardListCollapsed.load(l.view.list.id),
    maxIssueCount: (l) => l.view.list.maxIssueCount,
    maxIssueWeight: (l) => l.view.list.maxIssueWeight,
    limitMetric: (l) => l.view.list.limitMetric,
    issuesCount: async (l, _args, context) => (await listIssues(context, l, l.issueFilters)).count,
    totalWeight: async (l, _args, context) => (await listIssues(context, l, l.issueFilters)).totalWeight,
    issues: (l, args, context) => issueConnection(context, l, checkFilters(args.filters), args),
  },
  Mutation: {
    boardListCreate: async (_root, { input }, { ctx }) => {
      const given = (['backlog', 'labelId', 'milestoneId', 'assigneeId'] as const).filter((k) => input[k] !== undefined);
      if (given.length !== 1) throw new GraphQLError('one and only one of backlog or labelId or milestoneId or assigneeId is required');
      const { value, errors } = await mutation(() => createBoardList(ctx, input));
      // authorize_list_type_resource!: an unavailable label, milestone or user is an ArgumentError (top level).
      if (value && 'argumentError' in value) throw new GraphQLError(value.argumentError);
      return { list: value?.list ?? null, errors: value?.errors ?? errors, clientMutationId: input.clientMutationId ?? null };
    },
    issueMoveList: async (_root, { input }, { ctx }) => {
      const { fromListId, toListId, moveAfterId, moveBeforeId } = input;
      if ([fromListId, toListId, moveAfterId, moveBeforeId].every((v) => v == null)) {
        throw new GraphQLError('At least one of the arguments fromListId, toListId, afterId or beforeId is required');
      }
      if ((fromListId == null) !== (toListId == null)) throw new GraphQLError('Both fromListId and toListId must be present');
      const boardId = Number(expectGlobalId(input.boardId, ['Board']).id);
      // 13.6 passes list and issue ids as plain database ids.
      const numeric = (v: string | null | undefined) => (v != null && /^\d{1,10}$/.test(v) && Number(v) <= 2_147_483_647 ? Number(v) : null);
      const { value, errors } = await mutation(() =>
        moveIssue(ctx, {
          boardId,
          projectPath: input.projectPath,
          iid: numeric(input.iid),
          fromListId: numeric(fromListId),
          toListId: numeric(toListId),
          moveAfterId: numeric(moveAfterId),
          moveBeforeId: numeric(moveBeforeId),
        }),
      );
      return { issue: value, errors, clientMutationId: input.clientMutationId ?? null };
    },
    updateBoardList: async (_root, { input }, { ctx }) => {
      const { value, errors } = await mutation(() => updateBoardList(ctx, input));
      return { list: value?.list ?? null, errors: value?.errors ?? errors, clientMutationId: input.clientMutationId ?? null };
    },
    boardListUpdateLimitMetrics: async (_root, { input }, { ctx }) => {
      if (input.limitMetric === undefined && input.maxIssueCount === undefined && input.maxIssueWeight === undefined) {
        throw new GraphQLError('At least one of the arguments limitMetric, maxIssueCount or maxIssueWeight is required');
      }
      const listId = expectGlobalId(input.listId, ['List']).id as number;
      const { value, errors } = await mutation(() => updateListLimits(ctx, { ...input, listId }));
      return { list: value?.list ?? null, errors: value?.errors ?? errors, clientMutationId: input.clientMutationId ?? null };
    },
  },
};
