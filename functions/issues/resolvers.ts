// GraphQL over the issues domain: Query.issue, Project.issue(s)/label(s)/milestones and the Issue, Label, Milestone
// and Todo types (13.6 shapes). Reads go through the issues service (the same finder and list filter as REST, the
// policy's SQL visibility); a page's associations come from per-request DataLoaders (one query per association).
import { noteableType } from '../graphql/noteable-type.ts';
import { authorOrGhost } from '../users/ghost.ts';
import type { LabelRow, UserRow } from '../../db/schema/index.ts';
import { arrayConnection, keysetConnection, type ConnectionArgs } from '../graphql/connection.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { orNull } from '../graphql/errors.ts';
import type { IssueSort, IssuableState, IssueType, Resolvers, TodoActionEnum, TodoStateEnum } from '../graphql/generated.ts';
import { toGlobalId, iidOf } from '../graphql/ids.ts';
import type { MilestoneModel } from '../milestones/models.ts';
import type { TodoModel } from '../todos/models.ts';
import type { IssueModel } from './models.ts';
import { textColorFor } from '../labels/colors.ts';
import { can } from '../lib/policy.ts';
import { discussionsOf, notesOf } from '../notes/resolvers.ts';
import { issueNoteable } from '../notes/service.ts';
import { TODO_ACTION_NAMES } from '../todos/schemas.ts';
import { humanDuration, taskStatus } from '../issuables/schemas.ts';
import type { IssueFinderParams } from './filter.ts';
import { findIssueById, issueFacts } from './service.ts';
import { iso, renderPlainLine, renderPlainText } from '../lib/format.ts';

/** 13.6's IssueType from the stored issue_type, and back. */
const ISSUE_TYPES: Record<'issue' | 'incident' | 'test_case', IssueType> = { issue: 'ISSUE', incident: 'INCIDENT', test_case: 'TEST_CASE' };
const STORED_TYPES = { ISSUE: 'issue', INCIDENT: 'incident', TEST_CASE: 'test_case' } as const satisfies Record<IssueType, keyof typeof ISSUE_TYPES>;

interface IssueArgs extends ConnectionArgs {
  iid?: string | null;
  iids?: readonly string[] | null;
  state?: IssuableState | null;
  labelName?: ReadonlyArray<string | null> | null;
  milestoneTitle?: ReadonlyArray<string | null> | null;
  assigneeUsername?: string | null;
  authorUsername?: string | null;
  search?: string | null;
  sort?: IssueSort | null;
  types?: readonly IssueType[] | null;
  iterationId?: ReadonlyArray<string | null> | null;
}

