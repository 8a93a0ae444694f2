// The read behind GET repository/contributors (GitLab 13.6 Repository#contributors), ONE statement: the default
// branch's history walked, its newest non-merge commits taken, grouped by author email.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { gitCommits } from '../../schema/index.ts';
import { rows } from '../lib/raw.ts';
import { revisionCtes } from './sql.ts';

export interface ContributorRow {
  email: string;
  name: string;
  commits: number;
}

/**
 * `git log --no-merges -n <limit>` from the default branch, grouped by author email (exactly, case included) in
 * the order each email first appears (newest first); the name is the first one that is not blank, or the last seen
 * when all are (Ruby's `name = commit.author_name if name.blank?` over the group). An empty repository has none.
 */
export async function contributorRows(db: Db, projectId: number, limit: number): Promise<ContributorRow[]> {
  const found = await rows<{ email: string; name: string; commits: number | string }>(
    db,
    sql`WITH RECURSIVE ${revisionCtes(projectId, 'HEAD')},
      -- Each step looks its commit up by primary key in a scalar subquery (as repositories/reads.ts's logPage does).
      ancestors(oid, parents) AS (
        SELECT c.oid, c.parent_oids FROM target t JOIN ${gitCommits} c ON c.pool_id = t.pool_id AND c.oid = t.commit_oid
        UNION
        SELECT p.oid, (SELECT c.parent_oids FROM ${gitCommits} c WHERE c.pool_id = (SELECT pool_id FROM repo) AND c.oid = p.oid)
        FROM ancestors a CROSS JOIN LATERAL unnest(a.parents) AS p(oid)
      ),
      latest AS (
        SELECT c.author_name, c.author_email, row_number() OVER (ORDER BY c.committed_at DESC, c.generation DESC, c.oid) AS pos
        FROM ancestors a JOIN target t ON true JOIN ${gitCommits} c ON c.pool_id = t.pool_id AND c.oid = a.oid
        WHERE cardinality(c.parent_oids) <= 1
        ORDER BY c.committed_at DESC, c.generation DESC, c.oid
        LIMIT ${limit}::int
      )
      SELECT author_email AS email, count(*) AS commits,
        COALESCE((array_agg(author_name ORDER BY pos) FILTER (WHERE author_name !~ '^[[:space:]]*$'))[1],
          (array_agg(author_name ORDER BY pos DESC))[1]) AS name
      FROM latest GROUP BY author_email ORDER BY min(pos)`,
  );
  return found.map((r) => ({ email: r.email, name: r.name, commits: Number(r.commits) }));
}
