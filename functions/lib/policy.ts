// THE permission module. Every "may this actor do that" question is answered here, from facts the queries load
// (visibility, the actor's effective access level); services call assertCan() before acting. List queries use the
// rules' SQL twins, which live beside the queries (db/queries/access.ts) so that db/queries never imports functions/.
// Nothing else compares access levels.
import { AccessLevel, isAdmin, seesInternal, Visibility } from '../../db/queries/access.ts';
import type { Actor } from './context.ts';
import { forbidden, notFound } from './errors.ts';

export { ACCESS_LEVELS, AccessLevel, type AccessLevelValue, Visibility, VISIBILITY_NAMES, visibilityName, type VisibilityName } from '../../db/queries/access.ts';

/** What the policy needs to know about a project, loaded with it in one query. */
export interface ProjectFacts {
  kind: 'project';
  visibilityLevel: number;
  /** The actor's effective access: direct membership or inherited from any ancestor group (0 when none). */
  accessLevel: number;
  archived: boolean;
}

export interface GroupFacts {
  kind: 'group';
  visibilityLevel: number;
  accessLevel: number;
  /** The actor is a member of a subgroup or project below this group (makes a private group visible). */
  hasDescendantAccess: boolean;
}

export interface UserFacts {
  kind: 'user';
  id: number;
  state: string;
  privateProfile?: boolean;
}

/** An issue with its project's facts: confidential issues are for reporters and above, the author and assignees. */
export interface IssueFacts {
  kind: 'issue';
  project: ProjectFacts;
  authorId: number | null;
  assigneeIds: readonly number[];
  confidential: boolean;
  /** Locked discussions take comments from project members only. */
  discussionLocked?: boolean;
}

/** A commit of a project: CommitPolicy delegates everything to the project (read_commit is download_code). */
export interface CommitFacts {
  kind: 'commit';
  project: ProjectFacts;
}

/**
 * A merge request with its target project's facts (the MR belongs to the target project). `sourceProject` is the
 * project its commits come from (a fork's, or the same project): pushing to its branch is the source's rule.
 */
export interface MergeRequestFacts {
  kind: 'merge_request';
  project: ProjectFacts;
  authorId: number | null;
  assigneeIds: readonly number[];
  /** Locked discussions take comments from project members only. */
  discussionLocked?: boolean;
}

/**
 * An epic as a noteable and awardable (GitLab 13.6 EE): EpicPolicy's rules are the group's epic rules
 * ('group:read_epic' with the license and the epic's confidentiality); its notes are the group's, not a project's.
 */
export interface EpicNoteableFacts {
  kind: 'epic';
  group: EpicFacts;
  authorId: number | null;
}

/**
 * An alert as a noteable (AlertManagement::AlertPolicy delegates to its project): read with the project's
 * read_alert_management_alert (reporters and above); it has no author.
 */
export interface AlertNoteableFacts {
  kind: 'alert';
  project: ProjectFacts;
  authorId: null;
}

/** What can carry notes: issues, merge requests, project snippets, commits, epics and alerts. */
export type NoteableFacts = IssueFacts | MergeRequestFacts | ProjectSnippetFacts | CommitFacts | EpicNoteableFacts | AlertNoteableFacts;

/** A note with the facts of what it is on. */
export interface NoteFacts {
  kind: 'note';
  noteable: NoteableFacts;
  authorId: number | null;
  system: boolean;
  /** GitLab 13.x confidential notes (internal notes later). */
  confidential: boolean;
}

/** A personal snippet (no project) or a project snippet, with its own visibility. */
export interface SnippetFacts {
  kind: 'snippet';
  visibilityLevel: number;
  authorId: number;
  /** The project of a project snippet; null for a personal snippet. */
  project: ProjectFacts | null;
}

export type ProjectSnippetFacts = SnippetFacts & { project: ProjectFacts };

/** A user's personal namespace (GitLab's Namespaces::UserNamespace). */
export interface PersonalNamespaceFacts {
  kind: 'personal_namespace';
  ownerId: number | null;
}

/** What members belong to: a project or a group (whose read rule decides 404 vs 403 for member actions). */
export type MemberSourceFacts = ProjectFacts | GroupFacts;

/** One membership, for changing or removing it (GitLab's GroupMemberPolicy/ProjectMemberPolicy). */
export interface MembershipFacts {
  kind: 'membership';
  source: MemberSourceFacts;
  /** The member's own access level on the source. */
  accessLevel: number;
  /** The membership is the actor's own: members may leave by themselves. */
  isSelf: boolean;
  /** The only Owner left of the group (ancestors' owners count): nobody may change or remove it, admins included. */
  lastOwner: boolean;
  /** The owner of a personal project's namespace: nobody may change or remove it. */
  namespaceOwner: boolean;
}

/** Granting `accessLevel` on the source; what the actor holds there is the source's `accessLevel`. */
export interface GrantFacts {
  kind: 'grant';
  source: MemberSourceFacts;
  accessLevel: number;
}

