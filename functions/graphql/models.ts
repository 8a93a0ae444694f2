// The domain values GraphQL object types are resolved from (codegen's mappers): resolvers receive and return these,
// and the typecheck fails when a resolver drifts from the SDL or from the domain.
import type { GroupView } from '../../db/queries/groups.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { MemberRow, UserRow } from '../../db/schema/index.ts';
import type { AwardView } from '../../db/queries/award-emoji.ts';
import type { IssueView } from '../../db/queries/issues.ts';
import type { MergeRequestView } from '../../db/queries/merge-requests.ts';
import type { NoteView } from '../../db/queries/notes.ts';
import type { SnippetFactsRow } from '../../db/queries/snippets.ts';
import type { LabelRow, MilestoneRow, TodoRow } from '../../db/schema/index.ts';
import type { Noteable } from '../notes/service.ts';
import type { RequirementView } from '../../db/queries/requirements.ts';
import type { RequirementTestReportRow } from '../../db/schema/index.ts';
import type { Connection } from './connection.ts';

export type UserModel = UserRow;
export type ProjectModel = ProjectView;
export type GroupModel = GroupView;
/**
 * A namespace: a group, or a user's personal namespace (resolved from the project or user it belongs to). The full
 * name (ancestors' names) is loaded on demand when the value was built without it (a project's namespace).
 */
export type NamespaceModel = Omit<GroupView, 'fullName'> & { fullName?: string | undefined };
/** A membership of a project (ProjectMember) or a group (GroupMember), with its user. */
export type MemberModel = { member: MemberRow; user: UserRow };
export interface QueryComplexityModel {
  score: number;
  limit: number;
}

// Issues, notes, discussions, award emoji, labels, milestones and to-dos (functions/issues, notes, award-emoji).
/** An issue with the project it belongs to (the policy's facts come from both). */
export interface IssueModel {
  project: ProjectView;
  view: IssueView;
}
/** A note with its noteable (whose facts decide what the actor may do with the note). */
export interface NoteModel {
  noteable: Noteable;
  view: NoteView;
}
/** A discussion: the notes sharing one discussion_id, oldest first (readable ones only). */
export interface DiscussionModel {
  noteable: Noteable;
  id: string;
  notes: NoteView[];
}
export type AwardEmojiModel = AwardView;
export type LabelModel = LabelRow;
/** A milestone with the full path of its project or group (for its web path). */
export interface MilestoneModel {
  milestone: MilestoneRow;
  projectPath: string | null;
  groupPath: string | null;
}
/** A to-do with its body (the note it came from, else its target's title) and its project. */
export interface TodoModel {
  todo: TodoRow;
  body: string;
  project: ProjectView | null;
  /** A group's to-do (an epic's): its group. */
  group?: GroupView | null;
}

// Snippets (functions/snippets).
/** A snippet with its author, project path, file paths and its project's facts (one row of the snippets page query). */
export type SnippetModel = SnippetFactsRow;
/** One file of a snippet, with its place among the snippet's files (1-based: the blobs connection's cursor). */
export interface SnippetBlobModel {
  snippet: SnippetFactsRow;
  path: string;
  content: string;
  position: number;
}
/** Connections with GitLab's `count`, computed only when asked. */
export type IssueConnectionModel = Connection<IssueModel> & { count: () => number | Promise<number> };
export type LabelConnectionModel = Connection<LabelModel> & { count: () => number | Promise<number> };

// Merge requests (functions/merge-requests).
/** A merge request with its target project (the policy's facts come from both). */
export interface MergeRequestModel {
  project: ProjectView;
  view: MergeRequestView;
}
/** MergeRequestConnection: `count` and `totalTimeToMerge` over the whole filtered collection, computed only when asked. */
export type MergeRequestConnectionModel = Connection<MergeRequestModel> & {
  count: () => number | Promise<number>;
  totalTimeToMerge: () => number | null | Promise<number | null>;
};

// Repositories (functions/repositories/reads.ts defines them next to the verbs that build them).
export type { BranchModel, CommitModel, RepositoryModel, TreeEntryModel, TreeModel } from '../repositories/reads.ts';
// CI/CD pipelines (functions/pipelines/reads.ts defines them next to the verbs that build them).
import type { PipelineModel } from '../pipelines/reads.ts';
export type { CiGroupModel, CiJobArtifactModel, CiJobModel, CiStageModel, PipelineModel } from '../pipelines/reads.ts';
/** PipelineConnection: `count` over the whole filtered collection, computed only when asked. */
export type PipelineConnectionModel = Connection<PipelineModel> & { count: () => number | Promise<number> };

// Requirements (functions/requirements).
/** A requirement with its project (the license and the policy's facts come from it). */
export interface RequirementModel {
  project: ProjectView;
  view: RequirementView;
}
export type TestReportModel = RequirementTestReportRow;


// Cluster agents (functions/cluster-agents): an agent with its project, a token with its agent.
export type { ClusterAgentWithProject as ClusterAgentModel, ClusterAgentTokenWithAgent as ClusterAgentTokenModel } from '../cluster-agents/service.ts';
// DAST profiles (functions/dast): a profile row with its project.
export type { DastSiteProfileWithProject as DastSiteProfileModel, DastScannerProfileWithProject as DastScannerProfileModel } from '../dast/service.ts';

// A project's container expiration policy (its row, or the defaults it was created with).
export type { EffectivePolicy as ContainerExpirationPolicyModel } from '../container-expiration-policies/rules.ts';

// A project's compliance framework (functions/compliance-frameworks): its key.
export interface ComplianceFrameworkModel {
  key: NonNullable<ProjectView['complianceFramework']>;
}

// The instance security dashboard (functions/security-dashboard): the current user's, nothing to carry.
export interface InstanceSecurityDashboardModel {
  kind: 'instance_security_dashboard';
}

// Iterations (functions/iterations).
export type { IterationModel } from '../iterations/reads.ts';

// Issue boards (functions/boards).
export type { BoardModel, BoardListModel } from '../boards/models.ts';

// Group epics (functions/epics).
export type { BoardEpicModel, EpicModel, EpicIssueModel } from '../epics/models.ts';

// Alert management (functions/alerts): an alert with its project; no metrics alert exists (metricsAlert is null).
export type { AlertModel } from '../alerts/service.ts';
export type MetricsAlertModel = never;

// Alert HTTP integrations (functions/alert-integrations): the integration with its project (and its token, in the
// payload of the create or reset that made it).
export type { AlertIntegrationWithProject as AlertIntegrationModel } from '../alert-integrations/service.ts';

// Environments (functions/environments): an environment with its project; a metrics dashboard is an environment's
// dashboard at a path; annotations are the rows.
export type { EnvironmentModel } from '../environments/service.ts';
export type { MetricsDashboardModel } from '../environments/dashboards.ts';
export type { AnnotationModel as MetricsDashboardAnnotationModel } from '../annotations/service.ts';
