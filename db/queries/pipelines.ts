// Pipelines, stages and jobs: creation in ONE statement (the iid, the pipeline, its variables, stages, jobs and
// needs through data-modifying CTEs, so a pipeline of any size is one round trip and exists whole or not at all),
// and the reads the REST listings and GraphQL take, one statement per page with its capped total.
import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { ciBuilds, ciPipelines, ciPipelineVariables, ciStages, projects, type CiStatus, type PipelineRow } from '../schema/index.ts';
import { currentIidSql, nextIidStatement } from './lib/internal-ids.ts';
import { intArray, rows, textArray } from './lib/raw.ts';

export interface NewPipelineJob {
  name: string;
  stage: string;
  stageIdx: number;
  status: CiStatus;
  when: string;
  allowFailure: boolean;
  schedulingType: 'stage' | 'dag';
  options: Record<string, unknown>;
  yamlVariables: { key: string; value: string }[];
  tagList: string[];
  startIn: string | null;
  scheduledAt: Date | null;
  environment: string | null;
  needs: { name: string; artifacts: boolean }[];
  /** GenericCommitStatus only. */
  type?: 'Ci::Build' | 'Ci::Bridge' | 'GenericCommitStatus';
  targetUrl?: string | null;
  description?: string | null;
  coverage?: number | null;
  startedAt?: Date | null;
  finishedAt?: Date | null;
}

export interface NewPipelineRecord {
  projectId: number;
  sha: string;
  beforeSha: string | null;
  ref: string;
  tag: boolean;
  source: PipelineRow['source'];
  configSource: PipelineRow['configSource'];
  status: CiStatus;
  yamlErrors: string | null;
  failureReason: string | null;
  userId: number | null;
  triggerId: number | null;
  mergeRequestId: number | null;
  protected: boolean;
  committedAt: Date | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  variables: { key: string; value: string; variableType: 'env_var' | 'file' }[];
  stages: { name: string; position: number; status: CiStatus }[];
  jobs: NewPipelineJob[];
}

const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/**
 * The whole pipeline as two statements for one batch: the iid counter's upsert, then everything else in one
 * statement (pipeline, variables, stages, jobs by stage name, needs by job name). Returns the pipeline's id.
 */
