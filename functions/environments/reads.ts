// Batched reads behind GraphQL's loaders: the environments of many projects (Project.environment/environments) and
// the annotations of many dashboards (MetricsDashboard.annotations), each one statement per batch.
import type { AnnotationWindow } from '../../db/queries/annotations.ts';
import { annotationsIn } from '../annotations/lookups.ts';
import { findEnvironmentsOfProjects } from '../../db/queries/environments.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { AnnotationRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { can } from '../lib/policy.ts';
import { projectFacts } from '../projects/service.ts';
import type { EnvironmentArgs, EnvironmentModel } from './service.ts';

export type { AnnotationWindow };

/** EnvironmentsFinder per project: by id, none where the actor may not read environments (reporters and above). */
export async function environmentsOfProjects(ctx: RequestContext, projects: readonly ProjectView[], args: EnvironmentArgs): Promise<EnvironmentModel[][]> {
  const readable = projects.filter((p) => can(ctx.actor, 'project:read_environment', projectFacts(p)));
  const rows = await findEnvironmentsOfProjects(
    ctx.db,
    readable.map((p) => p.project.id),
    { name: args.name ?? undefined, search: args.search ?? undefined, states: args.states ?? undefined },
  );
  return projects.map((project) => rows.filter((e) => e.projectId === project.project.id).map((environment) => ({ project, environment })));
}

/** Metrics::Dashboard::AnnotationsFinder for each dashboard window (the environments were read through the policy). */
export function annotationsOf(ctx: RequestContext, windows: readonly AnnotationWindow[]): Promise<AnnotationRow[][]> {
  return annotationsIn(ctx.db, windows);
}
