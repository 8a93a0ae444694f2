// Alert HTTP integration verbs (GitLab 13.6 Mutations::AlertManagement::HttpIntegration::* over
// AlertManagement::HttpIntegrations::CreateService and the model): maintainers (admin_operations) create, rename,
// switch on and off, rotate the token of and remove a project's integrations; on a free instance a project has at
// most one (GitLab's multiple_alert_http_integrations license). The token is returned by create and reset only:
// only its digest is stored, so it can never be shown again.
import * as q from '../../db/queries/alert-integrations.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { AlertIntegrationRow } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { sha256Hex } from '../lib/crypto.ts';
import { notFound, serviceFailed, validationFailed } from '../lib/errors.ts';
import { assertCan, can, multipleAlertIntegrationsAvailable } from '../lib/policy.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { integrationNameErrors, newEndpointIdentifier, newIntegrationToken } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export const MULTIPLE_NOT_SUPPORTED = 'Multiple HTTP integrations are not supported for this project';

/** An integration with its project; `token` only in the payload of the create or reset that made it. */
export interface AlertIntegrationWithProject {
  project: ProjectView;
  integration: AlertIntegrationRow;
  token: string | null;
}

/** Whether the actor manages (and so sees) the project's integrations: admin_operations, maintainers. */
export const canAdminIntegrations = (ctx: RequestContext, project: ProjectView) => can(ctx.actor, 'project:admin_operations', projectFacts(project));

function assertValidName(name: string | null) {
  const errors = integrationNameErrors(name);
  if (Object.keys(errors).length) throw validationFailed(errors);
}

/** The integration by id when the actor manages it (otherwise as missing: GraphQL's resource error). */
async function findIntegration(ctx: RequestContext, id: number): Promise<{ project: ProjectView; integration: AlertIntegrationRow }> {
  requireUser(ctx);
  const integration = await q.findAlertIntegration(ctx.db, id);
  if (!integration) throw notFound('AlertManagement::HttpIntegration');
  const project = await findProject(ctx, { id: integration.projectId });
  if (!canAdminIntegrations(ctx, project)) throw notFound('AlertManagement::HttpIntegration');
  return { project, integration };
}

export async function createAlertIntegration({
  ctx,
  input,
}: Verb<{ projectPath: string; name: string; active: boolean }>): Promise<AlertIntegrationWithProject> {
  requireUser(ctx);
  const project = await findProject(ctx, { path: input.projectPath });
  assertCan(ctx.actor, 'project:admin_operations', projectFacts(project));
  assertValidName(input.name);
  const token = newIntegrationToken();
  const values = {
    projectId: project.project.id,
    name: input.name,
    active: input.active,
    tokenDigest: await sha256Hex(token),
    endpointIdentifier: newEndpointIdentifier(),
  };
  const single = !multipleAlertIntegrationsAvailable(ctx.config.instanceTier);
  const integration = q.insertedAlertIntegration(await ctx.batch((db) => q.insertAlertIntegrationStatements(db, values, single)));
  if (!integration) throw serviceFailed([MULTIPLE_NOT_SUPPORTED]);
  return { project, integration, token };
}

/** HttpIntegrationUpdate: the name and `active` given (a null name is a blank one; a null `active` leaves it). */
export async function updateAlertIntegration({
  ctx,
  input,
}: Verb<{ id: number; name?: string | null; active?: boolean | null }>): Promise<AlertIntegrationWithProject> {
  const { project, integration } = await findIntegration(ctx, input.id);
  if (input.name !== undefined) assertValidName(input.name);
  const changes = { ...(input.name != null ? { name: input.name } : {}), ...(input.active != null ? { active: input.active } : {}) };
  const updated = Object.keys(changes).length ? await q.updateAlertIntegration(ctx.db, integration.id, changes) : integration;
  if (!updated) throw notFound('AlertManagement::HttpIntegration');
  return { project, integration: updated, token: null };
}

/** HttpIntegrationResetToken: a new token (the old one stops working at once), shown in the payload. */
export async function resetAlertIntegrationToken({ ctx, input }: Verb<{ id: number }>): Promise<AlertIntegrationWithProject> {
  const { project, integration } = await findIntegration(ctx, input.id);
  const token = newIntegrationToken();
  const updated = await q.updateAlertIntegration(ctx.db, integration.id, { tokenDigest: await sha256Hex(token) });
  if (!updated) throw notFound('AlertManagement::HttpIntegration');
  return { project, integration: updated, token };
}

/** HttpIntegrationDestroy: the integration as it was; its URL and token stop working. */
export async function destroyAlertIntegration({ ctx, input }: Verb<{ id: number }>): Promise<AlertIntegrationWithProject> {
  const { project, integration } = await findIntegration(ctx, input.id);
  await q.deleteAlertIntegration(ctx.db, integration.id);
  return { project, integration, token: null };
}
