// Commit statuses (GitLab's CommitStatus rows of ci_builds): the listing of a commit's statuses, jobs included, one
// statement per page with its capped total; and the writes of POST /statuses/:sha (GenericCommitStatus rows in the
// `external` stage), made in one transaction under a per-commit advisory lock and the pipeline's row lock.
import { and, asc, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { ciBuilds, ciPipelines, ciStages, users, type BuildRow, type NewBuild, type PipelineRow, type UserRow } from '../schema/index.ts';
import { insertPipelineStatements } from './pipelines.ts';
import { batchRows } from './lib/raw.ts';

/** The advisory lock class of commit statuses (the second key is a hash of the project and the commit). */
const COMMIT_STATUS_LOCK = 13_610;

export interface StatusFilter {
  projectId: number;
  sha: string;
  ref?: string | undefined;
  stage?: string | undefined;
  name?: string | undefined;
  /** Retried ones too (`all`); by default only the latest (CommitStatus.latest). */
  all: boolean;
}

export interface StatusRow {
  status: BuildRow;
  sha: string;
  author: UserRow | null;
}

function statusWhere(f: StatusFilter): SQL {
  return and(
    eq(ciPipelines.projectId, f.projectId),
    eq(ciPipelines.sha, f.sha),
    f.all ? undefined : eq(ciBuilds.retried, false),
    f.ref !== undefined ? eq(ciBuilds.ref, f.ref) : undefined,
    f.stage !== undefined ? eq(ciBuilds.stage, f.stage) : undefined,
    f.name !== undefined ? eq(ciBuilds.name, f.name) : undefined,
  )!;
}

const statusColumns = { status: ciBuilds, sha: ciPipelines.sha, author: users };

/** A page of the commit's statuses in id order (GitLab's paginate orders an unordered relation by id). */
export async function statusPage(db: Db, f: StatusFilter, o: { limit: number; offset: number; countCap: number }) {
  const where = statusWhere(f);
  const list = await db
    .select({
      ...statusColumns,
      total:
        sql<number>`(SELECT count(*) FROM (SELECT 1 FROM ${ciBuilds} JOIN ${ciPipelines} ON ${ciPipelines.id} = ${ciBuilds.pipelineId} WHERE ${where} LIMIT ${o.countCap + 1}) c)`.mapWith(
          Number,
        ),
    })
    .from(ciBuilds)
    .innerJoin(ciPipelines, eq(ciPipelines.id, ciBuilds.pipelineId))
    .leftJoin(users, eq(users.id, ciBuilds.userId))
    .where(where)
    .orderBy(asc(ciBuilds.id))
    .limit(o.limit)
    .offset(o.offset);
  return { rows: list.map((r): StatusRow => ({ status: r.status, sha: r.sha, author: r.author })), total: list[0]?.total };
}

export async function countStatuses(db: Db, f: StatusFilter, cap: number): Promise<number> {
  const capped = db.select({ id: ciBuilds.id }).from(ciBuilds).innerJoin(ciPipelines, eq(ciPipelines.id, ciBuilds.pipelineId)).where(statusWhere(f)).limit(cap);
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(capped.as('capped'));
  return row?.n ?? 0;
}

export async function findStatus(db: Db, id: number): Promise<StatusRow | undefined> {
  const [row] = await db
    .select(statusColumns)
    .from(ciBuilds)
    .innerJoin(ciPipelines, eq(ciPipelines.id, ciBuilds.pipelineId))
    .leftJoin(users, eq(users.id, ciBuilds.userId))
    .where(eq(ciBuilds.id, id));
  return row;
}

/** Serializes the status posts of one commit of one project until the transaction ends. */
export async function lockCommitStatuses(tx: Db, projectId: number, sha: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${COMMIT_STATUS_LOCK}::int, hashtext(${`${projectId}:${sha}`}))`);
}

/** The newest pipeline of the project on `sha` (Ci::Pipeline.newest_first), narrowed by ref and id when given. */
export async function newestPipeline(
  tx: Db,
  f: { projectId: number; sha: string; ref?: string | undefined; pipelineId?: number | undefined },
): Promise<PipelineRow | undefined> {
  const [row] = await tx
    .select()
    .from(ciPipelines)
    .where(
      and(
        eq(ciPipelines.projectId, f.projectId),
        eq(ciPipelines.sha, f.sha),
        f.ref !== undefined ? eq(ciPipelines.ref, f.ref) : undefined,
        f.pipelineId !== undefined ? eq(ciPipelines.id, f.pipelineId) : undefined,
      ),
    )
    .orderBy(desc(ciPipelines.id))
    .limit(1);
  return row;
}

/** An empty pipeline of source `external` (made for a status posted on a commit that has none); its id. */
export async function insertExternalPipeline(tx: Db, p: { projectId: number; sha: string; ref: string; userId: number }): Promise<number> {
  const [iid, insert] = insertPipelineStatements(tx, {
    ...p,
    beforeSha: null,
    tag: false,
    source: 'external',
    configSource: 'unknown_source',
    status: 'created',
    yamlErrors: null,
    failureReason: null,
    triggerId: null,
    mergeRequestId: null,
    protected: false,
    committedAt: null,
    startedAt: null,
    finishedAt: null,
    variables: [],
    stages: [],
    jobs: [],
  });
  await iid;
  const [created] = batchRows<{ id: number }>(await insert);
  return Number(created!.id);
}

/** The pipeline's stage of this name, made when missing (Ci::Stage from CommitStatus#ensure_stage); its id. */
export async function ensureStage(tx: Db, s: { pipelineId: number; projectId: number; name: string; position: number }): Promise<number> {
  await tx
    .insert(ciStages)
    .values(s)
    .onConflictDoNothing({ target: [ciStages.pipelineId, ciStages.name] });
  const [row] = await tx
    .select({ id: ciStages.id })
    .from(ciStages)
    .where(and(eq(ciStages.pipelineId, s.pipelineId), eq(ciStages.name, s.name)));
  return row!.id;
}

/** GenericCommitStatus.running_or_pending.find_by(pipeline, name, ref, user): the status a new post continues. */
export async function findOpenStatus(tx: Db, f: { pipelineId: number; name: string; ref: string; userId: number }): Promise<BuildRow | undefined> {
  const [row] = await tx
    .select()
    .from(ciBuilds)
    .where(
      and(
        eq(ciBuilds.pipelineId, f.pipelineId),
        eq(ciBuilds.type, 'GenericCommitStatus'),
        eq(ciBuilds.name, f.name),
        eq(ciBuilds.ref, f.ref),
        eq(ciBuilds.userId, f.userId),
        inArray(ciBuilds.status, ['pending', 'running']),
      ),
    )
    .orderBy(asc(ciBuilds.id))
    .limit(1);
  return row;
}

/** Whether a job of another kind in the pipeline has this name (GenericCommitStatus#name_uniqueness_across_types). */
export async function nameTakenByOtherType(tx: Db, pipelineId: number, name: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: ciBuilds.id })
    .from(ciBuilds)
    .where(and(eq(ciBuilds.pipelineId, pipelineId), eq(ciBuilds.name, name), ne(ciBuilds.type, 'GenericCommitStatus')))
    .limit(1);
  return row !== undefined;
}

export type StatusChanges = Pick<NewBuild, 'status' | 'targetUrl' | 'description' | 'coverage' | 'queuedAt' | 'startedAt' | 'finishedAt' | 'failureReason'>;

export async function insertStatus(tx: Db, values: NewBuild): Promise<number> {
  const [row] = await tx.insert(ciBuilds).values(values).returning({ id: ciBuilds.id });
  return row!.id;
}

export async function updateStatus(tx: Db, id: number, changes: StatusChanges): Promise<void> {
  await tx
    .update(ciBuilds)
    .set({ ...changes, updatedAt: sql`now()`, lockVersion: sql`${ciBuilds.lockVersion} + 1` })
    .where(eq(ciBuilds.id, id));
}

/**
 * Ci::ProcessPipelineService#update_retried: of the pipeline's latest statuses sharing a name, all but the newest
 * become retried (hidden from "latest" views).
 */
export async function retireOlderStatuses(tx: Db, pipelineId: number, name: string, newestId: number): Promise<void> {
  await tx
    .update(ciBuilds)
    .set({ retried: true, updatedAt: sql`now()` })
    .where(and(eq(ciBuilds.pipelineId, pipelineId), eq(ciBuilds.name, name), eq(ciBuilds.retried, false), ne(ciBuilds.id, newestId)));
}
