// Batched integration reads for GraphQL's per-request loaders (loaders.ts).
import { integrationsOfProjects as integrationRows } from '../../db/queries/alert-integrations.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { RequestContext } from '../lib/context.ts';
import { canAdminIntegrations, type AlertIntegrationWithProject } from './service.ts';

/**
 * Each project's integrations in id order: none where the actor does not manage them (GitLab's IntegrationsResolver
 * answers an empty list rather than an error). One statement for every project asked.
 */
export async function integrationsOfProjects(ctx: RequestContext, projects: readonly ProjectView[]): Promise<AlertIntegrationWithProject[][]> {
  const managed = projects.filter((p) => canAdminIntegrations(ctx, p));
  const rows = await integrationRows(ctx.db, [...new Set(managed.map((p) => p.project.id))]);
  return projects.map((project) =>
    managed.includes(project) ? rows.filter((i) => i.projectId === project.project.id).map((integration) => ({ project, integration, token: null })) : [],
  );
}
