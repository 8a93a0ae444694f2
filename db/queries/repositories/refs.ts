// Repositories, object pools and refs. Object ids cross this module as git prints them (40 lowercase hex digits)
// and become bytes inside the statement (`decode(..., 'hex')`): every driver binds text alike, and no caller needs
// to know the storage form. The object and derived-row writes are in repositories/objects.ts, the reads in
// repositories/reads.ts.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { gitCommits, gitObjects, gitProjectObjects, gitRefs, gitTreeEntries, objectPools, repositories } from '../../schema/index.ts';
import { protectionRulesSql } from './protected-branches.ts';
import { tagProtectionRulesSql } from './protected-tags.ts';
import { rows } from '../lib/raw.ts';
import { fromHexText } from '../lib/hex.ts';

/** An object id parameter (40 hex digits) as bytea. */
export const oidParam = (oid: string): SQL => sql`decode(${oid}, 'hex')`;

/** bytea as bytes, whichever driver read it (bytes, or the `\x…` hex text a driver may leave unparsed). */
export function toBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return Uint8Array.from(value);
  if (typeof value !== 'string') throw new Error(`not a bytea value: ${typeof value}`);
  return fromHexText(value, value.startsWith('\\x') ? 2 : 0);
}

/** Creates the repository of a new project with a pool of its own, in one statement; answers `{ pool_id }`. */
const createRepositorySql = (projectId: number) => sql`WITH pool AS (INSERT INTO ${objectPools} DEFAULT VALUES RETURNING id)
  INSERT INTO ${repositories} (project_id, pool_id) SELECT ${projectId}, id FROM pool RETURNING pool_id`;

/** The creation as a statement of the project's creating batch. */
export const createRepositoryQuery = (db: Db, projectId: number) => db.execute(createRepositorySql(projectId));

/** Creates the repository of a project; returns its (new) pool's id. */
export async function createRepository(db: Db, projectId: number): Promise<number> {
  const [row] = await rows<{ pool_id: number }>(db, createRepositorySql(projectId));
  return Number(row!.pool_id);
}

/** A protected branch as the push check reads it (access levels: Gitlab::Access numbers). */
export interface ProtectionRule {
  name: string;
  push: number;
  merge: number;
}

/** A protected tag as the tag checks read it (`create`: the Gitlab::Access number allowed to create it). */
export interface TagProtectionRule {
  name: string;
  create: number;
}

export interface RepositoryInfo {
  poolId: number;
  defaultBranch: string | null;
  /** The project's protected branches, read with the row (a write's permission check needs them anyway). */
  protectedBranches: ProtectionRule[];
  /** The project's protected tags, read with the row likewise. */
  protectedTags: TagProtectionRule[];
}

export async function findRepository(db: Db, projectId: number): Promise<RepositoryInfo | undefined> {
  const [row] = await findRepositoriesOfProjects(db, [projectId]);
  return row;
}

/**
 * The repositories of many projects in one statement (e.g. the MRs of a page under many projects: who may merge,
 * push to or remove their branches); projects without a repository row are absent.
 */
export async function findRepositoriesOfProjects(db: Db, projectIds: readonly number[]): Promise<Array<RepositoryInfo & { projectId: number }>> {
  if (!projectIds.length) return [];
  const found = await db
    .select({
      projectId: repositories.projectId,
      poolId: repositories.poolId,
      defaultBranch: repositories.defaultBranch,
      protectedBranches: sql<ProtectionRule[] | string>`${protectionRulesSql(sql`${repositories.projectId}`)}`,
      protectedTags: sql<TagProtectionRule[] | string>`${tagProtectionRulesSql(sql`${repositories.projectId}`)}`,
    })
    .from(repositories)
    .where(inArray(repositories.projectId, [...new Set(projectIds)]));
  // json arrives parsed from every driver we use; a driver leaving it as text is parsed here rather than trusted.
  const parse = <T>(v: T[] | string): T[] => (typeof v === 'string' ? (JSON.parse(v) as T[]) : v);
  return found.map((r) => ({ ...r, protectedBranches: parse(r.protectedBranches), protectedTags: parse(r.protectedTags) }));
}

