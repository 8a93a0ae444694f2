// The SQL the repository reads (repositories/reads.ts) are built from: CTEs that resolve a revision and walk a path
// inside the reading statement itself, and the columns of a commit row.
import { sql, type SQL } from 'drizzle-orm';
import { gitCommits, gitObjects, gitProjectObjects, gitRefs, gitTreeEntries, repositories } from '../../schema/index.ts';

const FULL_OID = /^[0-9a-f]{40}$/;

/**
 * SQL that is true when the object `oid` (a bytea expression) may be read through the project: reachable from the
 * project's own refs (git_project_objects, kept by updateRefQuery), whatever its pool holds. The one test every read
 * of a caller-given object id goes through: revisionCtes for names and ids, readObjects and the other readers by id.
 */
export const readableObjectSql = (projectId: number | SQL, oid: SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM ${gitProjectObjects} m WHERE m.project_id = ${projectId} AND m.oid = ${oid})`;
const ABBREVIATED_OID = /^[0-9a-f]{4,39}$/;

/**
 * CTEs `repo` (the project's pool and HEAD) and `target` (pool_id, commit_oid, tree_oid: the commit `rev` names,
 * annotated tags peeled), in git's order of precedence (gitrevisions(7)): a full object id, then `refs/<rev>` (and
 * `rev` itself when it is a full ref), `refs/tags/<rev>`, `refs/heads/<rev>`, then a unique abbreviated commit id.
 * A tag and a branch of one name: the tag wins, as with git.
 *
 * An id (full or abbreviated) names only an object the project may read (git_project_objects: reachable from its
 * own refs), whatever else its pool holds: through a fork network's shared pool, another project's id answers as
 * an id that does not exist. Everything `target` leads to (a tag's target, parents, trees) is readable too, the set
 * being closed under reachability.
 */
export function revisionCtes(projectId: number, revision: string): SQL {
  const { name: rev, steps } = parseRevision(revision);
  const candidates: SQL[] = [];
  const ref = (rank: number, name: SQL) => sql`SELECT ${rank}::int AS rank, r.oid FROM ${gitRefs} r WHERE r.project_id = ${projectId} AND r.name = ${name}`;
  if (FULL_OID.test(rev)) {
    candidates.push(sql`SELECT 0 AS rank, decode(${rev}, 'hex') AS oid WHERE ${readableObjectSql(projectId, sql`decode(${rev}, 'hex')`)}`);
  }
  if (rev === 'HEAD') candidates.push(ref(1, sql`(SELECT 'refs/heads/' || default_branch FROM repo)`));
  if (rev.startsWith('refs/')) candidates.push(ref(1, sql`${rev}`));
  if (rev) candidates.push(ref(2, sql`${`refs/${rev}`}`), ref(3, sql`${`refs/tags/${rev}`}`), ref(4, sql`${`refs/heads/${rev}`}`));
  if (ABBREVIATED_OID.test(rev)) {
    // The range of ids the prefix covers, bounds padded with 0s and fs: the readable set's primary key answers it,
    // and only the project's own commits count (another project's commit of the same prefix neither matches nor
    // makes the prefix ambiguous).
    candidates.push(sql`SELECT 5 AS rank, (array_agg(a.oid))[1] FROM (
        SELECT c.oid FROM ${gitProjectObjects} m JOIN repo ON true JOIN ${gitCommits} c ON c.pool_id = repo.pool_id AND c.oid = m.oid
        WHERE m.project_id = ${projectId}
          AND m.oid BETWEEN decode(${rev.padEnd(40, '0')}, 'hex') AND decode(${rev.padEnd(40, 'f')}, 'hex') LIMIT 2) a
      HAVING count(*) = 1`);
  }
  if (!candidates.length) candidates.push(sql`SELECT 0 AS rank, NULL::bytea AS oid WHERE false`);
  return sql`repo AS (SELECT pool_id, default_branch FROM ${repositories} WHERE project_id = ${projectId}),
    picked AS (SELECT oid FROM (${sql.join(candidates, sql` UNION ALL `)}) c ORDER BY rank LIMIT 1),
    peeled(oid, depth) AS (
      SELECT oid, 0 FROM picked
      UNION ALL
      -- An annotated tag's body starts with "object <40 hex digits>\\n": follow it (a tag may name a tag).
      SELECT decode(convert_from(substring(o.data FROM 8 FOR 40), 'SQL_ASCII'), 'hex'), p.depth + 1
      FROM peeled p JOIN repo ON true JOIN ${gitObjects} o ON o.pool_id = repo.pool_id AND o.oid = p.oid AND o.type = 4
      WHERE p.depth < 10
    ),
    ${steps.length ? sql`named` : sql`target`} AS (SELECT c.pool_id, c.oid AS commit_oid, c.tree_oid FROM peeled p JOIN repo ON true
      JOIN ${gitCommits} c ON c.pool_id = repo.pool_id AND c.oid = p.oid LIMIT 1)${steps.length ? stepsCtes(steps) : sql``}`;
}

/**
 * gitrevisions(7)'s ancestry suffixes: `rev~n` is the n-th first-parent ancestor (`~` alone: 1), `rev^n` the n-th
 * parent (`^` alone: 1, `^0` the commit itself), `^{}` and `^{commit}` peel to the commit (every revision here is
 * peeled already). Ref names cannot hold `~` or `^` (git-check-ref-format), so the first one starts the suffixes.
 * Each step is a parent index (0: the commit itself). A suffix git would refuse leaves the whole text a name
 * (which then names nothing).
 */
export function parseRevision(rev: string): { name: string; steps: number[] } {
  const at = rev.search(/[~^]/);
  if (at <= 0) return { name: rev, steps: [] };
  const steps: number[] = [];
  const suffix = /~(\d*)|\^\{(?:commit)?\}|\^(\d*)/y;
  suffix.lastIndex = at;
  while (suffix.lastIndex < rev.length) {
    const m = suffix.exec(rev);
    if (!m) return { name: rev, steps: [] };
    if (m[1] !== undefined) steps.push(...Array<number>(m[1] === '' ? 1 : Math.min(Number(m[1]), 10_000)).fill(1));
    else if (m[2] !== undefined) steps.push(m[2] === '' ? 1 : Number(m[2]));
  }
  return { name: rev.slice(0, at), steps };
}

/** The walk from the named commit along `steps` (one primary-key lookup each), ending in `target`. */
function stepsCtes(steps: readonly number[]): SQL {
  const list = sql`ARRAY[${sql.join(
    steps.map((n) => sql`${n}`),
    sql`, `,
  )}]::int[]`;
  return sql`, stepped(i, oid) AS (
      SELECT 0, commit_oid FROM named
      UNION ALL
      SELECT s.i + 1, CASE WHEN (${list})[s.i + 1] = 0 THEN s.oid ELSE (SELECT c.parent_oids[(${list})[s.i + 1]] FROM ${gitCommits} c
        WHERE c.pool_id = (SELECT pool_id FROM repo) AND c.oid = s.oid) END
      FROM stepped s WHERE s.i < ${steps.length}::int AND s.oid IS NOT NULL
    ),
    target AS (SELECT c.pool_id, c.oid AS commit_oid, c.tree_oid FROM stepped s JOIN repo ON true
      JOIN ${gitCommits} c ON c.pool_id = repo.pool_id AND c.oid = s.oid WHERE s.i = ${steps.length}::int)`;
}

/** A path as git_commit_paths stores it: the segments joined by '/' ('' for none). */
export function joinPath(segments: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(
    Math.max(
      0,
      segments.reduce((n, s) => n + s.length + 1, -1),
    ),
  );
  let at = 0;
  for (const s of segments) {
    if (at) out[at++] = 0x2f;
    out.set(s, at);
    at += s.length;
  }
  return out;
}

/** A path's components as bytes ('' and '/' name the root; empty components are dropped, as git does). */
export function pathSegments(path: string | Uint8Array): Uint8Array[] {
  const bytes = typeof path === 'string' ? new TextEncoder().encode(path) : path;
  const out: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0x2f) {
      if (i > start) out.push(bytes.slice(start, i));
      start = i + 1;
    }
  }
  return out;
}

/** CTE `walk(depth, mode, oid)`: from the target's root tree down `segments`, one row per level found. */
export function walkCte(segments: readonly Uint8Array[]): SQL {
  const names = segments.length
    ? sql`ARRAY[${sql.join(
        segments.map((s) => sql`${s}::bytea`),
        sql`, `,
      )}]`
    : sql`'{}'::bytea[]`;
  return sql`walk(depth, mode, oid) AS (
      SELECT 0, '40000'::text, t.tree_oid FROM target t
      UNION ALL
      SELECT w.depth + 1, e.mode, e.oid FROM walk w JOIN target t ON true
        JOIN ${gitTreeEntries} e ON e.pool_id = t.pool_id AND e.tree_oid = w.oid AND e.name = (${names})[w.depth + 1]
      WHERE w.depth < ${segments.length}::int
    )`;
}

/** Columns of a commit row (alias `c`), ids as hex and times as epoch seconds. */
export const commitColumns = sql`encode(c.oid, 'hex') AS oid, encode(c.tree_oid, 'hex') AS tree_oid,
  ARRAY(SELECT encode(p, 'hex') FROM unnest(c.parent_oids) WITH ORDINALITY AS u(p, n) ORDER BY n) AS parent_oids, c.generation,
  c.author_name, c.author_email, extract(epoch FROM c.authored_at)::float8 AS authored_at, c.author_tz,
  c.committer_name, c.committer_email, extract(epoch FROM c.committed_at)::float8 AS committed_at, c.committer_tz,
  c.title, c.message`;

export interface CommitInfo {
  oid: string;
  treeOid: string;
  parentOids: string[];
  generation: number;
  author: { name: string; email: string; time: number; tz: string };
  committer: { name: string; email: string; time: number; tz: string };
  title: string;
  message: string;
}

export type CommitSqlRow = Record<
  'oid' | 'tree_oid' | 'author_name' | 'author_email' | 'author_tz' | 'committer_name' | 'committer_email' | 'committer_tz' | 'title' | 'message',
  string
> & {
  parent_oids: string[];
  generation: number;
  authored_at: number;
  committed_at: number;
};

export const toCommit = (r: CommitSqlRow): CommitInfo => ({
  oid: r.oid,
  treeOid: r.tree_oid,
  parentOids: r.parent_oids,
  generation: Number(r.generation),
  author: { name: r.author_name, email: r.author_email, time: Number(r.authored_at), tz: r.author_tz },
  committer: { name: r.committer_name, email: r.committer_email, time: Number(r.committed_at), tz: r.committer_tz },
  title: r.title,
  message: r.message,
});
