// GraphQL over alert HTTP integrations (13.6 shapes): Project.alertManagementIntegrations and the four
// httpIntegration* mutations. A hidden or unmanaged project or integration is the top-level resource error (GitLab's
// `authorize :admin_operations`); the name's validation and the free tier's one-integration rule go in `errors`.
import { arrayConnection } from '../graphql/connection.ts';
import { mutation } from '../graphql/errors.ts';
import type { Resolvers } from '../graphql/generated.ts';
import { toGlobalId } from '../graphql/ids.ts';
import { showSecret } from '../lib/no-store.ts';
import { integrationUrl } from './schemas.ts';
import {
  createAlertIntegration,
  destroyAlertIntegration,
  resetAlertIntegrationToken,
  updateAlertIntegration,
  type AlertIntegrationWithProject,
} from './service.ts';

const payload = (clientMutationId: string | null | undefined, r: { value: AlertIntegrationWithProject | null; errors: string[] }) => ({
  clientMutationId,
  errors: r.errors,
  integration: r.value,
});

export const alertIntegrationResolvers: Resolvers = {
  Project: {
    alertManagementIntegrations: async (project, args, { loaders }) =>
      arrayConnection(await loaders.projectAlertIntegrations.load(project), args, (i) => i.integration.id),
  },
  AlertManagementIntegration: {
    // Only HTTP integrations are stored (the Prometheus integration is not modelled).
    __resolveType: () => 'AlertManagementHttpIntegration',
  },
  AlertManagementHttpIntegration: {
    active: (i) => i.integration.active,
    // The Prometheus integration's field: null for HTTP integrations, as in GitLab.
    apiUrl: () => null,
    id: (i) => toGlobalId('AlertManagement::HttpIntegration', i.integration.id),
    name: (i) => i.integration.name,
    token: (i, _a, { ctx }) => showSecret(ctx, i.token),
    type: () => 'HTTP',
    url: (i, _a, { ctx }) => integrationUrl(ctx.config.publicUrl, i.project.project.pathWithNamespace, i.integration),
  },
  Mutation: {
    httpIntegrationCreate: async (_root, { input }, { ctx }) =>
      payload(
        input.clientMutationId,
        await mutation(() => createAlertIntegration({ ctx, input: { projectPath: input.projectPath, name: input.name, active: input.active } })),
      ),
    httpIntegrationUpdate: async (_root, { input }, { ctx }) =>
      payload(input.clientMutationId, await mutation(() => updateAlertIntegration({ ctx, input: { id: input.id, name: input.name, active: input.active } }))),
    httpIntegrationResetToken: async (_root, { input }, { ctx }) =>
      payload(input.clientMutationId, await mutation(() => resetAlertIntegrationToken({ ctx, input: { id: input.id } }))),
    httpIntegrationDestroy: async (_root, { input }, { ctx }) =>
      payload(input.clientMutationId, await mutation(() => destroyAlertIntegration({ ctx, input: { id: input.id } }))),
  },
};
