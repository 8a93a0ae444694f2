// The deployments a pipeline's jobs make (GitLab 13.6 Gitlab::Ci::Pipeline::Seed::Environment/::Deployment at
// creation, Deployment following its build's transitions afterwards). Called from pipeline creation and processing.
import { recordPipelineDeployments, syncPipelineDeployments, type DeployingJobSeed, type EnvironmentSeed } from '../../db/queries/deployments.ts';
import type { Db } from '../../db/client.ts';
import type { PipelineRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { environmentSlug, environmentType } from '../environments/names.ts';
import { refSlug } from '../ci/refs.ts';

/** What recordDeployments reads of a new job: its name, its environment's name and the `environment:` entry. */
export interface DeployingJob {
  name: string;
  stage: string;
  environment: string | null;
  options: Record<string, unknown>;
  yamlVariables: readonly { key: string; value: string }[];
}

const entry = (options: Record<string, unknown>) => {
  const e = options['environment'];
  return e && typeof e === 'object' ? (e as { url?: unknown; action?: unknown; on_stop?: unknown }) : {};
};

/** The variables an environment's name and URL are expanded with: predefined, then the YAML's, then the pipeline's. */
function jobVariables(pipeline: PipelineRow, job: DeployingJob, pipelineVariables: readonly { key: string; value: string }[]) {
  const vars = new Map<string, string>([
    ['CI_COMMIT_SHA', pipeline.sha],
    ['CI_COMMIT_SHORT_SHA', pipeline.sha.slice(0, 8)],
    ['CI_COMMIT_REF_NAME', pipeline.ref],
    ['CI_COMMIT_REF_SLUG', refSlug(pipeline.ref)],
    [pipeline.tag ? 'CI_COMMIT_TAG' : 'CI_COMMIT_BRANCH', pipeline.ref],
    ['CI_PIPELINE_ID', String(pipeline.id)],
    ['CI_PIPELINE_IID', String(pipeline.iid)],
    ['CI_PROJECT_ID', String(pipeline.projectId)],
    ['CI_JOB_NAME', job.name],
    ['CI_JOB_STAGE', job.stage],
  ]);
  for (const v of [...job.yamlVariables, ...pipelineVariables]) vars.set(v.key, v.value);
  return vars;
}

/** ExpandVariables.expand: `$NAME` and `${NAME}`; an unknown variable expands to nothing. */
const expand = (value: string, vars: ReadonlyMap<string, string>) =>
  value.replace(/\$(?:\{(\w+)\}|(\w+))/g, (_m, braced: string | undefined, bare: string | undefined) => vars.get((braced ?? bare)!) ?? '');

/**
 * After a pipeline is stored: the environments its jobs name exist (made by their expanded name, slug per
 * Gitlab::Slug::Environment, the expanded `url:` as their external URL) and every job that deploys (its action is not
 * `stop`) has a `created` deployment. Nothing is read or written when no job names an environment.
 */
export async function recordDeployments(
  ctx: Pick<RequestContext, 'db'>,
  pipeline: PipelineRow,
  record: { jobs: readonly DeployingJob[]; variables: readonly { key: string; value: string }[] },
): Promise<void> {
  const named = record.jobs.filter((j) => j.environment !== null);
  if (!named.length) return;
  const seeds = new Map<string, EnvironmentSeed>();
  const deploying: DeployingJobSeed[] = [];
  for (const job of named) {
    const vars = jobVariables(pipeline, job, record.variables);
    const name = expand(job.environment!, vars);
    const { url, action, on_stop: onStop } = entry(job.options);
    const externalUrl = typeof url === 'string' && url !== '' ? expand(url, vars) : null;
    const known = seeds.get(name);
    if (!known || (known.externalUrl === null && externalUrl !== null)) {
      seeds.set(name, { name, slug: known?.slug ?? (await environmentSlug(name)), externalUrl, environmentType: environmentType(name) });
    }
    if (action !== 'stop') deploying.push({ jobName: job.name, environment: name, onStop: typeof onStop === 'string' ? onStop : null });
  }
  await recordPipelineDeployments(ctx.db, { projectId: pipeline.projectId, pipelineId: pipeline.id }, [...seeds.values()], deploying);
}

/** Inside the processing transaction: deployments take their jobs' statuses (pending and running are `running`). */
export async function syncDeployments(tx: Db, pipelineId: number): Promise<void> {
  await syncPipelineDeployments(tx, pipelineId);
}