type Subject =
  | ProjectFacts
  | GroupFacts
  | PersonalNamespaceFacts
  | UserFacts
  | IssueFacts
  | MergeRequestFacts
  | NoteFacts
  | SnippetFacts
  | CommitFacts
  | MembershipFacts
  | GrantFacts
  | EpicNoteableFacts
  | AlertNoteableFacts;

const signedIn = (actor: Actor) => actor.user !== null;

function canReadProject(actor: Actor, p: ProjectFacts) {
  return isAdmin(actor) || p.visibilityLevel >= Visibility.public || (p.visibilityLevel >= Visibility.internal && seesInternal(actor)) || p.accessLevel >= AccessLevel.GUEST;
}

function canReadGroup(actor: Actor, g: GroupFacts) {
  return (
    isAdmin(actor) ||
    g.visibilityLevel >= Visibility.public ||
    (g.visibilityLevel >= Visibility.internal && seesInternal(actor)) ||
    g.accessLevel >= AccessLevel.GUEST ||
    g.hasDescendantAccess
  );
}

const level = (actor: Actor, s: { accessLevel: number }) => (isAdmin(actor) ? AccessLevel.OWNER : s.accessLevel);

/**
 * GitLab's read_snippet (PersonalSnippetPolicy, ProjectSnippetPolicy): administrators, the author, anyone for public
 * snippets, signed-in non-external users for internal ones. A project snippet also needs a readable project, and the
 * project's members (guests and above) see its internal and private snippets too.
 */
function canReadSnippet(actor: Actor, s: SnippetFacts) {
  if (s.project && !canReadProject(actor, s.project)) return false;
  if (isAdmin(actor) || s.visibilityLevel >= Visibility.public) return true;
  if (actor.user !== null && actor.user.id === s.authorId) return true;
  if (s.project && s.project.accessLevel >= AccessLevel.GUEST) return true;
  return s.visibilityLevel >= Visibility.internal && seesInternal(actor);
}

/** update_snippet / admin_snippet: the author, administrators, and a project snippet's maintainers and above. */
const canAdminSnippet = (actor: Actor, s: SnippetFacts) =>
  canReadSnippet(actor, s) && signedIn(actor) && (actor.user!.id === s.authorId || (s.project !== null ? level(actor, s.project) >= AccessLevel.MAINTAINER : isAdmin(actor)));

/** GitLab's read_issue: confidential issues only for reporters and above, their author and their assignees. */
function canReadIssue(actor: Actor, i: IssueFacts) {
  if (!canReadProject(actor, i.project)) return false;
  if (!i.confidential) return true;
  const id = actor.user?.id;
  return level(actor, i.project) >= AccessLevel.REPORTER || (id !== undefined && (id === i.authorId || i.assigneeIds.includes(id)));
}

/** download_code: anyone who reads a public or internal project; reporters and above of a private one. */
const canDownloadCode = (actor: Actor, p: ProjectFacts) => canReadProject(actor, p) && (p.visibilityLevel >= Visibility.internal || level(actor, p) >= AccessLevel.REPORTER);

/**
 * GitLab's read_merge_request: the project's merge requests feature is for those who may read its code (anyone who
 * reads a public or internal project; reporters and above of a private one, as download_code).
 */
const canReadMergeRequest = (actor: Actor, m: MergeRequestFacts) => canDownloadCode(actor, m.project);

/** update_merge_request: developers and above, the author and the assignees (IssuablePolicy); never when archived. */
const canUpdateMergeRequest = (actor: Actor, m: MergeRequestFacts) =>
  canReadMergeRequest(actor, m) &&
  signedIn(actor) &&
  !m.project.archived &&
  (level(actor, m.project) >= AccessLevel.DEVELOPER || actor.user!.id === m.authorId || m.assigneeIds.includes(actor.user!.id));

/** EE's read_epic: licensed, the group readable, a confidential epic for reporters and above. */
const canReadEpic = (actor: Actor, e: EpicFacts) => e.epicsAvailable && canReadGroup(actor, e) && (!e.confidential || level(actor, e) >= AccessLevel.REPORTER);

/** read_alert_management_alert (ProjectPolicy, 13.6): reporters and above of a project they can read. */
const canReadAlert = (actor: Actor, p: ProjectFacts) => canReadProject(actor, p) && signedIn(actor) && level(actor, p) >= AccessLevel.REPORTER;

/** The actor's level where the noteable lives: its project's, or an epic's group's. */
const noteableLevel = (actor: Actor, n: NoteableFacts) => level(actor, n.kind === 'epic' ? n.group : n.project);

const canReadNoteable = (actor: Actor, n: NoteableFacts): boolean =>
  n.kind === 'epic'
    ? canReadEpic(actor, n.group)
    : n.kind === 'alert'
    ? canReadAlert(actor, n.project)
    : n.kind === 'issue'
    ? canReadIssue(actor, n)
    : n.kind === 'merge_request'
      ? canReadMergeRequest(actor, n)
      : n.kind === 'commit'
        ? canDownloadCode(actor, n.project)
        : canReadSnippet(actor, n);

