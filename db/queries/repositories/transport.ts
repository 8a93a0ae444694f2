// What git's transport reads (functions/repositories/transport/): the refs a repository advertises, and the objects
// a fetch must send, computed in one statement from the commit graph and the trees' entries. Every object a client
// names (wants, haves) counts only if the project may read it (readableObjectSql): through a fork network's shared
// pool, another project's objects are as absent as ids that do not exist.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { gitCommits, gitObjects, gitRefs, gitTreeEntries, repositories } from '../../schema/index.ts';
import { rows } from '../lib/raw.ts';
import { isTreeModeSql } from './objects.ts';
import { oidParam, toBytes } from './refs.ts';
import { readableObjectSql } from './sql.ts';

/** Refs GitLab hides from the transport (transfer.hideRefs): never advertised, never pushed to. */
export const HIDDEN_REF_PREFIXES = ['refs/tmp/', 'refs/keep-around/', 'refs/remotes/'] as const;

export interface AdvertisedRef {
  name: string;
  oid: string;
  /** The object's type (4: an annotated tag, whose body is given to peel it). */
  type: number;
  tagBody: Uint8Array | null;
}

/** The project's refs in byte order (git's C locale), hidden ones left out, each with its object's type. */
export async function advertisedRefs(db: Db, projectId: number): Promise<AdvertisedRef[]> {
  const hidden = sql.join(
    HIDDEN_REF_PREFIXES.map((p) => sql`left(r.name, ${p.length}) <> ${p}`),
    sql` AND `,
  );
  const found = await rows<{ name: string; oid: string; type: number; tag_body: unknown }>(
    db,
    sql`SELECT r.name, encode(r.oid, 'hex') AS oid, o.type, CASE WHEN o.type = 4 THEN o.data END AS tag_body
      FROM ${gitRefs} r JOIN ${repositories} repo ON repo.project_id = r.project_id
      JOIN ${gitObjects} o ON o.pool_id = repo.pool_id AND o.oid = r.oid
      WHERE r.project_id = ${projectId} AND ${hidden}
      ORDER BY r.name COLLATE "C"`,
  );
  return found.map((r) => ({ name: r.name, oid: r.oid, type: Number(r.type), tagBody: r.tag_body === null ? null : toBytes(r.tag_body) }));
}

/** Of `oids`, those the project may read, with their types. */
export async function readableTypes(db: Db, projectId: number, oids: readonly string[]): Promise<Map<string, number>> {
  if (!oids.length) return new Map();
  const found = await rows<{ oid: string; type: number }>(
    db,
    sql`SELECT encode(o.oid, 'hex') AS oid, o.type FROM ${repositories} r
      JOIN ${gitObjects} o ON o.pool_id = r.pool_id AND o.oid IN (${sql.join(oids.map(oidParam), sql`, `)})
      WHERE r.project_id = ${projectId} AND ${readableObjectSql(projectId, sql`o.oid`)}`,
  );
  return new Map(found.map((r) => [r.oid, Number(r.type)]));
}

export interface PackRequest {
  /** Commits wanted (tags already peeled by the caller): they and their history, down to what the client has. */
  commits: readonly string[];
  /** Trees and blobs wanted by id (partial clone's lazy fetches): sent whatever the filter says. */
  objects: readonly string[];
  /** Commits the client has (readable ones only count). */
  haves: readonly string[];
  /** `deepen <n>`: at most n commits deep from each want (1: the wanted commits alone). */
  depth?: number | undefined;
  /** `deepen-relative`: the depth counts from the client's shallow commits (git fetch --deepen), not the wants. */
  relative?: boolean | undefined;
  /** `deepen-since <seconds>`: only commits committed at or after this time (git's --shallow-since). */
  since?: number | undefined;
  /** `deepen-not <ref>`: not the commits these reach (git's --shallow-exclude). */
  notCommits?: readonly string[] | undefined;
  /** The client's shallow commits: their parents are not on the client. */
  shallow?: readonly string[] | undefined;
  /** `filter blob:none` (0) or `blob:limit=<n>`: blobs larger than this are left out. */
  blobLimit?: number | undefined;
}

export interface PackObject {
  oid: string;
  type: number;
}

