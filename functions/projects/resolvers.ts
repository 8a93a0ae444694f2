// GraphQL over the projects domain: project, projects and the Project type; project members and access levels (the
// MemberInterface the groups domain shares). Reads go through the same finders as REST; the policy answers
// userPermissions and who sees members.
import type { ProjectView } from '../../db/queries/projects.ts';
import { keysetConnection, type ConnectionArgs } from '../graphql/connection.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { orNull } from '../graphql/errors.ts';
import type { AccessLevelEnum, Resolvers } from '../graphql/generated.ts';
import { expectGlobalId, toGlobalId } from '../graphql/ids.ts';
import type { NamespaceModel } from '../groups/models.ts';
import type { MemberModel } from '../members/models.ts';
import type { RequestContext } from '../lib/context.ts';
import { AccessLevel, can, visibilityName } from '../lib/policy.ts';
import { projectMemberParent, type MemberParent } from '../members/reads.ts';
import { projectsPage, type ProjectFinderParams } from './reads.ts';
import { projectWebUrl } from './schemas.ts';
import { avatarUrl } from '../users/schemas.ts';
import { featureOpenTo, findProject, projectFacts } from './service.ts';
import { iso, renderPlainText } from '../lib/format.ts';

/** A ProjectConnection page (Query.projects): readable projects, keyset by id. */
export function projectConnection(ctx: RequestContext, args: ConnectionArgs, params: ProjectFinderParams, order: 'asc' | 'desc') {
  return keysetConnection<ProjectView>(
    args,
    order,
    (v) => v.project.id,
    (page) => projectsPage(ctx, params, page),
  );
}

/**
 * A MemberInterfaceConnection/GroupMemberConnection page: memberships of the project or group, keyset by membership
 * id, through the per-request loader (the connection under each of a list of projects or groups: one query for all
 * of them); null when the actor may not see the members.
 */
export async function memberConnection(
  { loaders }: GraphQLContext,
  parent: MemberParent,
  args: ConnectionArgs & { search?: string | null; relations?: readonly string[] | null },
) {
  const relations = args.relations ?? ['DIRECT', 'INHERITED'];
  const params = { relations: { direct: relations.includes('DIRECT'), inherited: relations.includes('INHERITED') }, search: args.search || undefined };
  let hidden = false;
  const connection = await keysetConnection<MemberModel>(
    args,
    'asc',
    (m) => m.member.id,
    async (page) => {
      const rows = await loaders.memberPages.load({ parent, args: { ...params, page } });
      hidden = rows === null;
      return rows ? [...rows] : [];
    },
  );
  return hidden ? null : connection;
}

const ACCESS_LEVEL_ENUM: Record<number, AccessLevelEnum> = {
  [AccessLevel.NONE]: 'NO_ACCESS',
  [AccessLevel.GUEST]: 'GUEST',
  [AccessLevel.REPORTER]: 'REPORTER',
  [AccessLevel.DEVELOPER]: 'DEVELOPER',
  [AccessLevel.MAINTAINER]: 'MAINTAINER',
  [AccessLevel.OWNER]: 'OWNER',
};

/** Types::AccessLevelType from a Gitlab::Access value. */
export const toAccessLevel = (level: number) => ({ integerValue: level, stringValue: ACCESS_LEVEL_ENUM[level] ?? null });

/** The fields ProjectMember and GroupMember share (MemberInterface). */
export const memberFields = (type: 'ProjectMember' | 'GroupMember') => ({
  id: (m: MemberModel) => toGlobalId(type, m.member.id),
  accessLevel: (m: MemberModel) => toAccessLevel(m.member.accessLevel),
  createdBy: (m: MemberModel, _a: unknown, { loaders }: GraphQLContext) => (m.member.createdById ? loaders.user.load(m.member.createdById) : null),
  createdAt: (m: MemberModel) => iso(m.member.createdAt),
  updatedAt: (m: MemberModel) => iso(m.member.updatedAt),
  // A date column: Ruby's Date#iso8601 is the bare date.
  expiresAt: (m: MemberModel) => m.member.expiresAt ?? null,
  user: (m: MemberModel) => m.user,
});

/** A namespace's "Parent / Child" full name: its own name at the top, else loaded (batched) when asked for. */
export function namespaceFullName(n: NamespaceModel, { loaders }: GraphQLContext): string | Promise<string> {
  const ns = n.namespace;
  if (n.fullName !== undefined) return n.fullName;
  if (ns.kind === 'user' || ns.parentId === null) return ns.name;
  return loaders.namespaceFullName.load(ns.id).then((name) => name ?? ns.name);
}