/**
 * GitLab's read_note: the noteable must be readable; a confidential note only for reporters and above and the
 * noteable's author and assignees (NotePolicy's can_read_confidential).
 */
function canReadNote(actor: Actor, n: NoteFacts) {
  if (!canReadNoteable(actor, n.noteable)) return false;
  if (!n.confidential) return true;
  const id = actor.user?.id;
  const assignees = n.noteable.kind === 'issue' || n.noteable.kind === 'merge_request' ? n.noteable.assigneeIds : [];
  const authorId = n.noteable.kind === 'commit' ? null : n.noteable.authorId;
  return noteableLevel(actor, n.noteable) >= AccessLevel.REPORTER || (id !== undefined && (id === authorId || assignees.includes(id)));
}

/** IssuablePolicy: a locked discussion takes no comments (nor edits, nor awards) from non-members. */
const lockedOut = (actor: Actor, n: NoteableFacts) =>
  (n.kind === 'issue' || n.kind === 'merge_request') && n.discussionLocked === true && level(actor, n.project) < AccessLevel.GUEST;

/** What carries award emoji: issues, merge requests, notes (on those or snippets) and snippets. */
export type AwardableFacts = IssueFacts | MergeRequestFacts | NoteFacts | SnippetFacts | EpicNoteableFacts;

/**
 * GitLab's award_emoji: signed in and able to read the awardable; never in an archived project (ArchivedAbilities),
 * nor on a locked discussion for non-members. A note also needs what its noteable needs.
 */
function canAward(actor: Actor, s: AwardableFacts): boolean {
  if (!signedIn(actor)) return false;
  // System notes are not emoji-awardable (Note#emoji_awardable?); a commit is not Awardable, nor its notes here.
  // A note on an alert (not itself awardable) is, unless the project is archived.
  if (s.kind === 'note')
    return canReadNote(actor, s) && !s.system && s.noteable.kind !== 'commit' && (s.noteable.kind === 'alert' ? !s.noteable.project.archived : canAward(actor, s.noteable));
  if (s.kind === 'epic') return canReadNoteable(actor, s);
  if (s.kind === 'issue') return canReadIssue(actor, s) && !s.project.archived && !lockedOut(actor, s);
  if (s.kind === 'merge_request') return canReadMergeRequest(actor, s) && !s.project.archived && !lockedOut(actor, s);
  return canReadSnippet(actor, s) && s.project?.archived !== true;
}

const ownsNamespace = (actor: Actor, n: PersonalNamespaceFacts) => isAdmin(actor) || (actor.user !== null && actor.user.id === n.ownerId);

const canReadSource = (actor: Actor, source: MemberSourceFacts) => (source.kind === 'project' ? canReadProject(actor, source) : canReadGroup(actor, source));

/** admin_project_member (maintainers) and admin_group_member (owners). */
const canAdminMembers = (actor: Actor, source: MemberSourceFacts) =>
  canReadSource(actor, source) && level(actor, source) >= (source.kind === 'project' ? AccessLevel.MAINTAINER : AccessLevel.OWNER);

/** Nobody grants, nor changes a member holding, more than they hold themselves (admins hold everything). */
const holdsAtLeast = (actor: Actor, source: MemberSourceFacts, accessLevel: number) => isAdmin(actor) || accessLevel <= source.accessLevel;

