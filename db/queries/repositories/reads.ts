// Repository reads, ONE statement each whatever the depth or the history's length: a revision is resolved, a path
// walked (WITH RECURSIVE over git_tree_entries), a tree listed, a log page ordered, all inside the same statement.
// Each read takes the project and a revision as the API does (a branch, a tag, a full ref, HEAD, a full or
// abbreviated commit id), so a file at depth 10 costs one query after the project's.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { gitCommitPaths, gitCommits, gitObjects, gitRefs, gitTreeEntries, repositories } from '../../schema/index.ts';
import { rows } from '../lib/raw.ts';
import { containsPattern } from '../lib/search.ts';
import { fromHexText } from '../lib/hex.ts';
import { isTreeModeSql } from './objects.ts';
import { commitColumns, joinPath, pathSegments, readableObjectSql, revisionCtes, toCommit, walkCte, type CommitInfo, type CommitSqlRow } from './sql.ts';
import { oidParam, toBytes } from './refs.ts';

/** The commit `rev` names in the project's repository (undefined: no such branch, tag or commit). */
export async function resolveRevision(db: Db, projectId: number, rev: string): Promise<CommitInfo | undefined> {
  const [row] = await rows<CommitSqlRow>(
    db,
    sql`WITH RECURSIVE ${revisionCtes(projectId, rev)}
      SELECT ${commitColumns} FROM target t JOIN ${gitCommits} c ON c.pool_id = t.pool_id AND c.oid = t.commit_oid`,
  );
  return row && toCommit(row);
}

/** The commit `rev` names and its object's body (for its signature), or undefined: one statement. */
export async function resolveCommitObject(db: Db, projectId: number, rev: string): Promise<{ oid: string; data: Uint8Array } | undefined> {
  const [row] = await rows<{ oid: string; data: string }>(
    db,
    sql`WITH RECURSIVE ${revisionCtes(projectId, rev)}
      SELECT encode(t.commit_oid, 'hex') AS oid, encode(o.data, 'hex') AS data
      FROM target t JOIN ${gitObjects} o ON o.pool_id = t.pool_id AND o.oid = t.commit_oid`,
  );
  return row && { oid: row.oid, data: fromHexText(row.data) };
}

export interface PathObject {
  /** The commit the revision resolved to. */
  commitOid: string;
  mode: string;
  oid: string;
  /** git's type number (GIT_OBJECT_TYPES); null for a submodule's commit, which is not in the pool. */
  type: number | null;
  size: number | null;
  /** The body, unless `withData` was false (or the object is not in the pool). */
  data: Uint8Array | null;
}

/**
 * The object (blob, tree, or a submodule's entry) at `path` under the commit `rev` names: undefined when the
 * revision does not resolve, `{ commitOid }` alone when the path is not there.
 */
export async function readPath(
  db: Db,
  a: { projectId: number; rev: string; path: string | Uint8Array; withData?: boolean },
): Promise<PathObject | { commitOid: string; oid?: undefined } | undefined> {
  const segments = pathSegments(a.path);
  const [row] = await rows<{ commit_oid: string; mode: string | null; oid: string | null; type: number | null; size: number | null; data: unknown }>(
    db,
    sql`WITH RECURSIVE ${revisionCtes(a.projectId, a.rev)}, ${walkCte(segments)}
      SELECT encode(t.commit_oid, 'hex') AS commit_oid, w.mode, encode(w.oid, 'hex') AS oid, o.type, o.size,
        ${a.withData === false ? sql`NULL::bytea` : sql`o.data`} AS data
      FROM target t LEFT JOIN walk w ON w.depth = ${segments.length}::int
        LEFT JOIN ${gitObjects} o ON o.pool_id = t.pool_id AND o.oid = w.oid`,
  );
  if (!row) return undefined;
  if (row.oid === null || row.mode === null) return { commitOid: row.commit_oid };
  return {
    commitOid: row.commit_oid,
    mode: row.mode,
    oid: row.oid,
    type: row.type === null ? null : Number(row.type),
    size: row.size === null ? null : Number(row.size),
    data: row.data === null || row.data === undefined ? null : toBytes(row.data),
  };
}

