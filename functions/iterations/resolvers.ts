// GraphQL over iterations (13.6 EE): Group/Project.iterations, the Iteration type, createIteration, Issue.iteration
// and Issue.weight, issueSetIteration, and Milestone/Iteration.report (the burnup). Unlicensed reads of iterations are the top-level
// resource error (IterationsResolver's authorize!); an unlicensed report is GitLab's "does not support" error.
import { GraphQLError } from 'graphql';
import type { IterationFilter } from '../../db/queries/iterations.ts';
import { arrayConnection, type ConnectionArgs } from '../graphql/connection.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { mutation, orNull, resourceNotAvailable } from '../graphql/errors.ts';
import type { IterationState, Resolvers } from '../graphql/generated.ts';
import { parseGlobalId, toGlobalId, iidOf } from '../graphql/ids.ts';
import type { IterationModel } from './models.ts';
import { iso, renderPlainText } from '../lib/format.ts';
import { iterationsAvailable, weightsAvailable } from '../lib/policy.ts';
import { setIssueIteration } from '../issues/update.ts';
import { iterationWebPath } from './schemas.ts';
import { createIteration, findIteration, listIterations, timeboxReport, updateIteration, type IterationParentRef } from './service.ts';
import type { IterationAttributes } from './validation.ts';

interface IterationArgs extends ConnectionArgs {
  startDate?: string | null;
  endDate?: string | null;
  timeframe?: { start: string; end: string } | null;
  state?: IterationState | null;
  title?: string | null;
  id?: string | null;
  iid?: string | null;
  includeAncestors?: boolean | null;
}

/** The most iterations one connection reads (they are ordered by due date and title, so paged in memory). */
const CONNECTION_CAP = 5_000;
const numberOf = (s: string) => iidOf(s) ?? 0;

/** IterationsResolver's arguments: `id` a global id (or a bare one), `iid` turns include_ancestors off unless given. */
function iterationFilter(args: IterationArgs): { filter: IterationFilter; includeAncestors: boolean } {
  const filter: IterationFilter = { state: args.state ?? 'all' };
  if (args.title) filter.search = args.title;
  if (args.id != null) filter.ids = [numberOf(parseGlobalId(args.id)?.type === 'Iteration' ? String(parseGlobalId(args.id)!.id) : args.id)];
  if (args.iid != null) filter.iids = [numberOf(args.iid)];
  // TimeFrameArguments (13.5): `timeframe`, or the deprecated startDate/endDate pair.
  if (args.timeframe && (args.startDate || args.endDate))
    throw new GraphQLError('startDate and endDate are deprecated in favor of timeframe. Please use only timeframe.');
  if ((args.startDate == null) !== (args.endDate == null)) throw new GraphQLError('Both startDate and endDate must be present.');
  const start = args.timeframe?.start ?? args.startDate?.slice(0, 10);
  const end = args.timeframe?.end ?? args.endDate?.slice(0, 10);
  if (start && end && start > end) throw new GraphQLError('startDate is after endDate');
  if (start && end) filter.timeframe = { start, end };
  return { filter, includeAncestors: args.includeAncestors ?? args.iid == null };
}

async function iterationConnection({ ctx }: GraphQLContext, parent: IterationParentRef, args: IterationArgs, scopeProjectPath?: string) {
  const list = await listIterations({ ctx, input: { ...parent, ...iterationFilter(args) } });
  const all = (await list.fetch(CONNECTION_CAP, 0)).map((v): IterationModel => ({ ...v, scopeProjectPath }));
  return arrayConnection(all, args, (i) => i.iteration.id);
}

async function report(context: GraphQLContext, timebox: Parameters<typeof timeboxReport>[1]) {
  const out = await timeboxReport(context.ctx, timebox);
  if ('error' in out) throw new GraphQLError(out.error!);
  return out.report;
}