export interface PackPlan {
  objects: PackObject[];
  /** With a depth: the commits sent whose parents are not (git's shallow-info). */
  shallow: string[];
  /** The client's shallow commits the depth now reaches past: their parents come (git's `unshallow` lines). */
  unshallow: string[];
}

const oidList = (oids: readonly string[]) => (oids.length ? sql.join(oids.map(oidParam), sql`, `) : sql`NULL::bytea`);

/**
 * `name(oid)`: the commits of `starts` the project may read and their ancestors, a commit's parents followed while
 * `expand` (over `c`, that commit) holds. Needs the `repo` CTE. `name` is one of these constants, spliced in as an
 * identifier: it never comes from a request.
 */
export const ancestryCte = (name: 'have_c' | 'not_c' | 'walk', projectId: number, starts: readonly string[], expand: SQL = sql`true`) =>
  sql`${sql.raw(name)}(oid) AS (
        SELECT c.oid FROM repo JOIN ${gitCommits} c ON c.pool_id = repo.pool_id
        WHERE c.oid IN (${oidList(starts)}) AND ${readableObjectSql(projectId, sql`c.oid`)}
        UNION
        SELECT p.oid FROM ${sql.raw(name)} w JOIN repo ON true JOIN ${gitCommits} c ON c.pool_id = repo.pool_id AND c.oid = w.oid
        CROSS JOIN LATERAL unnest(c.parent_oids) AS p(oid)
        WHERE ${expand}
      )`;

/**
 * The objects a fetch sends, in one statement: the commits reachable from the wants that the client does not have
 * (not reachable from its readable haves; with a depth, at most that many deep), their trees and blobs except those
 * of the commits the history stops at (git's boundary: the client has those trees), the trees and blobs wanted by
 * id. Commits first, then trees, then blobs.
 */