export interface StoredObject {
  oid: string;
  /** git's type number (GIT_OBJECT_TYPES). */
  type: number;
  size: number;
  data: Uint8Array;
}

/**
 * Objects by id (`repository/blobs/:sha`, writing a repository out, the merge engine's blobs), among those the
 * project may read (git_project_objects): the pool is the fork network's, but an id another project alone reaches
 * is not found here, exactly as one that does not exist.
 */
export async function readObjects(db: Db, projectId: number, oids: readonly string[]): Promise<StoredObject[]> {
  if (!oids.length) return [];
  // The bodies as hex text, decoded here: several times faster than the drivers' bytea parsing (lib/hex.ts).
  const found = await rows<{ oid: string; type: number; size: number; data: string }>(
    db,
    sql`SELECT encode(o.oid, 'hex') AS oid, o.type, o.size, encode(o.data, 'hex') AS data FROM ${repositories} r
      JOIN ${gitObjects} o ON o.pool_id = r.pool_id AND o.oid IN (${sql.join(oids.map(oidParam), sql`, `)})
      WHERE r.project_id = ${projectId} AND ${readableObjectSql(projectId, sql`o.oid`)}`,
  );
  return found.map((r) => ({ oid: r.oid, type: Number(r.type), size: Number(r.size), data: fromHexText(r.data) }));
}

/** The blobs among `oids` of at most `maxSize` bytes, with their bodies (LFS pointers are small files). */
export async function smallBlobs(db: Db, projectId: number, oids: readonly string[], maxSize: number): Promise<Array<{ oid: string; data: Uint8Array }>> {
  if (!oids.length) return [];
  const found = await rows<{ oid: string; data: unknown }>(
    db,
    sql`SELECT encode(o.oid, 'hex') AS oid, o.data FROM ${repositories} r
      JOIN ${gitObjects} o ON o.pool_id = r.pool_id AND o.oid IN (${sql.join(oids.map(oidParam), sql`, `)}) AND o.type = 3 AND o.size <= ${maxSize}::int
      WHERE r.project_id = ${projectId} AND ${readableObjectSql(projectId, sql`o.oid`)}`,
  );
  return found.map((r) => ({ oid: r.oid, data: toBytes(r.data) }));
}

export interface TreeEntryInfo {
  /** From the repository's root, as bytes (a name need not be UTF-8). */
  path: Uint8Array;
  name: Uint8Array;
  mode: string;
  oid: string;
  type: 'tree' | 'blob' | 'commit';
}

export interface TreePage {
  commitOid: string;
  /** Every entry the listing has (not only this page's). */
  total: number;
  entries: TreeEntryInfo[];
}

/**
 * A page of the tree at `path` under the commit `rev` names, with everything below it when `recursive`, in
 * GitLab's order (Tree#sorted_entries: trees, then blobs, then submodules, each in git's order: a depth-first walk
 * with siblings sorted as git sorts them). Undefined when the revision does not resolve, `{ commitOid }` alone when
 * `path` is not a tree there.
 */
