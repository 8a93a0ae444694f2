// GraphQL over pipelines (GitLab 13.6 Types::Ci::PipelineType, StageType, GroupType, JobType, DetailedStatusType,
// JobArtifactType): Project.pipeline(iid) and Project.pipelines, the connections Commit and MergeRequest show
// (pipelineConnection / latestPipeline below), and what a pipeline holds. Every list goes through the per-request
// loaders over reads.ts: a page of pipelines with their stages, groups, jobs and needs costs one statement for
// the pipelines and one for all their jobs, whatever the page's size.
import { arrayConnection, keysetConnection, type ConnectionArgs } from '../graphql/connection.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import type {
  DetailedStatus as DetailedStatusType,
  JobArtifactFileType,
  PipelineConfigSourceEnum,
  PipelineStatusEnum,
  Resolvers,
} from '../graphql/generated.ts';
import { toGlobalId } from '../graphql/ids.ts';
import type { PipelineConnectionModel } from './models.ts';
import { iso } from '../lib/format.ts';
import { can } from '../lib/policy.ts';
import { projectFacts } from '../projects/service.ts';
import {
  ciStatusOf,
  groupsOf,
  needsOf,
  stagesOf,
  type CiJobModel,
  type PipelineJob,
  type PipelineListParent,
  type PipelineModel,
  type PipelineParentKind,
} from './reads.ts';
import {
  ACTIVE_STATUSES,
  CANCELABLE_STATUSES,
  compositeStatus,
  detailedStatus,
  hasWarnings,
  stageStatus,
  type DetailedStatusOptions,
  type JobStatus,
} from './status.ts';
import { BLANK_SHA } from '../ci/refs.ts';

interface PipelineListArgs extends ConnectionArgs {
  status?: PipelineStatusEnum | null;
  ref?: string | null;
  sha?: string | null;
}

/**
 * A parent's pipelines, newest first (Ci::PipelinesFinder's id order), filtered by status, ref and sha; `count` over
 * the whole filtered list, only when asked. Where the actor may not read them: none.
 */
export async function pipelineConnection(
  { loaders }: GraphQLContext,
  kind: PipelineParentKind,
  parent: PipelineListParent | null,
  args: PipelineListArgs,
): Promise<PipelineConnectionModel> {
  const filter = { status: args.status ? ciStatusOf(args.status) : undefined, ref: args.ref ?? undefined, sha: args.sha ?? undefined };
  const connection = await keysetConnection<PipelineModel>(
    args,
    'desc',
    (p) => p.pipeline.id,
    async (page) => (parent ? ((await loaders.pipelinePages.load({ parent, args: { kind, filter, page } })) ?? []) : []),
  );
  // A first page that holds every pipeline is its own count; otherwise one grouped count.
  const whole = !args.after && !args.before && args.first !== 0 && args.last !== 0 && !connection.pageInfo.hasNextPage && !connection.pageInfo.hasPreviousPage;
  const count = async () => (whole ? connection.nodes.length : parent ? ((await loaders.pipelineCounts.load({ parent, args: { kind, filter } })) ?? 0) : 0);
  return { ...connection, count };
}

/**
 * The newest of a parent's pipelines under the filters (Commit.latestPipeline, MergeRequest.headPipeline): the first
 * node of the default page, so asking it beside `pipelines` with the same filters reads the same statement.
 */
export async function latestPipeline(context: GraphQLContext, kind: PipelineParentKind, parent: PipelineListParent | null, args: PipelineListArgs = {}) {
  const filters = { status: args.status ?? null, ref: args.ref ?? null, sha: args.sha ?? null };
  return (await pipelineConnection(context, kind, parent, filters)).nodes[0] ?? null;
}

const upper = <T extends string>(value: string) => value.toUpperCase() as T;
const pipelinePath = (p: PipelineModel) => `/${p.project.project.pathWithNamespace}/-/pipelines/${p.pipeline.id}`;
const jobPath = (j: CiJobModel) => `/${j.pipeline.project.project.pathWithNamespace}/-/jobs/${j.job.id}`;

/** DetailedStatusType: the presentation of a status, the page it links to; no actions are offered here. */
function toDetailedStatus(status: JobStatus, detailsPath: string | null, options: DetailedStatusOptions): DetailedStatusType {
  const d = detailedStatus(status, options);
  return {
    group: d.group,
    icon: d.icon,
    favicon: d.favicon,
    detailsPath,
    hasDetails: d.hasDetails,
    label: d.label,
    text: d.text,
    tooltip: d.tooltip,
    action: null,
  };
}

/** A job's status (Gitlab::Ci::Status::Build::Common: its page, readable by whoever reads the pipeline). */
const jobStatus = (j: CiJobModel) => toDetailedStatus(j.job.status, jobPath(j), { subject: 'job' });

const jobsOf = (context: GraphQLContext, p: PipelineModel) => context.loaders.pipelineJobs.load(p.pipeline.id);
const jobModels = (pipeline: PipelineModel, jobs: readonly PipelineJob[]): CiJobModel[] => jobs.map((job) => ({ pipeline, job }));

/** Ci::Build#retryable? (failed or canceled builds), Ci::HasStatus cancelable jobs. */
const RETRYABLE: readonly JobStatus[] = ['failed', 'canceled'];

