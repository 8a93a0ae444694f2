// PUT /projects/:id/transfer and POST /groups/:id/projects/:project_id (GitLab 13.6's Projects::TransferService):
// the project moves to another namespace with its path, members and repository; its old full path redirects (the
// redirect_routes trigger); its visibility is lowered to the new group's where that is lower.
import { findNamespaceView, fullPathTaken, lockFullPath, lockLiveNamespace } from '../groups/lookups.ts';
import { groupFacts } from '../groups/service.ts';
import * as q from '../../db/queries/projects.ts';
import type { RequestContext } from '../lib/context.ts';
import { invalidRecord, isUniqueViolation, notFound } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, can } from '../lib/policy.ts';
import { namespaceForNewProject } from './placement.ts';
import { projectFacts, reload } from './service.ts';

/** TransferService's errors, as the API renders `project.errors.messages`. */
const transferFailed = (message: string) => invalidRecord('Failed to transfer project', { new_namespace: [message] }, 'render_api_error');

/** The namespace `ref` names when the actor may read it (find_namespace!), or 404 `Namespace Not Found`. */
async function readableNamespace(ctx: RequestContext, ref: Ref | null) {
  const view = ref ? await findNamespaceView(ctx.db, ctx.actor, ref) : undefined;
  const ns = view?.namespace;
  const readable =
    view &&
    (ns!.kind === 'user'
      ? can(ctx.actor, 'personal_namespace:read', { kind: 'personal_namespace', ownerId: ns!.ownerId })
      : can(ctx.actor, 'group:read', groupFacts(view)));
  if (!readable) throw notFound('Namespace');
  return view!;
}

/**
 * Moves the project (already found readable) into the namespace `ref` names. The owner's change_namespace, then
 * TransferService#allowed_transfer? (another namespace the actor may create projects in) and its same-name check.
 */
export async function transferProject(ctx: RequestContext, project: q.ProjectView, ref: Ref | null) {
  assertCan(ctx.actor, 'project:change_namespace', projectFacts(project));
  const target = await readableNamespace(ctx, ref);
  const ns = target.namespace;
  if (ns.id === project.namespace.id || !(await namespaceForNewProject(ctx, { id: ns.id }))) {
    throw transferFailed('Transfer failed, please contact an admin.');
  }
  const p = project.project;
  const sameName = 'Project with same name or path in target namespace already exists';
  if (await q.projectNamedIn(ctx.db, ns.id, p.path, p.name)) throw transferFailed(sameName);
  try {
    await ctx.transaction(async (tx) => {
      // The target as it is now, held against a rename or deletion that would leave the project behind.
      const namespacePath = await lockLiveNamespace(tx, ns.id);
      if (namespacePath === undefined) throw notFound('Namespace');
      const fullPath = `${namespacePath}/${p.path}`;
      await lockFullPath(tx, fullPath);
      if (await fullPathTaken(tx, fullPath, { projectId: p.id })) throw transferFailed(sameName);
      await q.updateProject(tx, p.id, {
        namespaceId: ns.id,
        pathWithNamespace: fullPath,
        // Project#visibility_level_allowed_by_group?: never more visible than the new group.
        ...(ns.kind === 'group' && p.visibilityLevel > ns.visibilityLevel ? { visibilityLevel: ns.visibilityLevel } : {}),
      });
    });
  } catch (error) {
    // A project with the name or path arrived meanwhile (the unique indexes decide).
    if (isUniqueViolation(error, 'projects_namespace_name_lower_idx') || isUniqueViolation(error, 'projects_path_with_namespace_lower_idx')) {
      throw transferFailed(sameName);
    }
    throw error;
  }
  return reload(ctx, p.id);
}