export async function treePage(
  db: Db,
  a: { projectId: number; rev: string; path: string | Uint8Array; recursive: boolean; limit: number; offset: number },
): Promise<TreePage | { commitOid: string; entries?: undefined } | undefined> {
  const segments = pathSegments(a.path);
  const prefix = segments.length ? sql`${joinPath(segments)}::bytea || decode('2f', 'hex') || ` : sql``;
  const below = a.recursive
    ? sql`UNION ALL SELECT l.path || decode('2f', 'hex') || e.name, e.name, e.mode, e.oid FROM listing l JOIN target t ON true
        JOIN ${gitTreeEntries} e ON e.pool_id = t.pool_id AND e.tree_oid = l.oid WHERE ${isTreeModeSql(sql`l.mode`)}`
    : sql``;
  const rowsOf = await rows<{
    commit_oid: string;
    found: boolean;
    total: number | string;
    path: unknown;
    name: unknown;
    mode: string | null;
    oid: string | null;
    kind: number | null;
  }>(
    db,
    sql`WITH RECURSIVE ${revisionCtes(a.projectId, a.rev)}, ${walkCte(segments)},
      dir AS (SELECT oid FROM walk WHERE depth = ${segments.length}::int AND ${isTreeModeSql(sql`mode`)}),
      listing(path, name, mode, oid) AS (
        SELECT ${prefix}e.name, e.name, e.mode, e.oid FROM dir JOIN target t ON true
          JOIN ${gitTreeEntries} e ON e.pool_id = t.pool_id AND e.tree_oid = dir.oid
        ${below}
      ),
      sorted AS (
        SELECT path, name, mode, oid,
          CASE WHEN ${isTreeModeSql(sql`mode`)} THEN 0 WHEN ltrim(mode, '0') = '160000' THEN 2 ELSE 1 END AS kind,
          CASE WHEN ${isTreeModeSql(sql`mode`)} THEN path || decode('2f', 'hex') ELSE path END AS sort_key
        FROM listing
      )
      SELECT encode(t.commit_oid, 'hex') AS commit_oid, EXISTS (SELECT 1 FROM dir) AS found, (SELECT count(*) FROM sorted) AS total, p.path, p.name, p.mode, p.oid, p.kind
      FROM target t LEFT JOIN LATERAL (
        SELECT path, name, mode, encode(oid, 'hex') AS oid, kind, sort_key FROM sorted
        ORDER BY kind, sort_key LIMIT ${a.limit}::int OFFSET ${a.offset}::int
      ) p ON true
      ORDER BY p.kind, p.sort_key`,
  );
  const first = rowsOf[0];
  if (!first) return undefined;
  if (!first.found) return { commitOid: first.commit_oid };
  const entries = rowsOf
    .filter((r) => r.oid !== null)
    .map((r) => ({ path: toBytes(r.path), name: toBytes(r.name), mode: r.mode!, oid: r.oid!, type: (['tree', 'blob', 'commit'] as const)[Number(r.kind)]! }));
  return { commitOid: first.commit_oid, total: Number(first.total), entries };
}

export interface LogOptions {
  projectId: number;
  /** The revision to walk from; null walks from every ref (`git log --all`). */
  rev: string | null;
  /** Only commits that changed this file, or anything below this directory (`git log -- path`). */
  path?: string | Uint8Array | undefined;
  /** Follow first parents only (`git log --first-parent`). */
  firstParent?: boolean | undefined;
  /** Only commits committed at or after / at or before (`git log --since/--until`: the committer date). */
  since?: Date | undefined;
  until?: Date | undefined;
  /** Only commits whose message holds this text, whatever the case (`git log --grep -i`, taken literally). */
  grep?: string | undefined;
  limit: number;
  offset: number;
}

/** `git log -- path`, --since, --until, --grep as a condition on `c`, a row of git_commits. */
export function logFilter(a: Pick<LogOptions, 'path' | 'since' | 'until' | 'grep'>): SQL {
  let where = sql`true`;
  if (a.path !== undefined) {
    const path = joinPath(pathSegments(a.path));
    // The path itself or anything below it: the byte range path/ .. path0 ('0' follows '/').
    where = sql`${where} AND EXISTS (SELECT 1 FROM ${gitCommitPaths} cp WHERE cp.pool_id = c.pool_id AND cp.commit_oid = c.oid
      AND (cp.path = ${path}::bytea OR (cp.path >= ${path}::bytea || decode('2f', 'hex') AND cp.path < ${path}::bytea || decode('30', 'hex'))))`;
  }
  if (a.since) where = sql`${where} AND c.committed_at >= ${a.since.toISOString()}::timestamptz`;
  if (a.until) where = sql`${where} AND c.committed_at <= ${a.until.toISOString()}::timestamptz`;
  if (a.grep) where = sql`${where} AND c.message ILIKE ${containsPattern(a.grep)}`;
  return where;
}

