// The labels API's listing (project and group labels, LabelsFinder): a page in title order with issue and merge
// request counts and the caller's subscription in the same statement, and its capped count.
import { and, asc, eq, sql } from 'drizzle-orm';
import { mergeRequestProjectsFilter, visibleIssuesFilter, type Viewer } from '../lib/access.ts';
import type { Db } from '../../client.ts';
import { issues, labelLinks, labels, mergeRequests, namespaces, projects } from '../../schema/index.ts';
import type { LabelRow } from '../../schema/labels.ts';
import { rows } from '../lib/raw.ts';
import { type LabelScope, type LabelFilter, scopeFilter, labelSearch } from '../labels.ts';
import { type LabelSubscriber, labelSubscribedSql } from '../notifications/label-subscriptions.ts';

function listWhere(scope: LabelScope, filter: LabelFilter) {
  return and(scopeFilter(scope), labelSearch(filter.search));
}

/** Issue counts of a label in the scope (issues of the project, or of the group's projects), as the actor sees them. */
function issueCount(actor: Viewer, scope: LabelScope, state: 'opened' | 'closed') {
  const where = and(
    sql`${labelLinks.targetType} = 'Issue'`,
    sql`${labelLinks.labelId} = ${labels.id}`,
    eq(issues.state, state),
    scope.kind === 'project' ? eq(issues.projectId, scope.projectId) : sql`${scope.groupId} = ANY(${namespaces.traversalIds})`,
    visibleIssuesFilter(actor),
  );
  return sql<number>`(${sql`SELECT count(*) FROM ${labelLinks} JOIN ${issues} ON ${issues.id} = ${labelLinks.targetId} JOIN ${projects} ON ${projects.id} = ${issues.projectId} JOIN ${namespaces} ON ${namespaces.id} = ${projects.namespaceId} WHERE ${where}`})`.mapWith(
    Number,
  );
}

/** Open merge requests with the label in the scope (target projects of the project, or the group's), as the actor may read them. */
function openMergeRequestCount(actor: Viewer, scope: LabelScope) {
  const where = and(
    sql`${labelLinks.targetType} = 'MergeRequest'`,
    sql`${labelLinks.labelId} = ${labels.id}`,
    sql`${mergeRequests.state} = 'opened'`,
    scope.kind === 'project' ? eq(mergeRequests.targetProjectId, scope.projectId) : sql`${scope.groupId} = ANY(${namespaces.traversalIds})`,
    mergeRequestProjectsFilter(actor),
  );
  return sql<number>`(${sql`SELECT count(*) FROM ${labelLinks} JOIN ${mergeRequests} ON ${mergeRequests.id} = ${labelLinks.targetId} JOIN ${projects} ON ${projects.id} = ${mergeRequests.targetProjectId} JOIN ${namespaces} ON ${namespaces.id} = ${projects.namespaceId} WHERE ${where}`})`.mapWith(
    Number,
  );
}

export interface LabelWithCounts {
  label: LabelRow;
  openIssuesCount?: number;
  closedIssuesCount?: number;
  openMergeRequestsCount?: number;
  /** Whether the caller subscribed to the label (from this project, or at group level). */
  subscribed?: boolean;
}

/**
 * One page of labels, title order (GitLab's LabelsFinder), with issue counts in the same statement when asked, and
 * the `subscriber`'s subscription to each.
 */
export async function listLabels(
  db: Db,
  actor: Viewer,
  scope: LabelScope,
  filter: LabelFilter,
  withCounts: boolean,
  limit: number,
  offset: number,
  subscriber?: LabelSubscriber,
): Promise<LabelWithCounts[]> {
  const where = listWhere(scope, filter);
  const order = [asc(labels.title), asc(labels.id)];
  const subscribed = subscriber ? labelSubscribedSql(subscriber) : sql<boolean>`false`.mapWith(Boolean);
  if (!withCounts) {
    return db
      .select({ label: labels, subscribed })
      .from(labels)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset);
  }
  return db
    .select({
      label: labels,
      openIssuesCount: issueCount(actor, scope, 'opened'),
      closedIssuesCount: issueCount(actor, scope, 'closed'),
      openMergeRequestsCount: openMergeRequestCount(actor, scope),
      subscribed,
    })
    .from(labels)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
}

export async function countLabels(db: Db, scope: LabelScope, filter: LabelFilter, limit: number): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${labels} WHERE ${listWhere(scope, filter)} LIMIT ${limit}) t`);
  return Number(row?.n ?? 0);
}
