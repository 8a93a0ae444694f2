// Pipeline creation (GitLab 13.6's Ci::CreatePipelineService chain): the configuration at the commit (the
// repository's `.gitlab-ci.yml`, or content the service writes, as DAST's), parsed and planned for the run's source,
// then stored in ONE statement with the jobs' first statuses already worked out by the processing rules (so a new
// pipeline needs no second pass). What GitLab persists, this persists: an invalid configuration is a failed pipeline
// carrying `yaml_errors`; what GitLab only reports (no configuration, filtered by workflow rules, no jobs) is an error
// here too and stores nothing.
import { blobsAtPaths, readPath, treePage } from '../repositories/lookups.ts';
import { batchRows } from '../../db/queries/lib/raw.ts';
import { insertPipelineStatements, findPipelineById, type NewPipelineJob } from '../../db/queries/pipelines.ts';
import { GIT_OBJECT_TYPES, type CiStatus, type PipelineRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { templateContent } from '../templates/catalog.ts';
import { parseCiConfig, type CiJob } from '../ci/config/index.ts';
import { parseDuration } from '../ci/config/duration.ts';
import { plan, type PipelineSource, type PlannedJob } from '../ci/plan.ts';
import { CI_CONFIG_PATH, CONFIG_READ_LIMIT, configPathOf } from '../ci/config-path.ts';
import { topLevelGlob } from '../ci/exists.ts';
import { repositoryInfo, type RepositoryInfo } from '../repositories/service.ts';
import { refProtected } from './ref-access.ts';
import { compositeStatus, processPipeline } from './status.ts';
import { recordDeployments } from '../deployments/record.ts';

export interface PipelineRequest {
  project: { id: number; pathWithNamespace: string; defaultBranch: string | null; settings: Record<string, unknown> };
  /** The branch or tag the jobs see (a merge request pipeline: its source branch). */
  ref: string;
  /** The ref the pipeline is stored under when it differs (`refs/merge-requests/<iid>/head`). */
  pipelineRef?: string;
  tag: boolean;
  sha: string;
  beforeSha?: string | null;
  source: PipelineSource | 'ondemand_dast_scan';
  userId: number | null;
  variables?: readonly { key: string; value: string; variableType: 'env_var' | 'file' }[];
  triggerId?: number | null;
  mergeRequest?: { id: number; values: Record<string, string> } | null;
  /** A configuration the service supplies (GitLab's parameter_source) instead of the repository's file. */
  content?: string;
  /** The repository's configuration (configPathOf) at `sha`, when the caller has read it already (a push). */
  repositoryConfig?: string;
  /**
   * Keep a pipeline whose configuration is invalid, failed with its yaml_errors (GitLab's save_on_errors: true for
   * pushes, triggers and the web; the API passes false and answers the errors instead).
   */
  saveOnErrors?: boolean;
  /** The project's repository (its protection rules), when the caller has read it already. */
  repository?: RepositoryInfo;
  /** Chain::Skip (`ci.skip`, `[ci skip]`): a valid configuration gives a pipeline saved skipped, without jobs. */
  skip?: boolean;
}

export type PipelineOutcome = { ok: true; pipeline: PipelineRow } | { ok: false; errors: string[] };

const utf8 = new TextDecoder();
const readTemplate = (name: string) => templateContent('gitlab_ci_ymls', name);

/** The repository's CI configuration at `sha` (`path`: the project's, configPathOf), or null when the commit has none. */
export async function readConfig(ctx: Pick<RequestContext, 'db'>, projectId: number, sha: string, path = CI_CONFIG_PATH): Promise<string | null> {
  const [found] = await blobsAtPaths(ctx.db, [{ projectId, commitOid: sha, path }], CONFIG_READ_LIMIT);
  return found ? utf8.decode(found.data) : null;
}

/**
 * Most tree entries read for `rules:exists`: the commit's tree is listed once per pipeline, and a tree larger than
 * this is matched on its first entries (directories first), where GitLab reads every path.
 */
export const FILES_READ_LIMIT = 50_000;

/**
 * The paths of the commit's files as `rules:exists` sees them (Ci::Pipeline#all_worktree_paths, or
 * #top_level_worktree_paths when every glob is top-level): blobs only, directories walked; none when no glob asks.
 */
async function worktreePaths(ctx: Pick<RequestContext, 'db'>, projectId: number, sha: string, globs: readonly string[]): Promise<string[]> {
  if (!globs.length) return [];
  const page = await treePage(ctx.db, { projectId, rev: sha, path: '', recursive: !globs.every(topLevelGlob), limit: FILES_READ_LIMIT, offset: 0 });
  return (page?.entries ?? []).filter((e) => e.type === 'blob').map((e) => utf8.decode(e.path));
}

/** The variables a job hands the runner from the configuration: the global ones, the job's own over them. */
function yamlVariables(global: Record<string, string>, job: CiJob): { key: string; value: string }[] {
  return Object.entries({ ...global, ...job.variables }).map(([key, value]) => ({ key, value }));
}

/** The environment a job names (`environment: name` or `environment: { name, url, action, on_stop }`). */
export function jobEnvironment(job: Pick<CiJob, 'environment'>): { name: string; url?: string; action?: string; onStop?: string } | null {
  const e = job.environment;
  if (typeof e === 'string') return { name: e };
  if (e && typeof e === 'object' && typeof (e as { name?: unknown }).name === 'string') {
    const h = e as { name: string; url?: unknown; action?: unknown; on_stop?: unknown };
    return {
      name: h.name,
      ...(typeof h.url === 'string' ? { url: h.url } : {}),
      ...(typeof h.action === 'string' ? { action: h.action } : {}),
      ...(typeof h.on_stop === 'string' ? { onStop: h.on_stop } : {}),
    };
  }
  return null;
}

/** What the runner needs later, kept as GitLab's `options` column keeps it. */
function jobOptions(job: CiJob): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  const set = (key: string, value: unknown) => {
    if (value !== null && value !== undefined) options[key] = value;
  };
  set('script', job.script);
  set('before_script', job.beforeScript);
  set('after_script', job.afterScript);
  set('image', job.image);
  set('services', job.services);
  set('artifacts', job.artifacts);
  set('cache', job.cache);
  set('dependencies', job.dependencies);
  set('environment', job.environment);
  set('timeout', job.timeout);
  set('retry', job.retry);
  set('trigger', job.trigger);
  set('coverage', job.coverage);
  set('interruptible', job.interruptible);
  return options;
}

