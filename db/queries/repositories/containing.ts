// The read behind GET repository/commits/:sha/refs (GitLab 13.6 commits.rb: branch_names_contains and
// tag_names_contains, i.e. `git for-each-ref --contains`), ONE statement: the revision resolved, and the refs whose
// commit has it as an ancestor (or is it).
import { sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { gitCommits, gitObjects, gitRefs } from '../../schema/index.ts';
import { rows } from '../lib/raw.ts';
import { revisionCtes } from './sql.ts';

export interface ContainingRefs {
  commitOid: string;
  /** Full ref names (`refs/heads/main`, `refs/tags/v1`), branches then tags, each in byte order of the name. */
  refs: string[];
}

/**
 * The commit `rev` names and the refs under `prefixes` that contain it; undefined when the revision does not
 * resolve. Generation numbers prune the walk: a commit whose generation is not above the target's cannot have it as
 * an ancestor (unless it is the target), so the walk down from the refs stops there. The commits it met are then
 * walked back up from the target: the refs pointing at any of those contain it.
 */
export async function refsContaining(
  db: Db,
  a: { projectId: number; rev: string; prefixes: readonly ('refs/heads/' | 'refs/tags/')[] },
): Promise<ContainingRefs | undefined> {
  const pool = sql`(SELECT pool_id FROM repo)`;
  const under = sql.join(
    a.prefixes.map((p) => sql`left(r.name, ${p.length}::int) = ${p}`),
    sql` OR `,
  );
  const found = await rows<{ head: string; name: string | null }>(
    db,
    sql`WITH RECURSIVE ${revisionCtes(a.projectId, a.rev)},
      goal AS (SELECT c.oid, c.generation FROM target t JOIN ${gitCommits} c ON c.pool_id = t.pool_id AND c.oid = t.commit_oid),
      -- Each ref and what it points at, annotated tags peeled (a tag may name a tag).
      tips(name, oid, depth) AS (
        SELECT r.name, r.oid, 0 FROM ${gitRefs} r WHERE r.project_id = ${a.projectId} AND (${under})
        UNION ALL
        SELECT tips.name, decode(convert_from(substring(o.data FROM 8 FOR 40), 'SQL_ASCII'), 'hex'), tips.depth + 1
        FROM tips JOIN ${gitObjects} o ON o.pool_id = ${pool} AND o.oid = tips.oid AND o.type = 4
        WHERE tips.depth < 10
      ),
      tip_commits AS (
        SELECT tips.name, c.oid, c.generation, c.parent_oids FROM tips JOIN ${gitCommits} c ON c.pool_id = ${pool} AND c.oid = tips.oid
      ),
      down(oid, generation, parents) AS (
        SELECT DISTINCT tc.oid, tc.generation, tc.parent_oids FROM tip_commits tc, goal WHERE tc.generation >= goal.generation
        UNION
        -- Each step looks its commits up by primary key in a lateral subquery: a plain join here may be planned
        -- as a scan of git_commits at every step (see repositories/reads.ts's logPage).
        SELECT p.oid, c.generation, c.parent_oids
        FROM down d CROSS JOIN goal CROSS JOIN LATERAL unnest(d.parents) AS p(oid)
          CROSS JOIN LATERAL (SELECT x.generation, x.parent_oids FROM ${gitCommits} x WHERE x.pool_id = ${pool} AND x.oid = p.oid) c
        WHERE d.generation > goal.generation AND c.generation >= goal.generation
      ),
      -- Who each met commit is a parent of, as one jsonb object: the walk back up looks children up by key (a join
      -- with a CTE in a recursive step would scan it once a step: quadratic over a long history).
      children AS (
        SELECT COALESCE(jsonb_object_agg(parent, kids), '{}'::jsonb) AS map FROM (
          SELECT encode(p.oid, 'hex') AS parent, jsonb_agg(encode(d.oid, 'hex')) AS kids
          FROM down d CROSS JOIN LATERAL unnest(d.parents) AS p(oid) GROUP BY p.oid
        ) edges
      ),
      up(oid) AS (
        SELECT encode(oid, 'hex') FROM goal
        UNION
        SELECT kid.oid FROM up CROSS JOIN children CROSS JOIN LATERAL jsonb_array_elements_text(children.map -> up.oid) AS kid(oid)
      )
      SELECT encode(g.oid, 'hex') AS head, hit.name FROM goal g LEFT JOIN LATERAL (
        SELECT DISTINCT tc.name FROM tip_commits tc JOIN up ON up.oid = encode(tc.oid, 'hex')
      ) hit ON true
      ORDER BY left(hit.name, 10) = 'refs/tags/', hit.name COLLATE "C"`,
  );
  const first = found[0];
  if (!first) return undefined;
  return { commitOid: first.head, refs: found.filter((r) => r.name !== null).map((r) => r.name!) };
}
