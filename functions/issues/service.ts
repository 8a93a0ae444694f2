// Issue verbs (GitLab's lib/api/issues.rb with Issues::{Create,Update,Close,Reopen}Service): policy first, one
// batch (create) or transaction (update: it locks the issue) per write, the event recorded in it (opened -> created,
// closed, reopened).
import { currentIidSql, nextIidStatement } from '../../db/queries/lib/internal-ids.ts';
import * as q from '../../db/queries/issues.ts';
import { findIterationViewsByIds } from '../iterations/lookups.ts';
import { changeEventStatements, newIssueEventStatements } from '../../db/queries/issues/resource-events.ts';
import { findOrCreateLabelLinkStatements, findOrCreateProjectLabels, linkAvailableLabelsStatement } from '../labels/statements.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { projectViewQuery, toProjectView } from '../projects/lookups.ts';
import type { EmailEvent, IssueRow, UserRow } from '../../db/schema/index.ts';
import { eventStatement } from '../events/record.ts';
import { notify, notifyStatements } from '../notifications/record.ts';
import { findGroup } from '../groups/service.ts';
import { requireUser, readerActor } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { fullMessages, invalidMessage, notFound, paramErrors, validationFailed } from '../lib/errors.ts';
import { toSentence } from '../lib/format.ts';
import { assignableUsersSql, groupIdsOf, milestoneIdSql, resolveAssignees, resolveMilestone, wantedAssignees } from '../issuables/attributes.ts';
import { usersWithProjectLevels, usersWithProjectLevelsByRefQuery } from '../issuables/lookups.ts';
import { insertAssignmentTodos } from '../todos/statements.ts';
import { issuableErrors, stripTitle } from '../issuables/validation.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, can, iterationsAvailable, requirementsAvailable, weightsAvailable, type IssueFacts } from '../lib/policy.ts';
import { COUNT_LIMIT } from '../lib/pagination.ts';
import type { Output } from '../lib/validate.ts';
import { findProject, projectFacts, readableProject } from '../projects/service.ts';
import { issueFilter } from './filter.ts';
import { createMentionTodos, freshMentions, mentionReaders } from '../issuables/mention-todos.ts';
import { issueStateStatements } from './state.ts';
import { UPDATE_FIELDS, type CreateIssueInput, type ListIssuesParams, type UpdateIssueInput } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };
export type IssueRef = { project: Ref | null; iid: number | null };

const issueNotFound = () => notFound('Issue');

export const issueFacts = (project: ProjectView, v: q.IssueView): IssueFacts => ({
  kind: 'issue',
  project: projectFacts(project),
  authorId: v.issue.authorId,
  assigneeIds: v.assignees.map((a) => a.id),
  confidential: v.issue.confidential,
  discussionLocked: v.issue.discussionLocked === true,
});

/** The readable issue (404 `Issue Not Found` when missing or hidden), with its project. */
export async function findIssue(ctx: RequestContext, ref: IssueRef, options: { subscribed?: boolean; mentions?: readonly string[] } = {}) {
  const subscriberId = options.subscribed ? ctx.actor.user?.id : null;
  let project: ProjectView;
  let view: q.IssueView | undefined;
  /** The users named in `options.mentions`, with their levels on the project (usersWithProjectLevels). */
  let mentioned: Awaited<ReturnType<typeof usersWithProjectLevels>> = [];
  if (ref.project && ref.iid !== null) {
    // The project and the issue (and who a text about to be written mentions) in one round trip; the project's rule
    // (404/403) is still applied first.
    const projectRef = ref.project;
    const iid = ref.iid;
    const names = options.mentions ?? [];
    const [projectRows, issueRows, mentionRows] = await ctx.batch((db) => [
      projectViewQuery(db, ctx.actor, projectRef),
      q.issueViewByProjectRefQuery(db, ctx.actor, projectRef, iid, subscriberId),
      ...(names.length ? [usersWithProjectLevelsByRefQuery(db, projectRef, names)] : []),
    ]);
    project = readableProject(ctx, projectRows[0] ? toProjectView(projectRows[0]) : undefined);
    view = issueRows[0];
    mentioned = (mentionRows as typeof mentioned | undefined) ?? [];
  } else {
    project = await findProject(ctx, ref.project);
  }
  if (!view || !can(ctx.actor, 'issue:read', issueFacts(project, view))) throw issueNotFound();
  return { project, view, mentioned };
}

