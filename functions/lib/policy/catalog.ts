// The typed action catalog: every action lib/policy.ts's can()/assertCan() accept, each a rule over the facts of its
// subject, with the GitLab policy it follows. The project's own actions are in project-actions.ts (spread in first);
// here are snippets, issues, merge requests (with their project-level rights), notes, awards, groups, epics,
// iterations, members, namespaces and users. The rules the actions compose are in predicates.ts.
import { AccessLevel, isAdmin } from '../../../db/queries/lib/access.ts';
import type { Actor } from '../context.ts';
import type {
  AccessRequestFacts,
  AccessRequesterFacts,
  AwardableFacts,
  EpicFacts,
  EpicNoteableFacts,
  GrantFacts,
  GroupFacts,
  IssueFacts,
  IterationParentFacts,
  MembershipFacts,
  MergeRequestFacts,
  NoteableFacts,
  NoteFacts,
  PersonalNamespaceFacts,
  ProjectFacts,
  RunnerFacts,
  SnippetFacts,
  UserFacts,
} from './facts.ts';
import {
  canAdminMembers,
  canAdminSnippet,
  canAward,
  canDownloadCode,
  canReadEpic,
  canReadGroup,
  canReadIssue,
  canReadMergeRequest,
  canReadNote,
  canReadNoteable,
  canReadProject,
  canReadSnippet,
  canReadSource,
  canUpdateMergeRequest,
  featureAvailable,
  holdsAtLeast,
  level,
  lockedOut,
  noteableLevel,
  ownsNamespace,
  signedIn,
} from './predicates.ts';
import { projectActions } from './project-actions.ts';

/** RunnerPolicy's owned_runner: Owners own a group runner, Maintainers a project runner (db/queries/runners/admin.ts has the SQL twin). */
const ownsRunner = (r: RunnerFacts) => r.ownerLevel >= (r.runnerType === 'group_type' ? AccessLevel.OWNER : AccessLevel.MAINTAINER);

