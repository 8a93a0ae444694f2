// The job a runner receives (Entities::JobRequest::Response over Ci::BuildRunnerPresenter, GitLab 13.6): git
// coordinates, the predefined variables then the configuration's then the run's, the steps (before_script + script,
// after_script), image, services, artifacts, cache and the dependencies whose artifacts it downloads.
//
// Dependencies: GitLab hands each dependency's own job token to download its artifacts. Job tokens are kept only as
// digests here (and die with their job), so the entries carry this job's token instead, which the artifacts download
// accepts for the jobs of its own pipeline while it runs (functions/runners/service.ts).
import type { BuildRow, PipelineRow, PipelineVariableRow, RunnerRow } from '../../db/schema/index.ts';
import type { CommitView } from '../repositories/entities.ts';
import { commitDescription, fullTitle } from '../repositories/entities.ts';
import { GITLAB_VERSION } from '../version/routes.ts';
import { BLANK_SHA, refSlug } from '../ci/refs.ts';

export interface PayloadProject {
  id: number;
  name: string;
  path: string;
  pathWithNamespace: string;
  defaultBranch: string | null;
  visibility: string;
  /** The project's ci_config_path (or `.gitlab-ci.yml`) and ci_default_git_depth. */
  ciConfigPath: string;
  gitDepth: number;
}

export interface Dependency {
  id: number;
  name: string;
  archive: { fileName: string; size: number } | null;
}

export interface PayloadInput {
  job: BuildRow;
  pipeline: PipelineRow;
  project: PayloadProject;
  runner: RunnerRow;
  commit: CommitView | null;
  variables: readonly PipelineVariableRow[];
  dependencies: readonly Dependency[];
  token: string;
  publicUrl: string;
}

/** A job's timeout in seconds: its own `timeout`, else the project's build_timeout, capped by the runner's. */
export function jobTimeout(job: BuildRow, runner: RunnerRow, projectTimeout: number, parse: (t: string) => number | null): number {
  const own = typeof job.options.timeout === 'string' ? parse(job.options.timeout) : null;
  const timeout = own ?? projectTimeout;
  return runner.maximumTimeout ? Math.min(timeout, runner.maximumTimeout) : timeout;
}

type Variable = { key: string; value: string; public: boolean; masked: boolean; file?: true };
const pub = (key: string, value: string | number | boolean): Variable => ({ key, value: String(value), public: true, masked: false });

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : []);

