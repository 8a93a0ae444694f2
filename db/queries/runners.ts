// Runners (ci_runners) and what they do through the runner API: registration, the job queue (one statement finds the
// runner by its token digest, records the contact and claims the oldest pending job it may run with SKIP LOCKED, so
// two runners never take one job and a poll with nothing to do is that one statement), trace appends at byte
// offsets, artifacts.
import { and, asc, count, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { AccessLevel, isAdmin, projectAccessLevelSql, type Viewer } from './lib/access.ts';
import type { Db } from '../client.ts';
import { ciJobArtifacts, ciRunnerProjects, ciRunners, namespaces, projects, type RunnerRow } from '../schema/index.ts';
import { rows, textArray } from './lib/raw.ts';

export async function findRunnersByIds(db: Db, ids: readonly number[]): Promise<RunnerRow[]> {
  if (!ids.length) return [];
  return db
    .select()
    .from(ciRunners)
    .where(inArray(ciRunners.id, [...ids]));
}

export async function findRunnerByTokenDigest(db: Db, digest: string): Promise<RunnerRow | undefined> {
  const [row] = await db.select().from(ciRunners).where(eq(ciRunners.tokenDigest, digest));
  return row;
}

export interface NewRunner {
  tokenDigest: string;
  description: string | null;
  active: boolean;
  locked: boolean;
  runUntagged: boolean;
  tagList: string[];
  accessLevel: 'not_protected' | 'ref_protected';
  runnerType: 'instance_type' | 'project_type';
  maximumTimeout: number | null;
  info: { name?: string; version?: string; revision?: string; platform?: string; architecture?: string };
  ipAddress: string | null;
  /** The project a project runner serves. */
  projectId: number | null;
}

/** The runner and (for a project runner) its project link, in one statement. */
export async function insertRunner(db: Db, r: NewRunner): Promise<number> {
  const [row] = await rows<{ id: number }>(
    db,
    sql`WITH r AS (
        INSERT INTO ci_runners (token_digest, description, active, locked, run_untagged, tag_list, access_level, runner_type,
          maximum_timeout, name, version, revision, platform, architecture, ip_address, contacted_at)
        VALUES (${r.tokenDigest}, ${r.description}, ${r.active}, ${r.locked}, ${r.runUntagged}, ${textArray(r.tagList)}, ${r.accessLevel},
          ${r.runnerType}, ${r.maximumTimeout}, ${r.info.name ?? null}, ${r.info.version ?? null}, ${r.info.revision ?? null},
          ${r.info.platform ?? null}, ${r.info.architecture ?? null}, ${r.ipAddress}, now())
        RETURNING id
      ), link AS (
        INSERT INTO ci_runner_projects (runner_id, project_id) SELECT r.id, p FROM r, (SELECT ${r.projectId}::int AS p) x WHERE x.p IS NOT NULL
      )
      SELECT id FROM r`,
  );
  return Number(row!.id);
}

export async function deleteRunnerByDigest(db: Db, digest: string): Promise<boolean> {
  const deleted = await db.delete(ciRunners).where(eq(ciRunners.tokenDigest, digest)).returning({ id: ciRunners.id });
  return deleted.length > 0;
}

export interface Claim {
  runnerId: number | null;
  active: boolean;
  jobId: number | null;
}

/**
 * Ci::RegisterJobService in one statement: the runner by its token digest (contact recorded), then the oldest pending
 * build it may run (its projects, or for an instance runner any whose project takes shared runners; the job's tags all among the runner's, an untagged
 * job only when the runner runs untagged jobs, a ref_protected runner only protected pipelines), claimed: running,
 * this runner, `jobTokenDigest` as its job token. `runnerId` null: no such runner.
 */
export async function claimJob(db: Db, o: { runnerDigest: string; jobTokenDigest: string; info: NewRunner['info']; ipAddress: string | null }): Promise<Claim> {
  const [row] = await rows<{ runner_id: number | null; active: boolean | null; job_id: number | null }>(
    db,
    sql`WITH r AS (
        UPDATE ci_runners SET contacted_at = now(),
          name = COALESCE(${o.info.name ?? null}, name), version = COALESCE(${o.info.version ?? null}, version),
          revision = COALESCE(${o.info.revision ?? null}, revision), platform = COALESCE(${o.info.platform ?? null}, platform),
          architecture = COALESCE(${o.info.architecture ?? null}, architecture), ip_address = COALESCE(${o.ipAddress}, ip_address)
        WHERE token_digest = ${o.runnerDigest}
        RETURNING id, active, runner_type, run_untagged, tag_list, access_level
      ), candidate AS (
        SELECT b.id FROM ci_builds b, r
        -- A delayed job whose time has come is taken as if it were pending (no scheduler moves it first).
        WHERE r.active AND (b.status = 'pending' OR (b.status = 'scheduled' AND b.scheduled_at <= now())) AND b.type = 'Ci::Build'
          -- An instance runner takes the jobs of projects whose shared_runners_enabled is on (Ci::RegisterJobService#builds_for_shared_runner).
          AND (CASE WHEN r.runner_type = 'instance_type'
            THEN EXISTS (SELECT 1 FROM projects sp WHERE sp.id = b.project_id AND sp.shared_runners_enabled)
            ELSE b.project_id IN (SELECT project_id FROM ci_runner_projects WHERE runner_id = r.id) END)
          AND b.tag_list <@ r.tag_list AND (cardinality(b.tag_list) > 0 OR r.run_untagged)
          AND (r.access_level = 'not_protected' OR EXISTS (SELECT 1 FROM ci_pipelines p WHERE p.id = b.pipeline_id AND p.protected))
        ORDER BY b.id
        LIMIT 1
        FOR UPDATE OF b SKIP LOCKED
      ), claimed AS (
        UPDATE ci_builds b SET status = 'running', runner_id = r.id, token_digest = ${o.jobTokenDigest}, started_at = now(),
          updated_at = now(), lock_version = b.lock_version + 1
        FROM candidate, r WHERE b.id = candidate.id AND b.status IN ('pending', 'scheduled')
        RETURNING b.id
      )
      SELECT r.id AS runner_id, r.active, (SELECT id FROM claimed) AS job_id FROM (SELECT 1) one LEFT JOIN r ON true`,
  );
  return {
    runnerId: row?.runner_id == null ? null : Number(row.runner_id),
    active: row?.active === true,
    jobId: row?.job_id == null ? null : Number(row.job_id),
  };
}

/** The job a job token authenticates: its id, status, token digest and pipeline. */
export async function findJobAuth(db: Db, jobId: number) {
  const [row] = await rows<{ id: number; status: string; token_digest: string | null; pipeline_id: number; project_id: number; erased_at: string | null }>(
    db,
    sql`SELECT id, status, token_digest, pipeline_id, project_id, erased_at FROM ci_builds WHERE id = ${jobId} AND type = 'Ci::Build'`,
  );
  return (
    row && {
      id: Number(row.id),
      status: row.status,
      tokenDigest: row.token_digest,
      pipelineId: Number(row.pipeline_id),
      projectId: Number(row.project_id),
      erased: row.erased_at !== null,
    }
  );
}

/** The running job of `pipelineId` whose token digest this is (a dependent downloading a dependency's artifacts). */
export async function runningJobWithDigest(db: Db, pipelineId: number, digest: string): Promise<boolean> {
  const found = await rows<{ id: number }>(
    db,
    sql`SELECT id FROM ci_builds WHERE pipeline_id = ${pipelineId} AND token_digest = ${digest} AND status = 'running'`,
  );
  return found.length > 0;
}

/**
 * Trace#append: the bytes are stored at `start` only when the trace is exactly that long (else nothing is written);
 * the trace's length afterwards. Two appends at one offset meet at the primary key: one is kept.
 */
export async function appendTrace(db: Db, jobId: number, start: number, data: Uint8Array): Promise<number> {
  const [row] = await rows<{ size: number; stored: boolean }>(
    db,
    sql`WITH cur AS (SELECT COALESCE(sum(octet_length(data)), 0)::bigint AS size FROM ci_build_trace_chunks WHERE build_id = ${jobId}),
      ins AS (
        INSERT INTO ci_build_trace_chunks (build_id, start_offset, data)
        SELECT ${jobId}, ${start}, ${data} FROM cur WHERE cur.size = ${start} AND ${data.length}::int > 0
        ON CONFLICT DO NOTHING
        RETURNING octet_length(data) AS n
      )
      SELECT (cur.size + COALESCE((SELECT n FROM ins), 0))::bigint AS size, EXISTS (SELECT 1 FROM ins) AS stored FROM cur`,
  );
  if (row!.stored || data.length === 0) return Number(row!.size);
  // Nothing stored: the size this statement saw may predate a concurrent append that won the offset (its snapshot
  // began before that commit), so the size is read again for the runner's Range.
  const [now] = await rows<{ size: number }>(
    db,
    sql`SELECT COALESCE(sum(octet_length(data)), 0)::bigint AS size FROM ci_build_trace_chunks WHERE build_id = ${jobId}`,
  );
  return Number(now!.size);
}

/**
 * Finishes a running job with the runner's outcome; false when it was not running any more (canceled meanwhile). The
 * job token stays valid for the job's artifacts (GitLab's download does not require a running job).
 */
export async function finishJob(
  db: Db,
  o: { jobId: number; status: 'success' | 'failed'; failureReason: string | null; exitCode: number | null },
): Promise<boolean> {
  const done = await rows<{ id: number }>(
    db,
    sql`UPDATE ci_builds SET status = ${o.status}, failure_reason = ${o.failureReason}, exit_code = ${o.exitCode}, finished_at = now(),
        updated_at = now(), lock_version = lock_version + 1
      WHERE id = ${o.jobId} AND status = 'running' RETURNING id`,
  );
  return done.length > 0;
}

export interface NewArtifact {
  projectId: number;
  jobId: number;
  fileType: string;
  fileFormat: 'zip' | 'gzip' | 'raw';
  fileName: string;
  /** The bytes, already in the chunked store (db/schema/stored-files.ts). */
  file: { id: number; size: number; sha256: string };
  expireAt: Date | null;
}

/** Stores an artifact unless the job has one of its type: 'stored', 'same' (identical content) or 'exists'. */
export async function insertArtifact(db: Db, a: NewArtifact): Promise<'stored' | 'same' | 'exists'> {
  const inserted = await db
    .insert(ciJobArtifacts)
    .values({
      projectId: a.projectId,
      jobId: a.jobId,
      fileType: a.fileType,
      fileFormat: a.fileFormat,
      fileName: a.fileName,
      size: a.file.size,
      fileSha256: a.file.sha256,
      fileId: a.file.id,
      expireAt: a.expireAt,
    })
    .onConflictDoNothing({ target: [ciJobArtifacts.jobId, ciJobArtifacts.fileType] })
    .returning({ id: ciJobArtifacts.id });
  if (inserted.length) {
    await db.execute(sql`UPDATE ci_builds SET artifacts_expire_at = ${a.expireAt ? a.expireAt.toISOString() : null}::timestamptz WHERE id = ${a.jobId}`);
    return 'stored';
  }
  const [existing] = await rows<{ file_sha256: string }>(
    db,
    sql`SELECT file_sha256 FROM ci_job_artifacts WHERE job_id = ${a.jobId} AND file_type = ${a.fileType}`,
  );
  return existing?.file_sha256 === a.file.sha256 ? 'same' : 'exists';
}

// ---- The administration API (GET /runners, /runners/all, /runners/:id, /projects/:id/runners) ----

/** Which runners a listing covers: every one, those the actor owns, or those a project may use. */
export type RunnerScope = { kind: 'all' } | { kind: 'owned'; actor: Viewer } | { kind: 'project'; projectId: number };

export interface RunnerFilter {
  type?: 'instance_type' | 'group_type' | 'project_type' | undefined;
  /** GitLab's statuses (and the deprecated `scope` values): active, paused, online, offline, specific, shared. */
  status?: 'active' | 'paused' | 'online' | 'offline' | 'specific' | 'shared' | undefined;
  tagList?: string[] | undefined;
}

const rp = alias(ciRunnerProjects, 'rp');
const rpProject = alias(projects, 'rp_project');
const rpNamespace = alias(namespaces, 'rp_namespace');

/** The actor's highest level over the runner's projects (Ci::Runner's owners are their projects' maintainers). */
export const runnerOwnerLevelSql = (actor: Viewer) =>
  sql<number>`COALESCE((SELECT max(${projectAccessLevelSql(actor, rpProject, rpNamespace)}) FROM ${ciRunnerProjects} AS rp
    JOIN ${projects} AS rp_project ON ${rpProject.id} = ${rp.projectId} AND ${rpProject.deletedAt} IS NULL
    JOIN ${namespaces} AS rp_namespace ON ${rpNamespace.id} = ${rpProject.namespaceId}
    WHERE ${rp.runnerId} = ${ciRunners.id}), 0)`.mapWith(Number);

/** Online: contacted within the last hour (Ci::Runner::ONLINE_CONTACT_TIMEOUT). */
const online = sql`(${ciRunners.contactedAt} IS NOT NULL AND ${ciRunners.contactedAt} > now() - interval '1 hour')`;

function runnerWhere(scope: RunnerScope, f: RunnerFilter) {
  return and(
    scope.kind === 'owned'
      ? sql`${runnerOwnerLevelSql(scope.actor)} >= ${AccessLevel.MAINTAINER}`
      : scope.kind === 'project'
        ? or(
            eq(ciRunners.runnerType, 'instance_type'),
            sql`EXISTS (SELECT 1 FROM ${ciRunnerProjects} WHERE ${ciRunnerProjects.runnerId} = ${ciRunners.id} AND ${ciRunnerProjects.projectId} = ${scope.projectId})`,
          )
        : undefined,
    f.type ? eq(ciRunners.runnerType, f.type) : undefined,
    f.status === 'active' ? eq(ciRunners.active, true) : undefined,
    f.status === 'paused' ? eq(ciRunners.active, false) : undefined,
    f.status === 'online' ? online : undefined,
    f.status === 'offline' ? sql`NOT ${online}` : undefined,
    f.status === 'specific' ? sql`${ciRunners.runnerType} <> 'instance_type'` : undefined,
    f.status === 'shared' ? eq(ciRunners.runnerType, 'instance_type') : undefined,
    f.tagList?.length ? sql`${ciRunners.tagList} @> ${textArray(f.tagList)}` : undefined,
  );
}

export const listRunners = (db: Db, scope: RunnerScope, f: RunnerFilter, limit: number, offset: number): Promise<RunnerRow[]> =>
  db.select().from(ciRunners).where(runnerWhere(scope, f)).orderBy(asc(ciRunners.id)).limit(limit).offset(offset);

export async function countRunners(db: Db, scope: RunnerScope, f: RunnerFilter, limit: number) {
  const [row] = await db.select({ n: count() }).from(db.select({ id: ciRunners.id }).from(ciRunners).where(runnerWhere(scope, f)).limit(limit).as('c'));
  return row?.n ?? 0;
}

/** The runner with the actor's level over it and its number of projects (RunnerPolicy's facts). */
export async function findRunnerFacts(db: Db, actor: Viewer, id: number) {
  const [row] = await db
    // Nested in an outer sql`(...)`: drizzle strips table names from a single-table select's top-level columns, and
    // an unqualified "id" inside would be ambiguous.
    .select({
      runner: ciRunners,
      ownerLevel: sql<number>`(${runnerOwnerLevelSql(actor)})`.mapWith(Number),
      projectCount: sql<number>`(${sql`SELECT count(*) FROM ${ciRunnerProjects} WHERE ${ciRunnerProjects.runnerId} = ${ciRunners.id}`})`.mapWith(Number),
    })
    .from(ciRunners)
    .where(eq(ciRunners.id, id));
  return row;
}

/**
 * RunnerDetails' projects: the live projects the runner serves, those the actor is authorized in for anyone but an
 * administrator, with their forks count.
 */
export const runnerProjects = (db: Db, actor: Viewer, runnerId: number) =>
  db
    .select({
      project: projects,
      namespace: namespaces,
      forksCount: sql<number>`(SELECT count(*) FROM ${projects} f WHERE f.forked_from_id = ${projects.id} AND f.deleted_at IS NULL)`.mapWith(Number),
    })
    .from(ciRunnerProjects)
    .innerJoin(projects, and(eq(projects.id, ciRunnerProjects.projectId), isNull(projects.deletedAt)))
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .where(and(eq(ciRunnerProjects.runnerId, runnerId), isAdmin(actor) ? undefined : sql`${projectAccessLevelSql(actor)} > 0`))
    .orderBy(asc(ciRunnerProjects.id));

export async function updateRunner(
  db: Db,
  id: number,
  values: Partial<Pick<RunnerRow, 'description' | 'active' | 'tagList' | 'runUntagged' | 'locked' | 'accessLevel' | 'maximumTimeout'>>,
) {
  const [row] = await db
    .update(ciRunners)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(ciRunners.id, id))
    .returning();
  return row;
}

export async function deleteRunner(db: Db, id: number) {
  await db.delete(ciRunners).where(eq(ciRunners.id, id));
}

/** Enables the runner in the project; false when it already was. */
export async function assignRunner(db: Db, runnerId: number, projectId: number) {
  const rows = await db.insert(ciRunnerProjects).values({ runnerId, projectId }).onConflictDoNothing().returning({ id: ciRunnerProjects.id });
  return rows.length > 0;
}

export async function unassignRunner(db: Db, runnerId: number, projectId: number) {
  const rows = await db
    .delete(ciRunnerProjects)
    .where(and(eq(ciRunnerProjects.runnerId, runnerId), eq(ciRunnerProjects.projectId, projectId)))
    .returning({ id: ciRunnerProjects.id });
  return rows.length > 0;
}

export async function projectHasRunner(db: Db, runnerId: number, projectId: number) {
  const [row] = await db
    .select({ id: ciRunnerProjects.id })
    .from(ciRunnerProjects)
    .where(and(eq(ciRunnerProjects.runnerId, runnerId), eq(ciRunnerProjects.projectId, projectId)));
  return row !== undefined;
}
