// CI/CD as GitLab 13.6 stores it: pipelines made from `.gitlab-ci.yml` (ci_pipelines, with the run's variables),
// their stages and jobs (ci_builds holds builds, bridges and external commit statuses alike, as GitLab's STI table
// does), the DAG edges (ci_build_needs), what runners send back (trace appends, artifacts), the runners themselves
// and pipeline triggers. Every credential here is a SHA-256 digest: runner tokens, trigger tokens and the job token a
// running job carries; registration tokens are not stored at all (derived from ENCRYPTION_KEY, functions/runners).
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, real, serial, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea, timestamps } from './_columns.ts';
import { mergeRequests } from './merge-requests.ts';
import { namespaces } from './namespaces.ts';
import { projects } from './projects.ts';
import { storedFiles } from './stored-files.ts';
import { users } from './users.ts';

/** Ci::HasStatus::AVAILABLE_STATUSES, as stored (text, checked). */
export const CI_STATUSES = [
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
  'success',
  'failed',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
] as const;
export type CiStatus = (typeof CI_STATUSES)[number];
/** Ci::Pipeline's sources (13.6 enum keys). */
export const PIPELINE_SOURCES = [
  'unknown',
  'push',
  'web',
  'trigger',
  'schedule',
  'api',
  'external',
  'pipeline',
  'chat',
  'webide',
  'merge_request_event',
  'external_pull_request_event',
  'parent_pipeline',
  'ondemand_dast_scan',
] as const;
export type PipelineSourceName = (typeof PIPELINE_SOURCES)[number];
export const JOB_WHENS = ['on_success', 'on_failure', 'always', 'manual', 'delayed'] as const;
export type JobWhen = (typeof JOB_WHENS)[number];

const statusCheck = (column: unknown) => sql`${column} IN (${sql.raw(CI_STATUSES.map((s) => `'${s}'`).join(', '))})`;
const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const ciTriggers = pgTable(
  'ci_triggers',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    description: text('description').notNull(),
    /** SHA-256 (hex) of the token, which is shown once, at creation. */
    tokenDigest: text('token_digest').notNull(),
    /** The token's first 4 characters: what GitLab shows to everyone but the owner (Ci::Trigger#short_token). */
    tokenPrefix: text('token_prefix').notNull(),
    lastUsedAt: time('last_used_at'),
    ...timestamps,
  },
  (t) => [
    unique('ci_triggers_token_digest_key').on(t.tokenDigest),
    index('ci_triggers_project_id_idx').on(t.projectId),
    check('ci_triggers_description_length', sql`char_length(${t.description}) <= 255`),
  ],
);

export const ciPipelines = pgTable(
  'ci_pipelines',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    iid: integer('iid').notNull(),
    sha: text('sha').notNull(),
    beforeSha: text('before_sha'),
    ref: text('ref').notNull(),
    tag: boolean('tag').notNull().default(false),
    source: text('source').$type<PipelineSourceName>().notNull(),
    /** 'repository_source' for `.gitlab-ci.yml`, 'parameter_source' for configurations the service writes (DAST). */
    configSource: text('config_source').$type<'repository_source' | 'parameter_source' | 'unknown_source'>().notNull().default('repository_source'),
    status: text('status').$type<CiStatus>().notNull().default('created'),
    /** The configuration errors of a pipeline that failed before it had jobs (Ci::Pipeline#yaml_errors). */
    yamlErrors: text('yaml_errors'),
    /** Ci::Pipeline's failure_reason ('config_error' for an invalid `.gitlab-ci.yml`). */
    failureReason: text('failure_reason'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    triggerId: integer('trigger_id').references(() => ciTriggers.id, { onDelete: 'set null' }),
    mergeRequestId: integer('merge_request_id').references(() => mergeRequests.id, { onDelete: 'set null' }),
    /** Whether the ref was protected when the pipeline was made (ref_protected runners take only these jobs). */
    protected: boolean('protected').notNull().default(false),
    coverage: real('coverage'),
    startedAt: time('started_at'),
    finishedAt: time('finished_at'),
    /** Seconds spent running (Ci::Pipeline#duration: the union of its jobs' running periods). */
    duration: integer('duration'),
    committedAt: time('committed_at'),
    lockVersion: integer('lock_version').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    unique('ci_pipelines_project_id_iid_key').on(t.projectId, t.iid),
    index('ci_pipelines_project_id_sha_idx').on(t.projectId, t.sha),
    index('ci_pipelines_project_id_ref_id_idx').on(t.projectId, t.ref, t.id),
    index('ci_pipelines_project_id_status_idx').on(t.projectId, t.status),
    index('ci_pipelines_merge_request_id_idx').on(t.mergeRequestId),
    index('ci_pipelines_user_id_idx').on(t.userId),
    check('ci_pipelines_status', statusCheck(t.status)),
    check('ci_pipelines_source', sql`${t.source} IN (${sql.raw(PIPELINE_SOURCES.map((s) => `'${s}'`).join(', '))})`),
  ],
);

