// The reads `repository/archive` is made of: one statement that resolves the revision and lists every entry the
// archive holds (no blob bodies), then the blob bodies in bounded batches (repositories/reads.ts readObjects), and the
// largest blobs in slices, so an archive of any size is never held in memory whole.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { gitCommits, gitObjects, gitTreeEntries, repositories } from '../../schema/index.ts';
import { rows } from '../lib/raw.ts';
import { isTreeModeSql } from './objects.ts';
import { joinPath, pathSegments, revisionCtes, walkCte } from './sql.ts';
import { oidParam, toBytes } from './refs.ts';

export interface ArchiveEntryRow {
  /** From the repository's root, as bytes (a name need not be UTF-8). */
  path: Uint8Array;
  /** The octal digits stored in the tree ('100644', '40000', '160000'...). */
  mode: string;
  oid: string;
  /** The blob's size; null for a tree or a submodule's commit (not in the pool). */
  size: number | null;
}

export interface ArchiveListing {
  commitOid: string;
  /** The commit's root tree. */
  treeOid: string;
  /** The repository's default branch (what HEAD names), null when it has none. */
  defaultBranch: string | null;
  /** The commit's committer time, epoch seconds: every entry's mtime (git archive's `args->time`). */
  committedAt: number;
  /** False when `path` names nothing in the commit's tree. */
  found: boolean;
  /** The directories leading to `path` and `path` itself, then everything below it, in git's depth-first order. */
  entries: ArchiveEntryRow[];
}

/**
 * The commit `rev` names and the entries `git archive <commit> -- <path>` writes (the whole tree when `path` names the
 * root), undefined when the revision does not resolve. One statement: the path is walked and its subtree listed with
 * the revision's CTEs. The order is git's (a tree's entries sorted by name, a directory's name compared as `name/`,
 * each directory followed by its contents), which is the byte order of the full paths with `/` after a directory's.
 */
export async function archiveListing(db: Db, a: { projectId: number; rev: string; path: string }): Promise<ArchiveListing | undefined> {
  const segments = pathSegments(a.path);
  const depth = segments.length;
  const found = await rows<{
    commit_oid: string;
    tree_oid: string;
    default_branch: string | null;
    committed_at: number;
    depth: number | null;
    path: unknown;
    mode: string | null;
    oid: string | null;
    size: number | null;
  }>(
    db,
    sql`WITH RECURSIVE ${revisionCtes(a.projectId, a.rev)}, ${walkCte(segments)},
      listing(path, mode, oid) AS (
        SELECT e.name, e.mode, e.oid FROM walk w JOIN target t ON true
          JOIN ${gitTreeEntries} e ON e.pool_id = t.pool_id AND e.tree_oid = w.oid
        WHERE w.depth = ${depth}::int AND ${isTreeModeSql(sql`w.mode`)}
        UNION ALL
        SELECT l.path || decode('2f', 'hex') || e.name, e.mode, e.oid FROM listing l JOIN target t ON true
          JOIN ${gitTreeEntries} e ON e.pool_id = t.pool_id AND e.tree_oid = l.oid
        WHERE ${isTreeModeSql(sql`l.mode`)}
      ),
      entries(depth, path, mode, oid, sort_key) AS (
        -- The walk's levels (the leading directories and the path itself) first, by depth; the listing's paths are
        -- relative to the path and get its prefix in the caller.
        SELECT w.depth, NULL::bytea, w.mode, w.oid, NULL::bytea FROM walk w WHERE w.depth > 0
        UNION ALL
        SELECT NULL::int, l.path, l.mode, l.oid, CASE WHEN ${isTreeModeSql(sql`l.mode`)} THEN l.path || decode('2f', 'hex') ELSE l.path END
        FROM listing l
      )
      SELECT encode(t.commit_oid, 'hex') AS commit_oid, encode(t.tree_oid, 'hex') AS tree_oid,
        (SELECT default_branch FROM repo) AS default_branch, extract(epoch FROM c.committed_at)::float8 AS committed_at,
        e.depth, e.path, e.mode, encode(e.oid, 'hex') AS oid, o.size
      FROM target t JOIN ${gitCommits} c ON c.pool_id = t.pool_id AND c.oid = t.commit_oid
        LEFT JOIN entries e ON true
        LEFT JOIN ${gitObjects} o ON o.pool_id = t.pool_id AND o.oid = e.oid AND NOT ${isTreeModeSql(sql`e.mode`)}
      ORDER BY e.depth NULLS LAST, e.sort_key`,
  );
  const first = found[0];
  if (!first) return undefined;
  const levels = found.filter((r) => r.depth !== null);
  const base = segments.map((_s, i) => joinPath(segments.slice(0, i + 1)));
  const prefix = depth ? joinPath([...segments, new Uint8Array()]) : new Uint8Array();
  const entries: ArchiveEntryRow[] = [];
  for (const r of found) {
    if (r.oid === null || r.mode === null) continue;
    const path = r.depth !== null ? base[Number(r.depth) - 1]! : concat(prefix, toBytes(r.path));
    entries.push({ path, mode: r.mode, oid: r.oid, size: r.size === null ? null : Number(r.size) });
  }
  return {
    commitOid: first.commit_oid,
    treeOid: first.tree_oid,
    defaultBranch: first.default_branch,
    committedAt: Number(first.committed_at),
    found: levels.length === depth,
    entries,
  };
}

/** `length` bytes of a blob from `offset` (0-based): the largest blobs are streamed in slices. */
export async function readObjectSlice(db: Db, projectId: number, oid: string, offset: number, length: number): Promise<Uint8Array> {
  const [row] = await rows<{ data: unknown }>(
    db,
    sql`SELECT substring(o.data FROM ${offset + 1}::int FOR ${length}::int) AS data FROM ${repositories} r
      JOIN ${gitObjects} o ON o.pool_id = r.pool_id AND o.oid = ${oidParam(oid)} WHERE r.project_id = ${projectId}`,
  );
  if (!row) throw new Error(`object ${oid} vanished from the pool`);
  return toBytes(row.data);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (!a.length) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
