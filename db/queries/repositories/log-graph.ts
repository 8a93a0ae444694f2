// `git log --topo-order` needs the whole graph before its first line: this reads every commit of the walk as
// (oid, parents, whether it passes the log's filters) in git's date order, one light row each, and the page's
// commits by id afterwards. The ordering itself is functions/repositories/store/topo-order.ts's.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { gitCommits, repositories } from '../../schema/index.ts';
import { rows } from '../lib/raw.ts';
import { logCtes, logFilter, type LogOptions } from './reads.ts';
import { commitColumns, readableObjectSql, toCommit, type CommitInfo, type CommitSqlRow } from './sql.ts';
import { oidParam } from './refs.ts';

export interface GraphNode {
  oid: string;
  parents: string[];
  /** The commit passes the path/since/until filters (it is listed). */
  listed: boolean;
}

/** Every commit the log walks, newest committed first; undefined when the revision does not resolve. */
export async function logGraph(db: Db, a: Omit<LogOptions, 'limit' | 'offset'>): Promise<GraphNode[] | undefined> {
  const parents = a.firstParent ? sql`c.parent_oids[1:1]` : sql`c.parent_oids`;
  const found = await rows<{ oid: string | null; parents: string[] | null; listed: boolean | null }>(
    db,
    sql`WITH RECURSIVE ${logCtes(a, parents)}
      SELECT encode(c.oid, 'hex') AS oid, ARRAY(SELECT encode(p, 'hex') FROM unnest(${parents}) WITH ORDINALITY AS u(p, n) ORDER BY n) AS parents, ${logFilter(a)} AS listed
      FROM target t LEFT JOIN ancestors a ON true LEFT JOIN ${gitCommits} c ON c.pool_id = t.pool_id AND c.oid = a.oid
      ORDER BY c.committed_at DESC, c.generation DESC, c.oid`,
  );
  if (!found.length) return undefined;
  return found.filter((r) => r.oid !== null).map((r) => ({ oid: r.oid!, parents: r.parents ?? [], listed: r.listed === true }));
}

/** The commits with these ids that the project may read (readableObjectSql), in the order given. */
export async function commitsByOids(db: Db, projectId: number, oids: readonly string[]): Promise<CommitInfo[]> {
  if (!oids.length) return [];
  const found = await rows<CommitSqlRow>(
    db,
    sql`SELECT ${commitColumns} FROM ${repositories} r JOIN ${gitCommits} c ON c.pool_id = r.pool_id
      WHERE r.project_id = ${projectId} AND c.oid IN (${sql.join(oids.map(oidParam), sql`, `)}) AND ${readableObjectSql(projectId, sql`c.oid`)}`,
  );
  const byOid = new Map(found.map((r) => [r.oid, toCommit(r)]));
  return oids.map((oid) => byOid.get(oid)).filter((c): c is CommitInfo => c !== undefined);
}