export const iterationResolvers: Resolvers = {
  Query: {
    // Iterations the actor may not read (or unlicensed) are null, as GitLab's authorized find.
    iteration: (_root, { id }, { ctx }) => orNull(() => findIteration(ctx, id)),
  },
  Group: {
    iterations: (group, args, context) => iterationConnection(context, { kind: 'group', ref: { id: group.namespace.id } }, args),
  },
  Project: {
    iterations: (project, args, context) =>
      iterationConnection(context, { kind: 'project', ref: { id: project.project.id } }, args, project.project.pathWithNamespace),
  },
  Issue: {
    weight: (i, _a, { ctx }) => (weightsAvailable(ctx.config.instanceTier) ? i.view.issue.weight : null),
    iteration: async (i, _a, { ctx, loaders }) => {
      if (i.view.issue.sprintId === null || !iterationsAvailable(ctx.config.instanceTier)) return null;
      return loaders.iteration.load(i.view.issue.sprintId);
    },
  },
  Iteration: {
    id: (i) => toGlobalId('Iteration', i.iteration.id),
    iid: (i) => String(i.iteration.iid),
    title: (i) => i.iteration.title,
    description: (i) => i.iteration.description,
    descriptionHtml: (i) => renderPlainText(i.iteration.description),
    state: (i) => i.state,
    startDate: (i) => i.iteration.startDate,
    dueDate: (i) => i.iteration.dueDate,
    createdAt: (i) => iso(i.iteration.createdAt)!,
    updatedAt: (i) => iso(i.iteration.updatedAt)!,
    webPath: (i) => iterationWebPath(i),
    webUrl: (i, _a, { ctx }) => `${ctx.config.publicUrl}${iterationWebPath(i)}`,
    // Only through a project: the project's view of an inherited iteration.
    scopedPath: (i) => (i.scopeProjectPath ? `/${i.scopeProjectPath}/-/iterations/inherited/${i.iteration.id}` : null),
    scopedUrl: (i, _a, { ctx }) => (i.scopeProjectPath ? `${ctx.config.publicUrl}/${i.scopeProjectPath}/-/iterations/inherited/${i.iteration.id}` : null),
    report: (i, _a, context) => report(context, { kind: 'iteration', id: i.iteration.id, startDate: i.iteration.startDate, dueDate: i.iteration.dueDate }),
  },
  Milestone: {
    report: (m, _a, context) => report(context, { kind: 'milestone', id: m.milestone.id, startDate: m.milestone.startDate, dueDate: m.milestone.dueDate }),
  },
  TimeboxReportInterface: {
    __resolveType: (v) => ('iteration' in v ? 'Iteration' : 'Milestone'),
  },
  Mutation: {
    createIteration: async (_root, { input }, { ctx }) => {
      // Mutations::Iterations::Create#validate_arguments!: before any lookup or authorization.
      const attributes = { title: input.title, description: input.description, startDate: input.startDate, dueDate: input.dueDate };
      if (Object.values(attributes).every((v) => v == null)) throw new GraphQLError('The list of iteration attributes is empty');
      if (input.groupPath != null && input.projectPath != null) throw new GraphQLError('Only one of group_path or project_path can be provided');
      if (input.groupPath == null && input.projectPath == null) throw new GraphQLError('Either group_path or project_path is required');
      const parent: IterationParentRef =
        input.groupPath != null ? { kind: 'group', ref: { path: input.groupPath } } : { kind: 'project', ref: { path: input.projectPath! } };
      const { value, errors } = await mutation(() => createIteration({ ctx, input: { ...parent, attributes } }));
      const result = value ?? { iteration: null, errors };
      return { clientMutationId: input.clientMutationId, errors: result.errors, iteration: result.iteration };
    },
    updateIteration: async (_root, { input }, { ctx }) => {
      // Mutations::Iterations::Update#validate_arguments!: before any lookup or authorization.
      const attributes: IterationAttributes = {};
      for (const key of ['title', 'description', 'startDate', 'dueDate'] as const) if (input[key] !== undefined) attributes[key] = input[key];
      if (!Object.keys(attributes).length) throw new GraphQLError('The list of iteration attributes is empty');
      // IterationsResolver's id: a global id or a bare one; anything else finds nothing.
      const parsed = parseGlobalId(input.id);
      const iterationId = numberOf(parsed ? (parsed.type === 'Iteration' ? String(parsed.id) : '') : input.id);
      const { value, errors } = await mutation(() => updateIteration({ ctx, input: { group: { path: input.groupPath }, iterationId, attributes } }));
      const result = value ?? { iteration: null, errors };
      return { clientMutationId: input.clientMutationId, errors: result.errors, iteration: result.iteration };
    },
    issueSetIteration: async (_root, { input }, { ctx }) => {
      const iid = iidOf(input.iid);
      if (iid === null) throw resourceNotAvailable();
      const { value, errors } = await mutation(() =>
        setIssueIteration({ ctx, input: { project: { path: input.projectPath }, iid, iterationId: input.iterationId ?? null } }),
      );
      return { clientMutationId: input.clientMutationId, errors, issue: value };
    },
  },
};
