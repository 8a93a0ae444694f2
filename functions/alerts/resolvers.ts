// GraphQL over alerts (13.6 shapes): Project.alertManagementAlert(s) and alertManagementAlertStatusCounts, the
// AlertManagementAlert type (a Noteable), and updateAlertStatus, alertSetAssignees, alertTodoCreate and
// createAlertIssue. Unreadable: an empty connection, a null alert (the finder's `none`), null counts; mutations on a
// missing or unchangeable alert: the resource error; the services' refusals: the payload's `errors`, next to the alert
// as stored (GitLab answers `result.payload[:alert]` with its errors).
import type { AlertFilter, AlertOrder } from '../../db/queries/alerts.ts';
import { severityName, statusName, statusNumber, statusOf } from './schemas.ts';
import { arrayConnection, keysetConnection, type ConnectionArgs } from '../graphql/connection.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { mutation, orNull } from '../graphql/errors.ts';
import type { AlertManagementAlertSort, AlertManagementAlertTodosArgs, AlertManagementStatus, Resolvers } from '../graphql/generated.ts';
import { parseGlobalId, iidOf } from '../graphql/ids.ts';
import type { ProjectModel } from '../projects/models.ts';
import type { TodoModel } from '../todos/models.ts';
import type { AlertModel } from './models.ts';
import type { RequestContext } from '../lib/context.ts';
import { iso } from '../lib/format.ts';
import { discussionsOf, notesOf } from '../notes/resolvers.ts';
import { alertNoteable } from '../notes/service.ts';
import { TODO_ACTION_FILTERS } from '../todos/schemas.ts';
import {
  alertDetailsPath,
  alertPage,
  alertStatusCounts,
  createAlertIssue,
  createAlertTodo,
  findAlert,
  setAlertAssignees,
  updateAlertStatus,
  type AlertRef,
} from './service.ts';

const NUMERIC = /^\d{1,10}$/;

interface AlertArgs extends ConnectionArgs {
  iid?: string | null;
  statuses?: readonly AlertManagementStatus[] | null;
  sort?: AlertManagementAlertSort | null;
  search?: string | null;
  assigneeUsername?: string | null;
}

/** AlertsFinder's params: an iid that is no number matches nothing; no statuses, any. */
function alertFilter(args: AlertArgs): AlertFilter {
  const f: AlertFilter = {};
  if (args.iid != null) f.iid = iidOf(args.iid);
  if (args.statuses?.length) f.statuses = args.statuses.map(statusNumber);
  if (args.search) f.search = args.search;
  if (args.assigneeUsername) f.assigneeUsername = args.assigneeUsername;
  return f;
}

/**
 * AlertSortEnum's values as Alert.sort_by_attribute orders: CREATED_TIME_* and the 13.5 CREATED_* are created_at,
 * UPDATED_* updated_at; no sort: newest first (the keyset connection's id order).
 */
function alertOrder(sort: AlertManagementAlertSort | null | undefined): AlertOrder {
  if (!sort) return { by: 'id', direction: 'desc' };
  const s = sort.toLowerCase();
  const direction = s.endsWith('_asc') ? 'asc' : 'desc';
  const key = s.replace(/_(asc|desc)$/, '');
  const by = (
    {
      started_at: 'started_at',
      ended_at: 'ended_at',
      created_time: 'created_at',
      created: 'created_at',
      updated_time: 'updated_at',
      updated: 'updated_at',
      event_count: 'events',
      severity: 'severity',
      status: 'status',
    } as const
  )[key]!;
  // order_severity / order_status: ascending is the stored integer descending (less critical first; Ignored first).
  const flipped = by === 'severity' || by === 'status' ? (direction === 'asc' ? 'desc' : 'asc') : direction;
  return { by, direction: flipped };
}

function alertConnection(ctx: RequestContext, project: ProjectModel, args: AlertArgs) {
  const filter = alertFilter(args);
  const order = alertOrder(args.sort);
  return keysetConnection<AlertModel>(
    args,
    order.direction,
    (a) => a.view.alert.id,
    (page) => alertPage(ctx, project, filter, order, page),
  );
}

/** Gitlab::Utils::InlineHash.merge_keys: nested objects flattened into dotted keys (`{a: {b: 1}}` -> `{"a.b": 1}`). */
function mergeKeys(value: unknown, prefix?: string, out: Record<string, unknown> = {}): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return out;
  for (const [k, v] of Object.entries(value)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) mergeKeys(v, key, out);
    else out[key] = v;
  }
  return out;
}

/** Ids given as numbers or global ids (the todos filters are plain `ID`s). */
const idsOf = (values: readonly string[] | null | undefined) =>
  values?.length ? new Set(values.map((v) => (NUMERIC.test(v) ? Number(v) : (parseGlobalId(v)?.id ?? -1)))) : null;

/** TodosFinder over the alert's to-dos of the current user: its filters, pending when no state is asked. */
function filterTodos(todos: readonly TodoModel[], args: AlertManagementAlertTodosArgs) {
  const actions = args.action?.length ? new Set(args.action.map((a) => TODO_ACTION_FILTERS[a])) : null;
  const authors = idsOf(args.authorId);
  const projects = idsOf(args.projectId);
  const groups = idsOf(args.groupId);
  const states = new Set<string>(args.state?.length ? args.state : ['pending']);
  // Every to-do here targets an alert: a type filter without ALERT keeps none.
  const typeMatches = !args.type?.length || args.type.includes('ALERT');
  return todos.filter(
    ({ todo }) =>
      typeMatches &&
      states.has(todo.state) &&
      (!actions || actions.has(todo.action as never)) &&
      (!authors || (todo.authorId !== null && authors.has(todo.authorId))) &&
      (!projects || (todo.projectId !== null && projects.has(todo.projectId))) &&
      (!groups || (todo.groupId !== null && groups.has(todo.groupId))),
  );
}

