// Jobs (ci_builds): listings with GitLab's scope filter, status changes by the API (cancel, play, retry, erase) and
// by runners, and the trace's appends. Each change is one statement that re-checks the status it moves from, so two
// racing changes cannot both apply (the loser changes nothing and is told so).
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { ciBuilds, ciBuildTraceChunks, ciJobArtifacts, ciPipelines, namespaces, projects, type BuildRow, type CiStatus } from '../schema/index.ts';
import { intArray, rows } from './lib/raw.ts';
import { AccessLevel, isAdmin, memberGroupIds, memberProjectIds, projectAccessLevelSql, type Viewer } from './lib/access.ts';

export interface JobFilter {
  /** One project's jobs, or (with `runnerId`) a runner's in every project `inProjects` allows. */
  projectId?: number | undefined;
  runnerId?: number | undefined;
  /** A condition on `ci_builds.project_id` (the projects a reader may see a runner's jobs in). */
  inProjects?: SQL | undefined;
  pipelineId?: number | undefined;
  statuses?: readonly CiStatus[] | undefined;
  /** GenericCommitStatus rows are listed by the statuses API, not the jobs API. */
  types?: readonly BuildRow['type'][] | undefined;
  includeRetried?: boolean | undefined;
}

function jobWhere(f: JobFilter): SQL {
  return and(
    f.projectId !== undefined ? eq(ciBuilds.projectId, f.projectId) : undefined,
    f.runnerId !== undefined ? eq(ciBuilds.runnerId, f.runnerId) : undefined,
    f.inProjects,
    f.pipelineId !== undefined ? eq(ciBuilds.pipelineId, f.pipelineId) : undefined,
    f.statuses?.length ? inArray(ciBuilds.status, [...f.statuses]) : undefined,
    inArray(ciBuilds.type, [...(f.types ?? ['Ci::Build'])]),
    f.includeRetried ? undefined : eq(ciBuilds.retried, false),
  )!;
}

const withPipeline = { build: ciBuilds, pipeline: ciPipelines };

/**
 * RunnerJobsFinder#by_permission: a runner's jobs only in projects where the reader is a reporter or above
 * (administrators: everywhere). A condition for JobFilter's `inProjects`.
 */
export function reporterProjectsSql(actor: Viewer): SQL | undefined {
  if (isAdmin(actor)) return undefined;
  const userId = actor.user?.id ?? 0;
  return sql`${ciBuilds.projectId} IN (SELECT ${projects.id} FROM ${projects} JOIN ${namespaces} ON ${namespaces.id} = ${projects.namespaceId}
    WHERE (${inArray(projects.id, memberProjectIds(userId))} OR ${namespaces.traversalIds} && ${memberGroupIds(userId)})
      AND ${projectAccessLevelSql(actor)} >= ${AccessLevel.REPORTER})`;
}

/** A page of jobs, newest first (Ci::JobsFinder orders by id desc), with the filtered total capped inside. */
export async function jobPage(db: Db, f: JobFilter, o: { limit: number; offset: number; countCap: number; order?: 'asc' | 'desc' }) {
  const where = jobWhere(f);
  const list = await db
    .select({
      ...withPipeline,
      total: sql<number>`(SELECT count(*) FROM (SELECT 1 FROM ${ciBuilds} WHERE ${where} LIMIT ${o.countCap + 1}) c)`.mapWith(Number),
    })
    .from(ciBuilds)
    .innerJoin(ciPipelines, eq(ciPipelines.id, ciBuilds.pipelineId))
    .where(where)
    .orderBy(o.order === 'asc' ? asc(ciBuilds.id) : desc(ciBuilds.id))
    .limit(o.limit)
    .offset(o.offset);
  return { rows: list.map((r) => ({ build: r.build, pipeline: r.pipeline })), total: list[0]?.total };
}