/** The issues resolver's arguments as the REST list's parameters (IssuesFinder's params; filter.ts builds the filter). */
function issueParams(args: IssueArgs): IssueFinderParams {
  const p: IssueFinderParams = {};
  // An iid that is no number matches nothing.
  if (args.iid != null || args.iids != null) p.iids = [...(args.iid != null ? [args.iid] : []), ...(args.iids ?? [])].flatMap((s) => iidOf(s) ?? []);
  if (args.state != null) p.state = args.state;
  const labelNames = (args.labelName ?? []).filter((l): l is string => l != null);
  if (labelNames.length) p.labels = labelNames;
  const milestone = (args.milestoneTitle ?? []).find((m): m is string => m != null);
  if (milestone !== undefined) p.milestone = milestone;
  if (args.assigneeUsername != null) p.assignee_username = [args.assigneeUsername];
  if (args.authorUsername != null) p.author_username = args.authorUsername;
  if (args.search) p.search = args.search;
  if (args.types?.length) p.issue_types = args.types.map((t) => STORED_TYPES[t]);
  // EE IssuesResolver's iterationId: iteration ids (plain or global); one that is neither matches nothing.
  const iterations = (args.iterationId ?? []).filter((v): v is string => v != null);
  if (iterations.length) p.iteration_ids = iterations.map((v) => iidOf(v.replace(/^gid:\/\/gitlab\/Iteration\//, '')) ?? 0);
  return p;
}

/**
 * An IssueConnection of the project: one keyset page (authors and milestones joined) and `count` on demand, both
 * through per-request loaders, so the connection under each of a list of projects costs one query for all of them.
 */
async function issueConnection({ loaders }: GraphQLContext, project: IssueModel['project'], args: IssueArgs) {
  const params = issueParams(args);
  const order = /asc$/i.test(args.sort ?? 'created_desc') ? 'asc' : 'desc';
  const parent = project.project.id;
  const connection = await keysetConnection<IssueModel>(
    args,
    order,
    (i) => i.view.issue.id,
    async (page) => (await loaders.issuePages.load({ parent, args: { params, page } })).map((view) => ({ project, view })),
  );
  return { ...connection, count: () => loaders.issueCounts.load({ parent, args: params }) };
}

const milestoneOf = (i: IssueModel): MilestoneModel | null => {
  const m = i.view.milestone;
  if (!m) return null;
  return m.groupId !== null
    ? { milestone: m, projectPath: null, groupPath: i.view.milestoneGroupPath }
    : { milestone: m, projectPath: i.view.projectPath, groupPath: null };
};

const TODO_TARGETS: Record<string, 'ISSUE' | 'MERGEREQUEST' | 'EPIC' | 'ALERT'> = {
  Issue: 'ISSUE',
  MergeRequest: 'MERGEREQUEST',
  Epic: 'EPIC',
  'AlertManagement::Alert': 'ALERT',
};

export const issueResolvers: Resolvers = {
  Query: {
    issue: (_root, { id }, { ctx }) => orNull(() => findIssueById(ctx, id)),
  },
  Project: {
    issue: async (project, args, context) => {
      const connection = await issueConnection(context, project, { ...args, first: 1 });
      return connection.nodes[0] ?? null;
    },
    issues: (project, args, context) => issueConnection(context, project, args),
    label: async (project, { title }, { loaders }) => (await loaders.projectLabelByTitle.load({ projectId: project.project.id, title })) ?? null,
    labels: async (project, args, { loaders }) => {
      const search = args.searchTerm || undefined;
      const parent = project.project.id;
      const connection = await keysetConnection<LabelRow>(
        args,
        'asc',
        (l) => l.id,
        async (page) => [...(await loaders.projectLabelPages.load({ parent, args: { search, page } }))],
      );
      return { ...connection, count: () => loaders.projectLabelCounts.load({ parent, args: { search } }) };
    },
    milestones: async (project, args, { loaders }) =>
      keysetConnection<MilestoneModel>(
        args,
        'asc',
        (m) => m.milestone.id,
        async (page) =>
          (await loaders.projectMilestonePages.load({ parent: project.project.id, args: { page } })).map((milestone) => ({
            milestone,
            projectPath: project.project.pathWithNamespace,
            groupPath: null,
          })),
      ),
  },
  IssueConnection: {
    count: (c) => c.count(),
  },
  LabelConnection: {
    count: (c) => c.count(),
  },
  Issue: {
    id: (i) => toGlobalId('Issue', i.view.issue.id),
    iid: (i) => String(i.view.issue.iid),
    title: (i) => i.view.issue.title,
    titleHtml: (i) => renderPlainLine(i.view.issue.title),
    description: (i) => i.view.issue.description,
    descriptionHtml: (i) => renderPlainText(i.view.issue.description),
    // Issue boards, email settings and blocking links are not offered by this service.
    relativePosition: () => null,
    emailsDisabled: () => false,
    blocked: () => false,
    updatedBy: (i, _a, { loaders }) => (i.view.issue.updatedById ? loaders.user.load(i.view.issue.updatedById) : null),
    userDiscussionsCount: (i, _a, { loaders }) => loaders.issueUserDiscussionsCount.load(i.view.issue.id),
    // Participable (issues/reads.ts decides who the actor may see).
    participants: async (i, args, { loaders }) => arrayConnection(await loaders.issueParticipants.load(i), args, (u) => u.id),
    state: (i) => i.view.issue.state,
    type: (i) => ISSUE_TYPES[i.view.issue.issueType],
    confidential: (i) => i.view.issue.confidential,
    discussionLocked: (i) => i.view.issue.discussionLocked === true,
    author: (i, _a, { loaders }) => authorOrGhost(i.view.author ?? (i.view.issue.authorId ? loaders.user.load(i.view.issue.authorId) : null)),
    assignees: async (i, args, { loaders }) => {
      const users = await loaders.user.loadMany(i.view.assignees.map((a) => a.id));
      return arrayConnection(
        users.filter((u): u is UserRow => u != null && !(u instanceof Error)),
        args,
        (u) => u.id,
      );
    },
    labels: async (i, args, { loaders }) => {
      const rows = await loaders.issueLabels.load(i.view.issue.id);
      return { ...arrayConnection(rows, args, (l) => l.id), count: () => rows.length };
    },
    milestone: (i) => milestoneOf(i),
    awardEmoji: async (i, args, { loaders }) => arrayConnection(await loaders.awards.load({ type: 'Issue', id: i.view.issue.id }), args, (a) => a.award.id),
    createdAt: (i) => iso(i.view.issue.createdAt)!,
    updatedAt: (i) => iso(i.view.issue.updatedAt)!,
    closedAt: (i) => iso(i.view.issue.closedAt),
    // A date column: Ruby's Date#iso8601 is the bare date.
    dueDate: (i) => i.view.issue.dueDate,
    webPath: (i) => `/${i.view.projectPath}/-/issues/${i.view.issue.iid}`,
    webUrl: (i, _a, { ctx }) => `${ctx.config.publicUrl}/${i.view.projectPath}/-/issues/${i.view.issue.iid}`,
    reference: (i, { full }) => (full ? `${i.view.projectPath}#${i.view.issue.iid}` : `#${i.view.issue.iid}`),
    upvotes: (i) => i.view.upvotes,
    downvotes: (i) => i.view.downvotes,
    userNotesCount: (i) => i.view.userNotesCount,
    subscribed: (i) => i.view.subscribed === true,
    timeEstimate: (i) => i.view.issue.timeEstimate,
    totalTimeSpent: (i) => i.view.issue.totalTimeSpent,
    humanTimeEstimate: (i) => humanDuration(i.view.issue.timeEstimate),
    humanTotalTimeSpent: (i) => humanDuration(i.view.issue.totalTimeSpent),
    taskCompletionStatus: (i) => {
      const t = taskStatus(i.view.issue.description);
      return { count: t.count, completedCount: t.completed_count };
    },
    userPermissions: (i, _a, { ctx }) => {
      const facts = issueFacts(i.project, i.view);
      const update = can(ctx.actor, 'issue:update', facts);
      return {
        adminIssue: can(ctx.actor, 'issue:admin', facts),
        createDesign: false,
        createNote: can(ctx.actor, 'noteable:create_note', facts),
        destroyDesign: false,
        readDesign: false,
        readIssue: can(ctx.actor, 'issue:read', facts),
        reopenIssue: update,
        updateIssue: update,
      };
    },
    notes: (i, args, context) => notesOf(context, issueNoteable(i.project, i.view), args),
    discussions: (i, args, context) => discussionsOf(context, issueNoteable(i.project, i.view), args),
    currentUserTodos: async (i, args, { ctx, loaders }) => {
      // Anonymous callers get an empty connection, not null (Types::CurrentUserTodos).
      const rows = ctx.actor.user ? await loaders.currentUserIssueTodos.load(i.view.issue.id) : [];
      const todos: TodoModel[] = rows
        .filter((r) => args.state == null || r.todo.state === args.state)
        .map((r) => ({ todo: r.todo, body: r.body, project: i.project }));
      return arrayConnection(todos, args, (t) => t.todo.id);
    },
  },
  // Issues, merge requests and epics have the current user's to-dos (snippets and alerts are no CurrentUserTodos).
  CurrentUserTodos: {
    __resolveType: (obj) => {
      const type = noteableType(obj);
      return type === 'Snippet' || type === 'AlertManagementAlert' ? 'Issue' : type;
    },
  },
  Label: {
    id: (l) => toGlobalId(l.groupId !== null ? 'GroupLabel' : 'ProjectLabel', l.id),
    title: (l) => l.title,
    description: (l) => l.description,
    descriptionHtml: (l) => renderPlainText(l.description),
    color: (l) => l.color,
    textColor: (l) => textColorFor(l.color),
  },
  Milestone: {
    id: (m) => toGlobalId('Milestone', m.milestone.id),
    title: (m) => m.milestone.title,
    description: (m) => m.milestone.description,
    state: (m) => m.milestone.state,
    dueDate: (m) => m.milestone.dueDate,
    startDate: (m) => m.milestone.startDate,
    createdAt: (m) => iso(m.milestone.createdAt)!,
    updatedAt: (m) => iso(m.milestone.updatedAt)!,
    projectMilestone: (m) => m.milestone.projectId !== null,
    groupMilestone: (m) => m.milestone.groupId !== null,
    subgroupMilestone: (m) => m.milestone.groupId !== null && (m.groupPath ?? '').includes('/'),
    webPath: (m) =>
      m.milestone.groupId !== null ? `/groups/${m.groupPath}/-/milestones/${m.milestone.iid}` : `/${m.projectPath}/-/milestones/${m.milestone.iid}`,
  },
  Todo: {
    id: (t) => toGlobalId('Todo', t.todo.id),
    action: (t) => (TODO_ACTION_NAMES[t.todo.action] ?? 'marked') as TodoActionEnum,
    author: (t, _a, { loaders }) => authorOrGhost(t.todo.authorId ? loaders.user.load(t.todo.authorId) : null),
    body: (t) => t.body,
    createdAt: (t) => iso(t.todo.createdAt)!,
    state: (t) => t.todo.state as TodoStateEnum,
    targetType: (t) => TODO_TARGETS[t.todo.targetType] ?? 'ISSUE',
    project: (t) => t.project,
    group: (t) => t.group ?? null,
  },
};
