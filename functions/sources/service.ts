// "A project or a group": the source that members, labels, milestones and notification settings hang under
// (`/projects/:id/...` and `/groups/:id/...`, GitLab's `source`). One lookup by kind and ref, one read rule, the
// policy facts and where the source sits among groups; each domain adds its own scope on top.
import type { GroupView } from '../../db/queries/groups.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { NamespaceRow } from '../../db/schema/index.ts';
import { findGroup, groupFacts } from '../groups/service.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { notFound } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, can, type GroupFacts, type ProjectFacts } from '../lib/policy.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { projectSettings } from '../projects/settings.ts';
import { groupSettings } from '../groups/settings.ts';

export type SourceKind = 'project' | 'group';

/** What a source-scoped route names. */
export interface SourceInput {
  kind: SourceKind;
  ref: Ref | null;
}

interface Located {
  /** The project's id or the group's id. */
  id: number;
  fullPath: string;
  /** The project's namespace (a group or a personal namespace), or the group itself. */
  namespace: NamespaceRow;
  /** The groups above it, root first: a project's group and that group's ancestors; a group's ancestors (not itself). */
  ancestorGroupIds: number[];
  /** Its request_access_enabled setting (access requests). */
  requestAccessEnabled: boolean;
}

export type Source = Located & ({ kind: 'project'; facts: ProjectFacts } | { kind: 'group'; facts: GroupFacts });

/** A project already found readable (findProject, or a GraphQL parent), as a source. */
export const projectSource = (view: ProjectView): Source => {
  const ns = view.namespace;
  return {
    kind: 'project',
    facts: projectFacts(view),
    id: view.project.id,
    fullPath: view.project.pathWithNamespace,
    namespace: ns,
    ancestorGroupIds: ns.kind === 'group' ? ns.traversalIds : [],
    requestAccessEnabled: projectSettings(view.project).request_access_enabled,
  };
};

/** A group already found readable, as a source. */
export const groupSource = (view: GroupView): Source => {
  const ns = view.namespace;
  return {
    kind: 'group',
    facts: groupFacts(view),
    id: ns.id,
    fullPath: ns.fullPath,
    namespace: ns,
    ancestorGroupIds: ns.traversalIds.filter((id) => id !== ns.id),
    requestAccessEnabled: groupSettings(ns).request_access_enabled,
  };
};

/** The source the signed-in actor may read: 401 without a user (these APIs all `authenticate!`), 404 when missing or hidden. */
export async function loadSource(ctx: RequestContext, { kind, ref }: SourceInput): Promise<Source> {
  requireUser(ctx);
  return kind === 'project' ? projectSource(await findProject(ctx, ref)) : groupSource(await findGroup(ctx, ref));
}

/**
 * loadSource's read rule for a domain that looks its source up itself, in one statement with more columns (the
 * notification settings' query budget): the row, or 404 `Project Not Found` / `Group Not Found`.
 */
export function readableSource<R extends { facts: ProjectFacts | GroupFacts }>(ctx: RequestContext, kind: SourceKind, row: R | undefined): R {
  if (!row) throw notFound(kind === 'project' ? 'Project' : 'Group');
  assertCanOnSource(ctx, 'read', row.facts);
  return row;
}

/** The abilities the policy catalog holds for both kinds, as `project:<ability>` and `group:<ability>`. */
export type SourceAbility = 'read' | 'read_members' | 'admin_members' | 'admin_labels' | 'admin_milestones';

export function assertCanOnSource(ctx: RequestContext, ability: SourceAbility, facts: ProjectFacts | GroupFacts) {
  if (facts.kind === 'project') assertCan(ctx.actor, `project:${ability}`, facts);
  else assertCan(ctx.actor, `group:${ability}`, facts);
}

/** assertCanOnSource's answer as a boolean (for batched reads that skip what the actor may not see). */
export const canOnSource = (ctx: RequestContext, ability: SourceAbility, facts: ProjectFacts | GroupFacts) =>
  facts.kind === 'project' ? can(ctx.actor, `project:${ability}`, facts) : can(ctx.actor, `group:${ability}`, facts);