/** The catalog of actions. Each rule assumes nothing: read rights are part of every rule. */
export const rules = {
  ...projectActions,
  'snippet:read': (a: Actor, s: SnippetFacts) => canReadSnippet(a, s),
  'snippet:update': (a: Actor, s: SnippetFacts) => canAdminSnippet(a, s),
  'snippet:delete': (a: Actor, s: SnippetFacts) => canAdminSnippet(a, s),
  'issue:read': (a: Actor, i: IssueFacts) => canReadIssue(a, i),
  // update_issue: reporters and above, or the author (GitLab lets authors edit their own issues).
  'issue:update': (a: Actor, i: IssueFacts) => canReadIssue(a, i) && signedIn(a) && (level(a, i.project) >= AccessLevel.REPORTER || a.user!.id === i.authorId),
  // IssuePolicy's admin_issue (read_issue and the project's admin_issue): labels, assignees, milestone, due date,
  // lock and time tracking on an existing issue.
  'issue:admin': (a: Actor, i: IssueFacts) => canReadIssue(a, i) && signedIn(a) && level(a, i.project) >= AccessLevel.REPORTER,
  // destroy_issue: owners (and admins).
  'issue:delete': (a: Actor, i: IssueFacts) => canReadIssue(a, i) && level(a, i.project) >= AccessLevel.OWNER,
  // Merge requests. create_merge_request_in (the target): anyone signed in who reads its code, not archived;
  // create_merge_request_from (the source): who may push to it (developers and above).
  'project:create_merge_request_in': (a: Actor, p: ProjectFacts) =>
    canDownloadCode(a, p) && featureAvailable(a, p, 'mergeRequests') && signedIn(a) && !p.archived,
  'project:create_merge_request_from': (a: Actor, p: ProjectFacts) =>
    canReadProject(a, p) && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  // admin_merge_request on the project (assignees, reviewers, milestone and labels of a new MR): developers and above.
  'project:admin_merge_requests': (a: Actor, p: ProjectFacts) =>
    canDownloadCode(a, p) && featureAvailable(a, p, 'mergeRequests') && signedIn(a) && !p.archived && level(a, p) >= AccessLevel.DEVELOPER,
  'merge_request:read': (a: Actor, m: MergeRequestFacts) => canReadMergeRequest(a, m),
  'merge_request:update': (a: Actor, m: MergeRequestFacts) => canUpdateMergeRequest(a, m),
  // admin_merge_request (assignees, reviewers, labels, milestone, lock, time tracking): developers and above.
  'merge_request:admin': (a: Actor, m: MergeRequestFacts) =>
    canReadMergeRequest(a, m) && signedIn(a) && !m.project.archived && level(a, m.project) >= AccessLevel.DEVELOPER,
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
    canReadNote(a, n) &&
    signedIn(a) &&
    !n.system &&
    !lockedOut(a, n.noteable) &&
    (a.user!.id === n.authorId || noteableLevel(a, n.noteable) >= AccessLevel.MAINTAINER),
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
  // admin_group (GroupPolicy, 13.6) where the group's runners are concerned: GroupDetail's runners_token
  // (user_can_admin_group) and GET /groups/:id/runners (authorize_admin_group). Owners and administrators.
  'group:admin_runners': (a: Actor, g: GroupFacts) => canReadGroup(a, g) && level(a, g) >= AccessLevel.OWNER,
  'group:delete': (a: Actor, g: GroupFacts) => canReadGroup(a, g) && level(a, g) >= AccessLevel.OWNER,
  // GitLab's defaults: subgroup_creation_level "maintainer" (MAINTAINER_SUBGROUP_ACCESS) and
  // project_creation_level "developer" (DEVELOPER_MAINTAINER_PROJECT_ACCESS).
  // GroupPolicy (13.6): subgroups by owners, or maintainers where subgroup_creation_level is `maintainer`; projects
  // by maintainers, developers too where project_creation_level is `developer`, nobody (administrators included:
  // `create_projects_disabled` prevents) where it is `noone`.
  'group:create_subgroup': (a: Actor, g: GroupFacts) =>
    canReadGroup(a, g) && level(a, g) >= ((g.subgroupCreationLevel ?? 'maintainer') === 'maintainer' ? AccessLevel.MAINTAINER : AccessLevel.OWNER),
  'group:create_project': (a: Actor, g: GroupFacts) =>
    canReadGroup(a, g) &&
    g.projectCreationLevel !== 'noone' &&
    level(a, g) >= ((g.projectCreationLevel ?? 'developer') === 'developer' ? AccessLevel.DEVELOPER : AccessLevel.MAINTAINER),
  'group:read_members': (a: Actor, g: GroupFacts) => canReadGroup(a, g),
  // read/create/destroy_deploy_token (GroupPolicy): maintainers.
  'group:admin_deploy_tokens': (a: Actor, g: GroupFacts) => canReadGroup(a, g) && signedIn(a) && level(a, g) >= AccessLevel.MAINTAINER,
  'group:admin_members': (a: Actor, g: GroupFacts) => canAdminMembers(a, g),
  // Member#prevent_role_assignement? on create and update: admin_*_member, and no role above the actor's own.
  'member:grant': (a: Actor, g: GrantFacts) => canAdminMembers(a, g.source) && holdsAtLeast(a, g.source, g.accessLevel),
  // update_group_member/update_project_member: admin_*_member, never the last owner nor a personal namespace's owner,
  // and (prevent_role_assignement?) never a member who holds more than the actor.
  'member:update': (a: Actor, m: MembershipFacts) =>
    !m.lastOwner && !m.namespaceOwner && canAdminMembers(a, m.source) && holdsAtLeast(a, m.source, m.accessLevel),
  // destroy_group_member/destroy_project_member: as for updates, except that members may always leave by themselves.
  'member:destroy': (a: Actor, m: MembershipFacts) =>
    !m.lastOwner &&
    !m.namespaceOwner &&
    ((m.isSelf && signedIn(a) && canReadSource(a, m.source)) || (canAdminMembers(a, m.source) && holdsAtLeast(a, m.source, m.accessLevel))),
  // request_access (ProjectPolicy and GroupPolicy, 13.6): someone signed in who reads the source, holds no role in
  // it (directly, inherited or shared) and is not an administrator, where the source takes requests.
  'source:request_access': (a: Actor, s: AccessRequestFacts) =>
    s.requestAccessEnabled && signedIn(a) && !isAdmin(a) && canReadSource(a, s) && s.accessLevel === AccessLevel.NONE,
  // withdraw_*_member_access_request for the requester; update/destroy_*_member (approve, deny) for admin_*_member.
  'access_requester:withdraw': (a: Actor, r: AccessRequesterFacts) => r.isSelf && signedIn(a) && canReadSource(a, r.source),
  'access_requester:decide': (a: Actor, r: AccessRequesterFacts) => canAdminMembers(a, r.source),
  // RunnerPolicy (13.6): administrators, and the runner's owners (User#ci_owned_runners: the maintainers of a project
  // runner's projects, the owners of a group runner's group or of a group above it); shared runners are readable by
  // anyone signed in, and changed by administrators only; a runner serving several projects is deleted by
  // administrators only; a locked runner is assigned to more projects by administrators; a group runner is assigned
  // to projects by nobody (Ci::Runner#assign_to refuses it, and the API says so before anything else).
  'runner:read': (a: Actor, r: RunnerFacts) => isAdmin(a) || (signedIn(a) && (r.runnerType === 'instance_type' || ownsRunner(r))),
  'runner:update': (a: Actor, r: RunnerFacts) => isAdmin(a) || (signedIn(a) && r.runnerType !== 'instance_type' && ownsRunner(r)),
  'runner:delete': (a: Actor, r: RunnerFacts) => isAdmin(a) || (signedIn(a) && r.runnerType !== 'instance_type' && ownsRunner(r) && r.projectCount <= 1),
  'runner:assign': (a: Actor, r: RunnerFacts) =>
    r.runnerType !== 'group_type' && (isAdmin(a) || (signedIn(a) && r.runnerType === 'project_type' && !r.locked && ownsRunner(r))),
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
export type SubjectOf<A extends Action> = Parameters<(typeof rules)[A]>[1];