export function insertPipelineStatements(db: Db, p: NewPipelineRecord) {
  const source = { projectId: p.projectId };
  const jobs = p.jobs.map((j, idx) => ({
    idx,
    name: j.name,
    stage: j.stage,
    stage_idx: j.stageIdx,
    status: j.status,
    when: j.when,
    allow_failure: j.allowFailure,
    scheduling_type: j.schedulingType,
    options: j.options,
    yaml_variables: j.yamlVariables,
    tag_list: j.tagList,
    start_in: j.startIn,
    scheduled_at: iso(j.scheduledAt),
    environment: j.environment,
    type: j.type ?? 'Ci::Build',
    target_url: j.targetUrl ?? null,
    description: j.description ?? null,
    coverage: j.coverage ?? null,
    started_at: iso(j.startedAt),
    finished_at: iso(j.finishedAt),
    queued_at: j.status === 'pending' ? new Date().toISOString() : null,
  }));
  const needs = p.jobs.flatMap((j) => j.needs.map((n) => ({ job: j.name, name: n.name, artifacts: n.artifacts })));
  const insert = sql`WITH p AS (
      INSERT INTO ci_pipelines (project_id, iid, sha, before_sha, ref, tag, source, config_source, status, yaml_errors,
        failure_reason, user_id, trigger_id, merge_request_id, protected, committed_at, started_at, finished_at)
      VALUES (${p.projectId}, ${currentIidSql('ci_pipelines', source)}, ${p.sha}, ${p.beforeSha}, ${p.ref}, ${p.tag}, ${p.source},
        ${p.configSource}, ${p.status}, ${p.yamlErrors}, ${p.failureReason}, ${p.userId}, ${p.triggerId}, ${p.mergeRequestId},
        ${p.protected}, ${iso(p.committedAt)}::timestamptz, ${iso(p.startedAt)}::timestamptz, ${iso(p.finishedAt)}::timestamptz)
      RETURNING id, iid
    ), v AS (
      INSERT INTO ci_pipeline_variables (pipeline_id, key, value, variable_type)
      SELECT p.id, x.key, x.value, x.variable_type FROM p, jsonb_to_recordset(${json(p.variables.map((v) => ({ key: v.key, value: v.value, variable_type: v.variableType })))})
        AS x(key text, value text, variable_type text)
    ), s AS (
      INSERT INTO ci_stages (pipeline_id, project_id, name, position, status)
      SELECT p.id, ${p.projectId}, x.name, x.position, x.status FROM p, jsonb_to_recordset(${json(p.stages)}) AS x(name text, position int, status text)
      RETURNING id, name
    ), b AS (
      INSERT INTO ci_builds (project_id, pipeline_id, stage_id, type, name, stage, stage_idx, status, "when", allow_failure,
        scheduling_type, options, yaml_variables, tag_list, ref, tag, start_in, scheduled_at, user_id, environment,
        target_url, description, coverage, queued_at, started_at, finished_at)
      SELECT ${p.projectId}, p.id, s.id, x.type, x.name, x.stage, x.stage_idx, x.status, x."when", x.allow_failure,
        x.scheduling_type, x.options, x.yaml_variables, x.tag_list, ${p.ref}, ${p.tag}, x.start_in, x.scheduled_at, ${p.userId},
        x.environment, x.target_url, x.description, x.coverage, x.queued_at, x.started_at, x.finished_at
      FROM p, jsonb_to_recordset(${json(jobs)}) AS x(idx int, name text, stage text, stage_idx int, status text, "when" text,
        allow_failure boolean, scheduling_type text, options jsonb, yaml_variables jsonb, tag_list text[], start_in text,
        scheduled_at timestamptz, environment text, type text, target_url text, description text, coverage real,
        queued_at timestamptz, started_at timestamptz, finished_at timestamptz)
      JOIN s ON s.name = x.stage
      ORDER BY x.idx
      RETURNING id, name
    ), n AS (
      INSERT INTO ci_build_needs (build_id, name, artifacts)
      SELECT b.id, x.name, x.artifacts FROM jsonb_to_recordset(${json(needs)}) AS x(job text, name text, artifacts boolean) JOIN b ON b.name = x.job
    )
    SELECT p.id, p.iid FROM p`;
  return [nextIidStatement(db, 'ci_pipelines', source), db.execute(insert)] as const;
}

export type PipelineScope = 'running' | 'pending' | 'finished' | 'branches' | 'tags';

export interface PipelineFilter {
  projectId: number;
  scope?: PipelineScope | undefined;
  status?: CiStatus | undefined;
  ref?: string | undefined;
  sha?: string | undefined;
  yamlErrors?: boolean | undefined;
  username?: string | undefined;
  updatedAfter?: Date | undefined;
  updatedBefore?: Date | undefined;
  source?: string | undefined;
  /** Ref names of the project's branches or tags, for the `branches`/`tags` scopes (Ci::PipelinesFinder#ref_names). */
  refNames?: readonly string[] | undefined;
}

const FINISHED: CiStatus[] = ['success', 'failed', 'canceled', 'skipped'];