export async function planPack(db: Db, projectId: number, r: PackRequest): Promise<PackPlan> {
  const depth = r.depth ?? 0;
  const shallowClient = r.shallow ?? [];
  const since = r.since ?? null;
  const notCommits = r.notCommits ?? [];
  // deepen-since and deepen-not cut history where a sent commit has a parent neither sent nor on the client.
  const cutByParents = since !== null || notCommits.length > 0;
  // A depth is counted as git's get_shallow_commits counts it, whatever the client has: from the wants (or, relative,
  // from the client's shallow commits, which count 1), through history the client may already hold, what it holds
  // being left out only at the end. The client's shallow commits the walk goes past are unshallowed (their parents
  // come), the commits at the depth are the new shallow ones. With a relative depth the wants' new commits come too,
  // down to what the client has, as any fetch.
  const deepening = depth > 0;
  const relative = deepening && r.relative === true;
  const limit = relative ? depth + 1 : depth;
  const blobs = r.blobLimit === undefined ? sql`true` : sql`o.size <= ${r.blobLimit}::int`;
  const found = await rows<{ oid: string; type: number; boundary: boolean; mark: 'shallow' | 'unshallow' | null }>(
    db,
    sql`WITH RECURSIVE
      repo AS (SELECT pool_id FROM ${repositories} WHERE project_id = ${projectId}),
      ${ancestryCte('have_c', projectId, r.haves, sql`c.oid NOT IN (${oidList(shallowClient)})`)},
      ${ancestryCte('not_c', projectId, notCommits)},
      new_c(oid, depth) AS (
        SELECT c.oid, 1 FROM repo JOIN ${gitCommits} c ON c.pool_id = repo.pool_id
        WHERE ${
          relative
            ? sql`c.oid IN (${oidList(shallowClient)}) AND ${readableObjectSql(projectId, sql`c.oid`)}`
            : sql`c.oid IN (${oidList(r.commits)}) AND (${deepening}::boolean OR c.oid NOT IN (SELECT oid FROM have_c))`
        }
        UNION
        SELECT p.oid, CASE WHEN ${deepening}::boolean THEN n.depth + 1 ELSE 1 END FROM new_c n JOIN repo ON true
        JOIN ${gitCommits} c ON c.pool_id = repo.pool_id AND c.oid = n.oid
        CROSS JOIN LATERAL unnest(c.parent_oids) AS p(oid)
        JOIN ${gitCommits} pc ON pc.pool_id = repo.pool_id AND pc.oid = p.oid
        WHERE (NOT ${deepening}::boolean OR n.depth < ${limit}::int) AND (${deepening}::boolean OR p.oid NOT IN (SELECT oid FROM have_c))
          AND p.oid NOT IN (SELECT oid FROM not_c)
          AND (${since}::bigint IS NULL OR pc.committed_at >= to_timestamp(${since}::bigint))
      ),
      -- deepen-relative: the wants' commits the client lacks, down to what it has, beside the deepened history.
      top_c(oid) AS (
        SELECT c.oid FROM repo JOIN ${gitCommits} c ON c.pool_id = repo.pool_id
        WHERE ${relative}::boolean AND c.oid IN (${oidList(r.commits)}) AND c.oid NOT IN (SELECT oid FROM have_c)
        UNION
        SELECT p.oid FROM top_c n JOIN repo ON true JOIN ${gitCommits} c ON c.pool_id = repo.pool_id AND c.oid = n.oid
        CROSS JOIN LATERAL unnest(c.parent_oids) AS p(oid)
        WHERE p.oid NOT IN (SELECT oid FROM have_c)
      ),
      walked AS (SELECT oid, min(depth) AS depth FROM new_c GROUP BY oid),
      sent_c AS (
        SELECT oid, depth FROM walked WHERE NOT ${deepening}::boolean OR oid NOT IN (SELECT oid FROM have_c)
        UNION SELECT oid, 0 FROM top_c WHERE oid NOT IN (SELECT oid FROM walked)
      ),
      -- With a depth: the new shallow commits (at the depth, whether sent or already on the client) and the client's
      -- shallow commits the walk went past.
      marks(oid, mark) AS (
        SELECT oid, 'shallow' FROM walked WHERE ${deepening}::boolean AND depth >= ${limit}::int
        UNION ALL SELECT oid, 'unshallow' FROM walked WHERE ${deepening}::boolean AND depth < ${limit}::int AND oid IN (${oidList(shallowClient)})
      ),
      boundary AS (
        SELECT DISTINCT p.oid FROM sent_c n JOIN repo ON true JOIN ${gitCommits} c ON c.pool_id = repo.pool_id AND c.oid = n.oid
        CROSS JOIN LATERAL unnest(c.parent_oids) AS p(oid) WHERE p.oid IN (SELECT oid FROM have_c)
      ),
      old_t(oid) AS (
        SELECT c.tree_oid FROM boundary b JOIN repo ON true JOIN ${gitCommits} c ON c.pool_id = repo.pool_id AND c.oid = b.oid
        UNION
        SELECT e.oid FROM old_t t JOIN repo ON true JOIN ${gitTreeEntries} e ON e.pool_id = repo.pool_id AND e.tree_oid = t.oid
        WHERE ${isTreeModeSql(sql`e.mode`)}
      ),
      old_b AS (
        SELECT e.oid FROM old_t t JOIN repo ON true JOIN ${gitTreeEntries} e ON e.pool_id = repo.pool_id AND e.tree_oid = t.oid
        WHERE NOT ${isTreeModeSql(sql`e.mode`)}
      ),
      new_t(oid) AS (
        SELECT c.tree_oid FROM sent_c n JOIN repo ON true JOIN ${gitCommits} c ON c.pool_id = repo.pool_id AND c.oid = n.oid
        WHERE c.tree_oid NOT IN (SELECT oid FROM old_t)
        UNION
        SELECT e.oid FROM new_t t JOIN repo ON true JOIN ${gitTreeEntries} e ON e.pool_id = repo.pool_id AND e.tree_oid = t.oid
        WHERE ${isTreeModeSql(sql`e.mode`)} AND e.oid NOT IN (SELECT oid FROM old_t)
      ),
      -- The new trees' blobs, found from the trees' entries by the entries' key and only then, with a blob filter,
      -- looked up by id: joined the other way round (each blob of the pool against every entry), which a planner
      -- with stale statistics picks after a large push, the plan is quadratic. A gitlink (160000) names a commit of
      -- another repository, never sent.
      new_e AS MATERIALIZED (
        SELECT DISTINCT e.oid FROM new_t t CROSS JOIN LATERAL (
          -- OFFSET 0 keeps this a per-tree index lookup: flattened into a join, stale statistics pick a scan of
          -- every entry of the pool hashed against the new trees (0.5 s for 10 new commits of a 1,000-commit pool).
          SELECT e.oid, e.mode FROM ${gitTreeEntries} e WHERE e.pool_id = (SELECT pool_id FROM repo) AND e.tree_oid = t.oid OFFSET 0
        ) e
        WHERE NOT ${isTreeModeSql(sql`e.mode`)} AND ltrim(e.mode, '0') <> '160000' AND e.oid NOT IN (SELECT oid FROM old_b)
      ),
      new_b AS (
        SELECT n.oid FROM new_e n
        WHERE ${r.blobLimit === undefined ? sql`true` : sql`EXISTS (SELECT 1 FROM repo JOIN ${gitObjects} o ON o.pool_id = repo.pool_id AND o.oid = n.oid WHERE ${blobs})`}
      ),
      wanted AS (
        SELECT o.oid, o.type FROM repo JOIN ${gitObjects} o ON o.pool_id = repo.pool_id
        WHERE o.oid IN (${oidList(r.objects)}) AND ${readableObjectSql(projectId, sql`o.oid`)}
      ),
      plan(oid, type, boundary) AS (
        SELECT n.oid, 1, ${cutByParents}::boolean AND EXISTS (
          SELECT 1 FROM repo JOIN ${gitCommits} c ON c.pool_id = repo.pool_id AND c.oid = n.oid CROSS JOIN LATERAL unnest(c.parent_oids) AS p(oid)
          WHERE p.oid NOT IN (SELECT oid FROM sent_c) AND p.oid NOT IN (SELECT oid FROM have_c))
        FROM sent_c n
        UNION ALL SELECT oid, 2, false FROM new_t
        UNION ALL SELECT oid, 3, false FROM new_b
        UNION ALL SELECT oid, type, false FROM wanted
      )
    SELECT encode(oid, 'hex') AS oid, min(type) AS type, bool_or(boundary) AS boundary, NULL AS mark FROM plan GROUP BY oid
    UNION ALL SELECT encode(oid, 'hex'), 0, false, mark FROM marks
    ORDER BY type`,
  );
  const sent = found.filter((f) => Number(f.type) > 0);
  return {
    objects: sent.map((f) => ({ oid: f.oid, type: Number(f.type) })),
    shallow: [...sent.filter((f) => f.boundary === true).map((f) => f.oid), ...found.filter((f) => f.mark === 'shallow').map((f) => f.oid)],
    unshallow: found.filter((f) => f.mark === 'unshallow').map((f) => f.oid),
  };
}

