// The statements that write git objects and their derived rows into a pool, for one batch (the store in
// functions/repositories/store/store.ts builds them). Every insert is ON CONFLICT DO NOTHING: objects are content-addressed,
// so writing one that is there already (a re-push, a commit two branches share) changes nothing. Rows go in key
// order, so two writers that share objects take their locks in the same order and cannot deadlock.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { gitCommitPaths, gitCommits, gitObjects, gitTreeEntries } from '../../schema/index.ts';
import { textArray } from '../lib/raw.ts';
import { oidParam } from './refs.ts';

/** PostgreSQL binds at most 65,535 parameters per statement: inserts are split into statements below that. */
const MAX_PARAMS = 60_000;

function chunks<T>(items: readonly T[], paramsPerItem: number): T[][] {
  const size = Math.max(1, Math.floor(MAX_PARAMS / paramsPerItem));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const byKey =
  <T>(key: (item: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

export interface ObjectRow {
  oid: string;
  /** git's type number: GIT_OBJECT_TYPES. */
  type: number;
  /** The body, without git's `<type> <size>\0` header. */
  data: Uint8Array<ArrayBuffer>;
}

export const insertObjectsQueries = (db: Db, poolId: number, objects: readonly ObjectRow[]) =>
  chunks([...objects].sort(byKey((o) => o.oid)), 5).map((part) =>
    db
      .insert(gitObjects)
      .values(part.map((o) => ({ poolId, oid: oidParam(o.oid), type: o.type, size: o.data.length, data: o.data })))
      .onConflictDoNothing(),
  );

export interface TreeEntryRow {
  treeOid: string;
  name: Uint8Array<ArrayBuffer>;
  mode: string;
  oid: string;
}

/**
 * Tree entries are the bulk of a write (every entry of every new tree: ~120 rows per commit in a repository of
 * 10,000 files), so they go as four array parameters unnested in SQL rather than five parameters a row: one short
 * statement to parse whatever the count (VALUES of 12,000 rows took ~400 ms to build and plan).
 */
export const insertTreeEntriesQueries = (db: Db, poolId: number, entries: readonly TreeEntryRow[]) => {
  if (!entries.length) return [];
  const rows = entries.map((e) => ({ ...e, nameHex: hex(e.name) })).sort(byKey((e) => `${e.treeOid}${e.nameHex}`));
  return [
    db.execute(sql`INSERT INTO ${gitTreeEntries} (pool_id, tree_oid, name, mode, oid)
      SELECT ${poolId}::int, decode(t, 'hex'), decode(n, 'hex'), m, decode(o, 'hex')
      FROM unnest(${textArray(rows.map((e) => e.treeOid))}, ${textArray(rows.map((e) => e.nameHex))},
        ${textArray(rows.map((e) => e.mode))}, ${textArray(rows.map((e) => e.oid))}) WITH ORDINALITY AS u(t, n, m, o, i)
      ORDER BY i
      ON CONFLICT DO NOTHING`),
  ];
};

export interface SignatureRow {
  name: string;
  email: string;
  /** Seconds since the epoch, as git writes them. */
  time: number;
  /** git's offset as written: `+0200`. */
  tz: string;
}

export interface CommitRow {
  oid: string;
  treeOid: string;
  parentOids: readonly string[];
  /** The generation counted within the write alone (1 + the highest of its parents in the write; 1 without any). */
  generation: number;
  /**
   * Parents outside the write this commit reaches through commits of the write, each with the longest distance to
   * it (1 for a direct parent): its generation is at least the stored parent's plus that distance.
   */
  reaches: readonly { oid: string; distance: number }[];
  author: SignatureRow;
  committer: SignatureRow;
  title: string;
  message: string;
}

/** The generation of a commit, completed in SQL with the generations stored for the parents outside the write. */
function generationSql(poolId: number, c: CommitRow): SQL | number {
  if (!c.reaches.length) return c.generation;
  const reached = sql.join(
    c.reaches.map((r) => sql`(${oidParam(r.oid)}, ${r.distance}::int)`),
    sql`, `,
  );
  return sql`GREATEST(${c.generation}::int, (SELECT max(g.generation + d.distance) FROM ${gitCommits} g
    JOIN (VALUES ${reached}) AS d(oid, distance) ON g.oid = d.oid WHERE g.pool_id = ${poolId}))`;
}

const byteaArray = (oids: readonly string[]) => (oids.length ? sql`ARRAY[${sql.join(oids.map(oidParam), sql`, `)}]` : sql`'{}'::bytea[]`);
/**
 * What a text column accepts: no NUL, valid UTF-8 (a lone surrogate would not encode). git allows both in a message
 * or a name; the object keeps the exact bytes, these columns are for display.
 */
const asText = (s: string) => s.replaceAll('\0', '').replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

export const insertCommitsQueries = (db: Db, poolId: number, commits: readonly CommitRow[]) =>
  chunks([...commits].sort(byKey((c) => c.oid)), 20 + commits.reduce((n, c) => Math.max(n, c.parentOids.length + 2 * c.reaches.length), 0)).map((part) =>
    db
      .insert(gitCommits)
      .values(
        part.map((c) => ({
          poolId,
          oid: oidParam(c.oid),
          treeOid: oidParam(c.treeOid),
          parentOids: byteaArray(c.parentOids),
          generation: generationSql(poolId, c),
          authorName: asText(c.author.name),
          authorEmail: asText(c.author.email),
          authoredAt: sql`to_timestamp(${c.author.time}::float8)`,
          authorTz: c.author.tz,
          committerName: asText(c.committer.name),
          committerEmail: asText(c.committer.email),
          committedAt: sql`to_timestamp(${c.committer.time}::float8)`,
          committerTz: c.committer.tz,
          title: asText(c.title),
          message: asText(c.message),
        })),
      )
      .onConflictDoNothing(),
  );

/** A tree entry's mode is a directory's (git writes 40000; a zero-padded 040000 is legacy but readable). */
export const isTreeModeSql = (mode: SQL) => sql`(ltrim(${mode}, '0') = '40000')`;

/**
 * The changed paths of the given commits, computed in SQL from the rows the earlier statements of the same batch
 * wrote: a recursive diff of each commit's tree against its first parent's (every path of a root commit), descending
 * only into subtrees whose ids differ. Doing it here rather than in the store means the parent's trees need not be
 * read first, wherever they come from (this write or an earlier one). A path that changes between a file and a
 * directory counts as the file plus everything under the directory.
 */
export const insertCommitPathsQueries = (db: Db, poolId: number, commitOids: readonly string[]) =>
  chunks([...commitOids].sort(), 1).map((part) =>
    db.execute(sql`INSERT INTO ${gitCommitPaths} (pool_id, commit_oid, path)
      WITH RECURSIVE diff(commit_oid, path, old_tree, new_tree, leaf) AS (
        SELECT c.oid, ''::bytea, p.tree_oid, c.tree_oid, false
        FROM ${gitCommits} c LEFT JOIN ${gitCommits} p ON p.pool_id = c.pool_id AND p.oid = c.parent_oids[1]
        WHERE c.pool_id = ${poolId} AND c.oid IN (${sql.join(part.map(oidParam), sql`, `)})
        UNION ALL
        SELECT d.commit_oid, x.path, x.old_tree, x.new_tree, x.leaf
        FROM diff d CROSS JOIN LATERAL (
          SELECT CASE WHEN d.path = ''::bytea THEN ch.name ELSE d.path || decode('2f', 'hex') || ch.name END AS path, k.leaf,
            CASE WHEN NOT k.leaf AND ch.old_is_tree THEN ch.old_oid END AS old_tree,
            CASE WHEN NOT k.leaf AND ch.new_is_tree THEN ch.new_oid END AS new_tree
          FROM (
            SELECT COALESCE(o.name, n.name) AS name, o.oid AS old_oid, n.oid AS new_oid,
              COALESCE(${isTreeModeSql(sql`o.mode`)}, false) AS old_is_tree, COALESCE(${isTreeModeSql(sql`n.mode`)}, false) AS new_is_tree,
              (o.name IS NOT NULL AND NOT ${isTreeModeSql(sql`o.mode`)}) OR (n.name IS NOT NULL AND NOT ${isTreeModeSql(sql`n.mode`)}) AS has_leaf
            FROM (SELECT name, mode, oid FROM ${gitTreeEntries} WHERE pool_id = ${poolId} AND tree_oid = d.old_tree) o
            FULL JOIN (SELECT name, mode, oid FROM ${gitTreeEntries} WHERE pool_id = ${poolId} AND tree_oid = d.new_tree) n ON n.name = o.name
            WHERE o.oid IS DISTINCT FROM n.oid OR o.mode IS DISTINCT FROM n.mode
          ) ch
          JOIN (VALUES (true), (false)) AS k(leaf) ON (k.leaf AND ch.has_leaf) OR (NOT k.leaf AND (ch.old_is_tree OR ch.new_is_tree))
        ) x
        WHERE NOT d.leaf
      )
      SELECT DISTINCT ${poolId}::int, commit_oid, path FROM diff WHERE leaf ORDER BY 2, 3
      ON CONFLICT DO NOTHING`),
  );