/** The readable issue by its database id (GraphQL's IssueID), with its project: 404 as findIssue. */
export async function findIssueById(ctx: RequestContext, id: number) {
  const view = await q.findIssueViewById(ctx.db, ctx.actor, id, ctx.actor.user?.id);
  if (!view) throw issueNotFound();
  const project = await findProject(ctx, { id: view.issue.projectId });
  if (!can(ctx.actor, 'issue:read', issueFacts(project, view))) throw issueNotFound();
  return { project, view };
}

export async function getIssue({ ctx, input }: Verb<IssueRef>) {
  return (await findIssue(ctx, input, { subscribed: true })).view;
}

async function reload(ctx: RequestContext, id: number) {
  const view = await q.findIssueViewById(ctx.db, ctx.actor, id, ctx.actor.user?.id);
  if (!view) throw issueNotFound();
  return view;
}

const canSetCreatedAt = (ctx: RequestContext, project: ProjectView) => can(ctx.actor, 'project:set_issue_created_at', projectFacts(project));

/** The policy's read rule for the issue as another user at `accessLevel` on its project would meet it (to-dos, notifications). */
export const issueReader = (project: ProjectView, issue: IssueRow, assigneeIds: readonly number[]) => (user: UserRow, accessLevel: number) =>
  can(readerActor(user), 'issue:read', {
    kind: 'issue',
    project: { ...projectFacts(project), accessLevel },
    authorId: issue.authorId,
    assigneeIds,
    confidential: issue.confidential,
  });

/**
 * A test case (GitLab 13.6 QualityManagement::TestCases::CreateService): an issue of type `test_case` with the labels
 * of these ids that the project may use; reporters and above, Ultimate only.
 */
export type TestCaseOptions = {
  labelIds: readonly number[];
};

