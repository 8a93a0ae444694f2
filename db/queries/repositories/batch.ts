// Repository reads over many parents at once (GraphQL's Project.repository under a list of projects, the authors of
// a page of commits): one statement whatever the number of parents.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { emails, gitRefs, gitTreeEntries, repositories, users, type UserRow } from '../../schema/index.ts';
import { rows, textArray } from '../lib/raw.ts';
import { oidParam, toBytes } from './refs.ts';
import { isTreeModeSql } from './objects.ts';

export interface RepositoryState {
  projectId: number;
  defaultBranch: string | null;
  /** Whether any branch exists (GitLab's `has_visible_content?`: branch_count > 0). */
  hasBranches: boolean;
}

/** The repository rows of these projects (a project without one is absent from the answer). */
export async function findRepositoryStates(db: Db, projectIds: readonly number[]): Promise<RepositoryState[]> {
  const ids = [...new Set(projectIds)].filter((id) => Number.isInteger(id) && id >= 1 && id <= 2_147_483_647);
  if (!ids.length) return [];
  const found = await rows<{ project_id: number; default_branch: string | null; has_branches: boolean }>(
    db,
    sql`SELECT r.project_id, r.default_branch,
        EXISTS (SELECT 1 FROM ${gitRefs} g WHERE g.project_id = r.project_id AND left(g.name, 11) = 'refs/heads/') AS has_branches
      FROM ${repositories} r WHERE r.project_id IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
  );
  return found.map((r) => ({ projectId: Number(r.project_id), defaultBranch: r.default_branch, hasBranches: r.has_branches === true }));
}

/**
 * The users owning these emails, primary or confirmed secondary (User.find_by_any_email), without regard to case;
 * each row with the lower-cased email it matched.
 */
export async function findUsersByAnyEmail(db: Db, addresses: readonly string[]): Promise<Array<{ email: string; user: UserRow }>> {
  const wanted = [...new Set(addresses.map((e) => e.toLowerCase()))];
  if (!wanted.length) return [];
  const list = textArray(wanted);
  // One statement: the user, and which of the wanted emails are its confirmed secondary ones.
  const secondary = sql<
    string[]
  >`ARRAY(SELECT lower(e.email) FROM ${emails} e WHERE e.user_id = ${users.id} AND e.confirmed_at IS NOT NULL AND lower(e.email) = ANY(${list}))`;
  const found = await db
    .select({ user: users, secondary })
    .from(users)
    .where(
      sql`lower(${users.email}) = ANY(${list}) OR ${users.id} IN (SELECT e.user_id FROM ${emails} e WHERE lower(e.email) = ANY(${list}) AND e.confirmed_at IS NOT NULL)`,
    );
  return found.flatMap(({ user, secondary: others }) => {
    const primary = user.email.toLowerCase();
    return [...(wanted.includes(primary) ? [primary] : []), ...(others ?? [])].map((email) => ({ email, user }));
  });
}

/** How deep a flat path follows single-directory chains (Gitaly's defaultFlatTreeRecursion: 10 levels, the first included). */
const FLAT_PATH_DEPTH = 9;

/**
 * Gitaly's flat paths for trees of the project's pool: from each tree, follow the one entry while a directory holds
 * exactly one entry and it is a directory. Answers, per tree id, the path added below it (`/b/c`, bytes; absent when
 * nothing is added). One statement for any number of trees.
 */
export async function flatPathSuffixes(db: Db, projectId: number, treeOids: readonly string[]): Promise<Map<string, Uint8Array>> {
  const wanted = [...new Set(treeOids)];
  if (!wanted.length) return new Map();
  const found = await rows<{ start_oid: string; suffix: unknown }>(
    db,
    sql`WITH RECURSIVE pool AS (SELECT pool_id FROM ${repositories} WHERE project_id = ${projectId}),
      chain(start_oid, oid, suffix, depth) AS (
        SELECT s.oid, s.oid, ''::bytea, 0 FROM unnest(ARRAY[${sql.join(wanted.map(oidParam), sql`, `)}]) AS s(oid)
        UNION ALL
        SELECT c.start_oid, e.oid, c.suffix || decode('2f', 'hex') || e.name, c.depth + 1
        FROM chain c JOIN pool ON true JOIN ${gitTreeEntries} e ON e.pool_id = pool.pool_id AND e.tree_oid = c.oid
        WHERE c.depth < ${FLAT_PATH_DEPTH}::int AND ${isTreeModeSql(sql`e.mode`)}
          AND (SELECT count(*) FROM ${gitTreeEntries} x WHERE x.pool_id = pool.pool_id AND x.tree_oid = c.oid) = 1
      )
      SELECT DISTINCT ON (start_oid) encode(start_oid, 'hex') AS start_oid, suffix FROM chain WHERE depth > 0 ORDER BY start_oid, depth DESC`,
  );
  return new Map(found.map((r) => [r.start_oid, toBytes(r.suffix)]));
}
