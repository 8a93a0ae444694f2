// The reads behind diffs (commit diffs, compare, merge base, commit stats), ONE statement each whatever the depth of
// the trees or the number of files: the trees are walked in SQL, descending only where the subtree ids differ, and
// the changed blobs come back in the same rows. Rendering (hunks, renames) is functions/repositories/diffs/diffs.ts's.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { gitCommits, gitObjects, gitTreeEntries, repositories } from '../../schema/index.ts';
import { rows } from '../lib/raw.ts';
import { isTreeModeSql } from './objects.ts';
import { commitColumns, toCommit, type CommitInfo, type CommitSqlRow } from './sql.ts';
import { oidParam, toBytes } from './refs.ts';

/** One side of a changed path: a blob, a symlink or a submodule (trees are walked, never listed). */
export interface DiffSide {
  mode: string;
  oid: string;
  /** The blob's body; null for a submodule's commit (not in the pool). */
  data: Uint8Array | null;
}

export interface ChangedPath {
  /** Which pair of the request this belongs to. */
  key: number;
  /** From the repository's root, as bytes. */
  path: Uint8Array;
  old: DiffSide | null;
  new: DiffSide | null;
}

/**
 * What to compare: `newCommit`'s tree against `oldCommit`'s (null: against its own first parent, or the empty tree
 * for a root commit). `emptyOld` compares against the empty tree whatever the parents.
 */
export interface TreePair {
  oldCommit: string | null;
  newCommit: string;
  emptyOld?: boolean;
}

/**
 * The paths (not directories) that differ between each pair's trees, with both sides' blobs, by path. A path that
 * changes between a file and a directory is the file (deleted or added) plus everything under the directory.
 */
export async function changedPaths(db: Db, projectId: number, pairs: readonly TreePair[]): Promise<ChangedPath[]> {
  if (!pairs.length) return [];
  const values = pairs.map(
    (p, i) => sql`(${i}::int, ${p.oldCommit === null ? sql`NULL::bytea` : oidParam(p.oldCommit)}, ${oidParam(p.newCommit)}, ${p.emptyOld === true}::boolean)`,
  );
  const found = await rows<{
    key: number;
    path: unknown;
    old_mode: string | null;
    old_oid: string | null;
    old_data: unknown;
    new_mode: string | null;
    new_oid: string | null;
    new_data: unknown;
  }>(
    db,
    sql`WITH RECURSIVE repo AS (SELECT pool_id FROM ${repositories} WHERE project_id = ${projectId}),
      pairs(key, old_commit, new_commit, empty_old) AS (VALUES ${sql.join(values, sql`, `)}),
      roots AS (
        SELECT p.key, CASE WHEN p.empty_old THEN NULL ELSE o.tree_oid END AS old_tree, n.tree_oid AS new_tree
        FROM pairs p JOIN repo ON true JOIN ${gitCommits} n ON n.pool_id = repo.pool_id AND n.oid = p.new_commit
          LEFT JOIN ${gitCommits} o ON o.pool_id = repo.pool_id AND o.oid = COALESCE(p.old_commit, n.parent_oids[1])
      ),
      diff(key, path, old_tree, new_tree, leaf, old_mode, old_oid, new_mode, new_oid) AS (
        SELECT key, ''::bytea, old_tree, new_tree, false, NULL::text, NULL::bytea, NULL::text, NULL::bytea FROM roots
        UNION ALL
        SELECT d.key, x.path, x.old_tree, x.new_tree, x.leaf, x.old_mode, x.old_oid, x.new_mode, x.new_oid
        FROM diff d CROSS JOIN LATERAL (
          SELECT CASE WHEN d.path = ''::bytea THEN ch.name ELSE d.path || decode('2f', 'hex') || ch.name END AS path, k.leaf,
            CASE WHEN NOT k.leaf AND ch.old_is_tree THEN ch.old_oid END AS old_tree,
            CASE WHEN NOT k.leaf AND ch.new_is_tree THEN ch.new_oid END AS new_tree,
            CASE WHEN k.leaf AND NOT ch.old_is_tree THEN ch.old_mode END AS old_mode,
            CASE WHEN k.leaf AND NOT ch.old_is_tree THEN ch.old_oid END AS old_oid,
            CASE WHEN k.leaf AND NOT ch.new_is_tree THEN ch.new_mode END AS new_mode,
            CASE WHEN k.leaf AND NOT ch.new_is_tree THEN ch.new_oid END AS new_oid
          FROM (
            SELECT COALESCE(o.name, n.name) AS name, o.oid AS old_oid, n.oid AS new_oid, o.mode AS old_mode, n.mode AS new_mode,
              COALESCE(${isTreeModeSql(sql`o.mode`)}, false) AS old_is_tree, COALESCE(${isTreeModeSql(sql`n.mode`)}, false) AS new_is_tree,
              (o.name IS NOT NULL AND NOT ${isTreeModeSql(sql`o.mode`)}) OR (n.name IS NOT NULL AND NOT ${isTreeModeSql(sql`n.mode`)}) AS has_leaf
            FROM (SELECT name, mode, oid FROM ${gitTreeEntries} WHERE pool_id = (SELECT pool_id FROM repo) AND tree_oid = d.old_tree) o
            FULL JOIN (SELECT name, mode, oid FROM ${gitTreeEntries} WHERE pool_id = (SELECT pool_id FROM repo) AND tree_oid = d.new_tree) n ON n.name = o.name
            WHERE o.oid IS DISTINCT FROM n.oid OR o.mode IS DISTINCT FROM n.mode
          ) ch
          JOIN (VALUES (true), (false)) AS k(leaf) ON (k.leaf AND ch.has_leaf) OR (NOT k.leaf AND (ch.old_is_tree OR ch.new_is_tree))
        ) x
        WHERE NOT d.leaf
      )
      SELECT d.key, d.path, d.old_mode, encode(d.old_oid, 'hex') AS old_oid, ob.data AS old_data,
        d.new_mode, encode(d.new_oid, 'hex') AS new_oid, nb.data AS new_data
      FROM diff d JOIN repo ON true
        LEFT JOIN ${gitObjects} ob ON ob.pool_id = repo.pool_id AND ob.oid = d.old_oid AND ob.type = 3
        LEFT JOIN ${gitObjects} nb ON nb.pool_id = repo.pool_id AND nb.oid = d.new_oid AND nb.type = 3
      WHERE d.leaf AND (d.old_oid IS NOT NULL OR d.new_oid IS NOT NULL)
      ORDER BY d.key, d.path`,
  );
  const side = (mode: string | null, oid: string | null, data: unknown): DiffSide | null =>
    mode === null || oid === null ? null : { mode, oid, data: data === null || data === undefined ? null : toBytes(data) };
  return found.map((r) => ({
    key: Number(r.key),
    path: toBytes(r.path),
    old: side(r.old_mode, r.old_oid, r.old_data),
    new: side(r.new_mode, r.new_oid, r.new_data),
  }));
}