function pipelineWhere(f: PipelineFilter): SQL {
  const conditions: SQL[] = [eq(ciPipelines.projectId, f.projectId)];
  if (f.scope === 'running') conditions.push(eq(ciPipelines.status, 'running'));
  if (f.scope === 'pending') conditions.push(inArray(ciPipelines.status, ['pending', 'created']));
  if (f.scope === 'finished') conditions.push(inArray(ciPipelines.status, FINISHED));
  if (f.scope === 'branches' || f.scope === 'tags') {
    // PipelinesFinder: the latest pipeline of each of the project's branches (tags), by ref.
    const names = f.refNames ?? [];
    conditions.push(
      names.length
        ? sql`${ciPipelines.id} IN (SELECT max(id) FROM ci_pipelines WHERE project_id = ${f.projectId} AND tag = ${f.scope === 'tags'} AND ref = ANY(${textArray(names)}) GROUP BY ref)`
        : sql`false`,
    );
  }
  if (f.status) conditions.push(eq(ciPipelines.status, f.status));
  if (f.ref !== undefined) conditions.push(eq(ciPipelines.ref, f.ref));
  if (f.sha !== undefined) conditions.push(eq(ciPipelines.sha, f.sha));
  if (f.source !== undefined) conditions.push(sql`${ciPipelines.source} = ${f.source}`);
  if (f.yamlErrors === true) conditions.push(sql`${ciPipelines.yamlErrors} IS NOT NULL`);
  if (f.yamlErrors === false) conditions.push(sql`${ciPipelines.yamlErrors} IS NULL`);
  if (f.username !== undefined) conditions.push(sql`${ciPipelines.userId} = (SELECT id FROM users WHERE lower(username) = lower(${f.username}))`);
  if (f.updatedAfter) conditions.push(sql`${ciPipelines.updatedAt} > ${f.updatedAfter.toISOString()}::timestamptz`);
  if (f.updatedBefore) conditions.push(sql`${ciPipelines.updatedAt} < ${f.updatedBefore.toISOString()}::timestamptz`);
  return and(...conditions)!;
}

export type PipelineOrder = 'id' | 'status' | 'ref' | 'updated_at' | 'user_id';

/** A page of pipelines with the filtered total (capped) in the same statement. */
export async function pipelinePage(
  db: Db,
  f: PipelineFilter,
  o: { orderBy: PipelineOrder; sort: 'asc' | 'desc'; limit: number; offset: number; countCap: number },
) {
  const column = { id: ciPipelines.id, status: ciPipelines.status, ref: ciPipelines.ref, updated_at: ciPipelines.updatedAt, user_id: ciPipelines.userId }[
    o.orderBy
  ];
  const dir = o.sort === 'asc' ? asc : desc;
  const where = pipelineWhere(f);
  const list = await db
    .select({
      pipeline: ciPipelines,
      total: sql<number>`(SELECT count(*) FROM (SELECT 1 FROM ${ciPipelines} WHERE ${where} LIMIT ${o.countCap + 1}) c)`.mapWith(Number),
    })
    .from(ciPipelines)
    .where(where)
    .orderBy(dir(column), dir(ciPipelines.id))
    .limit(o.limit)
    .offset(o.offset);
  return { rows: list.map((r) => r.pipeline), total: list[0]?.total };
}