export const setDefaultBranchQuery = (db: Db, projectId: number, branch: string | null) =>
  db.update(repositories).set({ defaultBranch: branch }).where(eq(repositories.projectId, projectId));

/**
 * Deletes the given pools (every pool, without ids) that no repository uses any more, their objects and derived
 * rows with them (cascade): what project deletion runs after the project's rows have gone, so objects a fork still
 * reaches are never removed. A fork joining the pool at the same moment is safe: its repository row's foreign key
 * (no cascade) makes one of the two statements fail rather than leave a repository without its pool.
 */
export async function deleteUnusedPools(db: Db, poolIds?: readonly number[]): Promise<number[]> {
  if (poolIds && !poolIds.length) return [];
  const only = poolIds
    ? sql`AND p.id IN (${sql.join(
        poolIds.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  const deleted = await rows<{ id: number }>(
    db,
    sql`DELETE FROM ${objectPools} p WHERE NOT EXISTS (SELECT 1 FROM ${repositories} r WHERE r.pool_id = p.id) ${only} RETURNING p.id`,
  );
  return deleted.map((r) => Number(r.id));
}

export interface RefRow {
  name: string;
  oid: string;
}

/** The project's refs under `prefix` (`refs/heads/`, `refs/tags/`, or '' for all), by name. */
export async function listRefs(db: Db, projectId: number, prefix = ''): Promise<RefRow[]> {
  return rows<RefRow>(
    db,
    sql`SELECT name, encode(oid, 'hex') AS oid FROM ${gitRefs}
        WHERE project_id = ${projectId} AND left(name, ${prefix.length}) = ${prefix} ORDER BY name`,
  );
}

export async function findRef(db: Db, projectId: number, name: string): Promise<string | undefined> {
  const [row] = await db
    .select({ oid: sql<string>`encode(${gitRefs.oid}, 'hex')` })
    .from(gitRefs)
    .where(and(eq(gitRefs.projectId, projectId), eq(gitRefs.name, name)));
  return row?.oid;
}

/** Several refs of the project by full name, in one statement: the found ones, name to object id. */
export async function findRefs(db: Db, projectId: number, names: readonly string[]): Promise<Map<string, string>> {
  if (!names.length) return new Map();
  const found = await db
    .select({ name: gitRefs.name, oid: sql<string>`encode(${gitRefs.oid}, 'hex')` })
    .from(gitRefs)
    .where(and(eq(gitRefs.projectId, projectId), inArray(gitRefs.name, [...names])));
  return new Map(found.map((r) => [r.name, r.oid]));
}

/** SQLSTATE of git_ref_conflict() (migration 0006): a ref was not where a compare-and-swap expected it. */
export const REF_CONFLICT_SQLSTATE = 'GL409';

/** Whether `error` (or an error it wraps: drizzle wraps the driver's) is a failed ref compare-and-swap. */
export function isRefConflict(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === REF_CONFLICT_SQLSTATE) return true;
  }
  return false;
}

export interface RefUpdate {
  projectId: number;
  /** Full name: refs/heads/main, refs/tags/v1. */
  name: string;
  /** Where the ref must be now: null when it must not exist (creation). */
  old: string | null;
  /** Where it goes: null deletes it. */
  new: string | null;
}

/**
 * CTE `joined(oid)`: the objects reachable from `start` that are not yet members of the project's readable set
 * (git_project_objects), found by walking from `start` and stopping at members: the set is closed under
 * reachability, so a member's history is complete and the walk costs what it adds (a commit's new trees and blobs,
 * a fork's branch the first time a merge request brings it in), never the history. Submodule entries (mode 160000)
 * name commits of another repository and are not followed. `start` is a bytea expression.
 */
function joinedCte(projectId: number, start: SQL): SQL {
  const member = (oid: SQL) => sql`EXISTS (SELECT 1 FROM ${gitProjectObjects} m WHERE m.project_id = ${projectId} AND m.oid = ${oid})`;
  return sql`pool AS (SELECT pool_id FROM ${repositories} WHERE project_id = ${projectId}),
    joined(oid) AS (
      SELECT s.oid FROM (SELECT ${start} AS oid) s WHERE s.oid IS NOT NULL AND NOT ${member(sql`s.oid`)}
      UNION
      SELECT ch.oid FROM joined w CROSS JOIN pool CROSS JOIN LATERAL (
        SELECT unnest(c.parent_oids || c.tree_oid) FROM ${gitCommits} c WHERE c.pool_id = pool.pool_id AND c.oid = w.oid
        UNION ALL
        SELECT e.oid FROM ${gitTreeEntries} e WHERE e.pool_id = pool.pool_id AND e.tree_oid = w.oid AND e.mode <> '160000'
        UNION ALL
        -- An annotated tag names its target on its first line (object <40 hex digits>).
        SELECT decode(convert_from(substring(o.data FROM 8 FOR 40), 'SQL_ASCII'), 'hex') FROM ${gitObjects} o
          WHERE o.pool_id = pool.pool_id AND o.oid = w.oid AND o.type = 4
      ) ch(oid)
      WHERE NOT ${member(sql`ch.oid`)}
    ),
    -- In id order: two writes adding overlapping objects (the same blob on two branches) take their key locks in
    -- one order and cannot deadlock.
    joined_rows AS (INSERT INTO ${gitProjectObjects} (project_id, oid) SELECT ${projectId}, oid FROM joined ORDER BY oid ON CONFLICT DO NOTHING)`;
}

/**
 * A ref compare-and-swap as ONE statement for the end of a write's batch: it creates (old null), moves (old to new)
 * or deletes (new null) the ref only if it is where `old` says, and otherwise raises REF_CONFLICT_SQLSTATE, so the
 * batch (the objects and derived rows written with it too) rolls back. Racing writers are serialized by the row
 * (or, for a creation, the key) lock: under READ COMMITTED (the default of Neon's HTTP transactions, PGlite and
 * PostgreSQL; a stricter level would fail the loser with 40001 instead) the loser re-reads the committed ref, finds
 * it moved, and fails. The same statement makes everything the new target reaches readable through the project
 * (joinedCte): every ref a project has is written here, so no ref can point outside its readable set.
 */
export function updateRefQuery(db: Db, u: RefUpdate) {
  if (u.old === null && u.new === null) throw new Error('a ref update needs an old or a new object id');
  const change =
    u.old === null
      ? sql`INSERT INTO ${gitRefs} (project_id, name, oid) VALUES (${u.projectId}, ${u.name}, ${oidParam(u.new!)}) ON CONFLICT DO NOTHING RETURNING 1`
      : u.new === null
        ? sql`DELETE FROM ${gitRefs} WHERE project_id = ${u.projectId} AND name = ${u.name} AND oid = ${oidParam(u.old)} RETURNING 1`
        : sql`UPDATE ${gitRefs} SET oid = ${oidParam(u.new)} WHERE project_id = ${u.projectId} AND name = ${u.name} AND oid = ${oidParam(u.old)} RETURNING 1`;
  return db.execute(sql`WITH RECURSIVE changed AS (${change})${u.new === null ? sql`` : sql`, ${joinedCte(u.projectId, oidParam(u.new))}`}
    SELECT CASE WHEN EXISTS (SELECT 1 FROM changed) THEN 1 ELSE git_ref_conflict(${u.name}) END AS ok`);
}

/**
 * Points a merge request's `refs/merge-requests/<iid>/head` in its target project at the source branch's head,
 * whatever it pointed at before (GitLab fetches the source branch there on every refresh), making the source's
 * commits readable through the target as GitLab's are: its diffs, diff notes and commits are read there. `iid` may
 * be SQL (a creating batch knows it only inside the batch). One statement.
 */
export function setMergeRequestRefQuery(db: Db, projectId: number, iid: number | SQL, head: string) {
  const name = sql`'refs/merge-requests/' || (${iid})::int::text || '/head'`;
  return db.execute(sql`WITH RECURSIVE changed AS (
      INSERT INTO ${gitRefs} (project_id, name, oid) VALUES (${projectId}, ${name}, ${oidParam(head)})
      ON CONFLICT (project_id, name) DO UPDATE SET oid = excluded.oid RETURNING 1
    ), ${joinedCte(projectId, oidParam(head))}
    SELECT 1 AS ok`);
}
