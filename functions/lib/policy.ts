// THE permission module. Every "may this actor do that" question is answered here, from facts the queries load
// (visibility, the actor's effective access level); services call assertCan() before acting. List queries use the
// rules' SQL twins, which live beside the queries (db/queries/lib/access.ts) so that db/queries never imports functions/.
// Nothing else compares access levels.
// Its parts are in policy/ for size: facts.ts (the facts types), predicates.ts (the rules per subject), catalog.ts and
// project-actions.ts (the action catalog), licenses.ts (the tier rules). This file is the module's one entry point
// (can, assertCan and everything callers name): callers import lib/policy.ts, never a file of policy/.
import { isAdmin } from '../../db/queries/lib/access.ts';
import type { Actor } from './context.ts';
import { forbidden, notFound } from './errors.ts';
import { type Action, rules, type SubjectOf } from './policy/catalog.ts';
import type { Subject } from './policy/facts.ts';

export {
  ACCESS_LEVELS,
  AccessLevel,
  type AccessLevelValue,
  projectFeatures,
  Visibility,
  VISIBILITY_NAMES,
  visibilityName,
  type VisibilityName,
} from '../../db/queries/lib/access.ts';
export type {
  AccessRequestFacts,
  AccessRequesterFacts,
  AlertNoteableFacts,
  AwardableFacts,
  CommitFacts,
  EpicFacts,
  EpicNoteableFacts,
  GrantFacts,
  GroupFacts,
  IssueFacts,
  IterationParentFacts,
  MembershipFacts,
  MemberSourceFacts,
  MergeRequestFacts,
  NoteableFacts,
  NoteFacts,
  OnDemandScanFacts,
  PersonalNamespaceFacts,
  ProjectFacts,
  ProjectFeatureFacts,
  ProjectSnippetFacts,
  RequirementsFacts,
  RunnerFacts,
  SnippetFacts,
  UserFacts,
} from './policy/facts.ts';
export {
  type BoardFeature,
  boardFeatureAvailable,
  clusterAgentsAvailable,
  complianceFrameworkAvailable,
  dastAvailable,
  epicsAvailable,
  genericAlertFingerprintingAvailable,
  iterationsAvailable,
  multipleAlertIntegrationsAvailable,
  requirementsAvailable,
  securityDashboardAvailable,
  subepicsAvailable,
  weightsAvailable,
} from './policy/licenses.ts';
export type { Action } from './policy/catalog.ts';
/** Whether a project feature (issues, merge requests, jobs...) is open to the actor: ProjectFeature#feature_available?. */
export { featureAvailable, type ProjectFeature } from './policy/predicates.ts';

export function can<A extends Action>(actor: Actor, action: A, subject: SubjectOf<A>): boolean {
  return (rules[action] as (a: Actor, s: Subject) => boolean)(actor, subject as Subject);
}

/** Memberships and grants have no read rule of their own: their source's decides whether they are seen; a commit's, its project's. */
const seenAs = (s: Subject) =>
  s.kind === 'membership' || s.kind === 'grant' || s.kind === 'access_requester'
    ? s.source
    : s.kind === 'commit' || s.kind === 'merge_request' || s.kind === 'alert'
      ? s.project
      : s;
type SeenSubject = ReturnType<typeof seenAs>;

const readActionOf: Record<SeenSubject['kind'], Action> = {
  project: 'project:read',
  group: 'group:read',
  personal_namespace: 'personal_namespace:read',
  runner: 'runner:read',
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
  runner: 'Runner',
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