/** The planned jobs as rows, with the first statuses the processing rules give them. */
export function seedJobs(
  planned: readonly PlannedJob[],
  stageIndex: (name: string) => number,
  globalVars: Record<string, string>,
  now: Date,
): NewPipelineJob[] {
  const processable = planned.map((j, id) => ({
    id,
    name: j.name,
    stageIdx: stageIndex(j.stage),
    status: 'created' as CiStatus,
    when: j.when,
    allowFailure: j.allowFailure,
    needs: j.needs ? j.needs.map((n) => n.name) : null,
  }));
  const statuses = new Map(processable.map((j) => [j.id, j.status]));
  for (const change of processPipeline(processable)) statuses.set(change.id, change.status);
  return planned.map((j, id) => {
    const status = statuses.get(id)!;
    const delay = j.when === 'delayed' && j.startIn ? parseDuration(j.startIn) : null;
    return {
      name: j.name,
      stage: j.stage,
      stageIdx: stageIndex(j.stage),
      status,
      when: j.when,
      allowFailure: j.allowFailure,
      schedulingType: j.needs ? 'dag' : 'stage',
      options: jobOptions(j.job),
      yamlVariables: yamlVariables(globalVars, j.job),
      tagList: j.job.tags,
      startIn: j.startIn,
      scheduledAt: status === 'scheduled' && delay !== null ? new Date(now.getTime() + delay * 1000) : null,
      environment: jobEnvironment(j.job)?.name ?? null,
      needs: j.needs ?? [],
      type: j.job.trigger !== null && j.job.script === null ? 'Ci::Bridge' : 'Ci::Build',
    };
  });
}

/**
 * Creates the pipeline `req` describes. A push without a configuration creates nothing (`{ ok: false }` with no
 * errors); any other source without one is refused with GitLab's "Missing CI config file".
 */
