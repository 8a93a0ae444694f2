// The read behind `git blame` (GitLab 13.6 files.rb `blame`), ONE statement whatever the history's length: the
// revision is resolved, the file found under it, and the history of that one path walked, returning only the
// commits where the file changed, with the blob each one holds (each distinct blob once). The line attribution
// itself is pure TypeScript (functions/repositories/blame/blame.ts).
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { gitCommitPaths, gitCommits, gitObjects, gitTreeEntries } from '../../schema/index.ts';
import { rows } from '../lib/raw.ts';
import { isTreeModeSql } from './objects.ts';
import { commitColumns, joinPath, pathSegments, revisionCtes, toCommit, type CommitInfo, type CommitSqlRow } from './sql.ts';
import { toBytes } from './refs.ts';

/**
 * A commit where the file differs from its first parent (or a root commit holding it): a place where lines may be
 * introduced. `from` lists who hands lines down to it: a node and its parent's number (1-based), `null` for the
 * commit the revision names (when the file is unchanged there, blame starts at the node it is unchanged from).
 */
export interface BlameNodeRow {
  commit: CommitInfo;
  blob: string;
  from: { node: string | null; parent: number }[];
}

export interface BlameHistory {
  commitOid: string;
  /** The file at the path under the commit (not a directory or a submodule): undefined when there is none. */
  entry?: { oid: string; type: number | null };
  nodes: BlameNodeRow[];
  /** Each distinct blob of the nodes, once. */
  blobs: Map<string, Uint8Array>;
}

/**
 * The id of the file (a blob or a symlink; not a directory or a submodule) at `segments` below the tree `tree`
 * evaluates to: nested scalar subqueries, each a lookup by the whole primary key (pool, tree, name) of the level
 * above's answer. A flat join of the levels lets the planner start from the last name alone, scanning every entry
 * of that name in the pool at every step of the walk: with stale statistics it did, 80 s for 120 commits.
 */
function fileAt(tree: SQL, segments: readonly Uint8Array[]): SQL {
  if (!segments.length) return sql`NULL::bytea`;
  const pool = sql`(SELECT pool_id FROM repo)`;
  let dir = tree;
  for (const s of segments.slice(0, -1)) {
    dir = sql`(SELECT e.oid FROM ${gitTreeEntries} e WHERE e.pool_id = ${pool} AND e.tree_oid = ${dir} AND e.name = ${s}::bytea)`;
  }
  return sql`(SELECT e.oid FROM ${gitTreeEntries} e WHERE e.pool_id = ${pool} AND e.tree_oid = ${dir} AND e.name = ${segments.at(-1)!}::bytea
    AND NOT ${isTreeModeSql(sql`e.mode`)} AND ltrim(e.mode, '0') <> '160000')`;
}

/**
 * The file `path` under the commit `rev` names, and its history as `git blame` walks it: from a commit where the
 * file is unchanged from its first parent, blame passes whole to that parent (so only first parents are followed);
 * from one where it changed, to each parent holding the file, or to the first parent holding the very same blob
 * alone. Undefined when the revision does not resolve.
 */
