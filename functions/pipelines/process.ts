// Processing after a job changed (GitLab's PipelineProcessWorker running Ci::PipelineProcessing::
// AtomicProcessingService): under the pipeline's row lock (one processor per pipeline at a time, as GitLab's
// exclusive lease), the latest jobs are read, the processing rules decide which created jobs move on, and the
// stages' and the pipeline's statuses are derived again from their jobs. Returns the pipeline's status before and
// after, so callers can act on a transition (a merge waiting for the pipeline).
import { lockPipeline, pipelineJobs, pipelineStages, setJobStatuses, setPipelineStatus, setStageStatuses } from '../../db/queries/pipelines.ts';
import type { CiStatus } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { projectJobByIdStatement } from '../background-jobs/enqueue.ts';
import { compositeStatus, processPipeline } from './status.ts';
import { syncDeployments } from '../deployments/record.ts';

export interface Processed {
  before: CiStatus;
  after: CiStatus;
}

export async function reprocessPipeline(ctx: RequestContext, pipelineId: number): Promise<Processed | null> {
  const processed = await ctx.transaction(async (tx) => {
    const pipeline = await lockPipeline(tx, pipelineId);
    if (!pipeline) return null;
    const [jobs, stages] = await Promise.all([pipelineJobs(tx, [pipelineId]), pipelineStages(tx, [pipelineId])]);
    const processable = jobs.map((j) => ({
      id: j.id,
      name: j.name,
      stageIdx: j.stageIdx,
      status: j.status,
      when: j.when,
      allowFailure: j.allowFailure,
      needs: j.schedulingType === 'dag' ? j.needs.map((n) => n.name) : null,
    }));
    const changes = processPipeline(processable);
    await setJobStatuses(tx, changes);
    await syncDeployments(tx, pipelineId);
    const statusOf = new Map(jobs.map((j) => [j.id, j.status]));
    for (const c of changes) statusOf.set(c.id, c.status);
    const items = jobs.map((j) => ({ status: statusOf.get(j.id)!, allowFailure: j.allowFailure, stageId: j.stageId }));
    const stageChanges = stages.flatMap((s) => {
      const status = compositeStatus(items.filter((i) => i.stageId === s.id)) ?? 'skipped';
      return status === s.status ? [] : [{ id: s.id, status }];
    });
    await setStageStatuses(tx, stageChanges);
    const after = compositeStatus(items) ?? 'skipped';
    if (after !== pipeline.status) await setPipelineStatus(tx, pipelineId, after);
    // A pipeline that has just succeeded releases the merges waiting for it: PipelineSuccessWorker, enqueued with
    // the change (it exists exactly when the success committed) and run after the response.
    if (after === 'success' && pipeline.status !== 'success' && !pipeline.tag) {
      await projectJobByIdStatement(tx, ctx, 'pipeline_processing:pipeline_success', pipeline.projectId, { pipeline_id: pipelineId });
    }
    return { before: pipeline.status, after };
  });
  if (!processed) return null;
  return processed;
}