/**
 * Each step of an ancestry walk looks its commit up by primary key in a scalar subquery (as logPage does: a join
 * in the recursive term may be planned as a scan of git_commits at every step). `name` is one of these constants:
 * it is spliced into the SQL as an identifier, so it never comes from a request.
 */
const ancestorsCte = (name: 'left_side' | 'right_side' | 'from_side' | 'to_side', starts: readonly string[]) =>
  sql`${sql.raw(name)}(oid, parents, generation) AS (
      SELECT c.oid, c.parent_oids, c.generation FROM ${gitCommits} c
      WHERE c.pool_id = (SELECT pool_id FROM repo) AND c.oid IN (${sql.join(starts.map(oidParam), sql`, `)})
      UNION
      SELECT p.oid, (SELECT c.parent_oids FROM ${gitCommits} c WHERE c.pool_id = (SELECT pool_id FROM repo) AND c.oid = p.oid),
        (SELECT c.generation FROM ${gitCommits} c WHERE c.pool_id = (SELECT pool_id FROM repo) AND c.oid = p.oid)
      FROM ${sql.raw(name)} a CROSS JOIN LATERAL unnest(a.parents) AS p(oid)
    )`;

/**
 * `git merge-base first other...`: the best common ancestor of `first` and any of `others`. Of the common
 * ancestors, one with the highest generation number cannot be an ancestor of another (its generation would be
 * lower), so it is a best one; ties go to the newest committed, as git's date-ordered walk finds it first.
 */
export async function mergeBase(db: Db, projectId: number, first: string, others: readonly string[]): Promise<CommitInfo | undefined> {
  const [row] = await rows<CommitSqlRow>(
    db,
    sql`WITH RECURSIVE repo AS (SELECT pool_id FROM ${repositories} WHERE project_id = ${projectId}),
      ${ancestorsCte('left_side', [first])}, ${ancestorsCte('right_side', others)}
      SELECT ${commitColumns} FROM left_side l JOIN right_side r ON r.oid = l.oid
        JOIN ${gitCommits} c ON c.pool_id = (SELECT pool_id FROM repo) AND c.oid = l.oid
      ORDER BY c.generation DESC, c.committed_at DESC, c.oid LIMIT 1`,
  );
  return row && toCommit(row);
}

/**
 * `git log from..to` (every commit reachable from `to` and not from `from`), oldest first as Gitaly's
 * CommitsBetween lists them, and the merge base of the two, in one statement.
 */
export async function commitsBetween(db: Db, projectId: number, from: string, to: string): Promise<{ commits: CommitInfo[]; mergeBase: string | null }> {
  const found = await rows<CommitSqlRow & { merge_base: string | null }>(
    db,
    sql`WITH RECURSIVE repo AS (SELECT pool_id FROM ${repositories} WHERE project_id = ${projectId}),
      ${ancestorsCte('from_side', [from])}, ${ancestorsCte('to_side', [to])},
      base AS (SELECT f.oid FROM from_side f JOIN to_side t ON t.oid = f.oid
        JOIN ${gitCommits} c ON c.pool_id = (SELECT pool_id FROM repo) AND c.oid = f.oid
        ORDER BY c.generation DESC, c.committed_at DESC, c.oid LIMIT 1)
      SELECT (SELECT encode(oid, 'hex') FROM base) AS merge_base, page.* FROM (SELECT 1) one LEFT JOIN LATERAL (
        SELECT ${commitColumns}, c.committed_at AS order_at FROM to_side t
          JOIN ${gitCommits} c ON c.pool_id = (SELECT pool_id FROM repo) AND c.oid = t.oid
        WHERE NOT EXISTS (SELECT 1 FROM from_side f WHERE f.oid = t.oid)
      ) page ON true
      ORDER BY page.order_at ASC, page.generation ASC, page.oid DESC`,
  );
  return { mergeBase: found[0]?.merge_base ?? null, commits: found.filter((r) => r.oid !== null).map(toCommit) };
}