/** `issueType`: an incident (IncidentManagement::Incidents::CreateService, as createAlertIssue opens one). */
export async function createIssue({
  ctx,
  input,
}: Verb<{ project: Ref | null; params: Output<typeof CreateIssueInput>; testCase?: TestCaseOptions; issueType?: 'incident' }>) {
  const user = requireUser(ctx);
  const p = input.params;
  const title = stripTitle(p.title);
  const description = p.description ?? null;
  // Who is mentioned is read with the project, in one round trip (the project's rule still decides first).
  const fresh = freshMentions([title, description]);
  let project: ProjectView;
  let candidates: Awaited<ReturnType<typeof usersWithProjectLevels>> = [];
  if (input.project && fresh.names.length) {
    const ref = input.project;
    const [projectRows, candidateRows] = await ctx.batch((db) => [
      projectViewQuery(db, ctx.actor, ref),
      usersWithProjectLevelsByRefQuery(db, ref, fresh.names),
    ]);
    project = readableProject(ctx, projectRows[0] ? toProjectView(projectRows[0]) : undefined);
    candidates = candidateRows;
  } else {
    project = await findProject(ctx, input.project);
  }
  assertCan(ctx.actor, 'project:create_issue', projectFacts(project));
  const testCase = input.testCase;
  if (testCase) {
    // The mutation's `authorize :admin_issue`, then the service's license check.
    assertCan(ctx.actor, 'project:admin_issues', projectFacts(project));
    if (!requirementsAvailable(ctx.config.instanceTier)) throw invalidMessage('Test cases are not available for this project');
  }
  // The model's validations on save; a test case's service answers them as one sentence (full_messages.to_sentence).
  const invalid = issuableErrors({ title, description });
  if (invalid) throw testCase ? invalidMessage(toSentence(fullMessages(invalid))) : validationFailed(invalid);
  // GitLab's filter_params: who cannot admin issues (below reporter) may not set assignees, milestone, due date, labels.
  const admin = can(ctx.actor, 'project:admin_issues', projectFacts(project));
  // GitLab: created_at may be set by administrators and project owners only.
  const createdAt = p.created_at && canSetCreatedAt(ctx, project) ? p.created_at : undefined;
  const projectId = project.project.id;
  // No lock and no decision between the statements (db/client.ts's rule): ONE batch allocates the iid (the counter's
  // row lock serializes concurrent creates until the batch commits), inserts the issue with its milestone (if it is
  // the project's or an ancestor group's), the assignable assignees and their to-dos, the labels, the mention to-dos
  // and the event, and reads the issue back. Who of the mentioned may read the issue is the policy's decision
  // (lib/policy.ts), taken on the candidates read with the project; assignees matter to it only on a confidential
  // issue, whose assignable assignees are then read first (one more round trip).
  const confidential = p.confidential ?? false;
  const wanted = admin ? wantedAssignees(p) : undefined;
  const assignable = wanted === undefined ? null : assignableUsersSql(ctx.db, project, wanted);
  let mentions: ReturnType<typeof mentionReaders> = [];
  if (candidates.length) {
    const assigned = confidential && assignable && wanted?.length ? (await assignable).map((a) => a.id) : [];
    mentions = mentionReaders(fresh, candidates, issueReader(project, { authorId: user.id, confidential } as IssueRow, assigned));
  }
  const milestoneId = admin ? milestoneIdSql(project, p.milestone_id) : null;
  const issueId = q.lastIssueIdSql();
  const results = await ctx.batch((db) => [
    nextIidStatement(db, 'issues', { projectId }),
    q.insertIssueStatement(db, {
      projectId,
      iid: currentIidSql('issues', { projectId }),
      authorId: user.id,
      title,
      description,
      confidential,
      milestoneId,
      dueDate: admin ? (p.due_date ?? null) : null,
      // EE's filter_params: the weight only where it is licensed, from who may admin the issue.
      weight: admin && weightsAvailable(ctx.config.instanceTier) ? (p.weight ?? null) : null,
      ...(createdAt ? { createdAt, updatedAt: createdAt } : {}),
      ...(testCase ? { issueType: 'test_case' as const } : input.issueType ? { issueType: input.issueType } : {}),
    }),
    ...(testCase?.labelIds.length ? [linkAvailableLabelsStatement(db, projectId, [...new Set(testCase.labelIds)], issueId)] : []),
    ...q.newIssueLinkStatements(db, { id: issueId, projectId }, user.id, assignable, mentions),
    ...(admin && p.labels?.length ? findOrCreateLabelLinkStatements(db, projectId, p.labels, { type: 'Issue', id: issueId }) : []),
    eventStatement(db, { action: 'created', authorId: user.id, projectId, target: { type: 'Issue', id: issueId } }),
    ...notifyStatements(db, ctx, { action: 'new_issue', target: { type: 'Issue', id: issueId }, projectId, actorId: user.id }),
    ...newIssueEventStatements(db, issueId, user.id),
    q.lastInsertedIssueViewQuery(db, ctx.actor, ctx.actor.user?.id),
  ]);
  const [view] = results[results.length - 1] as q.IssueView[];
  if (!view) throw issueNotFound();
  return { project, view };
}