export async function blameHistory(db: Db, a: { projectId: number; rev: string; path: string }): Promise<BlameHistory | undefined> {
  const segments = pathSegments(a.path);
  const path = joinPath(segments);
  const pool = sql`(SELECT pool_id FROM repo)`;
  // The commits that changed the path, found once (one index range) and probed by hash at each step of the walk.
  const touched = (oid: SQL) => sql`(${oid} IN (SELECT commit_oid FROM touching))`;
  const treeOf = (oid: SQL) => sql`(SELECT c.tree_oid FROM ${gitCommits} c WHERE c.pool_id = ${pool} AND c.oid = ${oid})`;
  const parentsOf = (oid: SQL) => sql`(SELECT c.parent_oids FROM ${gitCommits} c WHERE c.pool_id = ${pool} AND c.oid = ${oid})`;
  const found = await rows<
    CommitSqlRow & { head: string; entry_oid: string | null; entry_type: number | null; blob: string | null; blob_data: unknown; sources: string[] | null }
  >(
    db,
    sql`WITH RECURSIVE ${revisionCtes(a.projectId, a.rev)},
      head AS (SELECT ${fileAt(sql`t.tree_oid`, segments)} AS oid FROM target t),
      touching AS MATERIALIZED (SELECT cp.commit_oid FROM ${gitCommitPaths} cp WHERE cp.pool_id = ${pool} AND cp.path = ${path}::bytea),
      -- Each row: a commit holding the file, its blob, whether the file changed there, and the nearest changed
      -- descendant (src) with the number of its parent this line of descent went through (idx).
      walk(oid, blob, touched, parents, src, idx) AS (
        SELECT t.commit_oid, h.oid, ${touched(sql`t.commit_oid`)}, ${parentsOf(sql`t.commit_oid`)}, NULL::bytea, 0::bigint
        FROM target t JOIN head h ON h.oid IS NOT NULL
        UNION
        SELECT n.oid, n.blob, ${touched(sql`n.oid`)}, ${parentsOf(sql`n.oid`)},
          CASE WHEN w.touched THEN w.oid ELSE w.src END, CASE WHEN w.touched THEN n.idx ELSE w.idx END
        FROM walk w CROSS JOIN LATERAL (
          SELECT w.parents[1] AS oid, w.blob, 1::bigint AS idx WHERE NOT w.touched AND cardinality(w.parents) > 0
          UNION ALL
          SELECT q.p, q.pb, q.i FROM (
            SELECT u.p, u.i, u.pb, min(u.i) FILTER (WHERE u.pb = w.blob) OVER () AS same
            FROM (SELECT p, i, ${fileAt(treeOf(sql`p`), segments)} AS pb FROM unnest(w.parents) WITH ORDINALITY AS x(p, i)) u
            WHERE w.touched
          ) q
          WHERE q.pb IS NOT NULL AND (q.same IS NULL OR q.i = q.same)
        ) n
      ),
      nodes AS (
        SELECT w.oid, w.blob, array_agg(COALESCE(encode(w.src, 'hex'), '') || ':' || w.idx) AS sources
        FROM walk w WHERE w.touched GROUP BY w.oid, w.blob
      )
      SELECT encode(t.commit_oid, 'hex') AS head, encode(h.oid, 'hex') AS entry_oid, ho.type AS entry_type, page.*
      FROM target t CROSS JOIN head h
        LEFT JOIN ${gitObjects} ho ON ho.pool_id = t.pool_id AND ho.oid = h.oid
        LEFT JOIN LATERAL (
          SELECT ${commitColumns}, encode(n.blob, 'hex') AS blob, n.sources,
            CASE WHEN row_number() OVER (PARTITION BY n.blob ORDER BY n.oid) = 1 THEN o.data END AS blob_data
          FROM nodes n JOIN ${gitCommits} c ON c.pool_id = t.pool_id AND c.oid = n.oid
            LEFT JOIN ${gitObjects} o ON o.pool_id = t.pool_id AND o.oid = n.blob
        ) page ON true`,
  );
  const first = found[0];
  if (!first) return undefined;
  const history: BlameHistory = { commitOid: first.head, nodes: [], blobs: new Map() };
  if (first.entry_oid !== null) history.entry = { oid: first.entry_oid, type: first.entry_type === null ? null : Number(first.entry_type) };
  for (const r of found) {
    if (r.oid === null || r.blob === null) continue;
    if (r.blob_data !== null && r.blob_data !== undefined) history.blobs.set(r.blob, toBytes(r.blob_data));
    const from = (r.sources ?? []).map((s) => {
      const [node = '', parent = '0'] = s.split(':');
      return { node: node === '' ? null : node, parent: Number(parent) };
    });
    history.nodes.push({ commit: toCommit(r), blob: r.blob, from });
  }
  return history;
}
