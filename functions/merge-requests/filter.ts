// THE merge request list filter (GitLab 13.6's MergeRequestsFinder params): REST's three lists and GraphQL's
// Project/Group.mergeRequests turn their parameters into REST's names and get the query's filter from here.
import type { MergeRequestConditions, MergeRequestListFilter } from '../../db/queries/merge-requests.ts';
import type { RequestContext } from '../lib/context.ts';
import { withScope, type IssuableListKind } from '../issuables/filter.ts';
import type { ListMergeRequestsParams } from './schemas.ts';

/** The finder's parameters, as REST names them (GraphQL maps its arguments onto these). */
export type MergeRequestFinderParams = Omit<
  ListMergeRequestsParams,
  'page' | 'per_page' | 'order_by' | 'sort' | 'with_labels_details' | 'view' | 'with_merge_status_recheck'
> & {
  /** The finder's source_branch / target_branch given as several names (GraphQL's sourceBranches, targetBranches): any of them. */
  source_branches?: string[];
  target_branches?: string[];
  /** The finder's merged_after / merged_before (GraphQL's mergedAfter, mergedBefore). */
  merged_after?: Date;
  merged_before?: Date;
};

export type MergeRequestListKind = IssuableListKind;

export type MergeRequestFilter = Omit<MergeRequestListFilter, 'projectId' | 'groupId'>;

const noneOrAny = (value: string) => {
  const v = value.toLowerCase();
  return v === 'none' ? 'none' : v === 'any' ? 'any' : null;
};

type Negatable = NonNullable<MergeRequestFinderParams['not']>;

/** The conditions `not[...]` can negate, from their parameters. */
function conditions(ctx: RequestContext, p: Negatable): MergeRequestConditions {
  const c: MergeRequestConditions = {};
  if (p.author_id !== undefined) c.authorId = p.author_id;
  if (p.author_username !== undefined) c.authorUsername = p.author_username;
  if (p.assignee_id !== undefined) c.assigneeId = p.assignee_id;
  if (p.assignee_username !== undefined) c.assigneeUsername = p.assignee_username;
  if (p.reviewer_id !== undefined) c.reviewerId = p.reviewer_id;
  if (p.reviewer_username !== undefined) c.reviewerUsername = p.reviewer_username;
  if (p.labels?.length) c.labels = (p.labels.length === 1 && noneOrAny(p.labels[0]!)) || p.labels;
  if (p.milestone !== undefined) c.milestone = noneOrAny(p.milestone) ?? p.milestone;
  // my_reaction_emoji needs a user: anonymous callers' filter matches nothing they reacted with (GitLab ignores it).
  const me = ctx.actor.user?.id;
  if (p.my_reaction_emoji !== undefined && me !== undefined) c.myReactionEmoji = { userId: me, name: noneOrAny(p.my_reaction_emoji) ?? p.my_reaction_emoji };
  return c;
}

/**
 * The filter MergeRequestsFinder applies for these parameters, or null when nothing can match. GET /merge_requests
 * lists the caller's own MRs unless scope=all; anonymous callers must ask for all (401 otherwise).
 */
export function mergeRequestFilter(ctx: RequestContext, kind: MergeRequestListKind, p: MergeRequestFinderParams): MergeRequestFilter | null {
  const filter = withScope<MergeRequestFilter>(ctx, kind, p.scope, conditions(ctx, p));
  if (!filter) return null;
  if (p.state && p.state !== 'all') filter.state = p.state;
  if (p.source_branch !== undefined) filter.sourceBranch = p.source_branch;
  if (p.target_branch !== undefined) filter.targetBranch = p.target_branch;
  if (p.search) filter.search = p.search;
  if (p.in) filter.searchIn = p.in;
  if (p.wip !== undefined) filter.draft = p.wip === 'yes';
  if (kind !== 'project' && p.non_archived !== false) filter.nonArchived = true;
  if (p.iids) filter.iids = p.iids;
  if (p.created_after) filter.createdAfter = p.created_after;
  if (p.created_before) filter.createdBefore = p.created_before;
  if (p.updated_after) filter.updatedAfter = p.updated_after;
  if (p.updated_before) filter.updatedBefore = p.updated_before;
  if (p.source_branches) filter.sourceBranches = p.source_branches;
  if (p.target_branches) filter.targetBranches = p.target_branches;
  if (p.merged_after) filter.mergedAfter = p.merged_after;
  if (p.merged_before) filter.mergedBefore = p.merged_before;
  if (p.not) filter.not = conditions(ctx, p.not);
  return filter;
}
