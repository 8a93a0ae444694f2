// Deployments (GitLab 13.6 Deployment, DeploymentsFinder): listings with the API's filters and orders, the last
// successful deployment of environments, deployments made through the API, the ones a pipeline's jobs record (one
// statement: environments upserted by name, iids taken from the project's counter, a deployment per job), and the
// status they follow from their jobs.
import { and, asc, desc, eq, gt, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { ciBuilds, ciPipelines, deployments, environments, type DeploymentRow, type EnvironmentRow } from '../schema/index.ts';
import { nextIidStatement } from './lib/internal-ids.ts';
import { rows } from './lib/raw.ts';

export type DeploymentStatus = DeploymentRow['status'];

export interface DeploymentFilter {
  projectId: number;
  environmentName?: string | undefined;
  status?: DeploymentStatus | undefined;
  updatedAfter?: Date | undefined;
  updatedBefore?: Date | undefined;
}

export type DeploymentOrder = 'id' | 'iid' | 'created_at' | 'updated_at' | 'ref';

function deploymentWhere(f: DeploymentFilter): SQL {
  return and(
    eq(deployments.projectId, f.projectId),
    f.environmentName !== undefined ? eq(environments.name, f.environmentName) : undefined,
    f.status !== undefined ? eq(deployments.status, f.status) : undefined,
    f.updatedAfter ? gt(deployments.updatedAt, f.updatedAfter) : undefined,
    f.updatedBefore ? lt(deployments.updatedAt, f.updatedBefore) : undefined,
  )!;
}

/** DeploymentsFinder#sort: created_at orders by id; updated_at breaks ties by id descending. */
function deploymentOrder(orderBy: DeploymentOrder, sort: 'asc' | 'desc') {
  const dir = sort === 'asc' ? asc : desc;
  switch (orderBy) {
    case 'id':
    case 'created_at':
      return [dir(deployments.id)];
    case 'iid':
      return [dir(deployments.iid)];
    case 'updated_at':
      return [dir(deployments.updatedAt), desc(deployments.id)];
    case 'ref':
      return [dir(deployments.ref), dir(deployments.id)];
  }
}

export interface DeploymentWithEnvironment {
  deployment: DeploymentRow;
  environment: EnvironmentRow;
}

const withEnvironment = { deployment: deployments, environment: environments };

export async function deploymentPage(
  db: Db,
  f: DeploymentFilter,
  o: { orderBy: DeploymentOrder; sort: 'asc' | 'desc'; limit: number; offset: number; countCap: number },
) {
  const where = deploymentWhere(f);
  const list = await db
    .select({
      ...withEnvironment,
      total:
        sql<number>`(SELECT count(*) FROM (SELECT 1 FROM ${deployments} JOIN ${environments} ON ${environments.id} = ${deployments.environmentId} WHERE ${where} LIMIT ${o.countCap + 1}) c)`.mapWith(
          Number,
        ),
    })
    .from(deployments)
    .innerJoin(environments, eq(environments.id, deployments.environmentId))
    .where(where)
    .orderBy(...deploymentOrder(o.orderBy, o.sort))
    .limit(o.limit)
    .offset(o.offset);
  return { rows: list.map((r): DeploymentWithEnvironment => ({ deployment: r.deployment, environment: r.environment })), total: list[0]?.total };
}

export async function countDeployments(db: Db, f: DeploymentFilter, cap: number): Promise<number> {
  const [row] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${deployments} JOIN ${environments} ON ${environments.id} = ${deployments.environmentId} WHERE ${deploymentWhere(f)} LIMIT ${cap + 1}) c`,
  );
  return Number(row?.n ?? 0);
}

export async function findDeployment(db: Db, projectId: number, id: number): Promise<DeploymentWithEnvironment | undefined> {
  const [row] = await db
    .select(withEnvironment)
    .from(deployments)
    .innerJoin(environments, eq(environments.id, deployments.environmentId))
    .where(and(eq(deployments.projectId, projectId), eq(deployments.id, id)));
  return row;
}

/** Environment#last_deployment: the newest successful deployment of each environment. */
export async function lastSuccessfulDeployments(db: Db, environmentIds: readonly number[]): Promise<DeploymentWithEnvironment[]> {
  if (!environmentIds.length) return [];
  return db
    .selectDistinctOn([deployments.environmentId], withEnvironment)
    .from(deployments)
    .innerJoin(environments, eq(environments.id, deployments.environmentId))
    .where(and(inArray(deployments.environmentId, [...environmentIds]), eq(deployments.status, 'success')))
    .orderBy(deployments.environmentId, desc(deployments.id));
}

/** The deploying jobs with their pipelines (the Deployment entity's `deployable`). */
export async function deployables(db: Db, jobIds: readonly number[]) {
  if (!jobIds.length) return [];
  return db
    .select({ build: ciBuilds, pipeline: ciPipelines })
    .from(ciBuilds)
    .innerJoin(ciPipelines, eq(ciPipelines.id, ciBuilds.pipelineId))
    .where(inArray(ciBuilds.id, [...jobIds]));
}

/** A job in the pipeline whose name stops an environment (`on_stop`), latest copy first. */
export async function stopJob(db: Db, pipelineId: number, name: string) {
  const [row] = await db
    .select({ id: ciBuilds.id, status: ciBuilds.status })
    .from(ciBuilds)
    .where(and(eq(ciBuilds.pipelineId, pipelineId), eq(ciBuilds.name, name), eq(ciBuilds.retried, false)))
    .orderBy(desc(ciBuilds.id))
    .limit(1);
  return row;
}

export type NewApiDeployment = Pick<DeploymentRow, 'projectId' | 'environmentId' | 'ref' | 'tag' | 'sha' | 'userId' | 'status' | 'finishedAt'>;

/** A deployment made through the API, its iid from the project's counter in the same transaction. */
export async function insertDeployment(db: Db, values: NewApiDeployment): Promise<DeploymentRow> {
  const [counter] = await nextIidStatement(db, 'deployments', { projectId: values.projectId });
  const [row] = await db
    .insert(deployments)
    .values({ ...values, iid: counter!.value })
    .returning();
  return row!;
}

/** Moves the deployment from one of `from` to `to`; the row after, or undefined when it was elsewhere. */
export async function transitionDeployment(db: Db, id: number, from: readonly DeploymentStatus[], to: DeploymentStatus): Promise<DeploymentRow | undefined> {
  const finished = to === 'success' || to === 'failed' || to === 'canceled' || to === 'skipped';
  const [row] = await db
    .update(deployments)
    .set({ status: to, finishedAt: finished ? sql`now()` : null, updatedAt: sql`now()` })
    .where(and(eq(deployments.id, id), inArray(deployments.status, [...from])))
    .returning();
  return row;
}

export interface EnvironmentSeed {
  name: string;
  slug: string;
  externalUrl: string | null;
  environmentType: string | null;
}

/** A job of the pipeline that deploys, by name, to the environment of that (expanded) name. */
export interface DeployingJobSeed {
  jobName: string;
  environment: string;
  onStop: string | null;
}

const rowsOf = (values: readonly SQL[]) => sql.join([...values], sql`, `);

/**
 * Gitlab::Ci::Pipeline::Seed::Environment and ::Deployment for a stored pipeline, in ONE statement: the environments
 * its jobs name are found or created by name (a `url:` replaces the stored one), then every deploying job gets a
 * `created` deployment, its iid the next of the project's counter (advanced once by their number).
 */
export async function recordPipelineDeployments(
  db: Db,
  p: { projectId: number; pipelineId: number },
  seeds: readonly EnvironmentSeed[],
  jobs: readonly DeployingJobSeed[],
) {
  const envValues = rowsOf(seeds.map((s) => sql`(${s.name}::text, ${s.slug}::text, ${s.externalUrl}::text, ${s.environmentType}::text)`));
  const env = sql`env AS (
      INSERT INTO environments (project_id, name, slug, external_url, environment_type)
      SELECT ${p.projectId}, name, slug, external_url, environment_type FROM (VALUES ${envValues}) AS seed(name, slug, external_url, environment_type)
      ON CONFLICT (project_id, name) DO UPDATE SET external_url = COALESCE(EXCLUDED.external_url, environments.external_url)
      RETURNING id, name
    )`;
  if (!jobs.length) {
    await db.execute(sql`WITH ${env} SELECT count(*) FROM env`);
    return;
  }
  const jobValues = rowsOf(jobs.map((j, i) => sql`(${i + 1}::int, ${j.jobName}::text, ${j.environment}::text, ${j.onStop}::text)`));
  await db.execute(sql`WITH ${env},
    counter AS (
      INSERT INTO internal_ids (usage, project_id, namespace_id, last_value) VALUES ('deployments', ${p.projectId}, NULL, ${jobs.length})
      ON CONFLICT (usage, project_id, namespace_id) DO UPDATE SET last_value = internal_ids.last_value + ${jobs.length}
      RETURNING last_value
    )
    INSERT INTO deployments (project_id, iid, environment_id, ref, tag, sha, user_id, deployable_id, status, on_stop)
    SELECT ${p.projectId}, counter.last_value - ${jobs.length} + j.n, env.id, pl.ref, pl.tag, pl.sha, pl.user_id, b.id, 'created', j.on_stop
    FROM (VALUES ${jobValues}) AS j(n, job_name, environment, on_stop)
      JOIN env ON env.name = j.environment
      JOIN ci_builds b ON b.pipeline_id = ${p.pipelineId} AND b.name = j.job_name AND NOT b.retried
      JOIN ci_pipelines pl ON pl.id = ${p.pipelineId}
      CROSS JOIN counter
    ORDER BY j.n`);
}

/**
 * Deployments follow their jobs' statuses (Deployment's state machine driven by the build's transitions), in one
 * statement; an environment whose deployment has just succeeded is available again (Deployments::
 * UpdateEnvironmentService's `start`).
 */
export async function syncPipelineDeployments(db: Db, pipelineId: number) {
  await db.execute(sql`WITH moved AS (
      UPDATE deployments d SET status = s.status,
        finished_at = CASE WHEN s.status IN ('success', 'failed', 'canceled', 'skipped') THEN now() END, updated_at = now()
      FROM (
        SELECT b.id, CASE b.status WHEN 'pending' THEN 'running' ELSE b.status END AS status
        FROM ci_builds b WHERE b.pipeline_id = ${pipelineId} AND b.status IN ('pending', 'running', 'success', 'failed', 'canceled', 'skipped')
      ) s
      WHERE d.deployable_id = s.id AND d.status IS DISTINCT FROM s.status
      RETURNING d.environment_id, d.status
    )
    UPDATE environments SET state = 'available', updated_at = now()
    WHERE id IN (SELECT environment_id FROM moved WHERE status = 'success') AND state <> 'available'`);
}
