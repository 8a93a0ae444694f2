// GraphQL over requirements (13.6 shapes): Project.requirement(s) and requirementStatesCount, the Requirement and
// TestReport types, createRequirement and updateRequirement. Unlicensed or unreadable: empty connection, null single
// and counts (the finder's `Requirement.none`); mutations: the resource error (their `authorize` fails).
import { GraphQLError } from 'graphql';
import type { RequirementFilter } from '../../db/queries/requirements.ts';
import { arrayConnection, keysetConnection, type ConnectionArgs } from '../graphql/connection.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { mutation, orNull, resourceNotAvailable } from '../graphql/errors.ts';
import type { RequirementState, Resolvers, Sort } from '../graphql/generated.ts';
import { toGlobalId, iidOf } from '../graphql/ids.ts';
import type { ProjectModel } from '../projects/models.ts';
import type { RequirementModel } from './models.ts';
import { iso, renderPlainLine, renderPlainText } from '../lib/format.ts';
import { can } from '../lib/policy.ts';
import { authorOrGhost } from '../users/ghost.ts';
import { REQUIREMENT_STATES, requirementStateName, TEST_REPORT_STATES, testReportStateName } from './schemas.ts';
import { createRequirement, findRequirement, requirementPage, requirementsFacts, requirementStateCounts, updateRequirement } from './service.ts';

interface RequirementArgs extends ConnectionArgs {
  iid?: string | null;
  iids?: readonly string[] | null;
  sort?: Sort | null;
  state?: RequirementState | null;
  search?: string | null;
  authorUsername?: readonly string[] | null;
}

/** RequirementsResolver's arguments as the finder's: `iids ||= [iid]`; an iid that is no number matches nothing. */
function requirementFilter(args: RequirementArgs): RequirementFilter {
  const f: RequirementFilter = {};
  const iids = args.iids ?? (args.iid != null ? [args.iid] : null);
  if (iids) f.iids = iids.flatMap((s) => iidOf(s) ?? []);
  if (args.state != null) f.state = REQUIREMENT_STATES[args.state];
  if (args.search) f.search = args.search;
  if (args.authorUsername) f.authorUsernames = [...args.authorUsername];
  return f;
}

/** The finder's order: `*_asc` oldest first, anything else (and no sort: `id_desc`) newest first. */
const orderOf = (sort: Sort | null | undefined) => (sort && /asc$/i.test(sort) ? 'asc' : 'desc');
/** updated_* sorts by last update; created_* (and no sort) by id, which is creation order. */
const sortColumn = (sort: Sort | null | undefined) => (sort && /^updated/i.test(sort) ? 'updated_at' : 'id');

function requirementConnection({ ctx }: GraphQLContext, project: ProjectModel, args: RequirementArgs) {
  const filter = requirementFilter(args);
  return keysetConnection<RequirementModel>(
    args,
    orderOf(args.sort),
    (r) => r.view.requirement.id,
    async (page) => (await requirementPage(ctx, project, filter, page, sortColumn(args.sort))).map((view) => ({ project, view })),
  );
}

/** The requirement's policy facts' answer for one action (RequirementPermissions). */
const allowed = (r: RequirementModel, context: GraphQLContext, action: Parameters<typeof can>[1] & `project:${string}_requirement`) =>
  can(context.ctx.actor, action, requirementsFacts(context.ctx, r.project));

export const requirementResolvers: Resolvers = {
  Project: {
    requirement: async (project, args, context) => (await requirementConnection(context, project, { ...args, first: 1 })).nodes[0] ?? null,
    requirements: (project, args, context) => requirementConnection(context, project, args),
    requirementStatesCount: (project, _args, { ctx }) => requirementStateCounts(ctx, project),
  },
  Requirement: {
    id: (r) => toGlobalId('RequirementsManagement::Requirement', r.view.requirement.id),
    iid: (r) => String(r.view.requirement.iid),
    title: (r) => r.view.requirement.title,
    titleHtml: (r) => renderPlainLine(r.view.requirement.title),
    description: (r) => r.view.requirement.description,
    descriptionHtml: (r) => renderPlainText(r.view.requirement.description),
    state: (r) => requirementStateName(r.view.requirement.state),
    author: (r, _a, { loaders }) => authorOrGhost(r.view.requirement.authorId ? loaders.user.load(r.view.requirement.authorId) : null),
    project: (r) => r.project,
    createdAt: (r) => iso(r.view.requirement.createdAt),
    updatedAt: (r) => iso(r.view.requirement.updatedAt),
    lastTestReportState: (r) => (r.view.lastTestReportState ? testReportStateName(r.view.lastTestReportState) : null),
    lastTestReportManuallyCreated: (r) => r.view.lastTestReportManuallyCreated,
    testReports: async (r, args, { loaders }) => {
      const reports = await loaders.requirementTestReports.load(r.view.requirement.id);
      return arrayConnection(orderOf(args.sort) === 'asc' ? reports : [...reports].reverse(), args, (t) => t.id);
    },
    userPermissions: (r, _a, context) => ({
      adminRequirement: allowed(r, context, 'project:admin_requirement'),
      createRequirement: allowed(r, context, 'project:create_requirement'),
      destroyRequirement: allowed(r, context, 'project:destroy_requirement'),
      readRequirement: allowed(r, context, 'project:read_requirement'),
      updateRequirement: allowed(r, context, 'project:update_requirement'),
    }),
  },
  TestReport: {
    id: (t) => toGlobalId('RequirementsManagement::TestReport', t.id),
    state: (t) => testReportStateName(t.state),
    createdAt: (t) => iso(t.createdAt),
    author: (t, _a, { loaders }) => (t.authorId ? loaders.user.load(t.authorId) : null),
  },
  Mutation: {
    createRequirement: async (_root, { input }, { ctx }) => {
      const { value, errors } = await mutation(() =>
        createRequirement({ ctx, input: { projectPath: input.projectPath, title: input.title, description: input.description } }),
      );
      return { clientMutationId: input.clientMutationId, errors, requirement: value };
    },
    updateRequirement: async (_root, { input }, { ctx }) => {
      // UpdateRequirement#ready?: before any lookup (a description alone is not enough).
      if (input.title == null && input.state == null && input.lastTestReportState == null) {
        throw new GraphQLError('title, state or last_test_report_state argument is required');
      }
      const iid = iidOf(input.iid);
      if (iid === null) throw resourceNotAvailable();
      const ref = { projectPath: input.projectPath, iid };
      const params = {
        title: input.title ?? undefined,
        description: input.description,
        state: input.state ? REQUIREMENT_STATES[input.state] : undefined,
        lastTestReportState: input.lastTestReportState ? TEST_REPORT_STATES[input.lastTestReportState] : undefined,
      };
      const { value, errors } = await mutation(() => updateRequirement({ ctx, input: { ...ref, params } }));
      // GitLab answers the requirement as stored next to the errors (`requirement.reset`).
      const requirement = value ?? (errors.length ? await orNull(() => findRequirement(ctx, ref)) : null);
      return { clientMutationId: input.clientMutationId, errors, requirement };
    },
  },
};
