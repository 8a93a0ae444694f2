// Metrics dashboard annotations (GitLab 13.6 Mutations::Metrics::Dashboard::Annotations::Create and
// Metrics::Dashboard::Annotations::CreateService): on an environment the actor may annotate (developers) and a
// dashboard its project has, with Metrics::Dashboard::Annotation's validations reported as the payload's errors.
import { insertAnnotation } from '../../db/queries/annotations.ts';
import type { AnnotationRow } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { serviceFailed, validationFailed } from '../lib/errors.ts';
import { assertCan } from '../lib/policy.ts';
import { projectFacts } from '../projects/service.ts';
import { dashboardExists } from '../environments/dashboards.ts';
import { readableEnvironment } from '../environments/service.ts';

const DASHBOARD_NOT_FOUND = 'Dashboard with requested path can not be found';

type Verb<I> = { ctx: RequestContext; input: I };

export interface NewAnnotationInput {
  environmentId: number;
  dashboardPath: string;
  description: string;
  startingAt: Date;
  endingAt: Date | null;
}

/** Annotation's validations in declaration order (starting_at, description, dashboard_path, ending_at). */
function annotationErrors(input: NewAnnotationInput): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (input.description.trim() === '') add('description', "can't be blank");
  if (input.description.length > 255) add('description', 'is too long (maximum is 255 characters)');
  if (input.dashboardPath.trim() === '') add('dashboard_path', "can't be blank");
  if (input.dashboardPath.length > 255) add('dashboard_path', 'is too long (maximum is 255 characters)');
  if (input.endingAt && input.endingAt < input.startingAt) add('ending_at', "can't be before starting_at time");
  return errors;
}

export async function createAnnotation({ ctx, input }: Verb<NewAnnotationInput>): Promise<AnnotationRow> {
  requireUser(ctx);
  const environment = await readableEnvironment(ctx, input.environmentId);
  assertCan(ctx.actor, 'project:create_metrics_dashboard_annotation', projectFacts(environment.project));
  // CreateService#parse_dashboard_path, before the annotation's own validations.
  if (!(await dashboardExists(ctx, environment, input.dashboardPath))) throw serviceFailed([DASHBOARD_NOT_FOUND]);
  const errors = annotationErrors(input);
  if (Object.keys(errors).length) throw validationFailed(errors);
  return insertAnnotation(ctx.db, {
    environmentId: input.environmentId,
    dashboardPath: input.dashboardPath,
    description: input.description,
    startingAt: input.startingAt,
    endingAt: input.endingAt,
  });
}

/** What GraphQL's MetricsDashboardAnnotation resolves from. */
export type AnnotationModel = AnnotationRow;
