// GraphQL over the groups domain: group, namespace, the Group and Namespace types and group members. Reads go
// through the same finders as REST; the policy decides what is readable.
import type { ProjectView } from '../../db/queries/projects.ts';
import { keysetConnection, type ConnectionArgs } from '../graphql/connection.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { orNull } from '../graphql/errors.ts';
import type { Resolvers } from '../graphql/generated.ts';
import { toGlobalId } from '../graphql/ids.ts';
import type { GroupModel, NamespaceModel } from './models.ts';
import { can, visibilityName } from '../lib/policy.ts';
import { groupMemberParent } from '../members/reads.ts';
import { memberConnection, memberFields, namespaceFullName } from '../projects/resolvers.ts';
import { avatarUrl } from '../users/schemas.ts';
import { groupWebUrl } from './schemas.ts';
import { findReadableNamespace } from './reads.ts';
import { findGroup, groupFacts } from './service.ts';
import { renderPlainText } from '../lib/format.ts';

/** A readable group by namespace id (a parent, a membership's group), batched; null when missing or hidden. */
const readableGroup = (id: number | null, { loaders }: GraphQLContext): Promise<GroupModel | null> | null => (id === null ? null : loaders.groupView.load(id));

/**
 * Projects of a namespace the actor may see, newest first (GitLab's keyset default, id desc), through the per-request
 * loader (under each of a list of groups: one query for all of them).
 */
function namespaceProjects(
  n: NamespaceModel,
  args: ConnectionArgs & { includeSubgroups?: boolean | null; search?: string | null },
  { loaders }: GraphQLContext,
) {
  const parent = { id: n.namespace.id, subgroups: args.includeSubgroups === true && n.namespace.kind === 'group' };
  const search = args.search || undefined;
  return keysetConnection<ProjectView>(
    args,
    'desc',
    (v) => v.project.id,
    async (page) => [...(await loaders.namespaceProjectPages.load({ parent, args: { search, page } }))],
  );
}

/** The fields Group and Namespace share. */
const namespaceFields = {
  name: (n: NamespaceModel) => n.namespace.name,
  path: (n: NamespaceModel) => n.namespace.path,
  fullPath: (n: NamespaceModel) => n.namespace.fullPath,
  fullName: (n: NamespaceModel, _a: unknown, context: GraphQLContext) => namespaceFullName(n, context),
  description: (n: NamespaceModel) => n.namespace.description,
  descriptionHtml: (n: NamespaceModel) => renderPlainText(n.namespace.description),
  visibility: (n: NamespaceModel) => visibilityName(n.namespace.visibilityLevel),
};

export const groupResolvers: Resolvers = {
  Query: {
    group: (_root, { fullPath }, { ctx }) => orNull(() => findGroup(ctx, { path: fullPath })),
    namespace: (_root, { fullPath }, { ctx }) => findReadableNamespace(ctx, fullPath),
  },
  Group: {
    ...namespaceFields,
    id: (g) => toGlobalId('Group', g.namespace.id),
    fullName: (g) => g.fullName,
    webUrl: (g, _a, { ctx }) => groupWebUrl(ctx.config, g.namespace.fullPath),
    avatarUrl: (g, _a, { ctx }) => avatarUrl(ctx.config, g.namespace.avatarUrl),
    parent: (g, _a, context) => readableGroup(g.namespace.parentId, context),
    userPermissions: (g, _a, { ctx }) => ({ readGroup: can(ctx.actor, 'group:read', groupFacts(g)) }),
    projects: (g, args, context) => namespaceProjects(g, args, context),
    groupMembers: (g, args, context) => memberConnection(context, groupMemberParent(g), args),
  },
  Namespace: {
    ...namespaceFields,
    // A group answers as itself (gid://gitlab/Group/N); a personal namespace as a Namespace.
    id: (n) => toGlobalId(n.namespace.kind === 'group' ? 'Group' : 'Namespace', n.namespace.id),
    projects: (n, args, context) => namespaceProjects(n, args, context),
  },
  GroupMember: {
    ...memberFields('GroupMember'),
    group: (m, _a, context) => readableGroup(m.member.sourceId, context),
  },
};
