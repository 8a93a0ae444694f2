// Merges that wait for a pipeline (AutoMerge::MergeWhenPipelineSucceedsService#process): when a branch's pipeline
// succeeds, each open merge request from that branch waiting for it is merged as the user who asked, with the
// parameters they gave, at the pipeline's commit (a push after the request makes the SHA check refuse, as GitLab's
// `sha` does). A merge that cannot happen records its error and stops waiting, as GitLab's AutoMergeProcessWorker.
import { findPipelineById, mergeRequestsWaitingFor } from '../pipelines/lookups.ts';
import * as q from '../../db/queries/merge-requests.ts';
import { findUsersByIds } from '../users/lookups.ts';
import type { JobContext } from '../housekeeping/service.ts';
import { userActor } from '../lib/auth.ts';
import { anonymous, jobContext, type RequestContext } from '../lib/context.ts';
import { isDomainError } from '../lib/errors.ts';
import { log } from '../lib/log.ts';
import { mergeMergeRequest } from './merge.ts';
import type { MergeParams } from './schemas.ts';

/** PipelineSuccessWorker: the merges waiting for the pipeline, each as the user who asked. */
export async function mergeWaitingForPipeline(job: JobContext, pipelineId: number): Promise<{ merged: number }> {
  if (!job.config) throw new Error('pipeline_success needs the instance configuration');
  const pipeline = await findPipelineById(job.ctx.db, pipelineId);
  if (!pipeline || pipeline.tag || pipeline.status !== 'success') return { merged: 0 };
  return mergeWaitingFor(jobContext(job.ctx, job.config, anonymous, `pipeline_success:${pipelineId}`), pipeline);
}

async function mergeWaitingFor(
  ctx: RequestContext,
  pipeline: { projectId: number; ref: string; sha: string; mergeRequestId: number | null },
): Promise<{ merged: number }> {
  const waiting = await mergeRequestsWaitingFor(ctx.db, pipeline);
  let merged = 0;
  if (!waiting.length) return { merged };
  const users = await findUsersByIds(ctx.db, [...new Set(waiting.flatMap((w) => (w.merge_user_id ? [Number(w.merge_user_id)] : [])))]);
  for (const mr of waiting) {
    const user = users.find((u) => u.id === Number(mr.merge_user_id));
    if (!user) continue;
    const saved = (mr.merge_params ? JSON.parse(mr.merge_params) : {}) as MergeParams;
    // The merge runs as its merge user (a fresh memo: policy lookups are per actor).
    const asUser: RequestContext = { ...ctx, actor: userActor(user), memo: new Map() };
    try {
      await mergeMergeRequest({
        ctx: asUser,
        input: { project: { id: Number(mr.target_project_id) }, iid: Number(mr.iid), params: { ...saved, sha: pipeline.sha } },
      });
      merged++;
    } catch (error) {
      if (!(error instanceof Error && 'problem' in error))
        log('error', 'automatic merge failed', { requestId: ctx.requestId, mergeRequestId: mr.id, error: String(error) });
      const reason = isDomainError(error, 'conflict') ? 'SHA does not match HEAD of source branch' : 'Merge failed';
      await ctx.batch((db) => [
        q.updateMergeRequestStatement(db, Number(mr.id), { mergeWhenPipelineSucceeds: false, mergeUserId: null, mergeParams: null, mergeError: reason }),
      ]);
    }
  }
  return { merged };
}
