// The rules per subject that the action catalog (catalog.ts) composes: who reads a project, a group, an issue, a
// merge request, a note, a snippet, an epic; the actor's level where a subject lives; who administers members. Kept
// apart from the catalog so that each action there is one line over these; nothing outside lib/policy/ calls them.
import { AccessLevel, isAdmin, seesInternal, Visibility } from '../../../db/queries/lib/access.ts';
import type { Actor } from '../context.ts';
import type {
  AwardableFacts,
  EpicFacts,
  GroupFacts,
  IssueFacts,
  MemberSourceFacts,
  MergeRequestFacts,
  NoteableFacts,
  NoteFacts,
  PersonalNamespaceFacts,
  ProjectFacts,
  SnippetFacts,
} from './facts.ts';

export const signedIn = (actor: Actor) => actor.user !== null;

/**
 * ProjectFeature#feature_available? (13.6): a disabled feature is for nobody, administrators included; a private one
 * (members only) for members from `minimum` up (guests; reporters for merge requests, and for the repository of a
 * private project) and administrators; an enabled one for whoever may read the project.
 */
export type ProjectFeature = Exclude<keyof ProjectFacts['features'], 'publicJobs'>;
export function featureAvailable(actor: Actor, p: ProjectFacts, feature: ProjectFeature) {
  const levelOf = p.features[feature];
  if (levelOf >= 20) return true;
  if (levelOf < 10) return false;
  const minimum =
    feature === 'mergeRequests' || (feature === 'repository' && p.visibilityLevel < Visibility.internal) ? AccessLevel.REPORTER : AccessLevel.GUEST;
  return isAdmin(actor) || p.accessLevel >= minimum;
}

/** read_build (ProjectPolicy 13.6): jobs are open; whoever reads the project reads them when public_jobs is on, else reporters and above. */
export const canReadBuild = (actor: Actor, p: ProjectFacts) =>
  canReadProject(actor, p) && featureAvailable(actor, p, 'builds') && (p.features.publicJobs || level(actor, p) >= AccessLevel.REPORTER);

export function canReadProject(actor: Actor, p: ProjectFacts) {
  return (
    isAdmin(actor) ||
    p.visibilityLevel >= Visibility.public ||
    (p.visibilityLevel >= Visibility.internal && seesInternal(actor)) ||
    p.accessLevel >= AccessLevel.GUEST
  );
}

export function canReadGroup(actor: Actor, g: GroupFacts) {
  return (
    isAdmin(actor) ||
    g.visibilityLevel >= Visibility.public ||
    (g.visibilityLevel >= Visibility.internal && seesInternal(actor)) ||
    g.accessLevel >= AccessLevel.GUEST ||
    g.hasDescendantAccess
  );
}

export const level = (actor: Actor, s: { accessLevel: number }) => (isAdmin(actor) ? AccessLevel.OWNER : s.accessLevel);

/**
 * GitLab's read_snippet (PersonalSnippetPolicy, ProjectSnippetPolicy): administrators, the author, anyone for public
 * snippets, signed-in non-external users for internal ones. A project snippet also needs a readable project, and the
 * project's members (guests and above) see its internal and private snippets too.
 */
export function canReadSnippet(actor: Actor, s: SnippetFacts) {
  if (s.project && !(canReadProject(actor, s.project) && featureAvailable(actor, s.project, 'snippets'))) return false;
  if (isAdmin(actor) || s.visibilityLevel >= Visibility.public) return true;
  if (actor.user !== null && actor.user.id === s.authorId) return true;
  if (s.project && s.project.accessLevel >= AccessLevel.GUEST) return true;
  return s.visibilityLevel >= Visibility.internal && seesInternal(actor);
}

/** update_snippet / admin_snippet: the author, administrators, and a project snippet's maintainers and above. */
export const canAdminSnippet = (actor: Actor, s: SnippetFacts) =>
  canReadSnippet(actor, s) &&
  signedIn(actor) &&
  (actor.user!.id === s.authorId || (s.project !== null ? level(actor, s.project) >= AccessLevel.MAINTAINER : isAdmin(actor)));

/** GitLab's read_issue: confidential issues only for reporters and above, their author and their assignees. */
export function canReadIssue(actor: Actor, i: IssueFacts) {
  if (!canReadProject(actor, i.project) || !featureAvailable(actor, i.project, 'issues')) return false;
  if (!i.confidential) return true;
  const id = actor.user?.id;
  return level(actor, i.project) >= AccessLevel.REPORTER || (id !== undefined && (id === i.authorId || i.assigneeIds.includes(id)));
}

/** download_code: anyone who reads a public or internal project; reporters and above of a private one. */
export const canDownloadCode = (actor: Actor, p: ProjectFacts) =>
  canReadProject(actor, p) && featureAvailable(actor, p, 'repository') && (p.visibilityLevel >= Visibility.internal || level(actor, p) >= AccessLevel.REPORTER);