/** The variables a run was given (POST /pipeline `variables`, a trigger's `variables[...]`): Ci::PipelineVariable. */
export const ciPipelineVariables = pgTable(
  'ci_pipeline_variables',
  {
    id: serial('id').primaryKey(),
    pipelineId: integer('pipeline_id')
      .notNull()
      .references(() => ciPipelines.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: text('value').notNull(),
    variableType: text('variable_type').$type<'env_var' | 'file'>().notNull().default('env_var'),
  },
  (t) => [
    unique('ci_pipeline_variables_pipeline_id_key_key').on(t.pipelineId, t.key),
    check('ci_pipeline_variables_variable_type', sql`${t.variableType} IN ('env_var', 'file')`),
  ],
);

export const ciStages = pgTable(
  'ci_stages',
  {
    id: serial('id').primaryKey(),
    pipelineId: integer('pipeline_id')
      .notNull()
      .references(() => ciPipelines.id, { onDelete: 'cascade' }),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The stage's index in the configuration's `stages` (Ci::Stage#position). */
    position: integer('position').notNull(),
    status: text('status').$type<CiStatus>().notNull().default('created'),
    lockVersion: integer('lock_version').notNull().default(0),
    ...timestamps,
  },
  (t) => [unique('ci_stages_pipeline_id_name_key').on(t.pipelineId, t.name), check('ci_stages_status', statusCheck(t.status))],
);

export const ciRunners = pgTable(
  'ci_runners',
  {
    id: serial('id').primaryKey(),
    /** SHA-256 (hex) of the runner's authentication token (returned once, by registration). */
    tokenDigest: text('token_digest').notNull(),
    description: text('description'),
    active: boolean('active').notNull().default(true),
    locked: boolean('locked').notNull().default(false),
    runUntagged: boolean('run_untagged').notNull().default(true),
    tagList: text('tag_list')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    accessLevel: text('access_level').$type<'not_protected' | 'ref_protected'>().notNull().default('not_protected'),
    runnerType: text('runner_type').$type<'instance_type' | 'group_type' | 'project_type'>().notNull(),
    /** Seconds; a job's timeout is the smaller of this and the project's. */
    maximumTimeout: integer('maximum_timeout'),
    name: text('name'),
    version: text('version'),
    revision: text('revision'),
    platform: text('platform'),
    architecture: text('architecture'),
    ipAddress: text('ip_address'),
    contactedAt: time('contacted_at'),
    ...timestamps,
  },
  (t) => [
    unique('ci_runners_token_digest_key').on(t.tokenDigest),
    check('ci_runners_access_level', sql`${t.accessLevel} IN ('not_protected', 'ref_protected')`),
  ],
);

/** The projects a project runner serves (Ci::RunnerProject). */
export const ciRunnerProjects = pgTable(
  'ci_runner_projects',
  {
    id: serial('id').primaryKey(),
    runnerId: integer('runner_id')
      .notNull()
      .references(() => ciRunners.id, { onDelete: 'cascade' }),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [unique('ci_runner_projects_runner_id_project_id_key').on(t.runnerId, t.projectId), index('ci_runner_projects_project_id_idx').on(t.projectId)],
);

/**
 * The group a group runner serves (Ci::RunnerNamespace): exactly one (Ci::Runner#exactly_one_group), so the runner
 * is unique here. The runner takes the jobs of that group's projects and of its subgroups' projects.
 */
export const ciRunnerNamespaces = pgTable(
  'ci_runner_namespaces',
  {
    id: serial('id').primaryKey(),
    runnerId: integer('runner_id')
      .notNull()
      .references(() => ciRunners.id, { onDelete: 'cascade' }),
    namespaceId: integer('namespace_id')
      .notNull()
      .references(() => namespaces.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [unique('ci_runner_namespaces_runner_id_key').on(t.runnerId), index('ci_runner_namespaces_namespace_id_idx').on(t.namespaceId)],
);

/**
 * Jobs (Ci::Build), bridges (Ci::Bridge: `trigger:` jobs) and statuses posted from outside (GenericCommitStatus).
 * `options` keeps what the runner needs from the configuration (script, image, services, artifacts, cache,
 * dependencies, environment, timeout, retry) as GitLab's serialized `options` column does.
 */
export const ciBuilds = pgTable(
  'ci_builds',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    pipelineId: integer('pipeline_id')
      .notNull()
      .references(() => ciPipelines.id, { onDelete: 'cascade' }),
    stageId: integer('stage_id')
      .notNull()
      .references(() => ciStages.id, { onDelete: 'cascade' }),
    type: text('type').$type<'Ci::Build' | 'Ci::Bridge' | 'GenericCommitStatus'>().notNull().default('Ci::Build'),
    name: text('name').notNull(),
    /** The stage's name and index, denormalized as GitLab does (`stage`, `stage_idx`). */
    stage: text('stage').notNull(),
    stageIdx: integer('stage_idx').notNull(),
    status: text('status').$type<CiStatus>().notNull().default('created'),
    when: text('when').$type<JobWhen>().notNull().default('on_success'),
    allowFailure: boolean('allow_failure').notNull().default(false),
    /** 'stage' (waits for earlier stages) or 'dag' (waits for its needs only). */
    schedulingType: text('scheduling_type').$type<'stage' | 'dag'>().notNull().default('stage'),
    options: jsonb('options').$type<Record<string, unknown>>().notNull().default({}),
    /** The job's and the configuration's `variables`, in the order the runner receives them. */
    yamlVariables: jsonb('yaml_variables').$type<{ key: string; value: string }[]>().notNull().default([]),
    tagList: text('tag_list')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    ref: text('ref').notNull(),
    tag: boolean('tag').notNull().default(false),
    /** `delayed` jobs: the `start_in` text and when the job becomes pending. */
    startIn: text('start_in'),
    scheduledAt: time('scheduled_at'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    runnerId: integer('runner_id').references(() => ciRunners.id, { onDelete: 'set null' }),
    /** SHA-256 (hex) of CI_JOB_TOKEN, issued when a runner picks the job up and cleared when it finishes. */
    tokenDigest: text('token_digest'),
    queuedAt: time('queued_at'),
    startedAt: time('started_at'),
    finishedAt: time('finished_at'),
    erasedAt: time('erased_at'),
    erasedById: integer('erased_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** A retried job stays in its pipeline, hidden from "latest" views (Ci::Build#retried). */
    retried: boolean('retried').notNull().default(false),
    failureReason: text('failure_reason'),
    exitCode: integer('exit_code'),
    coverage: real('coverage'),
    /** GenericCommitStatus: the link and the text a caller gave. */
    targetUrl: text('target_url'),
    description: text('description'),
    /** The environment a deploying job names (its `environment:name`). */
    environment: text('environment'),
    artifactsExpireAt: time('artifacts_expire_at'),
    lockVersion: integer('lock_version').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    index('ci_builds_pipeline_id_stage_idx_idx').on(t.pipelineId, t.stageIdx),
    index('ci_builds_project_id_id_idx').on(t.projectId, t.id),
    index('ci_builds_stage_id_idx').on(t.stageId),
    index('ci_builds_runner_id_idx').on(t.runnerId),
    // The runner queue: pending builds in id order (Ci::RegisterJobService takes the oldest it may run).
    index('ci_builds_pending_queue_idx')
      .on(t.id)
      .where(sql`${t.status} = 'pending' AND ${t.type} = 'Ci::Build'`),
    uniqueIndex('ci_builds_token_digest_idx')
      .on(t.tokenDigest)
      .where(sql`${t.tokenDigest} IS NOT NULL`),
    check('ci_builds_status', statusCheck(t.status)),
    check('ci_builds_when', sql`${t.when} IN ('on_success', 'on_failure', 'always', 'manual', 'delayed')`),
  ],
);

/** `needs:` edges of the DAG, by the needed job's name within the pipeline (Ci::BuildNeed). */
export const ciBuildNeeds = pgTable(
  'ci_build_needs',
  {
    id: serial('id').primaryKey(),
    buildId: integer('build_id')
      .notNull()
      .references(() => ciBuilds.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    artifacts: boolean('artifacts').notNull().default(true),
  },
  (t) => [unique('ci_build_needs_build_id_name_key').on(t.buildId, t.name)],
);

/**
 * A job's trace as the runner sends it: appends at byte offsets (PATCH /jobs/:id/trace with Content-Range). The
 * primary key makes two appends at one offset race to a single winner; the trace is the rows in offset order.
 */
export const ciBuildTraceChunks = pgTable(
  'ci_build_trace_chunks',
  {
    buildId: integer('build_id')
      .notNull()
      .references(() => ciBuilds.id, { onDelete: 'cascade' }),
    startOffset: integer('start_offset').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.buildId, t.startOffset] })],
);

/** Job artifacts (Ci::JobArtifact): the archive a runner uploads, kept in Postgres in chunks (R2 in a larger deployment). */
export const ciJobArtifacts = pgTable(
  'ci_job_artifacts',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    jobId: integer('job_id')
      .notNull()
      .references(() => ciBuilds.id, { onDelete: 'cascade' }),
    fileType: text('file_type').notNull(),
    fileFormat: text('file_format').$type<'zip' | 'gzip' | 'raw'>().notNull(),
    fileName: text('file_name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    fileSha256: text('file_sha256').notNull(),
    /** The bytes, in chunks (stored-files.ts); deleting the artifact deletes them (migration 0016's trigger). */
    fileId: bigint('file_id', { mode: 'number' })
      .notNull()
      .references(() => storedFiles.id),
    expireAt: time('expire_at'),
    ...timestamps,
  },
  (t) => [
    unique('ci_job_artifacts_job_id_file_type_key').on(t.jobId, t.fileType),
    index('ci_job_artifacts_project_id_idx').on(t.projectId),
    unique('ci_job_artifacts_file_id_key').on(t.fileId),
  ],
);

export type PipelineRow = typeof ciPipelines.$inferSelect;
export type NewPipeline = typeof ciPipelines.$inferInsert;
export type StageRow = typeof ciStages.$inferSelect;
export type PipelineVariableRow = typeof ciPipelineVariables.$inferSelect;
export type BuildRow = typeof ciBuilds.$inferSelect;
export type NewBuild = typeof ciBuilds.$inferInsert;
export type RunnerRow = typeof ciRunners.$inferSelect;
export type TriggerRow = typeof ciTriggers.$inferSelect;
export type JobArtifactRow = typeof ciJobArtifacts.$inferSelect;