/**
 * `repo`, `target` (pool_id, commit_oid: null for --all) and `ancestors(oid, parents)`: every commit reachable from
 * the revision, or from every ref (annotated tags peeled) for --all. Each step looks its commits up by primary key
 * in a scalar subquery: a join here is planned once for a small work table and may scan git_commits at every step
 * (seconds over a long history).
 */
export function logCtes(a: Pick<LogOptions, 'projectId' | 'rev'>, parents: SQL): SQL {
  const step = sql`SELECT p.oid, (SELECT ${parents} FROM ${gitCommits} c WHERE c.pool_id = (SELECT pool_id FROM repo) AND c.oid = p.oid)
        FROM ancestors a CROSS JOIN LATERAL unnest(a.parents) AS p(oid)`;
  if (a.rev !== null) {
    return sql`${revisionCtes(a.projectId, a.rev)},
      ancestors(oid, parents) AS (
        SELECT c.oid, ${parents} FROM target t JOIN ${gitCommits} c ON c.pool_id = t.pool_id AND c.oid = t.commit_oid
        UNION
        ${step}
      )`;
  }
  return sql`repo AS (SELECT pool_id FROM ${repositories} WHERE project_id = ${a.projectId}),
    target AS (SELECT pool_id, NULL::bytea AS commit_oid FROM repo),
    tips(oid, depth) AS (
      SELECT r.oid, 0 FROM ${gitRefs} r WHERE r.project_id = ${a.projectId}
      UNION ALL
      -- An annotated tag's body starts with "object <40 hex digits>\\n": follow it.
      SELECT decode(convert_from(substring(o.data FROM 8 FOR 40), 'SQL_ASCII'), 'hex'), t.depth + 1
      FROM tips t JOIN repo ON true JOIN ${gitObjects} o ON o.pool_id = repo.pool_id AND o.oid = t.oid AND o.type = 4
      WHERE t.depth < 10
    ),
    ancestors(oid, parents) AS (
      SELECT c.oid, ${parents} FROM tips p JOIN repo ON true JOIN ${gitCommits} c ON c.pool_id = repo.pool_id AND c.oid = p.oid
      UNION
      ${step}
    )`;
}

/**
 * A page of `git log rev [-- path]`: the commits reachable from the one `rev` names, newest committed first (then
 * highest generation: a child before its parent committed in the same second), undefined when the revision does not
 * resolve. With a path, a commit is listed when its changes against its first parent touch the path (merges count
 * their first parent's side only: simpler than git's history simplification, and the same on linear history).
 */
export async function logPage(db: Db, a: LogOptions): Promise<{ commitOid: string | null; commits: CommitInfo[]; total: number | undefined } | undefined> {
  const parents = a.firstParent ? sql`c.parent_oids[1:1]` : sql`c.parent_oids`;
  const found = await rows<CommitSqlRow & { head: string | null; total: number | string | null }>(
    db,
    sql`WITH RECURSIVE ${logCtes(a, parents)}
      SELECT encode(t.commit_oid, 'hex') AS head, page.* FROM target t LEFT JOIN LATERAL (
        -- The page is cut on the sort keys alone (the total counted before LIMIT, for the pagination headers, in the
        -- same statement); only its own rows are then read out whole: a deep page does not format every row above it.
        SELECT ${commitColumns}, p.order_at, p.total FROM (
          SELECT c.oid, c.committed_at AS order_at, count(*) OVER () AS total FROM ancestors a JOIN ${gitCommits} c ON c.pool_id = t.pool_id AND c.oid = a.oid
          WHERE ${logFilter(a)}
          ORDER BY c.committed_at DESC, c.generation DESC, c.oid LIMIT ${a.limit}::int OFFSET ${a.offset}::int
        ) p JOIN ${gitCommits} c ON c.pool_id = t.pool_id AND c.oid = p.oid
      ) page ON true
      ORDER BY page.order_at DESC, page.generation DESC, page.oid`,
  );
  const first = found[0];
  if (!first) return undefined;
  // An empty page (past the end) cannot tell the total: undefined.
  return { commitOid: first.head, commits: found.filter((r) => r.oid !== null).map(toCommit), total: first.total === null ? undefined : Number(first.total) };
}

