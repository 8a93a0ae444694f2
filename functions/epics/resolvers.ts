// GraphQL over group epics (GitLab 13.6 EE): Group.epicsEnabled/epic/epics, the Epic and EpicIssue types, createEpic
// and updateEpic. Unlicensed, EpicsResolver answers an empty list and Group.epic null (no error); the mutations'
// `authorize :create_epic`/`:admin_epic` fail as the resource error. Reads go through functions/epics/reads.ts.
import { GraphQLError } from 'graphql';
import type { EpicFilter, EpicOrder } from '../../db/queries/epics.ts';
import type { LabelRow } from '../../db/schema/index.ts';
import { arrayConnection } from '../graphql/connection.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { mutation, resourceNotAvailable } from '../graphql/errors.ts';
import type { EpicChildrenArgs, Resolvers } from '../graphql/generated.ts';
import { parseGlobalId, toGlobalId } from '../graphql/ids.ts';
import { issueResolvers } from '../issues/resolvers.ts';
import { isRealDate } from '../lib/dates.ts';
import { iso } from '../lib/format.ts';
import { can, epicsAvailable } from '../lib/policy.ts';
import { authorOrGhost } from '../users/ghost.ts';
import type { GroupView } from '../../db/queries/groups.ts';
import type { RequestContext } from '../lib/context.ts';
import type { EpicModel } from './models.ts';
import { findGroupLabelsByIds, groupEpics } from './reads.ts';
import { effectiveDueDate, effectiveStartDate, epicWebPath } from './schemas.ts';
import { insertEpicIn } from './create.ts';
import { epicFacts, readEpic } from './service.ts';
import { applyEpicUpdate, type UpdateEpicFields } from './update.ts';
import { findGroup } from '../groups/service.ts';
import { assertCan } from '../lib/policy.ts';
import { requireUser } from '../lib/auth.ts';
import type { BoardModel } from '../boards/models.ts';
import { incompatibleEpicArguments, INCOMPATIBLE_EPIC_ARGUMENTS, type BoardIssueFilters } from '../boards/issue-filters.ts';
import { setBoardEpicCollapsed } from './boards.ts';
import { discussionsOf, notesOf } from '../notes/resolvers.ts';
import { epicNoteable } from '../notes/service.ts';

type EpicArgs = Omit<EpicChildrenArgs, 'after' | 'before' | 'first' | 'last'>;

const NUMERIC = /^\d{1,10}$/;

/** The resolver's filters (EpicsResolver + TimeFrameArguments), with GitLab's argument errors. */
function epicFilter(args: EpicArgs): { filter: Omit<EpicFilter, 'groupId' | 'parentIds'>; order: EpicOrder } {
  if (args.iidStartsWith != null && !/^\d+$/.test(args.iidStartsWith)) throw new GraphQLError('Invalid `iidStartsWith` query');
  if (args.timeframe && (args.startDate || args.endDate))
    throw new GraphQLError('startDate and endDate are deprecated in favor of timeframe. Please use only timeframe.');
  if (Boolean(args.startDate) !== Boolean(args.endDate)) throw new GraphQLError('Both startDate and endDate must be present.');
  const start = args.timeframe?.start ?? args.startDate?.slice(0, 10);
  const end = args.timeframe?.end ?? args.endDate?.slice(0, 10);
  if (start && end && start > end) throw new GraphQLError('startDate is after endDate');
  const iids = [...(args.iids ?? []), ...(args.iid != null ? [args.iid] : [])];
  const sort = args.sort ?? undefined;
  return {
    filter: {
      includeDescendants: args.includeDescendantGroups !== false,
      state: args.state === 'all' ? undefined : (args.state ?? undefined),
      authorUsername: args.authorUsername ?? undefined,
      labels: args.labelName ?? undefined,
      search: args.search || undefined,
      iids: iids.length ? iids.map((i) => (NUMERIC.test(i) ? Number(i) : -1)) : undefined,
      iidStartsWith: args.iidStartsWith ?? undefined,
      milestoneTitle: args.milestoneTitle ?? undefined,
      timeframe: start && end ? { start, end } : undefined,
    },
    // EpicsFinder's default: newest first; the roadmap sorts by dates.
    order: sort
      ? { by: sort.startsWith('start') ? 'start_date' : 'end_date', sort: sort.endsWith('asc') ? 'asc' : 'desc' }
      : { by: 'created_at', sort: 'desc' },
  };
}

const groupEpicList = (g: GroupView, args: EpicArgs, { ctx }: GraphQLContext) => {
  const { filter, order } = epicFilter(args);
  return groupEpics(ctx, { ...filter, groupId: g.namespace.id }, order);
};

