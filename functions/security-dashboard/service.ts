// The instance security dashboard (GitLab 13.6 EE, Ultimate): addProjectToSecurityDashboard
// (Dashboard::Projects::CreateService), removeProjectFromSecurityDashboard and the dashboard's projects, with
// GitLab's sentences. A project stays on a user's list after they lose access, but is shown only while they are a
// developer of it (InstanceSecurityDashboard#projects).
import type { ProjectView } from '../../db/queries/projects.ts';
import * as q from '../../db/queries/security-dashboard.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { notFound, serviceFailed } from '../lib/errors.ts';
import { assertCan, can, securityDashboardAvailable } from '../lib/policy.ts';
import { readableProjectsByIds } from '../projects/reads.ts';
import { findProject, projectFacts } from '../projects/service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** How many dashboard projects are read for one user (GitLab's dashboards list at most this many). */
export const DASHBOARD_PROJECTS_LIMIT = 1000;

const licensed = (ctx: RequestContext) => securityDashboardAvailable(ctx.config.instanceTier);

export async function addProjectToSecurityDashboard({ ctx, input }: Verb<{ projectId: number }>): Promise<ProjectView> {
  const user = requireUser(ctx);
  const project = await findProject(ctx, { id: input.projectId });
  assertCan(ctx.actor, 'project:security_dashboard', projectFacts(project));
  const name = project.project.name;
  if (!licensed(ctx)) throw serviceFailed([`Cannot add project ${name}. Only projects created under a Gold license are available in Security Dashboards.`]);
  if (!(await q.addDashboardProject(ctx.db, user.id, project.project.id))) {
    throw serviceFailed([`Cannot add project ${name}. The project is already added to your Security Dashboard.`]);
  }
  return project;
}

export async function removeProjectFromSecurityDashboard({ ctx, input }: Verb<{ projectId: number }>): Promise<void> {
  const user = requireUser(ctx);
  // authorize :read_instance_security_dashboard: unlicensed is the resource error.
  if (!licensed(ctx)) throw notFound('InstanceSecurityDashboard');
  if (!(await q.removeDashboardProject(ctx.db, user.id, input.projectId))) {
    throw serviceFailed(["The project does not belong to your dashboard or you don't have permission to perform this action"]);
  }
}

/** Query.instanceSecurityDashboard: null for anonymous callers and unlicensed instances. */
export const securityDashboardVisible = (ctx: RequestContext) => licensed(ctx) && ctx.actor.user !== null;

/** The dashboard's projects the user may see there now (developer access; administrators all), in id order. */
export async function securityDashboardProjects(ctx: RequestContext): Promise<ProjectView[]> {
  if (!securityDashboardVisible(ctx)) return [];
  const ids = await q.dashboardProjectIds(ctx.db, ctx.actor.user!.id, DASHBOARD_PROJECTS_LIMIT);
  const views = await readableProjectsByIds(ctx, ids);
  return views.filter((v): v is ProjectView => v !== null && can(ctx.actor, 'project:security_dashboard', projectFacts(v)));
}
