// Runners (ci_runners, with the projects of project runners and the group of group runners) and what they do through
// the runner API: registration, the job queue (one statement finds the runner by its token digest, records the
// contact and claims the oldest pending job it may run with SKIP LOCKED, so two runners never take one job and a poll
// with nothing to do is that one statement), trace appends at byte offsets, artifacts. The administration API's
// queries are in runners/admin.ts.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { ciJobArtifacts, ciRunners, namespaces, type RunnerRow } from '../schema/index.ts';
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
  runnerType: 'instance_type' | 'group_type' | 'project_type';
  maximumTimeout: number | null;
  info: { name?: string; version?: string; revision?: string; platform?: string; architecture?: string };
  ipAddress: string | null;
  /** The project a project runner serves. */
  projectId: number | null;
  /** The group a group runner serves. */
  groupId: number | null;
}

/** The runner and its project link (a project runner) or group link (a group runner), in one statement. */
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
      ), group_link AS (
        INSERT INTO ci_runner_namespaces (runner_id, namespace_id) SELECT r.id, g FROM r, (SELECT ${r.groupId}::int AS g) x WHERE x.g IS NOT NULL
      )
      SELECT id FROM r`,
  );
  return Number(row!.id);
}

/** A live group by id with its registration token's version (registration with a group's token). */
export async function findRunnerGroup(db: Db, groupId: number): Promise<{ id: number; runnersTokenVersion: number } | undefined> {
  const [row] = await db
    .select({ id: namespaces.id, runnersTokenVersion: namespaces.runnersTokenVersion })
    .from(namespaces)
    .where(and(eq(namespaces.id, groupId), eq(namespaces.kind, 'group'), isNull(namespaces.deletedAt)));
  return row;
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
 * build it may run (a project runner: its projects; a group runner: the projects of its group and the group's
 * subgroups that take group runners; an instance runner: any whose project takes shared runners; the job's tags all
 * among the runner's, an untagged job only when the runner runs untagged jobs, a ref_protected runner only protected
 * pipelines), claimed: running, this runner, `jobTokenDigest` as its job token. `runnerId` null: no such runner.
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
            -- A group runner takes the jobs of the live projects, with builds on and group_runners_enabled, of its group
            -- and every group below it (Ci::RegisterJobService#builds_for_group_runner).
            WHEN r.runner_type = 'group_type'
            THEN b.project_id IN (SELECT gp.id FROM ci_runner_namespaces rn
              JOIN namespaces gn ON gn.traversal_ids @> ARRAY[rn.namespace_id] AND gn.deleted_at IS NULL
              JOIN projects gp ON gp.namespace_id = gn.id AND gp.group_runners_enabled AND gp.deleted_at IS NULL AND gp.builds_access_level > 0
              WHERE rn.runner_id = r.id)
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
