// Requirement verbs (GitLab 13.6's RequirementsManagement::RequirementsFinder, CreateRequirementService and
// UpdateRequirementService): the license and the policy first; a create is one batch (the iid counter, the row,
// the read-back), an update one batch (the row and, when asked, a test report created by hand).
import { currentIidSql, nextIidStatement } from '../../db/queries/lib/internal-ids.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import * as q from '../../db/queries/requirements.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { notFound, validationFailed } from '../lib/errors.ts';
import type { KeysetPage } from '../lib/pagination.ts';
import { assertCan, can, requirementsAvailable, type RequirementsFacts } from '../lib/policy.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { requirementErrors, stripTitle, type RequirementParams } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** The project's facts with the instance's license for requirements (Ultimate). */
export const requirementsFacts = (ctx: RequestContext, project: ProjectView): RequirementsFacts => ({
  ...projectFacts(project),
  requirementsAvailable: requirementsAvailable(ctx.config.instanceTier),
});

const canRead = (ctx: RequestContext, project: ProjectView) => can(ctx.actor, 'project:read_requirement', requirementsFacts(ctx, project));

/** RequirementsFinder: a page of the project's requirements; none when unlicensed or not readable (no error). */
export async function requirementPage(
  ctx: RequestContext,
  project: ProjectView,
  filter: q.RequirementFilter,
  page: KeysetPage,
  by: 'id' | 'updated_at',
): Promise<q.RequirementView[]> {
  if (!canRead(ctx, project)) return [];
  return q.listRequirementViews(ctx.db, project.project.id, filter, page, by);
}

/** requirementStatesCount: null unless the actor may read the project's requirements. */
export async function requirementStateCounts(ctx: RequestContext, project: ProjectView) {
  if (!canRead(ctx, project)) return null;
  return q.countRequirementsByState(ctx.db, project.project.id);
}

/** The readable requirement of the project by iid (404 when missing, unlicensed or hidden). */
export async function findRequirement(ctx: RequestContext, ref: { projectPath: string; iid: number }) {
  const project = await findProject(ctx, { path: ref.projectPath });
  const view = canRead(ctx, project) ? await q.findRequirementView(ctx.db, project.project.id, ref.iid) : undefined;
  if (!view) throw notFound('Requirement');
  return { project, view };
}

function validate(p: RequirementParams, creating: boolean) {
  const errors = requirementErrors(p, creating);
  if (Object.keys(errors).length) throw validationFailed(errors);
}

export async function createRequirement({ ctx, input }: Verb<{ projectPath: string; title: string; description?: string | null | undefined }>) {
  const user = requireUser(ctx);
  const project = await findProject(ctx, { path: input.projectPath });
  assertCan(ctx.actor, 'project:create_requirement', requirementsFacts(ctx, project));
  const title = stripTitle(input.title);
  const description = input.description ?? null;
  validate({ title, description }, true);
  const projectId = project.project.id;
  const results = await ctx.batch((db) => [
    nextIidStatement(db, 'requirements', { projectId }),
    q.insertRequirementStatement(db, { projectId, iid: currentIidSql('requirements', { projectId }), authorId: user.id, title: title!, description }),
    q.lastInsertedRequirementViewQuery(db),
  ]);
  const [view] = results[results.length - 1] as q.RequirementView[];
  if (!view) throw notFound('Requirement');
  return { project, view };
}

export type UpdateRequirementParams = RequirementParams & { lastTestReportState?: q.TestReportState | undefined };

export async function updateRequirement({ ctx, input }: Verb<{ projectPath: string; iid: number; params: UpdateRequirementParams }>) {
  const user = requireUser(ctx);
  const found = await findRequirement(ctx, input);
  assertCan(ctx.actor, 'project:update_requirement', requirementsFacts(ctx, found.project));
  const { lastTestReportState, ...p } = input.params;
  const values = { ...p, title: stripTitle(p.title) };
  validate(values, false);
  const changes = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  const report = lastTestReportState ? { state: lastTestReportState, authorId: user.id } : null;
  const id = found.view.requirement.id;
  const results = await ctx.batch((db) => [...q.updateRequirementStatements(db, id, changes, report), q.requirementViewByIdQuery(db, id)]);
  const [view] = results[results.length - 1] as q.RequirementView[];
  if (!view) throw notFound('Requirement');
  return { project: found.project, view };
}