export async function countPipelines(db: Db, f: PipelineFilter, cap: number): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM ci_pipelines WHERE ${pipelineWhere(f)} LIMIT ${cap + 1}) c`);
  return Number(row?.n ?? 0);
}

export async function findPipeline(db: Db, projectId: number, id: number): Promise<PipelineRow | undefined> {
  const [row] = await db
    .select()
    .from(ciPipelines)
    .where(and(eq(ciPipelines.projectId, projectId), eq(ciPipelines.id, id)));
  return row;
}

export async function findPipelineById(db: Db, id: number): Promise<PipelineRow | undefined> {
  const [row] = await db.select().from(ciPipelines).where(eq(ciPipelines.id, id));
  return row;
}

export async function pipelineVariables(db: Db, pipelineId: number) {
  return db.select().from(ciPipelineVariables).where(eq(ciPipelineVariables.pipelineId, pipelineId)).orderBy(asc(ciPipelineVariables.id));
}

export async function pipelineStages(db: Db, pipelineIds: readonly number[]) {
  if (!pipelineIds.length) return [];
  return db
    .select()
    .from(ciStages)
    .where(inArray(ciStages.pipelineId, [...pipelineIds]))
    .orderBy(asc(ciStages.pipelineId), asc(ciStages.position));
}

/** Jobs of pipelines (latest only unless `retried`), in stage then id order, with their needs' names. */
export async function pipelineJobs(db: Db, pipelineIds: readonly number[], o: { includeRetried?: boolean } = {}) {
  if (!pipelineIds.length) return [];
  const list = await db
    .select({
      build: ciBuilds,
      needs: sql<
        { name: string; artifacts: boolean }[] | null
      >`(SELECT json_agg(json_build_object('name', n.name, 'artifacts', n.artifacts) ORDER BY n.id) FROM ci_build_needs n WHERE n.build_id = ci_builds.id)`,
    })
    .from(ciBuilds)
    .where(and(inArray(ciBuilds.pipelineId, [...pipelineIds]), o.includeRetried ? undefined : eq(ciBuilds.retried, false)))
    .orderBy(asc(ciBuilds.pipelineId), asc(ciBuilds.stageIdx), asc(ciBuilds.id));
  return list.map((r) => ({ ...r.build, needs: r.needs ?? [] }));
}

export type PipelineJobRow = Awaited<ReturnType<typeof pipelineJobs>>[number];

/** The pipeline row locked for processing (one processor per pipeline at a time, as GitLab's exclusive lease). */
export async function lockPipeline(db: Db, id: number): Promise<PipelineRow | undefined> {
  const [row] = await db.select().from(ciPipelines).where(eq(ciPipelines.id, id)).for('update');
  return row;
}

export async function setJobStatuses(db: Db, changes: readonly { id: number; status: CiStatus }[]) {
  if (!changes.length) return;
  await db.execute(sql`UPDATE ci_builds b SET status = x.status,
      queued_at = CASE WHEN x.status = 'pending' THEN now() ELSE b.queued_at END,
      finished_at = CASE WHEN x.status IN ('success', 'failed', 'canceled', 'skipped') AND b.finished_at IS NULL THEN now() ELSE b.finished_at END,
      updated_at = now(), lock_version = b.lock_version + 1
    FROM jsonb_to_recordset(${json(changes)}) AS x(id int, status text) WHERE b.id = x.id`);
}

export async function setStageStatuses(db: Db, changes: readonly { id: number; status: CiStatus }[]) {
  if (!changes.length) return;
  await db.execute(sql`UPDATE ci_stages s SET status = x.status, updated_at = now(), lock_version = s.lock_version + 1
    FROM jsonb_to_recordset(${json(changes)}) AS x(id int, status text) WHERE s.id = x.id`);
}

/** The pipeline's status and its timestamps as Ci::Pipeline's state machine sets them. */
export async function setPipelineStatus(db: Db, id: number, status: CiStatus) {
  await db.execute(sql`UPDATE ci_pipelines SET status = ${status},
      started_at = CASE WHEN ${status} = 'running' AND started_at IS NULL THEN now() ELSE started_at END,
      finished_at = CASE WHEN ${status} IN ('success', 'failed', 'canceled', 'skipped') THEN now() ELSE NULL END,
      duration = CASE WHEN ${status} IN ('success', 'failed', 'canceled', 'skipped') AND started_at IS NOT NULL
        THEN GREATEST(0, EXTRACT(EPOCH FROM now() - started_at))::int ELSE duration END,
      updated_at = now(), lock_version = lock_version + 1
    WHERE id = ${id} AND status IS DISTINCT FROM ${status}`);
}

export async function deletePipeline(db: Db, id: number) {
  await db.delete(ciPipelines).where(eq(ciPipelines.id, id));
}

export { ciPipelines };

/** Pipelines that have an allowed failure among their latest jobs (Ci::Pipeline#has_warnings?). */
export async function pipelinesWithWarnings(db: Db, pipelineIds: readonly number[]): Promise<Set<number>> {
  if (!pipelineIds.length) return new Set();
  const found = await rows<{ pipeline_id: number }>(
    db,
    sql`SELECT DISTINCT pipeline_id FROM ci_builds WHERE pipeline_id = ANY(${intArray(pipelineIds)})
      AND NOT retried AND allow_failure AND status IN ('failed', 'canceled')`,
  );
  return new Set(found.map((r) => Number(r.pipeline_id)));
}

/** What pipeline creation and the runner API need of a live project. */
export async function findPipelineProject(db: Db, projectId: number) {
  const [row] = await db
    .select({
      id: projects.id,
      name: projects.name,
      path: projects.path,
      pathWithNamespace: projects.pathWithNamespace,
      defaultBranch: projects.defaultBranch,
      visibilityLevel: projects.visibilityLevel,
      runnersTokenVersion: projects.runnersTokenVersion,
      settings: projects.settings,
    })
    .from(projects)
    .where(and(eq(projects.id, projectId), isNull(projects.deletedAt)));
  return row;
}
