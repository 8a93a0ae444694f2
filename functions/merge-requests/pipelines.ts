// The pipelines Entities::MergeRequest (GitLab 13.6) shows of one merge request: `head_pipeline`
// (MergeRequest#head_pipeline: the latest pipeline of the source branch, or of the merge request, at its diff head,
// the one the merge endpoint waits for), shown to whoever may read the project's pipelines; and `pipeline` with
// `latest_build_started_at`/`latest_build_finished_at` (MergeRequest::Metrics, which PipelineMetricsWorker fills
// when a head pipeline starts running, and again when it succeeds).
//
// Deviation: no metrics row is kept, so `pipeline` is the current head pipeline once it has started; GitLab keeps the
// previous head pipeline there until a new one starts.
import { findPipelineById, findPipelineProject, headPipeline } from '../pipelines/lookups.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { MergeRequestView } from '../../db/queries/merge-requests.ts';
import type { PipelineRow, UserRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { can } from '../lib/policy.ts';
import { pipelineDetail } from '../pipelines/service.ts';
import { projectFacts } from '../projects/service.ts';
import { diffHeadSha } from './schemas.ts';

export interface HeadPipeline {
  pipeline: PipelineRow;
  user: UserRow | null;
  hasWarnings: boolean;
  /** The pipeline's project (the source project: a fork's for a merge request from a fork). */
  project: { pathWithNamespace: string };
}

/** The merge request's head pipeline, or null (none, or the caller may not read the project's pipelines). */
export async function mergeRequestHeadPipeline(ctx: RequestContext, project: ProjectView, view: MergeRequestView): Promise<HeadPipeline | null> {
  const sha = diffHeadSha(view);
  const sourceId = view.mr.sourceProjectId;
  if (sha === null || sourceId === null || !can(ctx.actor, 'project:read_pipeline', projectFacts(project))) return null;
  const found = await headPipeline(ctx.db, sourceId, view.mr.sourceBranch, sha, view.mr.id);
  const [pipeline, source] = found
    ? await Promise.all([findPipelineById(ctx.db, found.id), sourceId === project.project.id ? project.project : findPipelineProject(ctx.db, sourceId)])
    : [];
  if (!pipeline || !source) return null;
  return { ...(await pipelineDetail(ctx, pipeline)), project: source };
}