export async function updateIssue({ ctx, input }: Verb<IssueRef & { params: Output<typeof UpdateIssueInput> }>) {
  const p = input.params;
  // EE adds `weight` to the parameters one of which an update needs (where weights are licensed).
  const fields = weightsAvailable(ctx.config.instanceTier) ? [...UPDATE_FIELDS, 'weight' as const] : UPDATE_FIELDS;
  if (!fields.some((f) => p[f] !== undefined)) {
    throw paramErrors([`${fields.join(', ')} are missing, at least one parameter must be provided`]);
  }
  const user = requireUser(ctx);
  const { project, view } = await findIssue(ctx, input);
  const facts = issueFacts(project, view);
  assertCan(ctx.actor, 'issue:update', facts);
  // GitLab's filter_params: who cannot admin the issue (below reporter) may not set these.
  const admin = can(ctx.actor, 'issue:admin', facts);
  const projectId = project.project.id;
  const title = p.title === undefined ? undefined : stripTitle(p.title);
  const invalid = issuableErrors({ title, description: p.description });
  if (invalid) throw validationFailed(invalid);
  await ctx.transaction(async (tx) => {
    const issue = await q.lockIssue(tx, view.issue.id);
    if (!issue) throw issueNotFound();
    // The notification-setting events of this update (their recipients are resolved when delivered).
    const notification = (action: EmailEvent, previousAssigneeIds?: number[]) =>
      notify(tx, ctx, { action, target: { type: 'Issue', id: issue.id }, projectId, actorId: user.id, previousAssigneeIds });
    const now = new Date();
    const changes: Parameters<typeof q.updateIssue>[2] = {};
    if (title !== undefined) changes.title = title;
    if (p.description !== undefined) changes.description = p.description;
    if (p.confidential !== undefined) changes.confidential = p.confidential;
    if (admin) {
      if (p.discussion_locked !== undefined) changes.discussionLocked = p.discussion_locked;
      if (p.due_date !== undefined) changes.dueDate = p.due_date;
      const milestoneId = await resolveMilestone(tx, project, p.milestone_id);
      if (milestoneId !== undefined) changes.milestoneId = milestoneId;
      if (p.weight !== undefined && weightsAvailable(ctx.config.instanceTier)) changes.weight = p.weight;
      const assignees = await resolveAssignees(tx, project, p);
      if (assignees !== undefined) {
        const { added, previous } = await q.setAssignees(tx, issue.id, assignees);
        await insertAssignmentTodos(tx, issue, user.id, added);
        if (added.length || previous.some((id) => !assignees.includes(id))) await notification('reassign_issue', previous);
      }
      if (p.labels !== undefined || p.add_labels !== undefined || p.remove_labels !== undefined) {
        let ids = p.labels !== undefined ? (await findOrCreateProjectLabels(tx, projectId, p.labels)).map((l) => l.id) : await q.issueLabelIds(tx, issue.id);
        if (p.add_labels?.length) ids = [...ids, ...(await findOrCreateProjectLabels(tx, projectId, p.add_labels)).map((l) => l.id)];
        if (p.remove_labels?.length) {
          const removed = new Set(await q.findLabelIdsByTitle(tx, projectId, groupIdsOf(project), p.remove_labels));
          ids = ids.filter((id) => !removed.has(id));
        }
        await q.setLabelLinks(tx, issue.id, ids);
      }
    }
    if (p.created_at && canSetCreatedAt(ctx, project)) changes.createdAt = p.created_at;
    // State changes record their event and a system note; closing an already closed issue (or reopening an open one) changes nothing.
    const to = p.state_event === 'close' && issue.state !== 'closed' ? 'closed' : p.state_event === 'reopen' && issue.state !== 'opened' ? 'opened' : null;
    if (to) {
      Object.assign(
        changes,
        to === 'closed' ? { state: 'closed' as const, closedAt: now, closedById: user.id } : { state: 'opened' as const, closedAt: null, closedById: null },
      );
      for (const statement of issueStateStatements(tx, ctx, { issue, userId: user.id, to, note: to === 'closed' ? 'closed' : 'reopened' })) await statement;
    }
    await q.updateIssue(tx, issue.id, { ...changes, updatedAt: now, updatedById: user.id });
    for (const statement of changeEventStatements(tx, issue.id, user.id, issue, changes)) await statement;
    if (changes.title !== undefined || changes.description !== undefined) {
      const updated = { ...issue, ...changes } as IssueRow;
      await createMentionTodos(tx, {
        project,
        issue,
        authorId: user.id,
        texts: [updated.title, updated.description],
        before: [issue.title, issue.description],
        mayRead: issueReader(project, updated, await q.issueAssigneeIds(tx, issue.id)),
      });
    }
  });
  return reload(ctx, view.issue.id);
}

