// The facts lib/policy.ts decides from: what the queries load about a subject (its visibility, the actor's effective
// access level, its author, a license) in the same statement as the subject. Types only: the rules are in
// predicates.ts and catalog.ts, and callers import these types from lib/policy.ts.
import type { ProjectFeatures } from '../../../db/queries/lib/access.ts';

/** What the policy needs to know about a project, loaded with it in one query. */
export interface ProjectFacts {
  kind: 'project';
  visibilityLevel: number;
  /** The actor's effective access: direct membership or inherited from any ancestor group (0 when none). */
  accessLevel: number;
  archived: boolean;
  /** ProjectFeature access levels (0 disabled, 10 members only, 20 whoever reads the project) and `public_jobs`. */
  features: ProjectFeatureFacts;
}

/** A project's feature access levels and public_jobs, as db/queries/lib/access.ts loads them (projectFeaturesSql). */
export type ProjectFeatureFacts = ProjectFeatures;

export interface GroupFacts {
  kind: 'group';
  visibilityLevel: number;
  accessLevel: number;
  /** The actor is a member of a subgroup or project below this group (makes a private group visible). */
  hasDescendantAccess: boolean;
  /** The group's project_creation_level and subgroup_creation_level (absent where no creation is asked about). */
  projectCreationLevel?: 'noone' | 'maintainer' | 'developer';
  subgroupCreationLevel?: 'owner' | 'maintainer';
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

/** Every subject the catalog has rules for. */
export type Subject =
  | AccessRequesterFacts
  | RunnerFacts
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

/** What carries award emoji: issues, merge requests, notes (on those or snippets) and snippets. */
export type AwardableFacts = IssueFacts | MergeRequestFacts | NoteFacts | SnippetFacts | EpicNoteableFacts;

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

/** A group or project with GitLab's `feature_available?(:iterations)`; its own read rule decides 404 vs 403. */
export type IterationParentFacts<F extends GroupFacts | ProjectFacts> = F & { iterationsAvailable: boolean };

/** A project with the requirements license fact: the project's read rule decides 404 vs 403. */
export interface RequirementsFacts extends ProjectFacts {
  requirementsAvailable: boolean;
}

/** A project with GitLab's `feature_available?(:security_on_demand_scans)`; the project's read rule decides 404 vs 403. */
export interface OnDemandScanFacts extends ProjectFacts {
  onDemandScansAvailable: boolean;
}

/**
 * A project or group asked for access: its own read rule decides 404 vs 403; `requestAccessEnabled` is its
 * request_access_enabled setting.
 */
export type AccessRequestFacts = MemberSourceFacts & { requestAccessEnabled: boolean };

/** A pending access request: its source and whether it is the actor's own (which the actor may withdraw). */
export interface AccessRequesterFacts {
  kind: 'access_requester';
  source: MemberSourceFacts;
  isSelf: boolean;
}

/** A CI runner as RunnerPolicy sees it: its type, lock, and the actor's level over what owns it. */
export interface RunnerFacts {
  kind: 'runner';
  runnerType: 'instance_type' | 'group_type' | 'project_type';
  locked: boolean;
  /**
   * For a group runner, the actor's own membership level in its group or a group above it (its owners are their
   * Owners); for the others, the actor's highest access level over the runner's projects (its owners are their
   * Maintainers).
   */
  ownerLevel: number;
  projectCount: number;
}
