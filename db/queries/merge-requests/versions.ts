// A merge request's diff versions (GitLab's merge_request_diffs) and the closing issues cached with each, and the
// open merge requests a moved branch concerns (UpdateMergeRequestsWorker's lookup).
import { and, asc, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { visibleIssuesFilter, type Viewer } from '../lib/access.ts';
import type { Db } from '../../client.ts';
import { updateMergeRequestStatement } from '../merge-requests.ts';
import {
  issues,
  mergeRequestDiffs,
  mergeRequests,
  mergeRequestsClosingIssues,
  namespaces,
  projects,
  type MergeRequestDiffRow,
  type MergeStatus,
} from '../../schema/index.ts';

export type NewDiffVersion = Omit<typeof mergeRequestDiffs.$inferInsert, 'id' | 'createdAt' | 'mergeRequestId'>;

export const insertDiffVersionStatement = (db: Db, mergeRequestId: SQL<number> | number, v: NewDiffVersion) =>
  db.insert(mergeRequestDiffs).values({ ...v, mergeRequestId: mergeRequestId as number });

/**
 * A refresh's version, as statements for one batch: the MR row is locked first, so two readers refreshing at once
 * are serialized, and the version is inserted only when the latest one was not taken at these tips (the second
 * reader, which waited, then sees the first one's version and inserts nothing).
 */
export function refreshVersionStatements(db: Db, mergeRequestId: number, v: NewDiffVersion, mergeStatus: MergeStatus) {
  return [
    db.select({ id: mergeRequests.id }).from(mergeRequests).where(eq(mergeRequests.id, mergeRequestId)).for('update'),
    db.execute(
      sql`INSERT INTO ${mergeRequestDiffs} (merge_request_id, base_commit_sha, start_commit_sha, head_commit_sha, state, commits_count, files_count)
        SELECT ${mergeRequestId}, ${v.baseCommitSha ?? null}, ${v.startCommitSha}, ${v.headCommitSha}, ${v.state}, ${v.commitsCount}, ${v.filesCount}
        WHERE NOT EXISTS (SELECT 1 FROM (SELECT d.start_commit_sha, d.head_commit_sha FROM ${mergeRequestDiffs} d WHERE d.merge_request_id = ${mergeRequestId} ORDER BY d.id DESC LIMIT 1) latest
          WHERE latest.start_commit_sha = ${v.startCommitSha} AND latest.head_commit_sha = ${v.headCommitSha})`,
    ),
    updateMergeRequestStatement(db, mergeRequestId, { mergeStatus }),
  ] as const;
}

/** Rewrites the MR's cached closing issues (merge_requests_closing_issues), as statements for the writing batch. */
export function cacheClosingIssuesStatements(db: Db, mergeRequestId: SQL<number> | number, issueIds: readonly number[]) {
  const id = mergeRequestId as number;
  return [
    db.delete(mergeRequestsClosingIssues).where(eq(mergeRequestsClosingIssues.mergeRequestId, id)),
    ...(issueIds.length
      ? [
          db
            .insert(mergeRequestsClosingIssues)
            .values([...new Set(issueIds)].map((issueId) => ({ mergeRequestId: id, issueId })))
            .onConflictDoNothing(),
        ]
      : []),
  ];
}

/**
 * The cached closing issues of many MRs that the actor may read (MergeRequest#visible_closing_issues_for over
 * cached_closes_issues), as project path and iid, in the order the issues were created: one statement.
 */
export function readableClosingIssuesOf(db: Db, actor: Viewer, mergeRequestIds: readonly number[]) {
  return db
    .select({ mergeRequestId: mergeRequestsClosingIssues.mergeRequestId, projectPath: projects.pathWithNamespace, iid: issues.iid })
    .from(mergeRequestsClosingIssues)
    .innerJoin(issues, eq(issues.id, mergeRequestsClosingIssues.issueId))
    .innerJoin(projects, eq(projects.id, issues.projectId))
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .where(and(inArray(mergeRequestsClosingIssues.mergeRequestId, [...new Set(mergeRequestIds)]), visibleIssuesFilter(actor)))
    .orderBy(asc(issues.id));
}

/** The MRs of the project whose cached closing issues hold the issue (GET .../issues/:iid/closed_by), newest first. */
export async function closingMergeRequestIds(db: Db, issueId: number, projectId: number): Promise<number[]> {
  const rows = await db
    .select({ id: mergeRequests.id })
    .from(mergeRequestsClosingIssues)
    .innerJoin(mergeRequests, eq(mergeRequests.id, mergeRequestsClosingIssues.mergeRequestId))
    .where(and(eq(mergeRequestsClosingIssues.issueId, issueId), eq(mergeRequests.targetProjectId, projectId)))
    .orderBy(desc(mergeRequests.id));
  return rows.map((r) => r.id);
}

/** The MR's versions, newest first (GitLab's merge_request_diffs.viewable.order_id_desc). */
export async function listDiffVersions(db: Db, mergeRequestId: number): Promise<MergeRequestDiffRow[]> {
  return db.select().from(mergeRequestDiffs).where(eq(mergeRequestDiffs.mergeRequestId, mergeRequestId)).orderBy(desc(mergeRequestDiffs.id));
}

export async function findDiffVersion(db: Db, mergeRequestId: number, id: number): Promise<MergeRequestDiffRow | undefined> {
  const [row] = await db
    .select()
    .from(mergeRequestDiffs)
    .where(and(eq(mergeRequestDiffs.mergeRequestId, mergeRequestId), eq(mergeRequestDiffs.id, id)));
  return row;
}

/** Whether one of the MR's versions was taken between these SHAs (a diff note's position must name one). */
export async function findDiffVersionBySha(db: Db, mergeRequestId: number, shas: { base: string | null; start: string; head: string }) {
  const [row] = await db
    .select()
    .from(mergeRequestDiffs)
    .where(
      and(
        eq(mergeRequestDiffs.mergeRequestId, mergeRequestId),
        eq(mergeRequestDiffs.startCommitSha, shas.start),
        eq(mergeRequestDiffs.headCommitSha, shas.head),
        shas.base === null ? undefined : or(eq(mergeRequestDiffs.baseCommitSha, shas.base), isNull(mergeRequestDiffs.baseCommitSha)),
      ),
    )
    .orderBy(desc(mergeRequestDiffs.id))
    .limit(1);
  return row;
}

/**
 * The ids of the open MRs a push to `branch` of the project may have changed: those whose source branch it is, and
 * those targeting it in the project (RefreshService's reload_merge_requests).
 */
export async function openMergeRequestIdsOfBranch(db: Db, projectId: number, branch: string): Promise<number[]> {
  const found = await db
    .select({ id: mergeRequests.id })
    .from(mergeRequests)
    .where(
      and(
        inArray(mergeRequests.state, ['opened', 'locked']),
        or(
          and(eq(mergeRequests.sourceProjectId, projectId), eq(mergeRequests.sourceBranch, branch)),
          and(eq(mergeRequests.targetProjectId, projectId), eq(mergeRequests.targetBranch, branch)),
        ),
      ),
    );
  return found.map((r) => r.id);
}
