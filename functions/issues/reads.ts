// Batched issue reads (GraphQL's connections and fields under many issues or projects at once): each verb takes many
// parents, applies the REST list's filter (filter.ts) and the policy, and costs one query whatever the number of
// parents. loaders.ts wraps them in DataLoaders.
import * as q from '../../db/queries/issues.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { byParent } from '../../db/queries/lib/window.ts';
import type { UserRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import type { KeysetPage } from '../lib/pagination.ts';
import { issueFilter, type IssueFinderParams } from './filter.ts';
import { findParticipants } from '../issuables/lookups.ts';
import { visibleParticipants } from '../issuables/participants.ts';
import { issueFacts } from './service.ts';

/** An issue already found readable, with its project (what the policy's facts come from). */
export interface IssueWithProject {
  project: ProjectView;
  view: q.IssueView;
}

/** A keyset page of each project's issues (Project.issues under one or many projects): one statement. */
export async function issuePages(ctx: RequestContext, projectIds: readonly number[], params: IssueFinderParams, page: KeysetPage): Promise<q.IssueView[][]> {
  const filter = issueFilter(ctx, 'project', params);
  if (!filter) return projectIds.map(() => []);
  return q.listIssueViewsPages(ctx.db, ctx.actor, filter, projectIds, page, ctx.actor.user?.id);
}

/** The number of matching issues of each project (IssueConnection.count): one grouped count. */
export async function issueCounts(ctx: RequestContext, projectIds: readonly number[], params: IssueFinderParams): Promise<number[]> {
  const filter = issueFilter(ctx, 'project', params);
  if (!filter) return projectIds.map(() => 0);
  return q.countIssuesOfProjects(ctx.db, ctx.actor, filter, projectIds);
}

/** The labels of each issue, by title. */
export async function labelsOfIssues(ctx: RequestContext, issueIds: readonly number[]) {
  return byParent(issueIds, await q.findLabelsOfIssues(ctx.db, issueIds), (r) => r.issueId).map((rows) => rows.map((r) => r.label));
}

/** The number of distinct discussions of the user notes the actor may read, of each issue. */
export async function userDiscussionCounts(ctx: RequestContext, issueIds: readonly number[]): Promise<number[]> {
  const counts = new Map((await q.countUserDiscussionsOfIssues(ctx.db, ctx.actor, issueIds)).map((r) => [r.id, r.n]));
  return issueIds.map((id) => counts.get(id) ?? 0);
}

/**
 * Participable: the author, the assignees and the authors of the notes the actor may read, each once, among the users
 * it may see; for each issue, in that order.
 */
export async function participantsOfIssues(ctx: RequestContext, found: readonly IssueWithProject[]): Promise<UserRow[][]> {
  const ids = found.map((i) => i.view.issue.id);
  const byIssue = byParent(ids, await findParticipants(ctx.db, ids), (r) => r.issueId);
  return found.map(({ project, view }, i) => visibleParticipants(ctx, byIssue[i]!, issueFacts(project, view)));
}

/** The current user's to-dos on each issue, oldest first, with their bodies (none when anonymous). */
export async function currentUserTodosOfIssues(ctx: RequestContext, issueIds: readonly number[]) {
  const rows = ctx.actor.user ? await q.findUserTodosOfIssues(ctx.db, ctx.actor.user.id, issueIds) : [];
  return byParent(issueIds, rows, (r) => r.todo.targetId);
}