/** The catalog of actions. Each rule assumes nothing: read rights are part of every rule. */
const rules = {
  'project:read': (a: Actor, p: ProjectFacts) => canReadProject(a, p),
  'project:update': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && level(a, p) >= AccessLevel.MAINTAINER,
  'project:delete': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && level(a, p) >= AccessLevel.OWNER,
  'project:star': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a),
  // Anyone signed in who can read a project may fork it, except guests of a private project (GitLab's fork_project).
  'project:fork': (a: Actor, p: ProjectFacts) =>
    canReadProject(a, p) && signedIn(a) && (p.visibilityLevel >= Visibility.internal || level(a, p) >= AccessLevel.REPORTER),
  // download_code (pushes, commits): anyone who reads a public or internal project; reporters and above of a private one.
  'project:download_code': (a: Actor, p: ProjectFacts) => canDownloadCode(a, p),
  // push_code (commits, files, branches): developers and above, never into an archived project. Which branches a
  // developer may push to is the protected-branch rule on top of this (the default branch is protected as GitLab's
  // default_branch_protection 2: maintainers only): 'project:push_to_protected_branch'.
  'project:push_code': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  'project:push_to_protected_branch': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.MAINTAINER,
  'project:read_members': (a: Actor, p: ProjectFacts) => canReadProject(a, p),
  'project:admin_members': (a: Actor, p: ProjectFacts) => canAdminMembers(a, p),
  // GitLab's :admin_operations (error tracking and other operations settings): maintainers.
  'project:admin_operations': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.MAINTAINER,
  // Issues: anyone signed in who can read the project may open one (GitLab's create_issue on public and internal
  // projects; guests and above on private ones). Labels and milestones are managed by reporters and above.
  'project:create_issue': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived,
  // GitLab's admin_issue (set labels, assignees, milestone, due date, lock; time tracking): reporters and above.
  'project:admin_issues': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.REPORTER,
  // Backdating an issue (`created_at`): project owners and administrators.
  'project:set_issue_created_at': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.OWNER,
  'project:admin_labels': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.REPORTER,
  'project:admin_milestones': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.REPORTER,
  // Issue boards (13.6 ProjectPolicy): read_board is reading the project; admin_board/admin_list are reporters and above.
  'project:read_board': (a: Actor, p: ProjectFacts) => canReadProject(a, p),
  'project:admin_board': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.REPORTER,
  // Project snippets (create_snippet): reporters and above, not in archived projects.
  'project:create_snippet': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.REPORTER,
  // Requirements (EE::ProjectPolicy, 13.6): licensed on Ultimate (`requirements_available`); read with the project,
  // create/admin/update reporters and above, destroy owners.
  'project:read_requirement': (a: Actor, p: RequirementsFacts) => p.requirementsAvailable && canReadProject(a, p),
  'project:create_requirement': (a: Actor, p: RequirementsFacts) => p.requirementsAvailable && canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.REPORTER,
  'project:admin_requirement': (a: Actor, p: RequirementsFacts) => p.requirementsAvailable && canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.REPORTER,
  'project:update_requirement': (a: Actor, p: RequirementsFacts) => p.requirementsAvailable && canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.REPORTER,
  'project:destroy_requirement': (a: Actor, p: RequirementsFacts) => p.requirementsAvailable && canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.OWNER,
  // On-demand DAST scans (EE::ProjectPolicy, 13.6: `can?(:developer_access) & on_demand_scans_enabled`, the
  // `security_on_demand_scans` license, Ultimate): developers and above read the profiles and create scans.
  'project:read_on_demand_scans': (a: Actor, p: OnDemandScanFacts) => p.onDemandScansAvailable && canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.DEVELOPER,
  'project:create_on_demand_dast_scan': (a: Actor, p: OnDemandScanFacts) =>
    p.onDemandScansAvailable && canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.DEVELOPER,
  // Clusters and cluster agents (ProjectPolicy, 13.6): maintainers and above; an archived project's clusters cannot
  // be created or administered (its `archived_features` include cluster). The agents' license (Premium) is the
  // agents service's check, as GitLab's Clusters::Agents services make it.
  'project:read_cluster': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.MAINTAINER,
  'project:create_cluster': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.MAINTAINER,
  'project:admin_cluster': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.MAINTAINER,
  // Deploy keys (the API's `authorize_admin_project`: maintainers). A key's title is changed by those who may
  // update the key (DeployKeyPolicy: administrators, or for a private key the members of a project holding it);
  // a public key's push right by the project's maintainers (DeployKeysProjectPolicy).
  // CI/CD (ProjectPolicy 13.6, public_builds on as GitLab's default): whoever reads the project reads its pipelines,
  // jobs, traces and artifacts; developers run, retry and cancel them; maintainers administer triggers and runners
  // (admin_build, admin_project: the runners token); owners delete pipelines.
  'project:read_pipeline': (a: Actor, p: ProjectFacts) => canReadProject(a, p),
  'project:read_build': (a: Actor, p: ProjectFacts) => canReadProject(a, p),
  'project:create_pipeline': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  'project:update_pipeline': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  'project:destroy_pipeline': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.OWNER,
  'project:read_pipeline_variable': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.DEVELOPER,
  // admin_pipeline: maintainers (ProjectPolicy's maintainer_access rule); GraphQL's PipelinePermissions shows it.
  'project:admin_pipeline': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.MAINTAINER,
  'project:update_build': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  // erase_build: maintainers, or the developer who ran the job (BuildPolicy's owner_of_build).
  'project:erase_build': (a: Actor, p: ProjectFacts & { buildUserId: number | null }) =>
    canReadProject(a, p) && signedIn(a) && !p.archived && (level(a, p) >= AccessLevel.MAINTAINER || (level(a, p) >= AccessLevel.DEVELOPER && a.user!.id === p.buildUserId)),
  'project:admin_build': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.MAINTAINER,
  // admin_trigger (Ci::TriggerPolicy, 13.6): admin_build, and only the trigger's owner (changing a trigger).
  'project:admin_trigger': (a: Actor, p: ProjectFacts & { triggerOwnerId: number | null }) =>
    canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.MAINTAINER && a.user!.id === p.triggerOwnerId,
  'project:read_commit_status': (a: Actor, p: ProjectFacts) => canReadProject(a, p),
  'project:create_commit_status': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  // Environments and deployments: reporters read them; developers create, change, stop and delete (stopped ones) them.
  'project:read_environment': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.REPORTER,
  'project:create_environment': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  // ProjectPolicy 13.6's developer block (update_environment, destroy_environment, create/update_deployment,
  // create_metrics_dashboard_annotation); EnvironmentPolicy: `~stopped` prevents destroy_environment, and
  // stop_environment needs create_deployment + update_build (with a stop job) or update_environment: developers.
  'project:update_environment': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  'project:stop_environment': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  'project:destroy_stopped_environment': (a: Actor, p: ProjectFacts & { environmentStopped: boolean }) =>
    canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.DEVELOPER && p.environmentStopped,
  'project:read_deployment': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.REPORTER,
  'project:create_deployment': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  'project:update_deployment': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  'project:create_metrics_dashboard_annotation': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  'project:admin_deploy_keys': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.MAINTAINER,
  'project:update_deploy_key_title': (a: Actor, p: ProjectFacts & { deployKeyPublic: boolean }) =>
    canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.MAINTAINER && (isAdmin(a) || !p.deployKeyPublic),
  // The instance security dashboard (EE, 13.6): a project is added by (and shown to) its developers and above
  // (`developer_access`); administrators see every project (read_all_resources).
  'project:security_dashboard': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.DEVELOPER,
  // destroy_container_image (ProjectPolicy, 13.6): developers and above; what reads and changes the project's
  // container expiration policy through GraphQL.
  'project:destroy_container_image': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.DEVELOPER,
  // admin_compliance_framework (EE ProjectPolicy, 13.6): owners (of the project or its group) and administrators;
  // the license (Premium) is the projects service's check, which drops the parameter silently as GitLab does.
  'project:admin_compliance_framework': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.OWNER,
  // Alert management (ProjectPolicy, 13.6): reporters read alerts, developers change them (status, assignees,
  // to-dos, issues, notes); the HTTP integrations are operations settings (admin_operations, above).
  'project:read_alert_management_alert': (a: Actor, p: ProjectFacts) => canReadAlert(a, p),
  'project:update_alert_management_alert': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.DEVELOPER,
  'snippet:read': (a: Actor, s: SnippetFacts) => canReadSnippet(a, s),
  'snippet:update': (a: Actor, s: SnippetFacts) => canAdminSnippet(a, s),
  'snippet:delete': (a: Actor, s: SnippetFacts) => canAdminSnippet(a, s),
  'issue:read': (a: Actor, i: IssueFacts) => canReadIssue(a, i),
  // update_issue: reporters and above, or the author (GitLab lets authors edit their own issues).
  'issue:update': (a: Actor, i: IssueFacts) =>
    canReadIssue(a, i) && signedIn(a) && (level(a, i.project) >= AccessLevel.REPORTER || a.user!.id === i.authorId),
  // IssuePolicy's admin_issue (read_issue and the project's admin_issue): labels, assignees, milestone, due date,
  // lock and time tracking on an existing issue.
  'issue:admin': (a: Actor, i: IssueFacts) => canReadIssue(a, i) && signedIn(a) && level(a, i.project) >= AccessLevel.REPORTER,
  // destroy_issue: owners (and admins).
  'issue:delete': (a: Actor, i: IssueFacts) => canReadIssue(a, i) && level(a, i.project) >= AccessLevel.OWNER,
  // Merge requests. create_merge_request_in (the target): anyone signed in who reads its code, not archived;
  // create_merge_request_from (the source): who may push to it (developers and above).
  'project:create_merge_request_in': (a: Actor, p: ProjectFacts) => canDownloadCode(a, p) && signedIn(a) && !p.archived,
  'project:create_merge_request_from': (a: Actor, p: ProjectFacts) => canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  // admin_merge_request on the project (assignees, reviewers, milestone and labels of a new MR): developers and above.
  'project:admin_merge_requests': (a: Actor, p: ProjectFacts) => canDownloadCode(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  'merge_request:read': (a: Actor, m: MergeRequestFacts) => canReadMergeRequest(a, m),
  'merge_request:update': (a: Actor, m: MergeRequestFacts) => canUpdateMergeRequest(a, m),
  // admin_merge_request (assignees, reviewers, labels, milestone, lock, time tracking): developers and above.
  'merge_request:admin': (a: Actor, m: MergeRequestFacts) => canReadMergeRequest(a, m) && signedIn(a) && !m.project.archived && level(a, m.project) >= AccessLevel.DEVELOPER,
  // destroy_merge_request: owners (and admins).
  'merge_request:delete': (a: Actor, m: MergeRequestFacts) => canReadMergeRequest(a, m) && level(a, m.project) >= AccessLevel.OWNER,
  // create_note: anyone signed in who can read the noteable, unless the project is archived or the discussion is
  // locked to members. A commit comment (commits.rb) is checked for download_code only: archived projects take them.
  'noteable:create_note': (a: Actor, n: NoteableFacts) =>
    canReadNoteable(a, n) && signedIn(a) && (n.kind === 'commit' || n.kind === 'epic' || !n.project.archived) && !lockedOut(a, n),
  // Backdating a note (`created_at`): project owners and administrators, as for issues.
  'noteable:set_note_created_at': (a: Actor, n: NoteableFacts) => canReadNoteable(a, n) && signedIn(a) && noteableLevel(a, n) >= AccessLevel.OWNER,
  // Marking a note confidential: those who may read confidential notes anyway (reporters and above).
  'noteable:create_confidential_note': (a: Actor, n: NoteableFacts) => canReadNoteable(a, n) && signedIn(a) && noteableLevel(a, n) >= AccessLevel.REPORTER,
  'note:read': (a: Actor, n: NoteFacts) => canReadNote(a, n),
  // admin_note (edit, delete): the note's author or maintainers and above; never a system note.
  'note:admin': (a: Actor, n: NoteFacts) =>
    canReadNote(a, n) && signedIn(a) && !n.system && !lockedOut(a, n.noteable) && (a.user!.id === n.authorId || noteableLevel(a, n.noteable) >= AccessLevel.MAINTAINER),
  // resolve_note on one note (PUT .../discussions/:id/notes/:note_id with `resolved`, GitLab 13.6 NotePolicy): the
  // note's author, the noteable's author, or developers and above (ProjectPolicy's developer_access enables
  // resolve_note); never on a note the actor cannot read, nor on a discussion locked to non-members
  // (IssuablePolicy's `locked & ~is_project_member` prevents it). Whether the note is resolvable is the service's rule.
  'note:resolve': (a: Actor, n: NoteFacts) =>
    canReadNote(a, n) &&
    signedIn(a) &&
    !lockedOut(a, n.noteable) &&
    (a.user!.id === n.authorId ||
      (n.noteable.kind !== 'commit' && a.user!.id === n.noteable.authorId) ||
      noteableLevel(a, n.noteable) >= AccessLevel.DEVELOPER),
  // Resolving a whole discussion (PUT .../discussions/:id with `resolved`): ResolvableDiscussion#can_resolve? is the
  // noteable's author or `can?(:resolve_note, project)` (developers and above); the notes' authors are not enough.
  'noteable:resolve_discussion': (a: Actor, n: NoteableFacts) =>
    canReadNoteable(a, n) && signedIn(a) && ((n.kind !== 'commit' && a.user!.id === n.authorId) || noteableLevel(a, n) >= AccessLevel.DEVELOPER),
  // award_emoji: POST .../award_emoji (the awardable was found readable first).
  'awardable:award': (a: Actor, s: AwardableFacts) => canAward(a, s),
  // Removing an award: its awarder or an administrator (`unauthorized! unless award.user == current_user || admin`).
  'award:delete': (a: Actor, w: { userId: number }) => signedIn(a) && (a.user!.id === w.userId || isAdmin(a)),
  'group:read': (a: Actor, g: GroupFacts) => canReadGroup(a, g),
  'group:admin_labels': (a: Actor, g: GroupFacts) => canReadGroup(a, g) && signedIn(a) && level(a, g) >= AccessLevel.REPORTER,
  'group:admin_milestones': (a: Actor, g: GroupFacts) => canReadGroup(a, g) && signedIn(a) && level(a, g) >= AccessLevel.REPORTER,
  // Group boards (EE GroupPolicy): read_board is reading the group; admin_board/admin_list are reporters and above.
  'group:read_board': (a: Actor, g: GroupFacts) => canReadGroup(a, g),
  'group:admin_board': (a: Actor, g: GroupFacts) => canReadGroup(a, g) && signedIn(a) && level(a, g) >= AccessLevel.REPORTER,
  // Epics (EE::GroupPolicy, 13.6): licensed on Premium and above (`epics_available`); read with the group
  // (confidential epics: reporters and above), create/admin reporters and above, destroy owners.
  'group:read_epic': (a: Actor, e: EpicFacts) => canReadEpic(a, e),
  // An epic as a noteable or awardable is read as the group's epic rule reads it.
  'epic:read': (a: Actor, e: EpicNoteableFacts) => canReadEpic(a, e.group),
  'group:create_epic': (a: Actor, e: EpicFacts) => e.epicsAvailable && canReadGroup(a, e) && signedIn(a) && level(a, e) >= AccessLevel.REPORTER,
  'group:admin_epic': (a: Actor, e: EpicFacts) => e.epicsAvailable && canReadGroup(a, e) && signedIn(a) && level(a, e) >= AccessLevel.REPORTER,
  // Child epics (EE::GroupPolicy): linking/creating/moving children is admin_epic_link (reporters with the subepics
  // license, Ultimate); unlinking is destroy_epic_link (reporters with epics), so a downgraded group can still prune.
  'group:admin_epic_link': (a: Actor, e: EpicFacts) =>
    e.epicsAvailable && e.subepicsAvailable === true && canReadGroup(a, e) && signedIn(a) && level(a, e) >= AccessLevel.REPORTER,
  'group:destroy_epic_link': (a: Actor, e: EpicFacts) => e.epicsAvailable && canReadGroup(a, e) && signedIn(a) && level(a, e) >= AccessLevel.REPORTER,
  'group:destroy_epic': (a: Actor, e: EpicFacts) => e.epicsAvailable && canReadGroup(a, e) && signedIn(a) && level(a, e) >= AccessLevel.OWNER,
  // Iterations (EE, 13.6: `iterations` licensed on Premium and above): read with the group or project, created by
  // developers and above (EE::GroupPolicy's create_iteration; project-level iterations are refused by the model).
  'group:read_iteration': (a: Actor, g: IterationParentFacts<GroupFacts>) => g.iterationsAvailable && canReadGroup(a, g),
  'group:create_iteration': (a: Actor, g: IterationParentFacts<GroupFacts>) =>
    g.iterationsAvailable && canReadGroup(a, g) && signedIn(a) && level(a, g) >= AccessLevel.DEVELOPER,
  'project:read_iteration': (a: Actor, p: IterationParentFacts<ProjectFacts>) => p.iterationsAvailable && canReadProject(a, p),
  'project:create_iteration': (a: Actor, p: IterationParentFacts<ProjectFacts>) =>
    p.iterationsAvailable && canReadProject(a, p) && signedIn(a) && level(a, p) >= AccessLevel.DEVELOPER,
  'group:update': (a: Actor, g: GroupFacts) => canReadGroup(a, g) && level(a, g) >= AccessLevel.OWNER,
  'group:delete': (a: Actor, g: GroupFacts) => canReadGroup(a, g) && level(a, g) >= AccessLevel.OWNER,
  // GitLab's defaults: subgroup_creation_level "maintainer" (MAINTAINER_SUBGROUP_ACCESS) and
  // project_creation_level "developer" (DEVELOPER_MAINTAINER_PROJECT_ACCESS).
  'group:create_subgroup': (a: Actor, g: GroupFacts) => canReadGroup(a, g) && level(a, g) >= AccessLevel.MAINTAINER,
  'group:create_project': (a: Actor, g: GroupFacts) => canReadGroup(a, g) && level(a, g) >= AccessLevel.DEVELOPER,
  'group:read_members': (a: Actor, g: GroupFacts) => canReadGroup(a, g),
  'group:admin_members': (a: Actor, g: GroupFacts) => canAdminMembers(a, g),
  // Member#prevent_role_assignement? on create and update: admin_*_member, and no role above the actor's own.
  'member:grant': (a: Actor, g: GrantFacts) => canAdminMembers(a, g.source) && holdsAtLeast(a, g.source, g.accessLevel),
  // update_group_member/update_project_member: admin_*_member, never the last owner nor a personal namespace's owner,
  // and (prevent_role_assignement?) never a member who holds more than the actor.
  'member:update': (a: Actor, m: MembershipFacts) => !m.lastOwner && !m.namespaceOwner && canAdminMembers(a, m.source) && holdsAtLeast(a, m.source, m.accessLevel),
  // destroy_group_member/destroy_project_member: as for updates, except that members may always leave by themselves.
  'member:destroy': (a: Actor, m: MembershipFacts) =>
    !m.lastOwner &&
    !m.namespaceOwner &&
    ((m.isSelf && signedIn(a) && canReadSource(a, m.source)) || (canAdminMembers(a, m.source) && holdsAtLeast(a, m.source, m.accessLevel))),
  // NamespacePolicy on a personal namespace: its owner and administrators read it and create projects in it.
  'personal_namespace:read': (a: Actor, n: PersonalNamespaceFacts) => ownsNamespace(a, n),
  'personal_namespace:create_project': (a: Actor, n: PersonalNamespaceFacts) => ownsNamespace(a, n),
  'user:read': (_a: Actor, _u: UserFacts) => true,
  // read_user_profile: a private profile (and what it shows: activity, join date) for its owner and administrators.
  'user:read_profile': (a: Actor, u: UserFacts) => u.privateProfile !== true || isAdmin(a) || a.user?.id === u.id,
  'user:admin': (a: Actor, _u: UserFacts) => isAdmin(a),
  'user:read_tokens': (a: Actor, u: UserFacts) => isAdmin(a) || a.user?.id === u.id,
  // GitLab's global :create_group: the user's can_create_group flag (admins always).
  'user:create_group': (a: Actor, u: UserFacts) => a.user?.id === u.id && (isAdmin(a) || a.user.canCreateGroup),
  // Personal snippets: any signed-in user, for themselves.
  'user:create_snippet': (a: Actor, u: UserFacts) => a.user?.id === u.id,
  // The instance's background job queues (GitLab's Sidekiq admin pages and adminSidekiqQueuesDeleteJobs): administrators.
  'instance:admin_background_jobs': (a: Actor, _s: null) => isAdmin(a),
} satisfies Record<string, (a: Actor, s: never) => boolean>;

