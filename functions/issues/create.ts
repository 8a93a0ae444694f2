// Creating an issue (GitLab 13.6 Issues::CreateService over lib/api/issues.rb; a test case and an alert's incident are
// issues too): policy first, then ONE batch (db/client.ts's rule) that allocates the iid and writes the issue with
// its links, to-dos, resource events, notification and event, and reads it back.
import { currentIidSql, nextIidStatement } from '../../db/queries/lib/internal-ids.ts';
import * as q from '../../db/queries/issues.ts';
import { newIssueEventStatements } from '../../db/queries/issues/resource-events.ts';
import { findOrCreateLabelLinkStatements, linkAvailableLabelsStatement } from '../labels/statements.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { projectViewQuery, toProjectView } from '../projects/lookups.ts';
import type { IssueRow } from '../../db/schema/index.ts';
import { eventStatement } from '../events/record.ts';
import { userAgentDetailStatements } from '../user-agent-details/statements.ts';
import { notifyStatements } from '../notifications/record.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { fullMessages, invalidMessage, validationFailed } from '../lib/errors.ts';
import { toSentence } from '../lib/format.ts';
import { assignableUsersSql, milestoneIdSql, wantedAssignees } from '../issuables/attributes.ts';
import { usersWithProjectLevels, usersWithProjectLevelsByRefQuery } from '../issuables/lookups.ts';
import { issuableErrors, stripTitle } from '../issuables/validation.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, can, requirementsAvailable, weightsAvailable } from '../lib/policy.ts';
import type { Output } from '../lib/validate.ts';
import { findProject, projectFacts, readableProject } from '../projects/service.ts';
import { freshMentions, mentionReaders } from '../issuables/mention-todos.ts';
import { canSetCreatedAt, issueNotFound, issueReader } from './service.ts';
import { type CreateIssueInput } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

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
    ...userAgentDetailStatements(db, ctx, { issueId }),
    q.lastInsertedIssueViewQuery(db, ctx.actor, ctx.actor.user?.id),
  ]);
  const [view] = results[results.length - 1] as q.IssueView[];
  if (!view) throw issueNotFound();
  return { project, view };
}