export async function createPipeline(ctx: Pick<RequestContext, 'db' | 'batch'>, req: PipelineRequest): Promise<PipelineOutcome> {
  const content = req.content ?? req.repositoryConfig ?? (await readConfig(ctx, req.project.id, req.sha, configPathOf(req.project)));
  if (content === null) return { ok: false, errors: req.source === 'push' ? [] : ['Missing CI config file'] };
  const local = async (path: string) => {
    const found = await readPath(ctx.db, { projectId: req.project.id, rev: req.sha, path });
    return found && found.oid !== undefined && found.type === GIT_OBJECT_TYPES.blob && found.data ? utf8.decode(found.data) : null;
  };
  const parsed = await parseCiConfig(content, { templates: readTemplate, local });
  const base = {
    projectId: req.project.id,
    sha: req.sha,
    beforeSha: req.beforeSha ?? null,
    ref: req.pipelineRef ?? req.ref,
    tag: req.tag,
    source: req.source,
    configSource: req.content === undefined ? ('repository_source' as const) : ('parameter_source' as const),
    userId: req.userId,
    triggerId: req.triggerId ?? null,
    mergeRequestId: req.mergeRequest?.id ?? null,
    // Ci::Pipeline#protected_ref?: a merge request's ref (refs/merge-requests/<iid>/head) is never protected.
    protected: req.pipelineRef === undefined && refProtected(req.repository ?? (await repositoryInfo(ctx, req.project.id)), req.ref, req.tag),
    committedAt: null,
    variables: [...(req.variables ?? [])],
  };
  const now = new Date();
  if (!parsed.ok) {
    if (req.saveOnErrors === false) return { ok: false, errors: parsed.errors.slice(0, 1) };
    // Chain::Validate::Config with save_on_errors: the pipeline is kept, failed, with the configuration's errors.
    return insert(ctx, {
      ...base,
      status: 'failed',
      yamlErrors: parsed.errors.join(', '),
      failureReason: 'config_error',
      startedAt: null,
      finishedAt: now,
      stages: [],
      jobs: [],
    });
  }
  if (req.skip)
    return insert(ctx, { ...base, status: 'skipped', yamlErrors: null, failureReason: null, startedAt: null, finishedAt: null, stages: [], jobs: [] });
  const variables = Object.fromEntries((req.variables ?? []).map((v) => [v.key, v.value]));
  const rules = [...(parsed.config.workflow?.rules ?? []), ...parsed.config.jobs.flatMap((j) => j.rules ?? [])];
  const files = await worktreePaths(
    ctx,
    req.project.id,
    req.sha,
    rules.flatMap((r) => r.exists ?? []),
  );
  const planned = plan(parsed.config, {
    ref: req.ref,
    tag: req.tag,
    source: req.source === 'ondemand_dast_scan' ? 'api' : req.source,
    defaultBranch: req.project.defaultBranch ?? 'master',
    variables,
    mergeRequest: req.mergeRequest?.values,
    projectPath: req.project.pathWithNamespace,
    files,
  });
  if (!planned.created) return { ok: false, errors: planned.errors };
  const stageIndex = (name: string) => parsed.config.stages.indexOf(name);
  const jobs = seedJobs(planned.jobs, stageIndex, parsed.config.variables, now);
  const stages = planned.stages.map((s) => {
    const own = jobs.filter((j) => j.stage === s.name);
    return { name: s.name, position: stageIndex(s.name), status: compositeStatus(own) ?? 'skipped' };
  });
  const status = compositeStatus(jobs) ?? 'skipped';
  const running = status !== 'created' && status !== 'pending' && status !== 'manual' && status !== 'scheduled' && status !== 'skipped';
  return insert(ctx, { ...base, status, yamlErrors: null, failureReason: null, startedAt: running ? now : null, finishedAt: null, stages, jobs });
}

async function insert(ctx: Pick<RequestContext, 'db' | 'batch'>, record: Parameters<typeof insertPipelineStatements>[1]): Promise<PipelineOutcome> {
  const results = await ctx.batch((db) => insertPipelineStatements(db, record));
  const [created] = batchRows<{ id: number }>(results[1]);
  const pipeline = await findPipelineById(ctx.db, Number(created!.id));
  await recordDeployments(ctx, pipeline!, record);
  return { ok: true, pipeline: pipeline! };
}
