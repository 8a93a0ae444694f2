// The SQL twins of the policy's rules (functions/lib/policy.ts decides; these say the same in SQL for queries that
// filter lists or load access facts), and the stored encodings they compare: access levels and visibility levels.
// They live beside the queries so that db/queries never imports functions/: the policy module imports and
// re-exports what its callers need. A rule changed here is changed in policy.ts too: the API tests of each listing
// check both faces (a single read and the list) for the same actors.
import { and, eq, gte, inArray, isNotNull, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { groupGroupLinks, issueAssignees, issues, members, namespaces, projectGroupLinks, projects, snippets, users } from '../../schema/index.ts';

/** members.access_level: GitLab's Gitlab::Access values. */
export const AccessLevel = { NONE: 0, GUEST: 10, REPORTER: 20, DEVELOPER: 30, MAINTAINER: 40, OWNER: 50 } as const;
export type AccessLevelValue = (typeof AccessLevel)[keyof typeof AccessLevel];
export const ACCESS_LEVELS = [10, 20, 30, 40, 50] as const;

/** *.visibility_level: GitLab's Gitlab::VisibilityLevel values. */
export const Visibility = { private: 0, internal: 10, public: 20 } as const;
export type VisibilityName = keyof typeof Visibility;
export const VISIBILITY_NAMES = ['private', 'internal', 'public'] as const;
export const visibilityName = (level: number): VisibilityName => (level >= 20 ? 'public' : level >= 10 ? 'internal' : 'private');

/** Who is looking, as far as the SQL twins care (the request's Viewer is one). */
export interface Viewer {
  user: { id: number; admin: boolean; external: boolean } | null;
}

export const isAdmin = (actor: Viewer) => actor.user?.admin === true;
/** External users see internal resources only where they are members (GitLab's external users). */
export const seesInternal = (actor: Viewer) => actor.user !== null && !actor.user.external;

/** A membership that has not expired (GitLab: expires_at in the future or none). The one definition. */
export const activeMembershipSql = sql`(${members.expiresAt} IS NULL OR ${members.expiresAt} > current_date)`;

/** activeMembershipSql for a `members` row under an alias (`m` in subqueries). */
export const activeMembershipOf = (alias: 'm') => sql.raw(`(${alias}.expires_at IS NULL OR ${alias}.expires_at > current_date)`);

/** A project or group link (sharing with a group) that has not expired: the one definition. */
export const activeLinkOf = (alias: 'gl' | 'pl') => sql.raw(`(${alias}.expires_at IS NULL OR ${alias}.expires_at > current_date)`);

/** Ids of groups the user belongs to directly (not expired), as a parenthesized subquery. */
const directGroupIds = (userId: number) =>
  sql`(SELECT ${members.sourceId} FROM ${members} WHERE ${members.userId} = ${userId} AND ${members.sourceType} = 'Namespace' AND ${activeMembershipSql})`;

/**
 * Ids of groups the user belongs to: directly, or as a member (direct or inherited) of a group they are shared with
 * (group_group_links, GitLab's share_group_with_group). Compared with `traversal_ids &&`, so their descendants count.
 */
export const memberGroupIds = (userId: number) =>
  sql`ARRAY(${directGroupIds(userId)} UNION SELECT gl.shared_group_id FROM ${groupGroupLinks} gl JOIN ${namespaces} sw ON sw.id = gl.shared_with_group_id
    WHERE sw.traversal_ids && ARRAY${directGroupIds(userId)} AND ${activeLinkOf('gl')})`;

/**
 * Ids of groups the user owns (an Owner membership, not expired): with `traversal_ids &&`, the namespaces of
 * User#owned_projects. Shares never make an owner of projects.
 */
export const ownedGroupIds = (userId: number) =>
  sql`ARRAY(SELECT ${members.sourceId} FROM ${members} WHERE ${members.userId} = ${userId} AND ${members.sourceType} = 'Namespace' AND ${members.accessLevel} = ${AccessLevel.OWNER} AND ${activeMembershipSql})`;

/**
 * Ids of projects the user belongs to: directly (not expired), or as a member (direct or inherited) of a group the
 * project is shared with (project_group_links), as a parenthesized subquery.
 */
export const memberProjectIds = (userId: number) =>
  sql`(SELECT ${members.sourceId} FROM ${members} WHERE ${members.userId} = ${userId} AND ${members.sourceType} = 'Project' AND ${activeMembershipSql}
    UNION SELECT pl.project_id FROM ${projectGroupLinks} pl JOIN ${namespaces} sw ON sw.id = pl.group_id
    WHERE sw.traversal_ids && ARRAY${directGroupIds(userId)} AND ${activeLinkOf('pl')})`;

const nullableLevel = (v: unknown) => (v == null ? null : Number(v));

/** The actor's direct membership level on the project whose id is `projectId` (null when none). */
export const directProjectAccessSql = (actor: Viewer, projectId: AnyPgColumn): SQL<number | null> =>
  actor.user
    ? sql`(SELECT max(${members.accessLevel}) FROM ${members} WHERE ${members.sourceType} = 'Project' AND ${members.sourceId} = ${projectId} AND ${members.userId} = ${actor.user.id} AND ${activeMembershipSql})`.mapWith(
        nullableLevel,
      )
    : sql`NULL`.mapWith(nullableLevel);

/**
 * The actor's level inherited through the groups in `traversalIds` (a namespace and its ancestors; null when none):
 * membership of one of them, or a link sharing one of them with a group the actor is a member of (directly or
 * through that group's ancestors), at the link's level where it is lower (GitLab's Gitlab::ProjectAuthorizations).
 */
export const inheritedAccessSql = (actor: Viewer, traversalIds: AnyPgColumn): SQL<number | null> =>
  actor.user
    ? sql`NULLIF(GREATEST(
        COALESCE((SELECT max(${members.accessLevel}) FROM ${members} WHERE ${members.sourceType} = 'Namespace' AND ${members.sourceId} = ANY(${traversalIds}) AND ${members.userId} = ${actor.user.id} AND ${activeMembershipSql}), 0),
        COALESCE((SELECT max(LEAST(gl.group_access, m.access_level)) FROM ${groupGroupLinks} gl
          JOIN ${namespaces} sw ON sw.id = gl.shared_with_group_id AND sw.deleted_at IS NULL
          JOIN ${members} m ON m.source_type = 'Namespace' AND m.source_id = ANY(sw.traversal_ids) AND m.user_id = ${actor.user.id} AND ${activeMembershipOf('m')}
          WHERE gl.shared_group_id = ANY(${traversalIds}) AND ${activeLinkOf('gl')}), 0)), 0)`.mapWith(nullableLevel)
    : sql`NULL`.mapWith(nullableLevel);

/**
 * The actor's level through links sharing the project whose id is `projectId` with a group the actor is a member of
 * (directly or through its ancestors), at the link's level where it is lower (null when none).
 */
export const sharedProjectAccessSql = (actor: Viewer, projectId: AnyPgColumn): SQL<number | null> =>
  actor.user
    ? sql`(SELECT max(LEAST(pl.group_access, m.access_level)) FROM ${projectGroupLinks} pl
        JOIN ${namespaces} sw ON sw.id = pl.group_id AND sw.deleted_at IS NULL
        JOIN ${members} m ON m.source_type = 'Namespace' AND m.source_id = ANY(sw.traversal_ids) AND m.user_id = ${actor.user.id} AND ${activeMembershipOf('m')}
        WHERE pl.project_id = ${projectId} AND ${activeLinkOf('pl')})`.mapWith(nullableLevel)
    : sql`NULL`.mapWith(nullableLevel);

/**
 * The actor's effective access level on a project: the highest of direct membership, inherited membership and
 * sharing. Separate subqueries (not one with OR) so each is an index lookup. Defaults to
 * the `projects` row joined with its `namespaces` row; aliases may be passed (a fork's source).
 */
export const projectAccessLevelSql = (
  actor: Viewer,
  project: { id: AnyPgColumn } = projects,
  namespace: { traversalIds: AnyPgColumn } = namespaces,
): SQL<number> =>
  actor.user
    ? sql`GREATEST(COALESCE(${directProjectAccessSql(actor, project.id)}, 0), COALESCE(${inheritedAccessSql(actor, namespace.traversalIds)}, 0), COALESCE(${sharedProjectAccessSql(actor, project.id)}, 0))`.mapWith(
        Number,
      )
    : sql`0`.mapWith(Number);

/** Effective access from direct, inherited and shared levels already loaded (the JS twin of projectAccessLevelSql). */
export const effectiveLevel = (direct: number | null, inherited: number | null, shared: number | null = null) =>
  Math.max(direct ?? 0, inherited ?? 0, shared ?? 0);

/** The actor's effective access level on the group row in scope (`namespaces`): membership of it or an ancestor. */
export const groupAccessLevelSql = (actor: Viewer): SQL<number> =>
  actor.user ? sql`COALESCE(${inheritedAccessSql(actor, namespaces.traversalIds)}, 0)`.mapWith(Number) : sql`0`.mapWith(Number);

/** The SQL twin of user:read_profile for one user row given as SQL (its id and private_profile). */
export const readsProfileSql = (actor: Viewer, id: SQL, privateProfile: SQL): SQL =>
  isAdmin(actor) ? sql`true` : actor.user ? sql`(NOT ${privateProfile} OR ${id} = ${actor.user.id})` : sql`NOT ${privateProfile}`;

/** Users whose profile the actor may see in lists (private profiles only to themselves and admins). */
export function visibleProfilesFilter(actor: Viewer): SQL | undefined {
  if (isAdmin(actor)) return undefined;
  return actor.user ? or(eq(users.privateProfile, false), eq(users.id, actor.user.id)) : eq(users.privateProfile, false);
}

/** Whether the actor belongs to something below the group row in scope (a subgroup or one of their projects). */
export const groupDescendantAccessSql = (actor: Viewer): SQL<boolean> =>
  actor.user
    ? // Nested in an outer sql`(...)`: drizzle strips table names from a single-table select's top-level columns, and
      // an unqualified "id" here would bind to the subqueries' rows instead of the outer namespace.
      // Deleted subgroups and projects (deletion accepted, purge pending) grant nothing.
      sql<boolean>`(${sql`EXISTS (SELECT 1 FROM ${namespaces} d WHERE ${namespaces.id} = ANY(d.traversal_ids) AND d.id <> ${namespaces.id} AND d.deleted_at IS NULL AND (d.id = ANY(${memberGroupIds(actor.user.id)}) OR EXISTS (SELECT 1 FROM ${projects} dp WHERE dp.namespace_id = d.id AND dp.deleted_at IS NULL AND dp.id IN ${memberProjectIds(actor.user.id)})))
        OR EXISTS (SELECT 1 FROM ${projects} gp WHERE gp.namespace_id = ${namespaces.id} AND gp.deleted_at IS NULL AND gp.id IN ${memberProjectIds(actor.user.id)})`})`
    : sql<boolean>`false`;

/** What lib/policy.ts's ProjectFeatureFacts holds: the project's feature access levels and public_builds. */
export interface ProjectFeatures {
  issues: number;
  repository: number;
  mergeRequests: number;
  builds: number;
  snippets: number;
  forking: number;
  publicJobs: boolean;
}

/** A project row's ProjectFeatures, as one JSON value of a select (aliases may be passed). */
export const projectFeaturesSql = (p: typeof projects = projects): SQL<ProjectFeatures> =>
  sql<ProjectFeatures>`json_build_object('issues', ${p.issuesAccessLevel}, 'repository', ${p.repositoryAccessLevel}, 'mergeRequests', ${p.mergeRequestsAccessLevel}, 'builds', ${p.buildsAccessLevel}, 'snippets', ${p.snippetsAccessLevel}, 'forking', ${p.forkingAccessLevel}, 'publicJobs', ${p.publicBuilds})`;

/** A project row's ProjectFeatures, read from the row itself. */
export const projectFeatures = (p: (typeof projects)['$inferSelect']): ProjectFeatures => ({
  issues: p.issuesAccessLevel,
  repository: p.repositoryAccessLevel,
  mergeRequests: p.mergeRequestsAccessLevel,
  builds: p.buildsAccessLevel,
  snippets: p.snippetsAccessLevel,
  forking: p.forkingAccessLevel,
  publicJobs: p.publicBuilds,
});

/**
 * Whether a feature of the project row in scope is open to the actor: the SQL twin of lib/policy's featureAvailable
 * (disabled: nobody; private: members from `minimum` up and administrators; enabled: whoever reads the project).
 */
export const featureAvailableSql = (
  actor: Viewer,
  level: AnyPgColumn,
  minimum: number = AccessLevel.GUEST,
  p: { id: AnyPgColumn } = projects,
  ns: { traversalIds: AnyPgColumn } = namespaces,
): SQL => (isAdmin(actor) ? sql`${level} >= 10` : sql`(${level} >= 20 OR (${level} >= 10 AND ${projectAccessLevelSql(actor, p, ns)} >= ${minimum}))`);

/**
 * Projects (joined with their namespace) the actor may read: the SQL twin of project:read. Aliases may be passed (a
 * fork's source project and namespace).
 */
export function visibleProjectsFilter(
  actor: Viewer,
  p: { id: AnyPgColumn; visibilityLevel: AnyPgColumn; deletedAt: AnyPgColumn } = projects,
  ns: { traversalIds: AnyPgColumn; deletedAt: AnyPgColumn } = namespaces,
): SQL | undefined {
  const live = and(isNull(p.deletedAt), isNull(ns.deletedAt));
  if (isAdmin(actor)) return live;
  if (!actor.user) return and(live, eq(p.visibilityLevel, Visibility.public));
  return and(
    live,
    or(
      gte(p.visibilityLevel, seesInternal(actor) ? Visibility.internal : Visibility.public),
      inArray(p.id, memberProjectIds(actor.user.id)),
      sql`${ns.traversalIds} && ${memberGroupIds(actor.user.id)}`,
    ),
  );
}

/** Groups the actor may read. */
export function visibleGroupsFilter(actor: Viewer): SQL | undefined {
  const live = and(eq(namespaces.kind, 'group'), isNull(namespaces.deletedAt));
  if (isAdmin(actor)) return live;
  if (!actor.user) return and(live, eq(namespaces.visibilityLevel, Visibility.public));
  return and(
    live,
    or(
      gte(namespaces.visibilityLevel, seesInternal(actor) ? Visibility.internal : Visibility.public),
      sql`${namespaces.traversalIds} && ${memberGroupIds(actor.user.id)}`,
      groupDescendantAccessSql(actor),
    ),
  );
}

/**
 * Whether the actor may read what is confidential on the issue row in scope (joined with its project and namespace):
 * reporters and above, the issue's author and its assignees. The confidential branch shared by canReadIssue and
 * canReadNote (GitLab's IssuePolicy and NotePolicy's can_read_confidential).
 */
function readsConfidentialOfIssueSql(actor: Viewer): SQL {
  if (isAdmin(actor)) return sql`true`;
  if (!actor.user) return sql`false`;
  const id = actor.user.id;
  return or(
    eq(issues.authorId, id),
    // Aliased: an unqualified outer `id` (single-table selects) still means the issue's, as issue_assignees has none.
    sql`EXISTS (SELECT 1 FROM ${issueAssignees} ia WHERE ia.issue_id = ${issues.id} AND ia.user_id = ${id})`,
    sql`${projectAccessLevelSql(actor)} >= ${AccessLevel.REPORTER}`,
  )!;
}

/**
 * Issues (joined with their project and its namespace) the actor may read: the SQL twin of canReadIssue. Confidential
 * issues only for reporters and above, their author and their assignees.
 */
export function visibleIssuesFilter(actor: Viewer): SQL | undefined {
  const readable = and(visibleProjectsFilter(actor), featureAvailableSql(actor, projects.issuesAccessLevel));
  if (isAdmin(actor)) return readable;
  return and(readable, or(eq(issues.confidential, false), readsConfidentialOfIssueSql(actor)));
}

/**
 * Notes on the issue row in scope (joined with its project and namespace) the actor may read, the issue being
 * readable: the SQL twin of canReadNote, for counters that must agree with the listing. `confidential` is the note's
 * column; it comes first so that the membership subqueries run for confidential notes only.
 */
export const readableIssueNotesSql = (actor: Viewer, confidential: SQLWrapper): SQL =>
  isAdmin(actor) ? sql`true` : sql`(NOT ${confidential} OR ${readsConfidentialOfIssueSql(actor)})`;

/**
 * Snippets (left-joined with their project and its namespace) the actor may read: the SQL twin of canReadSnippet.
 * Personal snippets: public, internal for signed-in non-external users, the author's own. Project snippets: the
 * project must be readable; then the same, plus everything for the project's members (guests and above).
 */
export function visibleSnippetsFilter(actor: Viewer): SQL | undefined {
  const personal = isNull(snippets.projectId);
  const readableProject = and(isNotNull(snippets.projectId), visibleProjectsFilter(actor), featureAvailableSql(actor, projects.snippetsAccessLevel));
  if (isAdmin(actor)) return or(personal, readableProject);
  const open = gte(snippets.visibilityLevel, seesInternal(actor) ? Visibility.internal : Visibility.public);
  if (!actor.user) return and(open, or(personal, readableProject));
  const own = eq(snippets.authorId, actor.user.id);
  return or(and(personal, or(open, own)), and(readableProject, or(open, own, sql`${projectAccessLevelSql(actor)} >= ${AccessLevel.GUEST}`)));
}

/**
 * Users (the `users` row in scope) who may read a project of this visibility whose members are `memberIds`: the SQL
 * twin of project:read for someone else than the actor (e.g. who may be assigned an issue). Administrators, anyone
 * on a public project, non-external users on an internal one, and members.
 */
export function projectReadersSql(visibilityLevel: number, memberIds: SQLWrapper): SQL {
  return or(
    eq(users.admin, true),
    visibilityLevel >= Visibility.public ? sql`true` : sql`false`,
    visibilityLevel >= Visibility.internal ? eq(users.external, false) : sql`false`,
    inArray(users.id, memberIds),
  )!;
}

/**
 * Whether the actor may read the merge requests of a readable project row (download_code): public and internal
 * projects, private ones for reporters and above. Aliases may be passed (the project of a joined MR).
 */
export const readsMergeRequestsSql = (
  actor: Viewer,
  p: { id: AnyPgColumn; visibilityLevel: AnyPgColumn; repositoryAccessLevel: AnyPgColumn; mergeRequestsAccessLevel: AnyPgColumn } = projects,
  ns: { traversalIds: AnyPgColumn } = namespaces,
): SQL =>
  and(
    isAdmin(actor) ? sql`true` : sql`(${p.visibilityLevel} >= ${Visibility.internal} OR ${projectAccessLevelSql(actor, p, ns)} >= ${AccessLevel.REPORTER})`,
    featureAvailableSql(actor, p.repositoryAccessLevel, AccessLevel.GUEST, p, ns),
    featureAvailableSql(actor, p.mergeRequestsAccessLevel, AccessLevel.REPORTER, p, ns),
  )!;

/**
 * Projects (joined with their namespace) whose merge requests the actor may read: the SQL twin of
 * canReadMergeRequest (download_code): readable public and internal projects, private ones for reporters and above.
 */
export function mergeRequestProjectsFilter(actor: Viewer): SQL | undefined {
  return and(visibleProjectsFilter(actor), readsMergeRequestsSql(actor));
}