export type Action = keyof typeof rules;
type SubjectOf<A extends Action> = Parameters<(typeof rules)[A]>[1];

export function can<A extends Action>(actor: Actor, action: A, subject: SubjectOf<A>): boolean {
  return (rules[action] as (a: Actor, s: Subject) => boolean)(actor, subject as Subject);
}

/** Memberships and grants have no read rule of their own: their source's decides whether they are seen; a commit's, its project's. */
const seenAs = (s: Subject) =>
  s.kind === 'membership' || s.kind === 'grant' ? s.source : s.kind === 'commit' || s.kind === 'merge_request' || s.kind === 'alert' ? s.project : s;
type SeenSubject = ReturnType<typeof seenAs>;

const readActionOf: Record<SeenSubject['kind'], Action> = {
  project: 'project:read',
  group: 'group:read',
  personal_namespace: 'personal_namespace:read',
  user: 'user:read',
  issue: 'issue:read',
  note: 'note:read',
  snippet: 'snippet:read',
  epic: 'epic:read',
};
const notFoundName: Record<SeenSubject['kind'], string> = {
  project: 'Project',
  group: 'Group',
  personal_namespace: 'Namespace',
  user: 'User',
  issue: 'Issue',
  note: 'Note',
  snippet: 'Snippet',
  epic: 'Epic',
};

