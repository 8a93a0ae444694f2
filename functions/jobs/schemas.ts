// Job inputs (GitLab 13.6 lib/api/jobs.rb) and Entities::JobBasic, ::Job, ::JobArtifact(File), ::Runner.
import * as z from 'zod/mini';
import type { JobWithPipeline } from '../../db/queries/jobs.ts';
import type { NamespaceRow, ProjectRow, RunnerRow, UserRow } from '../../db/schema/index.ts';
import { toProjectIdentity } from '../projects/schemas.ts';
import type { Actor, Config } from '../lib/context.ts';
import { iso } from '../lib/format.ts';
import { paginationParams } from '../lib/pagination.ts';
import { pathId, schema } from '../lib/validate.ts';
import { toPipelineBasic } from '../pipelines/schemas.ts';
import { JOB_STATUSES } from '../pipelines/status.ts';
import { toCommit, type CommitView } from '../repositories/entities.ts';
import { toUser } from '../users/schemas.ts';

export const JobPath = () => ({ job_id: pathId() });

/**
 * `scope`/`scope[]` (params :optional_scope): a status or a list of them (`scope[]=a&scope[]=b`, `scope[0]=a`);
 * anything else is `scope does not have a valid value`.
 */
const scopeList = () =>
  z.pipe(
    z.transform((v: unknown) => (typeof v === 'string' ? [v] : Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v) : v)),
    z.array(z.enum(JOB_STATUSES)),
  );

export const ListJobsInput = schema(() => z.object({ ...paginationParams(), scope: z.optional(scopeList()) }));

/** The files a job has, as the Job entity lists them. */
export interface JobFiles {
  traced: boolean;
  artifacts: Array<{ fileType: string; fileName: string; fileFormat: string; size: number; expireAt: Date | null }>;
}

export interface JobContext {
  project: { pathWithNamespace: string; id: number };
  commit: CommitView | null;
  user: UserRow | null;
  runner: RunnerRow | null;
  files: JobFiles;
}

const duration = (started: Date | null, finished: Date | null) =>
  started ? Math.round(((finished ?? new Date()).getTime() - started.getTime()) / 10) / 100 : null;

/** Entities::JobBasic. */
export function toJobBasic(j: JobWithPipeline, x: JobContext, config: Config, viewer: Actor) {
  const { build } = j;
  const web = `${config.publicUrl}/${x.project.pathWithNamespace}`;
  return {
    id: build.id,
    status: build.status,
    stage: build.stage,
    name: build.name,
    ref: build.ref,
    tag: build.tag,
    coverage: build.coverage,
    allow_failure: build.allowFailure,
    created_at: iso(build.createdAt),
    started_at: iso(build.startedAt),
    finished_at: iso(build.finishedAt),
    duration: duration(build.startedAt, build.finishedAt),
    user: x.user ? toUser(x.user, config, viewer) : null,
    commit: x.commit ? toCommit(x.commit, { projectId: x.project.id, projectWebUrl: web }) : null,
    pipeline: toPipelineBasic(j.pipeline, x.project, config),
    web_url: `${web}/-/jobs/${build.id}`,
  };
}

/** Entities::JobBasicWithProject (GET /runners/:id/jobs). */
export const toJobBasicWithProject = (
  j: JobWithPipeline,
  x: JobContext,
  project: { project: ProjectRow; namespace: NamespaceRow },
  config: Config,
  viewer: Actor,
) => ({
  ...toJobBasic(j, x, config, viewer),
  project: toProjectIdentity(project, config),
});

/** Entities::Runner. */
export const toRunner = (r: RunnerRow) => ({
  id: r.id,
  description: r.description,
  ip_address: r.ipAddress,
  active: r.active,
  is_shared: r.runnerType === 'instance_type',
  name: r.name,
  online: r.contactedAt !== null && Date.now() - r.contactedAt.getTime() < 2 * 60 * 60 * 1000,
  status: !r.active ? 'paused' : r.contactedAt === null ? 'not_connected' : Date.now() - r.contactedAt.getTime() < 2 * 60 * 60 * 1000 ? 'online' : 'offline',
});

/** Entities::Job: the basic fields, the archive (when there is one), every artifact, the runner. */
export function toJob(j: JobWithPipeline, x: JobContext, config: Config, viewer: Actor) {
  const archive = x.files.artifacts.find((a) => a.fileType === 'archive');
  // Ci::Build#artifacts_file-style listing: the trace counts as an artifact of type `trace` once there is one.
  const artifacts = x.files.artifacts.map((a) => ({ file_type: a.fileType, size: a.size, filename: a.fileName, file_format: a.fileFormat }));
  return {
    ...toJobBasic(j, x, config, viewer),
    ...(archive ? { artifacts_file: { filename: archive.fileName, size: archive.size } } : {}),
    artifacts,
    runner: x.runner ? toRunner(x.runner) : null,
    artifacts_expire_at: iso(j.build.artifactsExpireAt),
  };
}
