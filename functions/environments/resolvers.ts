// GraphQL over environments (13.6 shapes): Project.environment/environments (EnvironmentsResolver: name, prefix
// search, states), Environment with its metrics dashboard and the dashboard's annotations in a time range, and the
// createAnnotation mutation with GitLab's argument errors.
import { GraphQLError } from 'graphql';
import { createAnnotation } from '../annotations/service.ts';
import { arrayConnection } from '../graphql/connection.ts';
import { mutation } from '../graphql/errors.ts';
import type { Resolvers } from '../graphql/generated.ts';
import { parseGlobalId, toGlobalId } from '../graphql/ids.ts';
import { iso } from '../lib/format.ts';
import { metricsDashboard } from './dashboards.ts';

/** Mutations::Metrics::Dashboard::Annotations::Create's argument errors (top-level, before anything is read). */
const SOURCE_REQUIRED = 'Either a cluster or environment global ID is required';
const INVALID_SOURCE = 'Invalid cluster or environment ID';

/** The environment id createAnnotation names: exactly one source, and it must be an environment (no clusters here). */
function annotationEnvironmentId(input: { environmentId?: string | null; clusterId?: string | null }): number {
  const given = [input.environmentId, input.clusterId].filter((v) => v !== null && v !== undefined);
  if (given.length !== 1) throw new GraphQLError(SOURCE_REQUIRED);
  const gid = input.environmentId ? parseGlobalId(input.environmentId) : null;
  if (!gid || gid.type !== 'Environment' || typeof gid.id !== 'number') throw new GraphQLError(INVALID_SOURCE);
  return gid.id;
}

const time = (value: string) => new Date(value);

export const environmentResolvers: Resolvers = {
  Project: {
    environment: async (project, args, { loaders }) => (await loaders.projectEnvironments.load({ parent: project, args }))[0] ?? null,
    environments: async (project, { after, before, first, last, ...args }, { loaders }) => {
      const found = await loaders.projectEnvironments.load({ parent: project, args });
      return arrayConnection(found, { after, before, first, last }, (e) => e.environment.id);
    },
  },
  Environment: {
    id: (e) => toGlobalId('Environment', e.environment.id),
    name: (e) => e.environment.name,
    state: (e) => e.environment.state,
    metricsDashboard: (e, { path }, { ctx }) => metricsDashboard(ctx, e, path),
    // No alert is tied to an environment here (alerts carry no environment).
    latestOpenedMostSevereAlert: () => null,
  },
  MetricsDashboard: {
    path: (d) => d.path,
    annotations: async (d, { from, to, ...page }, { loaders }) => {
      const window = { environmentId: d.environment.environment.id, dashboardPath: d.path, from: time(from), ...(to ? { to: time(to) } : {}) };
      return arrayConnection(await loaders.dashboardAnnotations.load(window), page, (a) => a.id);
    },
  },
  MetricsDashboardAnnotation: {
    id: (a) => toGlobalId('Metrics::Dashboard::Annotation', a.id),
    description: (a) => a.description,
    panelId: (a) => a.panelXid,
    startingAt: (a) => iso(a.startingAt),
    endingAt: (a) => iso(a.endingAt),
  },
  Mutation: {
    createAnnotation: async (_root, { input }, { ctx }) => {
      const environmentId = annotationEnvironmentId(input);
      const { value, errors } = await mutation(() =>
        createAnnotation({
          ctx,
          input: {
            environmentId,
            dashboardPath: input.dashboardPath,
            description: input.description,
            startingAt: time(input.startingAt),
            endingAt: input.endingAt ? time(input.endingAt) : null,
          },
        }),
      );
      return { clientMutationId: input.clientMutationId, errors, annotation: value };
    },
  },
};
