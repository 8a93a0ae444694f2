// The pipelines' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over reads.ts's batched
// verbs.
import { each, perParent, stableKey } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import type { KeysetPage } from '../lib/pagination.ts';
import type { ProjectModel } from '../projects/models.ts';
import {
  artifactsOfJobs,
  jobsOfPipelines,
  pipelineCountsOf,
  pipelinePagesOf,
  pipelinesByIids,
  type PipelineListFilter,
  type PipelineListParent,
  type PipelineParentKind,
} from './reads.ts';

export const pipelineLoaders = (ctx: RequestContext) => ({
  /** Project/Commit/MergeRequest.pipelines pages by parent (null where the actor may not read them). */
  pipelinePages: perParent((parents: PipelineListParent[], a: { kind: PipelineParentKind; filter: PipelineListFilter; page: KeysetPage }) =>
    pipelinePagesOf(ctx, a.kind, parents, a.filter, a.page),
  ),
  /** PipelineConnection.count by parent (one grouped statement). */
  pipelineCounts: perParent((parents: PipelineListParent[], a: { kind: PipelineParentKind; filter: PipelineListFilter }) =>
    pipelineCountsOf(ctx, a.kind, parents, a.filter),
  ),
  /** Project.pipeline(iid) by (project, iid). */
  pipelineByIid: each(
    (keys: ReadonlyArray<{ project: ProjectModel; iid: number }>) => pipelinesByIids(ctx, keys),
    (k) => stableKey({ project: k.project.project.id, iid: k.iid }),
  ),
  /** The latest jobs of each pipeline with their needs: stages, groups, jobs and needs of a page in one statement. */
  pipelineJobs: each((ids: readonly number[]) => jobsOfPipelines(ctx, ids)),
  /** CiJob.artifacts by job id. */
  jobArtifacts: each((ids: readonly number[]) => artifactsOfJobs(ctx, ids)),
});
