// The read a commit's actions need before they are applied: the revision they start from and the entries of every
// directory they touch, in ONE statement whatever the number of actions or their depth. The write then rebuilds
// only those directories (and their ancestors): a commit to a repository of 10,000 files reads and writes a few
// dozen rows, never the whole tree.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { gitCommits, gitTreeEntries } from '../../schema/index.ts';
import { rows } from '../lib/raw.ts';
import { commitColumns, revisionCtes, toCommit, type CommitInfo, type CommitSqlRow } from './sql.ts';
import { toBytes } from './refs.ts';

export interface DirEntryRow {
  /** The directory's path from the root as bytes ('' is the root). */
  dir: Uint8Array;
  name: Uint8Array;
  mode: string;
  oid: string;
}

export interface TouchedDirs {
  commit: CommitInfo;
  entries: DirEntryRow[];
}

/**
 * The commit `rev` names and the entries of the directories `dirs` (paths from the root, as bytes; the root is
 * always read) that exist under it. Undefined when the revision does not resolve. A directory is reached only
 * through the ones above it, so `dirs` should hold every ancestor of a directory it holds (the caller's paths do).
 */
export async function readTouchedDirs(db: Db, projectId: number, rev: string, dirs: readonly Uint8Array[]): Promise<TouchedDirs | undefined> {
  const wanted = dirs.filter((d) => d.length);
  const list = wanted.length
    ? sql`ARRAY[${sql.join(
        wanted.map((d) => sql`${d}::bytea`),
        sql`, `,
      )}]`
    : sql`'{}'::bytea[]`;
  const found = await rows<CommitSqlRow & { dir: unknown; name: unknown; mode: string | null; entry_oid: string | null }>(
    db,
    sql`WITH RECURSIVE ${revisionCtes(projectId, rev)},
      dirs(path, oid) AS (
        SELECT ''::bytea, t.tree_oid FROM target t
        UNION ALL
        SELECT CASE WHEN d.path = ''::bytea THEN e.name ELSE d.path || decode('2f', 'hex') || e.name END, e.oid
        FROM dirs d JOIN target t ON true JOIN ${gitTreeEntries} e ON e.pool_id = t.pool_id AND e.tree_oid = d.oid
        WHERE ltrim(e.mode, '0') = '40000'
          AND (CASE WHEN d.path = ''::bytea THEN e.name ELSE d.path || decode('2f', 'hex') || e.name END) = ANY(${list})
      )
      SELECT ${commitColumns}, d.path AS dir, e.name, e.mode, encode(e.oid, 'hex') AS entry_oid
      FROM target t JOIN ${gitCommits} c ON c.pool_id = t.pool_id AND c.oid = t.commit_oid
        LEFT JOIN dirs d ON true LEFT JOIN ${gitTreeEntries} e ON e.pool_id = t.pool_id AND e.tree_oid = d.oid`,
  );
  const first = found[0];
  if (!first) return undefined;
  const entries: DirEntryRow[] = [];
  for (const r of found) {
    if (r.entry_oid === null || r.mode === null || r.dir === null || r.dir === undefined) continue;
    entries.push({ dir: toBytes(r.dir), name: toBytes(r.name), mode: r.mode, oid: r.entry_oid });
  }
  return { commit: toCommit(first), entries };
}
