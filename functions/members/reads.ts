// Batched membership reads for GraphQL (projectMembers/groupMembers under one or many projects or groups): one
// statement for every source asked, the same search rule and read_members policy as GET .../members.
import type { GroupView } from '../../db/queries/groups.ts';
import { listMembersPages, type MemberFilter, type MemberSource } from '../../db/queries/members.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { RequestContext } from '../lib/context.ts';
import type { KeysetPage } from '../lib/pagination.ts';
import { isAdministrator, type GroupFacts, type ProjectFacts } from '../lib/policy.ts';
import { canOnSource, groupSource, projectSource, type Source } from '../sources/service.ts';

/** A project or group already found readable, as the members query and the policy see it. */
export interface MemberParent {
  source: MemberSource;
  facts: ProjectFacts | GroupFacts;
}

/** The memberships of a source: its own, and those inherited from the groups above it. */
export const memberSourceOf = (s: Source): MemberSource => ({
  type: s.kind === 'project' ? 'Project' : 'Namespace',
  id: s.id,
  ancestorGroupIds: s.ancestorGroupIds,
});

const memberParent = (s: Source): MemberParent => ({ source: memberSourceOf(s), facts: s.facts });
export const projectMemberParent = (v: ProjectView) => memberParent(projectSource(v));
export const groupMemberParent = (v: GroupView) => memberParent(groupSource(v));

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
  const allowed = parents.filter((p) => canOnSource(ctx, 'read_members', p.facts));
  const pages = await listMembersPages(
    ctx.db,
    allowed.map((p) => p.source),
    params.relations,
    memberFilter(ctx, params.search),
    page,
  );
  return parents.map((p) => {
    const i = allowed.indexOf(p);
    return i < 0 ? null : pages[i]!;
  });
}
