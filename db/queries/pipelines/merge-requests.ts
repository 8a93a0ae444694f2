// Pipelines and merge requests: a merge request's head pipeline, the merges waiting for a pipeline, the open merge
// requests a push to their source branch gives a merge request pipeline.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { ciPipelines } from '../../schema/index.ts';
import { rows, textArray } from '../lib/raw.ts';

/**
 * A merge request's head pipeline: the latest at its head commit of the source branch's pipelines and its own merge
 * request pipelines (MergeRequest#all_pipelines at the diff head).
 */
export async function headPipeline(db: Db, projectId: number, ref: string, sha: string, mergeRequestId: number) {
  const [row] = await db
    .select({ id: ciPipelines.id, status: ciPipelines.status, sha: ciPipelines.sha })
    .from(ciPipelines)
    .where(
      and(
        eq(ciPipelines.projectId, projectId),
        eq(ciPipelines.sha, sha),
        eq(ciPipelines.tag, false),
        sql`(${ciPipelines.ref} = ${ref} OR ${ciPipelines.mergeRequestId} = ${mergeRequestId})`,
      ),
    )
    .orderBy(desc(ciPipelines.id))
    .limit(1);
  return row;
}

/**
 * The open merge requests waiting for a pipeline to succeed (merge_when_pipeline_succeeds): those from its branch,
 * or the one a merge request pipeline is for.
 */
export async function mergeRequestsWaitingFor(db: Db, p: { projectId: number; ref: string; mergeRequestId: number | null }) {
  return rows<{ id: number; iid: number; target_project_id: number; merge_user_id: number | null; merge_params: string | null }>(
    db,
    sql`SELECT id, iid, target_project_id, merge_user_id, merge_params FROM merge_requests
      WHERE state = 'opened' AND merge_when_pipeline_succeeds
        AND ${p.mergeRequestId === null ? sql`source_project_id = ${p.projectId} AND source_branch = ${p.ref}` : sql`id = ${p.mergeRequestId}`}`,
  );
}

/** The open merge requests whose source is one of these branches of the project, with their heads' targets. */
export async function openMergeRequestsFrom(db: Db, projectId: number, branches: readonly string[]) {
  if (!branches.length) return [];
  return rows<{ id: number; iid: number; title: string; source_branch: string; target_branch: string; target_project_id: number }>(
    db,
    sql`SELECT id, iid, title, source_branch, target_branch, target_project_id FROM merge_requests
      WHERE source_project_id = ${projectId} AND state = 'opened' AND source_branch = ANY(${textArray(branches)})`,
  );
}
