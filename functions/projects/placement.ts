// Where a project may go, for create, update and fork alike: the target namespace the actor may create in, the
// path already taken (and the unique-index race that says so late), a visibility its group allows.
import type { NamespaceView } from '../../db/queries/groups/namespaces.ts';
import { findNamespaceView, findPersonalNamespace } from '../groups/lookups.ts';
import { groupFacts } from '../groups/service.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { isUniqueViolation, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { AccessLevel, can, visibilityName } from '../lib/policy.ts';

/**
 * Where a new project goes: the given namespace if the actor may create there, else their personal one. A namespace
 * that is missing, hidden or not allowed gets `onDenied` (GitLab: a model error on create, 404 on fork).
 */
export async function targetNamespace(ctx: RequestContext, ref: Ref | null | undefined, onDenied: () => Error): Promise<NamespaceView> {
  const user = requireUser(ctx);
  if (ref === undefined) {
    const personal = await findPersonalNamespace(ctx.db, user.id);
    if (!personal) throw onDenied();
    return { namespace: personal, accessLevel: AccessLevel.OWNER, hasDescendantAccess: false };
  }
  const view = ref ? await namespaceForNewProject(ctx, ref) : undefined;
  if (!view) throw onDenied();
  return view;
}

/** The namespace `ref` names when the actor may create projects in it (GitLab's :create_projects). */
export async function namespaceForNewProject(ctx: RequestContext, ref: Ref): Promise<NamespaceView | undefined> {
  const view = await findNamespaceView(ctx.db, ctx.actor, ref);
  if (!view) return undefined;
  const ns = view.namespace;
  const allowed =
    ns.kind === 'user'
      ? can(ctx.actor, 'personal_namespace:create_project', { kind: 'personal_namespace', ownerId: ns.ownerId })
      : can(ctx.actor, 'group:create_project', groupFacts(view));
  return allowed ? view : undefined;
}

/** GitLab's Projects::CreateService#deny_namespace. */
export const namespaceNotValid = () => validationFailed({ namespace: ['is not valid'] });

export const pathTaken = () => validationFailed({ path: ['has already been taken'] });

/** Unique-index violations (two requests racing past the checks) as GitLab's model errors. */
export function rethrowTaken(error: unknown): never {
  if (isUniqueViolation(error, 'projects_namespace_name_lower_idx')) throw validationFailed({ name: ['has already been taken'] });
  if (isUniqueViolation(error, 'projects_path_with_namespace_lower_idx')) throw pathTaken();
  throw error;
}

/** A project's visibility may not exceed its group's (GitLab's visibility_level validation). */
export function checkVisibility(visibility: number, ns: NamespaceView['namespace']) {
  if (ns.kind === 'group' && visibility > ns.visibilityLevel) {
    throw validationFailed({ visibility_level: [`${visibilityName(visibility)} is not allowed in a ${visibilityName(ns.visibilityLevel)} group.`] });
  }
}
