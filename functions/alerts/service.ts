// Alert verbs: what a user does with an alert once it exists (GitLab 13.6's AlertManagement::AlertsFinder,
// Alerts::UpdateService, Alerts::Todo::CreateService and CreateAlertIssueService). Reporters read alerts
// (read_alert_management_alert: others find none), developers change them (update_alert_management_alert). Each
// change is one batch with its system note and to-dos; the issue createAlertIssue opens is the issues domain's
// own create (its rules, event and notification), then linked.
import * as q from '../../db/queries/alerts.ts';
import { hasPendingAlertTodo, pendingAlertTodoUsers } from '../todos/lookups.ts';
import { insertAlertTodosStatement, resolveAlertTodosStatement } from '../todos/statements.ts';
import { alertSystemNoteStatement } from '../notes/statements.ts';
import { usersWithProjectLevels } from '../issuables/lookups.ts';
import { TODO_ASSIGNED, TODO_MARKED } from '../todos/statements.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { ALERT_STATUS_RESOLVED, ALERT_STATUSES, type AlertStatus, type UserRow } from '../../db/schema/index.ts';
import { createIssue } from '../issues/create.ts';
import { requireUser, readerActor } from '../lib/auth.ts';
import { toSentence } from '../lib/format.ts';
import type { RequestContext } from '../lib/context.ts';
import { isUniqueViolation, notFound, serviceFailed } from '../lib/errors.ts';
import type { KeysetPage } from '../lib/pagination.ts';
import { assertCan, can, type AlertNoteableFacts } from '../lib/policy.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { alertIssueDescription } from './issue-description.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** An alert with the project it belongs to (the policy's facts come from the project). */
export interface AlertModel {
  project: ProjectView;
  view: q.AlertView;
}

export type AlertRef = { projectPath: string; iid: number | null };

const canRead = (ctx: RequestContext, project: ProjectView) => can(ctx.actor, 'project:read_alert_management_alert', projectFacts(project));

/** An alert's facts as a noteable. */
export const alertNoteableFacts = (project: ProjectView): AlertNoteableFacts => ({ kind: 'alert', project: projectFacts(project), authorId: null });

/** AlertsFinder: a page of the project's alerts; none unless the actor may read them (no error). */
export async function alertPage(
  ctx: RequestContext,
  project: ProjectView,
  filter: q.AlertFilter,
  order: q.AlertOrder,
  page: KeysetPage,
): Promise<AlertModel[]> {
  if (!canRead(ctx, project)) return [];
  return (await q.listAlertViews(ctx.db, project.project.id, filter, order, page)).map((view) => ({ project, view }));
}

/**
 * AlertStatusCounts: by status, `open` (triggered and acknowledged) and `all`; null unless readable (the type's
 * `authorize :read_alert_management_alert`).
 */
export async function alertStatusCounts(ctx: RequestContext, project: ProjectView, filter: Pick<q.AlertFilter, 'search' | 'assigneeUsername'>) {
  if (!canRead(ctx, project)) return null;
  const counts = await q.countAlertsByStatus(ctx.db, project.project.id, filter);
  const n = (s: AlertStatus) => counts.get(ALERT_STATUSES.indexOf(s)) ?? 0;
  return {
    all: [...counts.values()].reduce((a, b) => a + b, 0),
    open: n('triggered') + n('acknowledged'),
    triggered: n('triggered'),
    acknowledged: n('acknowledged'),
    resolved: n('resolved'),
    ignored: n('ignored'),
  };
}

/** The readable alert of the project by iid (404 when missing or hidden: the mutations' resource error). */
export async function findAlert(ctx: RequestContext, ref: AlertRef): Promise<AlertModel> {
  const project = await findProject(ctx, { path: ref.projectPath });
  const view = ref.iid !== null && canRead(ctx, project) ? await q.findAlertView(ctx.db, project.project.id, ref.iid) : undefined;
  if (!view) throw notFound('AlertManagement::Alert');
  return { project, view };
}

/** The readable alert by database id (GraphQL's NoteableID `gid://gitlab/AlertManagement::Alert/<id>`). */
export async function findAlertById(ctx: RequestContext, id: number): Promise<AlertModel> {
  const [view] = await q.findAlertViewsByIds(ctx.db, [id]);
  if (!view) throw notFound('AlertManagement::Alert');
  const project = await findProject(ctx, { id: view.alert.projectId });
  if (!canRead(ctx, project)) throw notFound('AlertManagement::Alert');
  return { project, view };
}

/** The alert to change: readable, and the actor may update alerts (else the mutation's resource error). */
async function alertToChange(ctx: RequestContext, ref: AlertRef) {
  const user = requireUser(ctx);
  const found = await findAlert(ctx, ref);
  assertCan(ctx.actor, 'project:update_alert_management_alert', projectFacts(found.project));
  return { user, ...found };
}

/** The alert as stored now (what a mutation answers, also next to its errors). */
const reread = async (ctx: RequestContext, found: AlertModel): Promise<AlertModel> => ({
  project: found.project,
  view: (await q.findAlertView(ctx.db, found.project.project.id, found.view.alert.iid)) ?? found.view,
});

/** The web path of an alert's details page (details_project_alert_management_path). */
export const alertDetailsPath = (project: ProjectView, iid: number) => `/${project.project.pathWithNamespace}/-/alert_management/${iid}/details`;

/**
 * updateAlertStatus (Alerts::UpdateService with `status`): any status to any (the state machine's `transition any`),
 * ended_at set to now on resolve and cleared otherwise, the system note "changed the status to **Resolved**", and the
 * actor's pending to-dos on it done when resolved. Re-opening an alert whose fingerprint another unresolved alert holds
 * is refused with GitLab's message (for every unresolved status: the unique index covers ignored alerts too, where
 * GitLab's own check would let the database fail).
 */
export async function updateAlertStatus({ ctx, input }: Verb<AlertRef & { status: AlertStatus }>) {
  const found = await alertToChange(ctx, input);
  const alert = found.view.alert;
  const status = ALERT_STATUSES.indexOf(input.status);
  const resolved = status === ALERT_STATUS_RESOLVED;
  // The refusal links the open alert (open_alert_url_params).
  const refuseIfDuplicate = async () => {
    const other = await q.findOtherUnresolvedAlert(ctx.db, alert);
    if (!other) return;
    const link = `<a href="${alertDetailsPath(found.project, other.iid)}">alert</a>`;
    throw serviceFailed([`An ${link} with the same fingerprint is already open. To change the status of this alert, resolve the linked alert.`]);
  };
  if (!resolved && alert.status === ALERT_STATUS_RESOLVED) await refuseIfDuplicate();
  const title = input.status.replace(/^./, (c) => c.toUpperCase());
  try {
    // One batch: the status, its system note, the actor's to-dos done on resolve.
    await ctx.batch((db) => [
      q.updateAlertStatusStatement(db, alert.id, status, resolved),
      alertSystemNoteStatement(db, alert, found.user.id, `changed the status to **${title}**`, 'status'),
      ...(resolved ? [resolveAlertTodosStatement(db, alert.id, found.user.id)] : []),
    ]);
  } catch (e) {
    // Another request re-opened an alert with this fingerprint meanwhile: the same refusal, nothing written.
    if (isUniqueViolation(e, 'alert_management_alerts_open_fingerprint_idx')) await refuseIfDuplicate();
    throw e;
  }
  return reread(ctx, found);
}

export type AssigneeMode = 'REPLACE' | 'APPEND' | 'REMOVE';

/**
 * alertSetAssignees: REPLACE the targets, APPEND them to the current assignees or REMOVE them (unknown usernames are
 * ignored, as UsersFinder finds nobody for them); 13.6 keeps only the first assignee ("multiple are not currently
 * supported"), who must be able to read the alert ("Assignee has no permissions"). A change writes the system note
 * "assigned to @a and unassigned @b" and an `assigned` to-do for whoever was newly assigned (TodoService's
 * reassigned_assignable), in one batch.
 */
export async function setAlertAssignees({ ctx, input }: Verb<AlertRef & { usernames: readonly string[]; mode: AssigneeMode }>) {
  const found = await alertToChange(ctx, input);
  const alert = found.view.alert;
  const current = (await q.findAssigneesOfAlerts(ctx.db, [alert.id])).map((r) => r.user);
  const project = found.project;
  const traversalIds = project.namespace.kind === 'group' ? project.namespace.traversalIds : [];
  const names = [...input.usernames, ...current.map((u) => u.username)].map((n) => n.toLowerCase());
  const candidates = await usersWithProjectLevels(ctx.db, { id: project.project.id, traversalIds }, [...new Set(names)]);
  const byName = new Map(candidates.map((c) => [c.user.username.toLowerCase(), c]));
  const targets = [...new Set(input.usernames.map((n) => n.toLowerCase()))].flatMap((n) => byName.get(n)?.user ?? []);
  const uniq = (list: UserRow[]) => list.filter((u, i) => list.findIndex((v) => v.id === u.id) === i);
  const wanted =
    input.mode === 'REPLACE'
      ? uniq(targets)
      : input.mode === 'APPEND'
        ? uniq([...current, ...targets])
        : current.filter((u) => !targets.some((t) => t.id === u.id));
  const assignees = wanted.slice(0, 1);
  const facts = projectFacts(project);
  const unauthorized = assignees.some((u) => {
    const accessLevel = byName.get(u.username.toLowerCase())?.accessLevel ?? 0;
    return !can(readerActor(u), 'project:read_alert_management_alert', { ...facts, accessLevel });
  });
  if (unauthorized) throw serviceFailed(['Assignee has no permissions']);
  const added = assignees.filter((u) => !current.some((c) => c.id === u.id));
  const removed = current.filter((c) => !assignees.some((u) => u.id === c.id));
  const parts = [
    ...(added.length ? [`assigned to ${toSentence(added.map((u) => `@${u.username}`))}`] : []),
    ...(removed.length ? [`unassigned ${toSentence(removed.map((u) => `@${u.username}`))}`] : []),
  ];
  if (parts.length) {
    // Who already has a pending `assigned` to-do is read first (create_todos skips them); then one batch writes.
    const pending = new Set(
      await pendingAlertTodoUsers(
        ctx.db,
        alert.id,
        added.map((u) => u.id),
        TODO_ASSIGNED,
      ),
    );
    const todos = added.filter((u) => !pending.has(u.id)).map((u) => ({ userId: u.id, action: TODO_ASSIGNED }));
    await ctx.batch((db) => [
      ...q.replaceAlertAssigneesStatements(
        db,
        alert.id,
        assignees.map((u) => u.id),
      ),
      alertSystemNoteStatement(db, alert, found.user.id, parts.join(' and '), 'assignee'),
      ...(todos.length ? [insertAlertTodosStatement(db, alert, found.user.id, todos)] : []),
    ]);
  }
  return reread(ctx, found);
}

/** alertTodoCreate (Alerts::Todo::CreateService): a `marked` to-do for the actor, unless one is pending already. */
export async function createAlertTodo({ ctx, input }: Verb<AlertRef>) {
  const found = await alertToChange(ctx, input);
  const alert = found.view.alert;
  if (await hasPendingAlertTodo(ctx.db, alert.id, found.user.id)) throw serviceFailed(['You already have pending todo for this alert']);
  const [todo] = await insertAlertTodosStatement(ctx.db, alert, found.user.id, [{ userId: found.user.id, action: TODO_MARKED }]);
  return { alert: found, todo: { todo: todo!, body: alert.title, project: found.project, group: null } };
}

/**
 * createAlertIssue (CreateAlertIssueService, 13.6): an incident in the alert's project through the issues domain's
 * create (title: the alert's, description: the alert summary), linked to the alert, with the system note "created
 * issue #<iid> for this alert". An alert that has an issue already: "An issue already exists".
 */
export async function createAlertIssue({ ctx, input }: Verb<AlertRef>) {
  const found = await alertToChange(ctx, input);
  const alert = found.view.alert;
  if (alert.issueId !== null) throw serviceFailed(['An issue already exists']);
  const description = alertIssueDescription(alert, `${ctx.config.publicUrl}${alertDetailsPath(found.project, alert.iid)}`);
  const issue = await createIssue({
    ctx,
    input: { project: { id: found.project.project.id }, params: { title: alert.title, description }, issueType: 'incident' },
  });
  // A decision between the writes (linked or not): an interactive transaction.
  const linked = await ctx.transaction(async (tx) => {
    if (!(await q.linkAlertIssue(tx, alert.id, issue.view.issue.id))) return false;
    await alertSystemNoteStatement(tx, alert, found.user.id, `created issue #${issue.view.issue.iid} for this alert`, 'alert_issue_added');
    return true;
  });
  // A concurrent createAlertIssue linked its issue first: this one stays a plain incident, as GitLab's would.
  if (!linked) throw serviceFailed(['An issue already exists']);
  return { alert: await reread(ctx, found), issue };
}