export async function countJobs(db: Db, f: JobFilter, cap: number): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM ci_builds WHERE ${jobWhere(f)} LIMIT ${cap + 1}) c`);
  return Number(row?.n ?? 0);
}

export async function findJob(db: Db, projectId: number, id: number) {
  const [row] = await db
    .select(withPipeline)
    .from(ciBuilds)
    .innerJoin(ciPipelines, eq(ciPipelines.id, ciBuilds.pipelineId))
    .where(and(eq(ciBuilds.projectId, projectId), eq(ciBuilds.id, id)));
  return row;
}

export async function findJobById(db: Db, id: number) {
  const [row] = await db.select(withPipeline).from(ciBuilds).innerJoin(ciPipelines, eq(ciPipelines.id, ciBuilds.pipelineId)).where(eq(ciBuilds.id, id));
  return row;
}

export type JobWithPipeline = NonNullable<Awaited<ReturnType<typeof findJob>>>;

/** Moves the jobs that are in one of `from` to `to`; the ids of those it moved. */
export async function transitionJobs(
  db: Db,
  o: { ids?: readonly number[]; pipelineId?: number; from: readonly CiStatus[]; to: CiStatus; userId?: number | null },
): Promise<number[]> {
  const target = o.ids ? sql`id = ANY(${intArray(o.ids)})` : sql`pipeline_id = ${o.pipelineId!} AND NOT retried`;
  const moved = await rows<{ id: number }>(
    db,
    sql`UPDATE ci_builds SET status = ${o.to},
        queued_at = CASE WHEN ${o.to} = 'pending' THEN now() ELSE queued_at END,
        finished_at = CASE WHEN ${o.to} IN ('success', 'failed', 'canceled', 'skipped') THEN now() ELSE finished_at END,
        user_id = COALESCE(${o.userId ?? null}::int, user_id),
        updated_at = now(), lock_version = lock_version + 1
      WHERE ${target} AND status = ANY(${`{${o.from.join(',')}}`}::text[])
      RETURNING id`,
  );
  return moved.map((r) => Number(r.id));
}

/**
 * Ci::RetryBuildService#reprocess!: each job becomes `retried` and a copy of it (same stage, options, variables and
 * needs) joins the pipeline with `status`; the copies' ids by name. Jobs already retried are left alone, so two
 * racing retries make one copy.
 */
/**
 * Retrying (Ci::RetryBuildService, Ci::RetryPipelineService), as statements for one batch: the jobs copied with
 * `status` (the originals kept as retried; rows `{ id, name }` of the copies, batchRows) and the skipped jobs after
 * `afterStageIdx` reopened, so processing runs them again. Both or neither.
 */
export function retryJobsStatements(db: Db, ids: readonly number[], status: CiStatus, userId: number, pipelineId: number, afterStageIdx: number) {
  return [
    db.execute(
      sql`WITH old AS (
        UPDATE ci_builds SET retried = true, updated_at = now() WHERE id = ANY(${intArray(ids)}) AND NOT retried RETURNING *
      ), copy AS (
        INSERT INTO ci_builds (project_id, pipeline_id, stage_id, type, name, stage, stage_idx, status, "when", allow_failure,
          scheduling_type, options, yaml_variables, tag_list, ref, tag, start_in, user_id, environment, queued_at)
        SELECT project_id, pipeline_id, stage_id, type, name, stage, stage_idx, ${status}, "when", allow_failure,
          scheduling_type, options, yaml_variables, tag_list, ref, tag, start_in, ${userId}, environment,
          CASE WHEN ${status} = 'pending' THEN now() END
        FROM old ORDER BY id
        RETURNING id, name, pipeline_id
      ), needs AS (
        INSERT INTO ci_build_needs (build_id, name, artifacts)
        SELECT copy.id, n.name, n.artifacts FROM copy JOIN old ON old.name = copy.name AND old.pipeline_id = copy.pipeline_id
          JOIN ci_build_needs n ON n.build_id = old.id
      )
      SELECT id, name FROM copy`,
    ),
    db.execute(sql`UPDATE ci_builds SET status = 'created', finished_at = NULL, updated_at = now(), lock_version = lock_version + 1
      WHERE pipeline_id = ${pipelineId} AND NOT retried AND status = 'skipped' AND stage_idx > ${afterStageIdx}`),
  ] as const;
}

/** Ci::Build#erase: the trace and artifacts go; the job remembers who erased it and when. */
export function eraseJobStatements(db: Db, jobId: number, userId: number) {
  return [
    db.delete(ciBuildTraceChunks).where(eq(ciBuildTraceChunks.buildId, jobId)),
    db.delete(ciJobArtifacts).where(eq(ciJobArtifacts.jobId, jobId)),
    db
      .update(ciBuilds)
      .set({ erasedAt: sql`now()`, erasedById: userId, artifactsExpireAt: null, updatedAt: sql`now()` })
      .where(eq(ciBuilds.id, jobId)),
  ] as const;
}

/** Whether the jobs have a trace, and their archive artifacts' names and sizes. */
export async function jobFiles(db: Db, jobIds: readonly number[]) {
  if (!jobIds.length)
    return {
      traced: new Set<number>(),
      artifacts: [] as Array<{ jobId: number; fileType: string; fileName: string; fileFormat: string; size: number; expireAt: Date | null }>,
    };
  const [traced, artifacts] = await Promise.all([
    rows<{ build_id: number }>(db, sql`SELECT DISTINCT build_id FROM ci_build_trace_chunks WHERE build_id = ANY(${intArray(jobIds)})`),
    db
      .select({
        jobId: ciJobArtifacts.jobId,
        fileType: ciJobArtifacts.fileType,
        fileName: ciJobArtifacts.fileName,
        fileFormat: ciJobArtifacts.fileFormat,
        size: ciJobArtifacts.size,
        expireAt: ciJobArtifacts.expireAt,
      })
      .from(ciJobArtifacts)
      .where(inArray(ciJobArtifacts.jobId, [...jobIds]))
      .orderBy(asc(ciJobArtifacts.id)),
  ]);
  return { traced: new Set(traced.map((t) => Number(t.build_id))), artifacts };
}

/** The whole trace, its appends in order. */
export async function readTrace(db: Db, jobId: number): Promise<Uint8Array | null> {
  const chunks = await db
    .select({ data: ciBuildTraceChunks.data })
    .from(ciBuildTraceChunks)
    .where(eq(ciBuildTraceChunks.buildId, jobId))
    .orderBy(asc(ciBuildTraceChunks.startOffset));
  if (!chunks.length) return null;
  const size = chunks.reduce((n, c) => n + c.data.length, 0);
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c.data, at);
    at += c.data.length;
  }
  return out;
}

export async function readArtifact(db: Db, jobId: number, fileType: string) {
  const [row] = await db
    .select()
    .from(ciJobArtifacts)
    .where(and(eq(ciJobArtifacts.jobId, jobId), eq(ciJobArtifacts.fileType, fileType)));
  return row;
}

/**
 * Project#latest_successful_build_for_ref: in the newest successful pipeline of `ref`, the latest (not retried) job
 * named `name` that has an archive; its id.
 */
export async function latestSuccessfulJobWithArchive(db: Db, projectId: number, ref: string, name: string): Promise<number | undefined> {
  const [row] = await rows<{ id: number }>(
    db,
    sql`SELECT b.id FROM ${ciBuilds} b
      WHERE b.pipeline_id = (SELECT p.id FROM ${ciPipelines} p WHERE p.project_id = ${projectId} AND p.ref = ${ref} AND p.status = 'success' ORDER BY p.id DESC LIMIT 1)
        AND b.name = ${name} AND NOT b.retried AND b.type = 'Ci::Build'
        AND EXISTS (SELECT 1 FROM ${ciJobArtifacts} a WHERE a.job_id = b.id AND a.file_type = 'archive')
      ORDER BY b.id DESC LIMIT 1`,
  );
  return row ? Number(row.id) : undefined;
}

/** Ci::Build#keep_artifacts!: the job and its artifacts no longer expire. */
export function keepArtifactsStatements(db: Db, jobId: number) {
  return [
    db
      .update(ciBuilds)
      .set({ artifactsExpireAt: null, updatedAt: sql`now()` })
      .where(eq(ciBuilds.id, jobId)),
    db.update(ciJobArtifacts).set({ expireAt: null }).where(eq(ciJobArtifacts.jobId, jobId)),
  ] as const;
}