/** The mutations' (projectPath, iid): an iid that is no number finds no alert (the resource error). */
const refOf = (input: { projectPath: string; iid: string }): AlertRef => ({ projectPath: input.projectPath, iid: iidOf(input.iid) });

/** A mutation's answer: the alert as the service left it, or (on a refusal) as stored. */
async function alertPayload<T extends { alert?: AlertModel | null }>(ctx: RequestContext, ref: AlertRef, run: () => Promise<T>) {
  const { value, errors } = await mutation(run);
  const alert = value?.alert ?? (errors.length ? await orNull(() => findAlert(ctx, ref)) : null);
  return { value, errors, alert };
}

export const alertResolvers: Resolvers = {
  Project: {
    alertManagementAlert: async (project, args, { ctx }) => (await alertConnection(ctx, project, { ...args, first: 1 })).nodes[0] ?? null,
    alertManagementAlerts: (project, args, { ctx }) => alertConnection(ctx, project, args),
    alertManagementAlertStatusCounts: (project, args, { ctx }) =>
      alertStatusCounts(ctx, project, {
        ...(args.search ? { search: args.search } : {}),
        ...(args.assigneeUsername ? { assigneeUsername: args.assigneeUsername } : {}),
      }),
  },
  AlertManagementAlert: {
    iid: (a) => String(a.view.alert.iid),
    title: (a) => a.view.alert.title,
    description: (a) => a.view.alert.description,
    severity: (a) => severityName(a.view.alert.severity),
    status: (a) => statusName(a.view.alert.status),
    service: (a) => a.view.alert.service,
    monitoringTool: (a) => a.view.alert.monitoringTool,
    hosts: (a) => a.view.alert.hosts,
    eventCount: (a) => a.view.alert.events,
    details: (a) => mergeKeys(a.view.alert.payload),
    startedAt: (a) => iso(a.view.alert.startedAt),
    endedAt: (a) => iso(a.view.alert.endedAt),
    createdAt: (a) => iso(a.view.alert.createdAt),
    updatedAt: (a) => iso(a.view.alert.updatedAt),
    issueIid: (a) => (a.view.issueIid === null ? null : String(a.view.issueIid)),
    detailsUrl: (a, _args, { ctx }) => `${ctx.config.publicUrl}${alertDetailsPath(a.project, a.view.alert.iid)}`,
    // Generic payloads carry no metrics dashboard (Prometheus' do; none are received here).
    metricsDashboardUrl: () => null,
    runbook: (a) => {
      const runbook = (a.view.alert.payload as Record<string, unknown> | null)?.['runbook'];
      return typeof runbook === 'string' ? runbook : null;
    },
    metricsAlert: () => null,
    assignees: async (a, args, { loaders }) => arrayConnection(await loaders.alertAssignees.load(a.view.alert.id), args, (u) => u.id),
    notes: (a, args, context) => notesOf(context, alertNoteable(a.project, a.view), args),
    discussions: (a, args, context) => discussionsOf(context, alertNoteable(a.project, a.view), args),
    todos: async (a, args, { loaders }) => {
      const rows = await loaders.currentUserAlertTodos.load(a.view.alert.id);
      const todos: TodoModel[] = rows.map((r) => ({ todo: r.todo, body: r.body, project: a.project, group: null }));
      return arrayConnection(filterTodos(todos, args), args, (t) => t.todo.id);
    },
  },
  Mutation: {
    updateAlertStatus: async (_root, { input }, { ctx }) => {
      const ref = refOf(input);
      const { errors, alert } = await alertPayload(ctx, ref, async () => ({
        alert: await updateAlertStatus({ ctx, input: { ...ref, status: statusOf(input.status) } }),
      }));
      return { clientMutationId: input.clientMutationId, errors, alert, issue: null, todo: null };
    },
    alertSetAssignees: async (_root, { input }, { ctx }) => {
      const ref = refOf(input);
      const mode = input.operationMode ?? 'REPLACE';
      const { errors, alert } = await alertPayload(ctx, ref, async () => ({
        alert: await setAlertAssignees({ ctx, input: { ...ref, usernames: input.assigneeUsernames, mode } }),
      }));
      return { clientMutationId: input.clientMutationId, errors, alert, issue: null, todo: null };
    },
    alertTodoCreate: async (_root, { input }, { ctx }) => {
      const ref = refOf(input);
      const { value, errors, alert } = await alertPayload(ctx, ref, () => createAlertTodo({ ctx, input: ref }));
      return { clientMutationId: input.clientMutationId, errors, alert, issue: null, todo: value?.todo ?? null };
    },
    createAlertIssue: async (_root, { input }, { ctx }) => {
      const ref = refOf(input);
      const { value, errors, alert } = await alertPayload(ctx, ref, () => createAlertIssue({ ctx, input: ref }));
      return { clientMutationId: input.clientMutationId, errors, alert, issue: value?.issue ?? null, todo: null };
    },
  },
};