/** Whether `ancestor` is in the history of any of `tips` (all stored commits the project may read). */
export const isAncestorOfAny = (db: Db, projectId: number, ancestor: string, tips: readonly string[]) => allInHistoryOf(db, projectId, [ancestor], tips);

/**
 * Whether every one of `targets` is a commit in the history of `from` (readable commits): a walk down the parents
 * that stops below the oldest target's generation, where none of them can be. One statement.
 */
export async function allInHistoryOf(db: Db, projectId: number, targets: readonly string[], from: readonly string[]): Promise<boolean> {
  if (!targets.length) return true;
  if (!from.length) return false;
  const [found] = await rows<{ ok: boolean }>(
    db,
    sql`WITH RECURSIVE
      repo AS (SELECT pool_id FROM ${repositories} WHERE project_id = ${projectId}),
      target AS (SELECT c.oid, c.generation FROM repo JOIN ${gitCommits} c ON c.pool_id = repo.pool_id AND c.oid IN (${oidList(targets)})),
      ${ancestryCte('walk', projectId, from, sql`c.generation > (SELECT min(generation) FROM target)`)}
    SELECT (SELECT count(*) FROM target) = ${targets.length}::int AND NOT EXISTS (SELECT 1 FROM target WHERE oid NOT IN (SELECT oid FROM walk)) AS ok`,
  );
  return found?.ok === true;
}