export const pipelineResolvers: Resolvers = {
  Project: {
    pipeline: async (project, { iid }, { loaders }) => {
      // An iid that is no number names no pipeline.
      const n = /^\d{1,10}$/.test(iid) ? Number(iid) : NaN;
      return Number.isInteger(n) && n <= 2_147_483_647 ? loaders.pipelineByIid.load({ project, iid: n }) : null;
    },
    pipelines: (project, args, context) => pipelineConnection(context, 'project', { project, sha: null, ref: null }, args),
  },
  PipelineConnection: {
    count: (c) => c.count(),
  },
  Pipeline: {
    id: (p) => toGlobalId('Ci::Pipeline', p.pipeline.id),
    iid: (p) => String(p.pipeline.iid),
    sha: (p) => p.pipeline.sha,
    beforeSha: (p) => p.pipeline.beforeSha ?? BLANK_SHA,
    status: (p) => upper<PipelineStatusEnum>(p.pipeline.status),
    // Pipeline::Factory: SuccessWarning when an allowed failure is among its jobs, Blocked/Delayed wording.
    detailedStatus: async (p, _a, context) =>
      toDetailedStatus(p.pipeline.status, pipelinePath(p), {
        subject: 'pipeline',
        hasWarnings: p.pipeline.status === 'success' && hasWarnings(await jobsOf(context, p)),
      }),
    active: (p) => ACTIVE_STATUSES.includes(p.pipeline.status),
    cancelable: async (p, _a, context) => (await jobsOf(context, p)).some((j) => CANCELABLE_STATUSES.includes(j.status)),
    retryable: async (p, _a, context) => (await jobsOf(context, p)).some((j) => j.type === 'Ci::Build' && RETRYABLE.includes(j.status)),
    coverage: (p) => p.pipeline.coverage,
    duration: (p) => p.pipeline.duration,
    createdAt: (p) => iso(p.pipeline.createdAt),
    updatedAt: (p) => iso(p.pipeline.updatedAt),
    startedAt: (p) => iso(p.pipeline.startedAt),
    finishedAt: (p) => iso(p.pipeline.finishedAt),
    committedAt: (p) => iso(p.pipeline.committedAt),
    configSource: (p) => upper<PipelineConfigSourceEnum>(p.pipeline.configSource),
    path: (p) => pipelinePath(p),
    project: (p) => p.project,
    user: (p, _a, { loaders }) => (p.pipeline.userId ? loaders.user.load(p.pipeline.userId) : null),
    stages: async (p, args, context) => arrayConnection(stagesOf(p, await jobsOf(context, p)), args, (s) => s.position),
    jobs: async (p, args, context) => {
      const jobs = [...(await jobsOf(context, p))].sort((a, b) => a.id - b.id);
      return arrayConnection(jobModels(p, jobs), args, (j) => j.job.id);
    },
    // No multi-project or parent-child pipelines here: nothing upstream, nothing downstream, no source job.
    upstream: () => null,
    downstream: (_p, args) => ({ ...arrayConnection<PipelineModel>([], args, (p) => p.pipeline.id), count: () => 0 }),
    sourceJob: () => null,
    userPermissions: (p, _a, { ctx }) => {
      const facts = projectFacts(p.project);
      return {
        adminPipeline: can(ctx.actor, 'project:admin_pipeline', facts),
        destroyPipeline: can(ctx.actor, 'project:destroy_pipeline', facts),
        updatePipeline: can(ctx.actor, 'project:update_pipeline', facts),
      };
    },
  },
  CiStage: {
    name: (s) => s.name,
    // Stage::Factory: the composite of its latest jobs, with warnings; it links to the stage on the pipeline's page.
    detailedStatus: (s) =>
      toDetailedStatus(stageStatus(s.jobs), `${pipelinePath(s.pipeline)}#${s.name}`, { subject: 'stage', hasWarnings: hasWarnings(s.jobs) }),
    groups: (s, args) => arrayConnection(groupsOf(s), args, (g) => g.position),
  },
  CiGroup: {
    name: (g) => g.name,
    size: (g) => g.jobs.length,
    // Ci::Group#detailed_status: a group of one job shows the job's; others the composite, without a page (Group::Common).
    detailedStatus: (g) => {
      const [only] = g.jobs;
      if (g.jobs.length === 1 && only) return jobStatus({ pipeline: g.pipeline, job: only });
      return toDetailedStatus(compositeStatus(g.jobs) ?? 'skipped', null, { subject: 'stage', hasWarnings: hasWarnings(g.jobs), hasDetails: false });
    },
    jobs: (g, args) => arrayConnection(jobModels(g.pipeline, g.jobs), args, (j) => j.job.id),
  },
  CiJob: {
    name: (j) => j.job.name,
    detailedStatus: (j) => jobStatus(j),
    pipeline: (j) => j.pipeline,
    scheduledAt: (j) => iso(j.job.scheduledAt),
    needs: async (j, args, context) => arrayConnection(jobModels(j.pipeline, needsOf(j.job, await jobsOf(context, j.pipeline))), args, (n) => n.job.id),
    artifacts: async (j, args, { loaders }) => {
      const files = await loaders.jobArtifacts.load(j.job.id);
      return arrayConnection(
        files.map((f, i) => ({ job: j, fileType: f.fileType, position: i + 1 })),
        args,
        (a) => a.position,
      );
    },
  },
  CiJobArtifact: {
    // download_project_job_artifacts_path(project, job, file_type:).
    downloadPath: (a) => `${jobPath(a.job)}/artifacts/download?file_type=${encodeURIComponent(a.fileType)}`,
    fileType: (a) => upper<JobArtifactFileType>(a.fileType),
  },
};