export interface RefWithCommit {
  name: string;
  /** What the ref points at: a commit, or an annotated tag object. */
  oid: string;
  /** The commit it names (an annotated tag peeled once); null when that is not a commit of the pool. */
  commit: CommitInfo | null;
}

/** The project's refs under `prefix` (`refs/heads/`, `refs/tags/`) with their commits, by name, in one statement. */
export async function listRefCommits(db: Db, projectId: number, prefix: string): Promise<RefWithCommit[]> {
  const found = await rows<CommitSqlRow & { ref_name: string; ref_oid: string }>(
    db,
    sql`SELECT r.name AS ref_name, encode(r.oid, 'hex') AS ref_oid, ${commitColumns}
      FROM ${repositories} repo JOIN ${gitRefs} r ON r.project_id = repo.project_id AND left(r.name, ${prefix.length}) = ${prefix}
      LEFT JOIN ${gitObjects} tag ON tag.pool_id = repo.pool_id AND tag.oid = r.oid AND tag.type = 4
      LEFT JOIN ${gitCommits} c ON c.pool_id = repo.pool_id
        AND c.oid = COALESCE(decode(convert_from(substring(tag.data FROM 8 FOR 40), 'SQL_ASCII'), 'hex'), r.oid)
      WHERE repo.project_id = ${projectId}
      ORDER BY r.name`,
  );
  return found.map((r) => ({ name: r.ref_name, oid: r.ref_oid, commit: r.oid === null ? null : toCommit(r) }));
}

/**
 * The first `maxBytes` bytes of the blob at `path` (`.gitmodules`, a CI configuration such as `ci/main.yml`) in each
 * (project, commit)'s tree, one statement for any number of commits: the path is walked segment by segment down the
 * trees. A pair without such a blob, or whose commit the project may not read (git_project_objects), is absent.
 */
export async function blobsAtPaths(
  db: Db,
  pairs: ReadonlyArray<{ projectId: number; commitOid: string; path: string }>,
  maxBytes: number,
): Promise<Array<{ projectId: number; commitOid: string; data: Uint8Array }>> {
  if (!pairs.length) return [];
  const keys = sql.join(
    pairs.map((p) => sql`(${p.projectId}::int, ${oidParam(p.commitOid)}, array_remove(string_to_array(${p.path}::text, '/'), ''))`),
    sql`, `,
  );
  const found = await rows<{ project_id: number; commit_oid: string; data: unknown }>(
    db,
    sql`WITH RECURSIVE k(project_id, oid, segments) AS (VALUES ${keys}),
      walk(project_id, oid, pool_id, segments, depth, entry_oid) AS (
        SELECT k.project_id, k.oid, r.pool_id, k.segments, 0, c.tree_oid
        FROM k JOIN ${repositories} r ON r.project_id = k.project_id
          JOIN ${gitCommits} c ON c.pool_id = r.pool_id AND c.oid = k.oid
        WHERE ${readableObjectSql(sql`k.project_id`, sql`k.oid`)}
        UNION ALL
        SELECT w.project_id, w.oid, w.pool_id, w.segments, w.depth + 1, e.oid
        FROM walk w JOIN ${gitTreeEntries} e ON e.pool_id = w.pool_id AND e.tree_oid = w.entry_oid
          AND e.name = convert_to(w.segments[w.depth + 1], 'UTF8')
        WHERE w.depth < cardinality(w.segments)
      )
      SELECT w.project_id, encode(w.oid, 'hex') AS commit_oid, substring(o.data FROM 1 FOR ${maxBytes}::int) AS data
      FROM walk w JOIN ${gitObjects} o ON o.pool_id = w.pool_id AND o.oid = w.entry_oid AND o.type = 3
      WHERE w.depth = cardinality(w.segments) AND w.depth > 0`,
  );
  return found.map((r) => ({ projectId: Number(r.project_id), commitOid: r.commit_oid, data: toBytes(r.data) }));
}
