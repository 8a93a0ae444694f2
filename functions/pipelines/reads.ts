// Batched pipeline reads for GraphQL's per-request loaders (loaders.ts): pipelines of many projects,
// commits or merge request sources (one statement per page arguments), pipelines by iid, the latest jobs of many
// pipelines with their needs (one statement), the artifacts of many jobs. A pipeline list is shown only where the
// actor may read_pipeline on its project (the Pipeline type's `authorize :read_pipeline`); everything below a pipeline
// was found through one. Stages and groups are built from the jobs, as GitLab's legacy stages and Ci::Group are.
import { jobFiles } from '../jobs/lookups.ts';
import * as q from '../../db/queries/pipelines.ts';
import * as pq from '../../db/queries/pipelines/pages.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { CiStatus, PipelineRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import type { KeysetPage } from '../lib/pagination.ts';
import { can } from '../lib/policy.ts';
import { projectFacts } from '../projects/service.ts';

/** A pipeline with its project (the policy's facts and every path come from it). */
export interface PipelineModel {
  project: ProjectView;
  pipeline: PipelineRow;
}
export type PipelineJob = q.PipelineJobRow;
/** A latest job of a pipeline. */
export interface CiJobModel {
  pipeline: PipelineModel;
  job: PipelineJob;
}
/** A stage (Ci::LegacyStage: the stage name its latest jobs carry) or a group of its jobs (Ci::Group); `position` 1-based. */
export interface CiStageModel {
  pipeline: PipelineModel;
  name: string;
  position: number;
  jobs: PipelineJob[];
}
export type CiGroupModel = CiStageModel;
export interface CiJobArtifactModel {
  job: CiJobModel;
  fileType: string;
  position: number;
}

export interface PipelineListParent {
  project: ProjectView;
  sha: string | null;
  ref: string | null;
}

const readable = (ctx: RequestContext, project: ProjectView) => can(ctx.actor, 'project:read_pipeline', projectFacts(project));
const keyOf = (p: PipelineListParent): pq.PipelineParent => ({ projectId: p.project.project.id, sha: p.sha, ref: p.ref });

/** A keyset page of pipelines for each parent, newest first unless asked otherwise; null where the actor may not read them. */
export async function pipelinePagesOf(
  ctx: RequestContext,
  kind: pq.PipelineParentKind,
  parents: readonly PipelineListParent[],
  filter: pq.PipelineListFilter,
  page: KeysetPage,
): Promise<Array<PipelineModel[] | null>> {
  const allowed = parents.filter((p) => readable(ctx, p.project));
  const pages = await pq.pipelinePagesOf(ctx.db, kind, allowed.map(keyOf), filter, page);
  return parents.map((p) => {
    const at = allowed.indexOf(p);
    return at < 0 ? null : pages[at]!.map((pipeline) => ({ project: p.project, pipeline }));
  });
}

/** PipelineConnection.count for each parent (null where the actor may not read them). */
export async function pipelineCountsOf(
  ctx: RequestContext,
  kind: pq.PipelineParentKind,
  parents: readonly PipelineListParent[],
  filter: pq.PipelineListFilter,
): Promise<Array<number | null>> {
  const allowed = parents.filter((p) => readable(ctx, p.project));
  const counts = await pq.pipelineCountsOf(ctx.db, kind, allowed.map(keyOf), filter);
  return parents.map((p) => {
    const at = allowed.indexOf(p);
    return at < 0 ? null : counts[at]!;
  });
}

/** Project.pipeline(iid): the pipeline of each (project, iid), null when missing or unreadable. */
export async function pipelinesByIids(ctx: RequestContext, keys: ReadonlyArray<{ project: ProjectView; iid: number }>): Promise<Array<PipelineModel | null>> {
  const allowed = keys.filter((k) => readable(ctx, k.project));
  const found = await pq.pipelinesByIids(
    ctx.db,
    allowed.map((k) => ({ projectId: k.project.project.id, iid: k.iid })),
  );
  return keys.map((k) => {
    const pipeline = allowed.includes(k) ? found.find((p) => p.projectId === k.project.project.id && p.iid === k.iid) : undefined;
    return pipeline ? { project: k.project, pipeline } : null;
  });
}

/** The latest jobs of each pipeline (stage, then id order), with the names of the jobs they need. */
export async function jobsOfPipelines(ctx: RequestContext, pipelineIds: readonly number[]): Promise<PipelineJob[][]> {
  const jobs = await q.pipelineJobs(ctx.db, pipelineIds);
  return pipelineIds.map((id) => jobs.filter((j) => j.pipelineId === id));
}

/** The artifacts of each job, in upload order. */
export async function artifactsOfJobs(ctx: RequestContext, jobIds: readonly number[]): Promise<Array<Array<{ fileType: string }>>> {
  const { artifacts } = await jobFiles(ctx.db, jobIds);
  return jobIds.map((id) => artifacts.filter((a) => a.jobId === id));
}

/** The pipelines' statuses the GraphQL enum names, as stored. */
export const ciStatusOf = (name: string): CiStatus => name.toLowerCase() as CiStatus;

// ---- Stages and groups (pure) ----

/** Ci::Group's group_name: the name without a parallel suffix (`rspec 1/3`, `rspec 1:3`), trimmed. */
export const groupName = (name: string) => name.replace(/\d+[\s:/\\]+\d+\s*/g, '').trim();

/** CommitStatus#sortable_name: digits compare as numbers (`job 2` before `job 10`). */
function compareSortable(a: string, b: string): number {
  const x = a.split(/(\d+)/);
  const y = b.split(/(\d+)/);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    // split keeps text at even places and digits at odd ones, so both sides hold the same kind at each place.
    const c = i % 2 ? Number(x[i]) - Number(y[i]) : x[i]! < y[i]! ? -1 : x[i]! > y[i]! ? 1 : 0;
    if (c !== 0) return c;
  }
  return x.length - y.length;
}

/** The pipeline's stages in order, each with its latest jobs (a stage without jobs is not shown: legacy_stages). */
export function stagesOf(pipeline: PipelineModel, jobs: readonly PipelineJob[]): CiStageModel[] {
  const byIdx = new Map<number, PipelineJob[]>();
  for (const job of jobs) byIdx.set(job.stageIdx, [...(byIdx.get(job.stageIdx) ?? []), job]);
  return [...byIdx.entries()].sort(([a], [b]) => a - b).map(([, stageJobs], i) => ({ pipeline, name: stageJobs[0]!.stage, position: i + 1, jobs: stageJobs }));
}

/** Ci::Group.fabricate: the stage's jobs by sortable name, grouped by group name in that order. */
export function groupsOf(stage: CiStageModel): CiGroupModel[] {
  const sorted = [...stage.jobs].sort((a, b) => compareSortable(a.name, b.name) || a.id - b.id);
  const groups = new Map<string, PipelineJob[]>();
  for (const job of sorted) groups.set(groupName(job.name), [...(groups.get(groupName(job.name)) ?? []), job]);
  return [...groups.entries()].map(([name, groupJobs], i) => ({ pipeline: stage.pipeline, name, position: i + 1, jobs: groupJobs }));
}

/** The jobs of the pipeline a job needs, by name, in the order of its `needs` (a need ruled out of the pipeline is absent). */
export function needsOf(job: PipelineJob, pipelineJobs: readonly PipelineJob[]): PipelineJob[] {
  return job.needs.flatMap((need) => pipelineJobs.find((j) => j.name === need.name) ?? []);
}

export type { PipelineListFilter, PipelineParentKind } from '../../db/queries/pipelines/pages.ts';