/**
 * GitLab's read_merge_request: the project's merge requests feature is for those who may read its code (anyone who
 * reads a public or internal project; reporters and above of a private one, as download_code).
 */
export const canReadMergeRequest = (actor: Actor, m: MergeRequestFacts) =>
  canDownloadCode(actor, m.project) && featureAvailable(actor, m.project, 'mergeRequests');

/** update_merge_request: developers and above, the author and the assignees (IssuablePolicy); never when archived. */
export const canUpdateMergeRequest = (actor: Actor, m: MergeRequestFacts) =>
  canReadMergeRequest(actor, m) &&
  signedIn(actor) &&
  !m.project.archived &&
  (level(actor, m.project) >= AccessLevel.DEVELOPER || actor.user!.id === m.authorId || m.assigneeIds.includes(actor.user!.id));

/** EE's read_epic: licensed, the group readable, a confidential epic for reporters and above. */
export const canReadEpic = (actor: Actor, e: EpicFacts) =>
  e.epicsAvailable && canReadGroup(actor, e) && (!e.confidential || level(actor, e) >= AccessLevel.REPORTER);

/** read_alert_management_alert (ProjectPolicy, 13.6): reporters and above of a project they can read. */
export const canReadAlert = (actor: Actor, p: ProjectFacts) => canReadProject(actor, p) && signedIn(actor) && level(actor, p) >= AccessLevel.REPORTER;

/** The actor's level where the noteable lives: its project's, or an epic's group's. */
export const noteableLevel = (actor: Actor, n: NoteableFacts) => level(actor, n.kind === 'epic' ? n.group : n.project);

export const canReadNoteable = (actor: Actor, n: NoteableFacts): boolean =>
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
export function canReadNote(actor: Actor, n: NoteFacts) {
  if (!canReadNoteable(actor, n.noteable)) return false;
  if (!n.confidential) return true;
  const id = actor.user?.id;
  const assignees = n.noteable.kind === 'issue' || n.noteable.kind === 'merge_request' ? n.noteable.assigneeIds : [];
  const authorId = n.noteable.kind === 'commit' ? null : n.noteable.authorId;
  return noteableLevel(actor, n.noteable) >= AccessLevel.REPORTER || (id !== undefined && (id === authorId || assignees.includes(id)));
}

/** IssuablePolicy: a locked discussion takes no comments (nor edits, nor awards) from non-members. */
export const lockedOut = (actor: Actor, n: NoteableFacts) =>
  (n.kind === 'issue' || n.kind === 'merge_request') && n.discussionLocked === true && level(actor, n.project) < AccessLevel.GUEST;

/**
 * GitLab's award_emoji: signed in and able to read the awardable; never in an archived project (ArchivedAbilities),
 * nor on a locked discussion for non-members. A note also needs what its noteable needs.
 */
export function canAward(actor: Actor, s: AwardableFacts): boolean {
  if (!signedIn(actor)) return false;
  // System notes are not emoji-awardable (Note#emoji_awardable?); a commit is not Awardable, nor its notes here.
  // A note on an alert (not itself awardable) is, unless the project is archived.
  if (s.kind === 'note')
    return (
      canReadNote(actor, s) &&
      !s.system &&
      s.noteable.kind !== 'commit' &&
      (s.noteable.kind === 'alert' ? !s.noteable.project.archived : canAward(actor, s.noteable))
    );
  if (s.kind === 'epic') return canReadNoteable(actor, s);
  if (s.kind === 'issue') return canReadIssue(actor, s) && !s.project.archived && !lockedOut(actor, s);
  if (s.kind === 'merge_request') return canReadMergeRequest(actor, s) && !s.project.archived && !lockedOut(actor, s);
  return canReadSnippet(actor, s) && s.project?.archived !== true;
}

export const ownsNamespace = (actor: Actor, n: PersonalNamespaceFacts) => isAdmin(actor) || (actor.user !== null && actor.user.id === n.ownerId);

export const canReadSource = (actor: Actor, source: MemberSourceFacts) =>
  source.kind === 'project' ? canReadProject(actor, source) : canReadGroup(actor, source);

/** admin_project_member (maintainers) and admin_group_member (owners). */
export const canAdminMembers = (actor: Actor, source: MemberSourceFacts) =>
  canReadSource(actor, source) && level(actor, source) >= (source.kind === 'project' ? AccessLevel.MAINTAINER : AccessLevel.OWNER);

/** Nobody grants, nor changes a member holding, more than they hold themselves (admins hold everything). */
export const holdsAtLeast = (actor: Actor, source: MemberSourceFacts, accessLevel: number) => isAdmin(actor) || accessLevel <= source.accessLevel;