/**
 * Throws unless allowed: 404 when the actor cannot even see the subject (so existence does not leak), 403 when it
 * can see it but not do this.
 */
export function assertCan<A extends Action>(actor: Actor, action: A, subject: SubjectOf<A>): void {
  if (can(actor, action, subject)) return;
  const s = seenAs(subject as Subject);
  if (!can(actor, readActionOf[s.kind], s as never)) throw notFound(notFoundName[s.kind]);
  throw forbidden();
}

export const isAdministrator = isAdmin;

/**
 * An epic's group (or the group an epic is created in) with the license fact: the group's read rule decides 404 vs
 * 403; `confidential` is the epic's.
 */
export interface EpicFacts extends GroupFacts {
  epicsAvailable: boolean;
  confidential: boolean;
  /** GitLab's `feature_available?(:subepics)` (multi-level epics): Ultimate. Absent: not licensed. */
  subepicsAvailable?: boolean;
}

/** GitLab's `feature_available?(:epics)`: Premium and Ultimate. */
export const epicsAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier !== 'free';

/** GitLab's `feature_available?(:subepics)` (multi-level epics, 13.6): Ultimate only. */
export const subepicsAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier === 'ultimate';

/** A group or project with GitLab's `feature_available?(:iterations)`; its own read rule decides 404 vs 403. */
export type IterationParentFacts<F extends GroupFacts | ProjectFacts> = F & { iterationsAvailable: boolean };

