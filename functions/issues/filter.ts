// THE issue list filter (GitLab's IssuesFinder params): REST's three lists and GraphQL's Project.issues both turn
// their parameters into IssueFinderParams (REST's names) and get the query's filter from here, so `none`/`any`,
// scopes and the archived rule cannot differ between the two faces.
import type { IssueListFilter } from '../../db/queries/issues.ts';
import type { RequestContext } from '../lib/context.ts';
import { withScope, type IssuableListKind } from '../issuables/filter.ts';
import type { ListIssuesParams } from './schemas.ts';

/** The finder's parameters, as REST names them (GraphQL maps its arguments onto these). */
export type IssueFinderParams = Omit<ListIssuesParams, 'page' | 'per_page' | 'order_by' | 'sort' | 'with_labels_details' | 'state'> & {
  /** `locked` is a merge request state: no issue has it. */
  state?: ListIssuesParams['state'] | 'locked' | undefined;
  /** GraphQL's `types` (IssuesFinder's issue_types): without it, Issue::TYPES_FOR_LIST (no test cases). */
  issue_types?: IssueListFilter['types'];
  /** GraphQL's `iterationId: [ID]` (IssuesResolver): issues in any of these iterations. */
  iteration_ids?: number[] | undefined;
};

/** Where the list looks: every readable issue (GET /issues), one project's, or one group's (with subgroups). */
export type IssueListKind = IssuableListKind;

/** The source-independent part of the query filter; the caller adds projectId/groupId (or pages per project). */
export type IssueFilter = Omit<IssueListFilter, 'projectId' | 'groupId'>;

const noneOrAny = (value: string) => {
  const v = value.toLowerCase();
  return v === 'none' ? 'none' : v === 'any' ? 'any' : null;
};

/**
 * The filter IssuesFinder applies for these parameters, or null when nothing can match (a scope that needs a user
 * the caller is not, contradictory author or assignee ids, `state=locked`). Anonymous callers of GET /issues must ask
 * for scope=all (401 otherwise, as GitLab).
 */
export function issueFilter(ctx: RequestContext, kind: IssueListKind, p: IssueFinderParams): IssueFilter | null {
  const given: IssueFilter = {};
  if (p.author_id !== undefined) given.authorId = p.author_id;
  if (p.assignee_id !== undefined) given.assigneeId = p.assignee_id;
  // GET /issues: the caller's own issues unless scope=all (anonymous callers must ask for all).
  const filter = withScope(ctx, kind, p.scope, given);
  if (!filter) return null;
  if (p.author_username !== undefined) filter.authorUsername = p.author_username;
  // EE by_assignee: every username given must be an assignee.
  if (p.assignee_username?.length) filter.assigneeUsername = p.assignee_username.length === 1 ? p.assignee_username[0]! : [...p.assignee_username];
  if (p.state === 'locked') return null;
  if (p.state && p.state !== 'all') filter.state = p.state;
  if (p.labels?.length) filter.labels = (p.labels.length === 1 && noneOrAny(p.labels[0]!)) || p.labels;
  if (p.milestone !== undefined) filter.milestone = noneOrAny(p.milestone) ?? p.milestone;
  if (p.search) filter.search = p.search;
  if (p.in) filter.searchIn = p.in;
  // GitLab: the instance and group lists leave archived projects out unless non_archived=false.
  if (kind !== 'project' && p.non_archived !== false) filter.nonArchived = true;
  if (p.iids) filter.iids = p.iids;
  if (p.confidential !== undefined) filter.confidential = p.confidential;
  if (p.created_after) filter.createdAfter = p.created_after;
  if (p.created_before) filter.createdBefore = p.created_before;
  if (p.updated_after) filter.updatedAfter = p.updated_after;
  if (p.updated_before) filter.updatedBefore = p.updated_before;
  if (p.issue_types?.length) filter.types = p.issue_types;
  // EE by_iteration (IssuesFinder applies it whatever the license): an id, None / Any, or a title.
  if (p.iteration_id !== undefined) filter.iterationIds = typeof p.iteration_id === 'number' ? [p.iteration_id] : p.iteration_id;
  if (p.iteration_ids !== undefined) filter.iterationIds = p.iteration_ids;
  if (p.iteration_title !== undefined) filter.iterationTitle = p.iteration_title;
  return filter;
}