/** Ci::Build#variables as the runner receives them (Collection#to_runner_variables). */
function runnerVariables(i: PayloadInput): Variable[] {
  const { job, pipeline, project, runner } = i;
  const host = new URL(i.publicUrl);
  const projectUrl = `${i.publicUrl}/${project.pathWithNamespace}`;
  const [major, minor, patch] = GITLAB_VERSION.version.split('.');
  const namespace = project.pathWithNamespace.slice(0, project.pathWithNamespace.length - project.path.length - 1);
  const repoUrl = `${host.protocol}//gitlab-ci-token:${i.token}@${host.host}/${project.pathWithNamespace}.git`;
  const vars: Variable[] = [
    pub('CI_PIPELINE_ID', pipeline.id),
    pub('CI_PIPELINE_URL', `${projectUrl}/-/pipelines/${pipeline.id}`),
    pub('CI_JOB_ID', job.id),
    pub('CI_JOB_URL', `${projectUrl}/-/jobs/${job.id}`),
    { key: 'CI_JOB_TOKEN', value: i.token, public: false, masked: true },
    pub('CI_BUILD_ID', job.id),
    { key: 'CI_BUILD_TOKEN', value: i.token, public: false, masked: true },
    pub('CI_REGISTRY_USER', 'gitlab-ci-token'),
    { key: 'CI_REGISTRY_PASSWORD', value: i.token, public: false, masked: true },
    { key: 'CI_REPOSITORY_URL', value: repoUrl, public: false, masked: false },
    pub('CI', 'true'),
    pub('GITLAB_CI', 'true'),
    pub('CI_SERVER_URL', i.publicUrl),
    pub('CI_SERVER_HOST', host.hostname),
    pub('CI_SERVER_PORT', host.port || (host.protocol === 'https:' ? '443' : '80')),
    pub('CI_SERVER_PROTOCOL', host.protocol.replace(':', '')),
    pub('CI_SERVER_NAME', 'GitLab'),
    pub('CI_SERVER_VERSION', GITLAB_VERSION.version),
    pub('CI_SERVER_VERSION_MAJOR', major!),
    pub('CI_SERVER_VERSION_MINOR', minor!),
    pub('CI_SERVER_VERSION_PATCH', patch!),
    pub('CI_SERVER_REVISION', GITLAB_VERSION.revision),
    pub('CI_PROJECT_ID', project.id),
    pub('CI_PROJECT_NAME', project.path),
    pub('CI_PROJECT_TITLE', project.name),
    pub('CI_PROJECT_PATH', project.pathWithNamespace),
    pub('CI_PROJECT_PATH_SLUG', refSlug(project.pathWithNamespace)),
    pub('CI_PROJECT_NAMESPACE', namespace),
    pub('CI_PROJECT_ROOT_NAMESPACE', namespace.split('/')[0]!),
    pub('CI_PROJECT_URL', projectUrl),
    pub('CI_PROJECT_VISIBILITY', project.visibility),
    pub('CI_DEFAULT_BRANCH', project.defaultBranch ?? ''),
    pub('CI_CONFIG_PATH', project.ciConfigPath),
    pub('CI_API_V4_URL', `${i.publicUrl}/api/v4`),
    pub('CI_PIPELINE_IID', pipeline.iid),
    pub('CI_PIPELINE_SOURCE', pipeline.source),
    pub('CI_PIPELINE_CREATED_AT', pipeline.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z')),
    pub('CI_COMMIT_SHA', pipeline.sha),
    pub('CI_COMMIT_SHORT_SHA', pipeline.sha.slice(0, 8)),
    pub('CI_COMMIT_BEFORE_SHA', pipeline.beforeSha ?? BLANK_SHA),
    pub('CI_COMMIT_REF_NAME', pipeline.ref),
    pub('CI_COMMIT_REF_SLUG', refSlug(pipeline.ref)),
    pub(pipeline.tag ? 'CI_COMMIT_TAG' : 'CI_COMMIT_BRANCH', pipeline.ref),
    ...(i.commit
      ? [
          pub('CI_COMMIT_MESSAGE', i.commit.message),
          pub('CI_COMMIT_TITLE', fullTitle(i.commit.message)),
          pub('CI_COMMIT_DESCRIPTION', commitDescription(i.commit.message) ?? ''),
          pub('CI_COMMIT_TIMESTAMP', i.commit.committedAt.toISOString().replace(/\.\d{3}Z$/, 'Z')),
        ]
      : []),
    pub('CI_COMMIT_REF_PROTECTED', pipeline.protected),
    pub('CI_BUILD_REF', pipeline.sha),
    pub('CI_BUILD_BEFORE_SHA', pipeline.beforeSha ?? BLANK_SHA),
    pub('CI_BUILD_REF_NAME', pipeline.ref),
    pub('CI_BUILD_REF_SLUG', refSlug(pipeline.ref)),
    pub('CI_RUNNER_ID', runner.id),
    pub('CI_RUNNER_DESCRIPTION', runner.description ?? ''),
    pub('CI_RUNNER_TAGS', runner.tagList.join(', ')),
    pub('CI_JOB_NAME', job.name),
    pub('CI_JOB_STAGE', job.stage),
    pub('CI_NODE_TOTAL', 1),
    pub('CI_BUILD_NAME', job.name),
    pub('CI_BUILD_STAGE', job.stage),
    ...(job.when === 'manual' ? [pub('CI_JOB_MANUAL', 'true')] : []),
    ...(pipeline.source === 'trigger' ? [pub('CI_PIPELINE_TRIGGERED', 'true')] : []),
    ...job.yamlVariables.map((v) => pub(v.key, v.value)),
    ...i.variables.map((v): Variable => ({
      key: v.key,
      value: v.value,
      public: false,
      masked: false,
      ...(v.variableType === 'file' ? { file: true as const } : {}),
    })),
  ];
  return vars;
}

/** `artifacts:` as the runner's upload list (Entities::JobRequest::Artifacts), null without it. */
function artifactsOf(options: Record<string, unknown>) {
  const a = options.artifacts as Record<string, unknown> | undefined;
  if (!a || typeof a !== 'object') return null;
  return [
    {
      name: typeof a.name === 'string' ? a.name : null,
      untracked: typeof a.untracked === 'boolean' ? a.untracked : null,
      paths: Array.isArray(a.paths) ? strings(a.paths) : null,
      ...(Array.isArray(a.exclude) ? { exclude: strings(a.exclude) } : {}),
      when: typeof a.when === 'string' ? a.when : 'on_success',
      expire_in: typeof a.expire_in === 'string' ? a.expire_in : null,
      artifact_type: 'archive',
      artifact_format: 'zip',
    },
  ];
}

function imageOf(value: unknown) {
  if (typeof value === 'string') return { name: value, entrypoint: null, ports: [] };
  if (value && typeof value === 'object' && typeof (value as { name?: unknown }).name === 'string') {
    const v = value as { name: string; entrypoint?: unknown };
    return { name: v.name, entrypoint: Array.isArray(v.entrypoint) ? strings(v.entrypoint) : null, ports: [] };
  }
  return null;
}

function cacheOf(value: unknown) {
  if (!value || typeof value !== 'object') return [];
  const list = Array.isArray(value) ? value : [value];
  return list
    .filter((c): c is Record<string, unknown> => !!c && typeof c === 'object')
    .map((c) => ({
      key: typeof c.key === 'string' ? c.key : 'default',
      untracked: typeof c.untracked === 'boolean' ? c.untracked : null,
      paths: Array.isArray(c.paths) ? strings(c.paths) : null,
      policy: typeof c.policy === 'string' ? c.policy : 'pull-push',
      when: typeof c.when === 'string' ? c.when : 'on_success',
    }));
}

export function jobPayload(i: PayloadInput, timeout: number) {
  const { job, pipeline, project } = i;
  const o = job.options;
  const host = new URL(i.publicUrl);
  const refType = pipeline.tag ? 'tag' : 'branch';
  const afterScript = strings(o.after_script);
  return {
    id: job.id,
    token: i.token,
    allow_git_fetch: true,
    job_info: { name: job.name, stage: job.stage, project_id: project.id, project_name: project.name },
    git_info: {
      repo_url: `${host.protocol}//gitlab-ci-token:${i.token}@${host.host}/${project.pathWithNamespace}.git`,
      ref: pipeline.ref,
      sha: pipeline.sha,
      before_sha: pipeline.beforeSha ?? BLANK_SHA,
      ref_type: refType,
      refspecs: [
        `+refs/pipelines/${pipeline.id}:refs/pipelines/${pipeline.id}`,
        pipeline.tag ? `+refs/tags/${pipeline.ref}:refs/tags/${pipeline.ref}` : `+refs/heads/${pipeline.ref}:refs/remotes/origin/${pipeline.ref}`,
      ],
      depth: i.project.gitDepth,
    },
    runner_info: { timeout, runner_session_url: null },
    variables: runnerVariables(i),
    steps: [
      { name: 'script', script: [...strings(o.before_script), ...strings(o.script)], timeout, when: 'on_success', allow_failure: false },
      ...(afterScript.length ? [{ name: 'after_script', script: afterScript, timeout, when: 'always', allow_failure: true }] : []),
    ],
    image: imageOf(o.image),
    services: Array.isArray(o.services)
      ? o.services
          .map(imageOf)
          .filter((s) => s !== null)
          .map((s) => ({ ...s, alias: null, command: null }))
      : [],
    artifacts: artifactsOf(o),
    cache: cacheOf(o.cache),
    credentials: [],
    dependencies: i.dependencies.map((d) => ({
      id: d.id,
      name: d.name,
      token: i.token,
      ...(d.archive ? { artifacts_file: { filename: d.archive.fileName, size: d.archive.size } } : {}),
    })),
    features: { trace_sections: true, failure_reasons: FAILURE_REASONS },
  };
}

/** CommitStatus failure reasons the runner may report (13.6 enum). */
export const FAILURE_REASONS = [
  'unknown_failure',
  'script_failure',
  'api_failure',
  'stuck_or_timeout_failure',
  'runner_system_failure',
  'missing_dependency_failure',
  'runner_unsupported',
  'stale_schedule',
  'job_execution_timeout',
  'archived_failure',
  'unmet_prerequisites',
  'scheduler_failure',
  'data_integrity_failure',
  'forward_deployment_failure',
  'insufficient_bridge_permissions',
  'downstream_bridge_project_not_found',
  'invalid_bridge_trigger',
  'bridge_pipeline_is_child_pipeline',
  'downstream_pipeline_creation_failed',
  'secrets_provider_not_found',
  'reached_max_descendant_pipelines_depth',
];