/** GitLab's `feature_available?(:iterations)` (Starter in 13.x): Premium and Ultimate. */
export const iterationsAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier !== 'free';

/** GitLab's `weight_available?` (`feature_available?(:issue_weights)`): Premium and Ultimate. */
export const weightsAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier !== 'free';

/** A project with the requirements license fact: the project's read rule decides 404 vs 403. */
export interface RequirementsFacts extends ProjectFacts {
  requirementsAvailable: boolean;
}

/** GitLab's `feature_available?(:compliance_framework)` (13.6): Premium and Ultimate. */
export const complianceFrameworkAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier !== 'free';

/** GitLab's `feature_available?(:security_dashboard)` (13.6 Gold, our Ultimate). */
export const securityDashboardAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier === 'ultimate';

/** GitLab's `feature_available?(:multiple_alert_http_integrations)` (13.6): Premium and Ultimate. */
export const multipleAlertIntegrationsAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier !== 'free';

/** GitLab's `feature_available?(:generic_alert_fingerprinting)` (13.6): Premium and Ultimate. */
export const genericAlertFingerprintingAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier !== 'free';

/** GitLab's `feature_available?(:cluster_agents)` (the Kubernetes agent, 13.6): Premium and Ultimate. */
export const clusterAgentsAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier !== 'free';

/** GitLab's `feature_available?(:requirements)` (and `:quality_management`, test cases): Ultimate only. */
export const requirementsAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier === 'ultimate';

/**
 * Issue board license features (GitLab 13.6; its Starter maps to our premium): WIP limits and scoped boards are
 * Starter, assignee and milestone lists and multiple group boards Premium. A free instance is GitLab Core.
 */
export type BoardFeature = 'wip_limits' | 'scoped_issue_board' | 'board_assignee_lists' | 'board_milestone_lists' | 'multiple_group_issue_boards';
export const boardFeatureAvailable = (tier: 'free' | 'premium' | 'ultimate', _feature: BoardFeature) => tier !== 'free';

/** A project with GitLab's `feature_available?(:security_on_demand_scans)`; the project's read rule decides 404 vs 403. */
export interface OnDemandScanFacts extends ProjectFacts {
  onDemandScansAvailable: boolean;
}

/** GitLab's `feature_available?(:security_on_demand_scans)` (DAST site and scanner profiles, on-demand scans, 13.6): Ultimate. */
export const dastAvailable = (tier: 'free' | 'premium' | 'ultimate') => tier === 'ultimate';