/** The project's namespace as a Namespace value, without a query (its full name loads on demand). */
const namespaceOf = (v: ProjectView, actorId: number | undefined): NamespaceModel => ({
  namespace: v.namespace,
  accessLevel: v.namespace.kind === 'user' ? (v.namespace.ownerId === actorId ? AccessLevel.OWNER : 0) : (v.groupAccess ?? 0),
  // The project is readable, so its namespace is visible to the actor one way or another.
  hasDescendantAccess: true,
});

export const projectResolvers: Resolvers = {
  Query: {
    project: (_root, { fullPath }, { ctx }) => orNull(() => findProject(ctx, { path: fullPath })),
    projects: (_root, args, { ctx }) => {
      const ids = args.ids?.map((gid) => expectGlobalId(gid, ['Project']).id as number);
      // ProjectsFinder's default order is id_desc; only id orderings page by keyset here.
      const order = /_asc$/i.test(args.sort ?? '') ? 'asc' : 'desc';
      return projectConnection(
        ctx,
        args,
        { ids, membership: args.membership ?? undefined, search: args.search || undefined, searchNamespaces: args.searchNamespaces ?? undefined },
        order,
      );
    },
  },
  Project: {
    id: (v) => toGlobalId('Project', v.project.id),
    name: (v) => v.project.name,
    path: (v) => v.project.path,
    fullPath: (v) => v.project.pathWithNamespace,
    nameWithNamespace: async (v, _a, context) => `${await namespaceFullName(namespaceOf(v, context.ctx.actor.user?.id), context)} / ${v.project.name}`,
    description: (v) => v.project.description,
    descriptionHtml: (v) => renderPlainText(v.project.description),
    visibility: (v) => visibilityName(v.project.visibilityLevel),
    webUrl: (v, _a, { ctx }) => projectWebUrl(ctx.config, v.project),
    httpUrlToRepo: (v, _a, { ctx }) => `${ctx.config.publicUrl}/${v.project.pathWithNamespace}.git`,
    sshUrlToRepo: (v, _a, { ctx }) => `git@${new URL(ctx.config.publicUrl).hostname}:${v.project.pathWithNamespace}.git`,
    avatarUrl: (v, _a, { ctx }) => avatarUrl(ctx.config, v.project.avatarUrl),
    createdAt: (v) => iso(v.project.createdAt),
    lastActivityAt: (v) => iso(v.project.lastActivityAt),
    archived: (v) => v.project.archived,
    starCount: (v) => v.project.starCount,
    forksCount: (v) => v.forksCount,
    // OpenIssuesCountService: confidential issues count for reporters and above only.
    openIssuesCount: (v, _a, { loaders }) => loaders.openIssuesCount.load(v),
    namespace: (v, _a, { ctx }) => namespaceOf(v, ctx.actor.user?.id),
    group: (v, _a, { loaders }) => (v.namespace.kind === 'group' ? loaders.groupView.load(v.namespace.id) : null),
    // Project#feature_available? for the caller, as REST's *_enabled.
    issuesEnabled: (v, _a, { ctx }) => featureOpenTo(ctx, v)('issues'),
    mergeRequestsEnabled: (v, _a, { ctx }) => featureOpenTo(ctx, v)('merge_requests'),
    snippetsEnabled: (v, _a, { ctx }) => featureOpenTo(ctx, v)('snippets'),
    wikiEnabled: (v, _a, { ctx }) => featureOpenTo(ctx, v)('wiki'),
    jobsEnabled: (v, _a, { ctx }) => featureOpenTo(ctx, v)('builds'),
    userPermissions: (v, _a, { ctx }) => {
      const p = projectFacts(v);
      return {
        adminOperations: can(ctx.actor, 'project:admin_operations', p),
        adminProject: can(ctx.actor, 'project:update', p),
        createIssue: can(ctx.actor, 'project:create_issue', p),
        createProjectSnippet: can(ctx.actor, 'project:create_snippet', p),
        downloadCode: can(ctx.actor, 'project:download_code', p),
        forkProject: can(ctx.actor, 'project:fork', p),
        readProject: can(ctx.actor, 'project:read', p),
        readProjectMember: can(ctx.actor, 'project:read_members', p),
        removeProject: can(ctx.actor, 'project:delete', p),
      };
    },
    projectMembers: (v, args, context) => memberConnection(context, projectMemberParent(v), args),
  },
  MemberInterface: {
    __resolveType: (m) => (m.member.sourceType === 'Project' ? 'ProjectMember' : 'GroupMember'),
  },
  ProjectMember: {
    ...memberFields('ProjectMember'),
    project: (m, _a, { loaders }) => loaders.projectView.load(m.member.sourceId),
  },
};
