// Batched DAST profile reads for GraphQL's per-request loaders (loaders.ts): one statement for
// every project asked; none for a project whose profiles the actor may not read (unlicensed, below developer).
import { dastScannerProfilesOfProjects, dastSiteProfilesOfProjects } from '../../db/queries/dast.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { RequestContext } from '../lib/context.ts';
import { canReadProfiles, type DastScannerProfileWithProject, type DastSiteProfileWithProject } from './service.ts';

async function ofProjects<R extends { projectId: number }>(
  ctx: RequestContext,
  projects: readonly ProjectView[],
  read: (ids: number[]) => Promise<R[]>,
): Promise<Array<Array<{ project: ProjectView; profile: R }>>> {
  const readable = projects.filter((p) => canReadProfiles(ctx, p));
  const rows = await read([...new Set(readable.map((p) => p.project.id))]);
  return projects.map((project) =>
    readable.includes(project) ? rows.filter((r) => r.projectId === project.project.id).map((profile) => ({ project, profile })) : [],
  );
}

/** Each project's site profiles, by id. */
export const siteProfilesOfProjects = (ctx: RequestContext, projects: readonly ProjectView[]): Promise<DastSiteProfileWithProject[][]> =>
  ofProjects(ctx, projects, (ids) => dastSiteProfilesOfProjects(ctx.db, ids));

/** Each project's scanner profiles, by id. */
export const scannerProfilesOfProjects = (ctx: RequestContext, projects: readonly ProjectView[]): Promise<DastScannerProfileWithProject[][]> =>
  ofProjects(ctx, projects, (ids) => dastScannerProfilesOfProjects(ctx.db, ids));
