// Pipelines as GraphQL reads them: a keyset page per parent (a project, a commit, a merge request's source) for any
// number of parents in one statement, their counts in one grouped statement, and pipelines by iid.
import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { ciPipelines, type CiStatus, type PipelineRow } from '../../schema/index.ts';
import { rows } from '../lib/raw.ts';
import { keysetSql, rowNumber, singleParentLimit, type KeysetPage } from '../lib/window.ts';

/**
 * What a list of pipelines belongs to: a project (Project.pipelines), a commit of it (Commit.pipelines: project and
 * sha) or a merge request's source (MergeRequest.pipelines: project, sha and ref). One kind per batch.
 */
export type PipelineParentKind = 'project' | 'commit' | 'source';
export interface PipelineParent {
  projectId: number;
  sha: string | null;
  ref: string | null;
}
export interface PipelineListFilter {
  status?: CiStatus | undefined;
  ref?: string | undefined;
  sha?: string | undefined;
}

const parentColumns = (kind: PipelineParentKind) =>
  kind === 'project'
    ? [ciPipelines.projectId]
    : kind === 'commit'
      ? [ciPipelines.projectId, ciPipelines.sha]
      : [ciPipelines.projectId, ciPipelines.sha, ciPipelines.ref];
const parentValues = (kind: PipelineParentKind, p: PipelineParent): SQL[] =>
  [sql`${p.projectId}::int`, sql`${p.sha ?? ''}::text`, sql`${p.ref ?? ''}::text`].slice(0, parentColumns(kind).length);
/** The parent a row belongs to, as a string key (the same for a parent and for its rows). */
export const pipelineParentKey = (kind: PipelineParentKind, p: { projectId: number; sha: string | null; ref: string | null }) =>
  JSON.stringify([p.projectId, p.sha ?? '', p.ref ?? ''].slice(0, parentColumns(kind).length));

function parentsWhere(kind: PipelineParentKind, parents: readonly PipelineParent[], f: PipelineListFilter): SQL {
  const tuples = parents.map((p) => sql`(${sql.join(parentValues(kind, p), sql`, `)})`);
  return and(
    sql`(${sql.join(parentColumns(kind), sql`, `)}) IN (${sql.join(tuples, sql`, `)})`,
    f.status ? eq(ciPipelines.status, f.status) : undefined,
    f.ref !== undefined ? eq(ciPipelines.ref, f.ref) : undefined,
    f.sha !== undefined ? eq(ciPipelines.sha, f.sha) : undefined,
  )!;
}

/** A keyset page of pipelines (by id) for each parent, in one statement: one list per parent, in order. */
export async function pipelinePagesOf(
  db: Db,
  kind: PipelineParentKind,
  parents: readonly PipelineParent[],
  f: PipelineListFilter,
  keyset: KeysetPage,
): Promise<PipelineRow[][]> {
  if (!parents.length) return [];
  const page = keysetSql(ciPipelines.id, keyset);
  const w = singleParentLimit(
    db
      .select({ wid: sql<number>`${ciPipelines.id}`.as('wid'), rn: rowNumber(sql.join(parentColumns(kind), sql`, `), page.orderBy) })
      .from(ciPipelines)
      .where(and(parentsWhere(kind, parents, f), page.where))
      .$dynamic(),
    parents.length === 1,
    page,
  ).as('w');
  const found = await db
    .select(getTableColumns(ciPipelines))
    .from(ciPipelines)
    .innerJoin(w, eq(w.wid, ciPipelines.id))
    .where(sql`${w.rn} <= ${page.limit}`)
    .orderBy(w.rn);
  const groups = new Map<string, PipelineRow[]>();
  for (const row of found) {
    const key = pipelineParentKey(kind, row);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return parents.map((p) => groups.get(pipelineParentKey(kind, p)) ?? []);
}

/** How many pipelines each parent has under the filter (one grouped statement). */
export async function pipelineCountsOf(db: Db, kind: PipelineParentKind, parents: readonly PipelineParent[], f: PipelineListFilter): Promise<number[]> {
  if (!parents.length) return [];
  // min(): the grouped columns' own values (a project's parent key reads only its id).
  const found = await db
    .select({
      projectId: ciPipelines.projectId,
      sha: sql<string>`min(${ciPipelines.sha})`,
      ref: sql<string>`min(${ciPipelines.ref})`,
      n: sql<number>`count(*)`.mapWith(Number),
    })
    .from(ciPipelines)
    .where(parentsWhere(kind, parents, f))
    .groupBy(...parentColumns(kind));
  const counts = new Map(found.map((r) => [pipelineParentKey(kind, r), r.n]));
  return parents.map((p) => counts.get(pipelineParentKey(kind, p)) ?? 0);
}

/** Pipelines by (project, iid), in one statement. */
export async function pipelinesByIids(db: Db, keys: ReadonlyArray<{ projectId: number; iid: number }>): Promise<PipelineRow[]> {
  if (!keys.length) return [];
  const tuples = keys.map((k) => sql`(${k.projectId}::int, ${k.iid}::int)`);
  return db
    .select()
    .from(ciPipelines)
    .where(sql`(${ciPipelines.projectId}, ${ciPipelines.iid}) IN (${sql.join(tuples, sql`, `)})`);
}