/**
 * GraphQL's issueSetIteration (EE, 13.6): Issues::UpdateService with `iteration`. The iteration must be one the
 * project sees (its own or its groups', where licensed; anything else is not found); who may not admin the issue
 * changes nothing (filter_params). The change and its resource event are one transaction.
 */
export async function setIssueIteration({ ctx, input }: Verb<IssueRef & { iterationId: number | null }>) {
  const user = requireUser(ctx);
  const { project, view } = await findIssue(ctx, input);
  const facts = issueFacts(project, view);
  assertCan(ctx.actor, 'issue:update', facts);
  let sprintId: number | null = null;
  if (input.iterationId !== null) {
    const [found] = iterationsAvailable(ctx.config.instanceTier) ? await findIterationViewsByIds(ctx.db, [input.iterationId]) : [];
    const i = found?.iteration;
    if (!i || !(i.projectId === project.project.id || (i.groupId !== null && groupIdsOf(project).includes(i.groupId)))) throw notFound('Iteration');
    sprintId = i.id;
  }
  if (can(ctx.actor, 'issue:admin', facts)) {
    await ctx.transaction(async (tx) => {
      const issue = await q.lockIssue(tx, view.issue.id);
      if (!issue) throw issueNotFound();
      if (issue.sprintId === sprintId) return;
      await q.updateIssue(tx, issue.id, { sprintId, updatedAt: new Date(), updatedById: user.id });
      for (const statement of changeEventStatements(tx, issue.id, user.id, issue, { sprintId })) await statement;
    });
  }
  return { project, view: await reload(ctx, view.issue.id) };
}

export async function deleteIssue({ ctx, input }: Verb<IssueRef>) {
  requireUser(ctx);
  const { project, view } = await findIssue(ctx, input);
  assertCan(ctx.actor, 'issue:delete', issueFacts(project, view));
  await ctx.transaction((tx) => q.deleteIssue(tx, view.issue.id));
}

// ---- Lists ----

export type IssueListSource = { kind: 'all' } | { kind: 'project'; ref: Ref | null } | { kind: 'group'; ref: Ref | null };

export async function listIssues({ ctx, input }: Verb<{ source: IssueListSource; params: ListIssuesParams }>) {
  const p = input.params;
  // The source is found (404 when hidden) before the filter decides that nothing can match.
  const source: Pick<q.IssueListFilter, 'projectId' | 'groupId'> = {};
  if (input.source.kind === 'project') source.projectId = (await findProject(ctx, input.source.ref)).project.id;
  if (input.source.kind === 'group') source.groupId = (await findGroup(ctx, input.source.ref)).namespace.id;
  const where = issueFilter(ctx, input.source.kind, p);
  if (!where) return { fetch: async () => [], count: async () => 0 };
  const filter: q.IssueListFilter = { ...where, ...source };
  const order: q.IssueOrder = { by: p.order_by ?? 'created_at', sort: p.sort ?? 'desc' };
  // The page query carries the (capped) total, so paginate's count costs no second query unless the page is empty.
  let total: number | undefined;
  return {
    fetch: async (limit: number, offset: number) => {
      const rows = await q.listIssueViews(ctx.db, ctx.actor, filter, order, limit, offset, COUNT_LIMIT + 1);
      if (rows[0]) total = Number(rows[0].total);
      return rows;
    },
    count: (limit: number) => (total !== undefined ? Promise.resolve(Math.min(total, limit)) : q.countIssues(ctx.db, ctx.actor, filter, limit)),
  };
}