const labelOf = (l: EpicModel['view']['labels'][number]): LabelRow => ({
  id: l.id,
  title: l.title,
  color: l.color,
  description: l.description,
  groupId: l.groupId,
  projectId: l.projectId,
  priority: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

/** `addLabelIds`/`removeLabelIds`: numeric ids or label global ids (others match nothing). */
const labelIds = (ids: readonly string[] | null | undefined) =>
  (ids ?? [])
    .map((id) => (NUMERIC.test(id) ? Number(id) : Number(parseGlobalId(id)?.id ?? -1)))
    .filter((n) => Number.isInteger(n) && n > 0 && n <= 2_147_483_647);

/** Date strings as Rails casts them: a real date, else nothing. */
const dateArg = (s: string | null | undefined) => (s == null ? s : /^\d{4}-\d{2}-\d{2}/.test(s) && isRealDate(s.slice(0, 10)) ? s.slice(0, 10) : null);

interface EpicInputFields {
  title?: string | null;
  description?: string | null;
  confidential?: boolean | null;
  startDateFixed?: string | null;
  dueDateFixed?: string | null;
  startDateIsFixed?: boolean | null;
  dueDateIsFixed?: boolean | null;
  addLabelIds?: string[] | null;
  removeLabelIds?: string[] | null;
}

const ATTRIBUTES = [
  'title',
  'description',
  'confidential',
  'startDateFixed',
  'dueDateFixed',
  'startDateIsFixed',
  'dueDateIsFixed',
  'addLabelIds',
  'removeLabelIds',
] as const;

/** SharedEpicArguments: only the group path (and iid) given is an argument error. */
function assertAttributes(input: EpicInputFields & { stateEvent?: unknown }) {
  if ([...ATTRIBUTES, 'stateEvent' as const].every((k) => (input as Record<string, unknown>)[k] == null))
    throw new GraphQLError('The list of epic attributes is empty');
}

/** The group labels the ids name (in the group or its ancestors). */
async function groupLabelIds(ctx: RequestContext, group: GroupView, ids: readonly string[] | null | undefined) {
  const wanted = labelIds(ids);
  return (await findGroupLabelsByIds(ctx, group.namespace.traversalIds, wanted)).map((l) => l.id);
}

const undef = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

export const epicResolvers: Resolvers = {
  Group: {
    epicsEnabled: (_g, _a, { ctx }) => epicsAvailable(ctx.config.instanceTier),
    epic: async (g, args, context) => (await groupEpicList(g, args, context))[0] ?? null,
    epics: async (g, args, context) => arrayConnection(await groupEpicList(g, args, context), args, (e) => e.view.epic.id),
  },
  Epic: {
    id: (e) => toGlobalId('Epic', e.view.epic.id),
    iid: (e) => String(e.view.epic.iid),
    title: (e) => e.view.epic.title,
    description: (e) => e.view.epic.description,
    state: (e) => e.view.epic.state,
    confidential: (e) => e.view.epic.confidential,
    group: (e) => e.group,
    author: (e, _a, { loaders }) => authorOrGhost(e.view.epic.authorId ? loaders.user.load(e.view.epic.authorId) : null),
    parent: (e, _a, { loaders }) => (e.view.epic.parentId ? loaders.epic.load(e.view.epic.parentId) : null),
    hasParent: (e) => e.view.epic.parentId !== null,
    hasChildren: async (e, _a, { loaders }) => (await loaders.epicRelations.load(e.view.epic.id)).children > 0,
    hasIssues: async (e, _a, { loaders }) => (await loaders.epicRelations.load(e.view.epic.id)).issues > 0,
    // LazyEpicAggregate: the epics below (by state) and the issues of the whole subtree (counts, weight sums).
    descendantCounts: async (e, _a, { loaders }) => {
      const d = await loaders.epicDescendants.load(e.view.epic.id);
      return { openedEpics: d.openedEpics, closedEpics: d.closedEpics, openedIssues: d.openedIssues, closedIssues: d.closedIssues };
    },
    descendantWeightSum: async (e, _a, { loaders }) => {
      const d = await loaders.epicDescendants.load(e.view.epic.id);
      return { openedIssues: d.openedWeight, closedIssues: d.closedWeight };
    },
    // Date columns: Ruby's Date#iso8601 is the bare date.
    startDate: (e) => effectiveStartDate(e.view),
    startDateFixed: (e) => e.view.epic.startDateFixed,
    startDateFromMilestones: (e) => e.view.startDateFromMilestones,
    startDateIsFixed: (e) => e.view.epic.startDateIsFixed ?? false,
    dueDate: (e) => effectiveDueDate(e.view),
    dueDateFixed: (e) => e.view.epic.dueDateFixed,
    dueDateFromMilestones: (e) => e.view.dueDateFromMilestones,
    dueDateIsFixed: (e) => e.view.epic.dueDateIsFixed ?? false,
    createdAt: (e) => iso(e.view.epic.createdAt),
    updatedAt: (e) => iso(e.view.epic.updatedAt),
    closedAt: (e) => iso(e.view.epic.closedAt),
    webPath: (e) => epicWebPath(e.view),
    webUrl: (e, _a, { ctx }) => `${ctx.config.publicUrl}${epicWebPath(e.view)}`,
    reference: (e, { full }) => (full ? `${e.view.groupPath}&${e.view.epic.iid}` : `&${e.view.epic.iid}`),
    // Set on epics read through an issue's relation only (Epic tree), which this service does not offer.
    relationPath: () => null,
    relativePosition: (e) => e.view.epic.relativePosition,
    subscribed: (e, _a, { loaders }) => loaders.epicSubscribed.load(e.view.epic.id),
    participants: async (e, args, { loaders }) => arrayConnection(await loaders.epicParticipants.load(e), args, (u) => u.id),
    // Epics::DescendantCountService counts the open descendant issues by their health_status (an Ultimate issue
    // attribute). No issue carries one here (neither REST nor GraphQL sets it), so no issue is counted in any status.
    healthStatus: () => ({ issuesAtRisk: 0, issuesNeedingAttention: 0, issuesOnTrack: 0 }),
    upvotes: (e) => e.view.upvotes,
    downvotes: (e) => e.view.downvotes,
    // Noteable and CurrentUserTodos (13.6 EE): the notes domain's connections over the epic as a noteable (one
    // query for the notes of every epic of a page), the current user's to-dos through a loader.
    notes: (e, args, context) => notesOf(context, epicNoteable(context.ctx, e), args),
    discussions: (e, args, context) => discussionsOf(context, epicNoteable(context.ctx, e), args),
    currentUserTodos: async (e, args, { ctx, loaders }) => {
      const rows = ctx.actor.user ? await loaders.currentUserEpicTodos.load(e.view.epic.id) : [];
      const todos = rows
        .filter((r) => args.state == null || r.todo.state === args.state)
        .map((r) => ({ todo: r.todo, body: r.body, project: null, group: e.group }));
      return arrayConnection(todos, args, (t) => t.todo.id);
    },
    children: async (e, args, { loaders }) => {
      const { filter, order } = epicFilter(args);
      // Children are a parent's wherever they live in its hierarchy; the order is the epic tree's.
      const rows = await loaders.epicChildren.load({
        parent: e.view.epic.id,
        args: { filter, order: args.sort ? order : { by: 'relative_position', sort: 'asc' } },
      });
      return arrayConnection(rows, args, (c) => c.view.epic.id);
    },
    issues: async (e, args, { loaders }) => {
      const rows = await loaders.epicIssues.load(e);
      return {
        ...arrayConnection(rows, args, (i) => i.view.issue.id),
        count: rows.length,
        weight: rows.reduce((sum, i) => sum + ((i.view.issue as { weight?: number | null }).weight ?? 0), 0),
      };
    },
    labels: (e, args) => {
      const rows = e.view.labels.map(labelOf);
      return { ...arrayConnection(rows, args, (l) => l.id), count: () => rows.length };
    },
    userPermissions: (e, _a, { ctx }) => {
      const facts = epicFacts(ctx, e.group, e.view.epic.confidential);
      const read = can(ctx.actor, 'group:read_epic', facts);
      const admin = can(ctx.actor, 'group:admin_epic', facts);
      return {
        adminEpic: admin,
        // The epic as an awardable and noteable: the notes and award rules of lib/policy.ts.
        awardEmoji: can(ctx.actor, 'awardable:award', epicNoteable(ctx, e).facts),
        createEpic: can(ctx.actor, 'group:create_epic', facts),
        createNote: can(ctx.actor, 'noteable:create_note', epicNoteable(ctx, e).facts),
        destroyEpic: can(ctx.actor, 'group:destroy_epic', facts),
        readEpic: read,
        readEpicIid: read,
        updateEpic: admin,
      };
    },
  },
  EpicIssue: {
    ...(issueResolvers.Issue as NonNullable<Resolvers['EpicIssue']>),
    epicIssueId: (i) => toGlobalId('EpicIssue', i.link.id),
    id: (i) => toGlobalId('EpicIssue', i.link.id),
    relationPath: (i) => `${i.epicPath}/issues/${i.link.id}`,
  },
  Mutation: {
    createEpic: async (_root, { input }, { ctx }) => {
      assertAttributes(input);
      const { value, errors } = await mutation(async () => {
        const user = requireUser(ctx);
        const group = await findGroup(ctx, { path: input.groupPath });
        assertCan(ctx.actor, 'group:create_epic', epicFacts(ctx, group));
        const add = await groupLabelIds(ctx, group, input.addLabelIds);
        const remove = new Set(await groupLabelIds(ctx, group, input.removeLabelIds));
        const r = await insertEpicIn(ctx, group, user.id, {
          title: input.title ?? '',
          description: input.description,
          confidential: undef(input.confidential),
          start_date_fixed: dateArg(input.startDateFixed),
          start_date_is_fixed: undef(input.startDateIsFixed),
          due_date_fixed: dateArg(input.dueDateFixed),
          due_date_is_fixed: undef(input.dueDateIsFixed),
          labelIds: add.filter((id) => !remove.has(id)),
        });
        return { view: r.epic, group: r.group };
      });
      return { epic: value, errors, clientMutationId: input.clientMutationId ?? null };
    },
    updateEpic: async (_root, { input }, { ctx }) => {
      assertAttributes(input);
      const { value, errors } = await mutation(async () => {
        const user = requireUser(ctx);
        const group = await findGroup(ctx, { path: input.groupPath });
        if (!epicsAvailable(ctx.config.instanceTier)) throw resourceNotAvailable();
        const current = await readEpic(ctx, group, NUMERIC.test(input.iid) ? Number(input.iid) : null);
        assertCan(ctx.actor, 'group:admin_epic', epicFacts(ctx, group, current.epic.confidential));
        const fields: UpdateEpicFields = {
          title: undef(input.title),
          description: input.description,
          confidential: undef(input.confidential),
          start_date_fixed: input.startDateFixed === undefined ? undefined : dateArg(input.startDateFixed),
          start_date_is_fixed: undef(input.startDateIsFixed),
          due_date_fixed: input.dueDateFixed === undefined ? undefined : dateArg(input.dueDateFixed),
          due_date_is_fixed: undef(input.dueDateIsFixed),
          addLabelIds: await groupLabelIds(ctx, group, input.addLabelIds),
          removeLabelIds: labelIds(input.removeLabelIds),
          state_event: input.stateEvent === 'CLOSE' ? 'close' : input.stateEvent === 'REOPEN' ? 'reopen' : undefined,
        };
        const r = await applyEpicUpdate(ctx, group, current, user.id, fields);
        return { view: r.epic, group: r.group };
      });
      return { epic: value, errors, clientMutationId: input.clientMutationId ?? null };
    },
  },
};

/** The ids of the issues on a board's lists under the filters (the boards part's batched list reads). */
async function boardIssueIds(context: GraphQLContext, board: BoardModel, filters: BoardIssueFilters | null): Promise<number[]> {
  const lists = await context.loaders.boardLists.load(board);
  const found = await Promise.all(lists.map((list) => context.loaders.boardListIssues.load({ list, filters })));
  return [...new Set(found.flatMap((f) => f.ids))].sort((a, b) => a - b);
}

export const boardEpicResolvers: Resolvers = {
  Board: {
    epics: async (b, args, context) => {
      if (incompatibleEpicArguments(args.issueFilters)) throw new GraphQLError(INCOMPATIBLE_EPIC_ARGUMENTS);
      const issueIds = await boardIssueIds(context, b, args.issueFilters ?? null);
      const epics = await context.loaders.boardEpics.load({ board: b, issueIds });
      return arrayConnection(
        epics.map((e) => ({ ...e, boardId: b.board.id })),
        args,
        (e) => e.view.epic.id,
      );
    },
  },
  BoardEpic: {
    ...(epicResolvers.Epic as NonNullable<Resolvers['BoardEpic']>),
    userPreferences: (e, _a, { loaders }) => loaders.boardEpicPreferences.load({ parent: e.view.epic.id, args: e.boardId }),
  },
  Mutation: {
    updateBoardEpicUserPreferences: async (_root, { input }, { ctx }) => {
      const { value, errors } = await mutation(() =>
        setBoardEpicCollapsed({ ctx, input: { boardId: input.boardId, epicId: input.epicId, collapsed: input.collapsed } }),
      );
      return { epicUserPreferences: value, errors, clientMutationId: input.clientMutationId ?? null };
    },
  },
};
