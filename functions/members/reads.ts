// Batched membership reads for GraphQL (projectMembers/groupMembers under one or many projects or groups): one
// statement for every source asked, the same search rule and read_members policy as GET .../members.
import type { GroupView } from '../../db/queries/groups.ts';
import { listMembersPages, type MemberFilter, type MemberSource } from '../../db/queries/members.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { groupFacts } from '../groups/service.ts';
import type { RequestContext } from '../lib/context.ts';
import type { KeysetPage } from '../lib/pagination.ts';
import { can, isAdministrator, type GroupFacts, type ProjectFacts } from '../lib/policy.ts';
import { projectFacts } from '../projects/service.ts';

/** A project or group already found readable, as the members query and the policy see it. */
export interface MemberParent {
  source: MemberSource;
  facts: ProjectFacts | GroupFacts;
}

/** A project's memberships: its own, and those inherited from its group and the group's ancestors. */
export const projectMemberParent = (v: ProjectView): MemberParent => ({
  source: { type: 'Project', id: v.project.id, ancestorGroupIds: v.namespace.kind === 'group' ? v.namespace.traversalIds : [] },
  facts: projectFacts(v),
});

/** A group's memberships: its own, and those inherited from its ancestors. */
export const groupMemberParent = (v: GroupView): MemberParent => ({
  source: { type: 'Namespace', id: v.namespace.id, ancestorGroupIds: v.namespace.traversalIds.filter((id) => id !== v.namespace.id) },
  facts: groupFacts(v),
});

const mayReadMembers = (ctx: RequestContext, facts: ProjectFacts | GroupFacts) =>
  facts.kind === 'project' ? can(ctx.actor, 'project:read_members', facts) : can(ctx.actor, 'group:read_members', facts);

/** GET .../members's search for this caller: administrators match the primary email, everyone else the public one. */
export const memberFilter = (ctx: RequestContext, query: string | undefined, userIds?: number[]): MemberFilter => ({
  query: query || undefined,
  userIds,
  searchPrivateEmail: isAdministrator(ctx.actor),
});

export interface MemberPageParams {
  relations: { direct: boolean; inherited: boolean };
  search: string | undefined;
}

/** A keyset page of each source's memberships with their users; null for a source whose members the actor may not see. */
export async function memberPages(ctx: RequestContext, parents: readonly MemberParent[], params: MemberPageParams, page: KeysetPage) {
  const allowed = parents.filter((p) => mayReadMembers(ctx, p.facts));
  const pages = await listMembersPages(ctx.db, allowed.map((p) => p.source), params.relations, memberFilter(ctx, params.search), page);
  return parents.map((p) => {
    const i = allowed.indexOf(p);
    return i < 0 ? null : pages[i]!;
  });
}
