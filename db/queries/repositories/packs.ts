// A project's stored pack (db/schema/repositories.ts git_packs): which is current, the commits a repack writes, and
// the swap that makes a new one current while the one it replaces stays readable for the clones streaming it.
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { gitCommits, gitPacks, gitProjectObjects, repositories, storedFiles } from '../../schema/index.ts';
import { rows } from '../lib/raw.ts';
import { ancestryCte } from './transport.ts';

/** How long a replaced pack stays readable: longer than a clone of it streams. */
const REPLACED_PACK_GRACE = sql`interval '1 hour'`;

/** The packs replaced longer ago than the grace, of one project or of all. */
const replacedLongAgo = (projectId?: number) =>
  and(projectId === undefined ? undefined : eq(gitPacks.projectId, projectId), lt(gitPacks.replacedAt, sql`now() - ${REPLACED_PACK_GRACE}`));

/** Deletes every pack replaced longer ago than the grace (their files go with them, by trigger); answers how many. */
export async function deleteReplacedPacks(db: Db): Promise<number> {
  const deleted = await db.delete(gitPacks).where(replacedLongAgo()).returning({ id: gitPacks.id });
  return deleted.length;
}

export interface StoredPack {
  id: number;
  tips: string[];
  objectCount: number;
  file: { id: number; size: number };
  oids: { id: number; size: number };
  /** The entries without blobs (blob-less partial clones), when it was built with them. */
  trees: { id: number; size: number; objectCount: number } | null;
}

/** The project's current pack, if one was built. */
export async function currentPack(db: Db, projectId: number): Promise<StoredPack | null> {
  const [found] = await rows<{
    id: number;
    tips: string[];
    object_count: number;
    file_id: number;
    file_size: number;
    oids_id: number;
    oids_size: number;
    trees_id: number | null;
    trees_size: number | null;
    trees_count: number | null;
  }>(
    db,
    sql`SELECT p.id, p.tips, p.object_count, p.file_id, f.size AS file_size, p.oids_file_id AS oids_id, o.size AS oids_size,
        p.trees_file_id AS trees_id, t.size AS trees_size, p.trees_object_count AS trees_count
      FROM ${gitPacks} p JOIN ${storedFiles} f ON f.id = p.file_id JOIN ${storedFiles} o ON o.id = p.oids_file_id
      LEFT JOIN ${storedFiles} t ON t.id = p.trees_file_id
      WHERE p.project_id = ${projectId} AND p.replaced_at IS NULL`,
  );
  if (!found) return null;
  return {
    id: Number(found.id),
    tips: found.tips,
    objectCount: Number(found.object_count),
    file: { id: Number(found.file_id), size: Number(found.file_size) },
    oids: { id: Number(found.oids_id), size: Number(found.oids_size) },
    trees:
      found.trees_id === null || found.trees_size === null
        ? null
        : { id: Number(found.trees_id), size: Number(found.trees_size), objectCount: Number(found.trees_count) },
  };
}

/** How many objects the project may read (git_project_objects): what a repack would write, give or take unreachable ones. */
export async function readableObjectCount(db: Db, projectId: number): Promise<number> {
  const [found] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(gitProjectObjects)
    .where(eq(gitProjectObjects.projectId, projectId));
  return Number(found?.n ?? 0);
}

/** The commits reachable from `tips` (readable ones), newest first (by generation), each with its root tree. */
export async function commitsWithTrees(db: Db, projectId: number, tips: readonly string[]): Promise<Array<{ oid: string; tree: string }>> {
  if (!tips.length) return [];
  return rows<{ oid: string; tree: string }>(
    db,
    sql`WITH RECURSIVE
      repo AS (SELECT pool_id FROM ${repositories} WHERE project_id = ${projectId}),
      ${ancestryCte('walk', projectId, tips)}
    SELECT encode(c.oid, 'hex') AS oid, encode(c.tree_oid, 'hex') AS tree FROM walk JOIN repo ON true
      JOIN ${gitCommits} c ON c.pool_id = repo.pool_id AND c.oid = walk.oid
    ORDER BY c.generation DESC, c.committed_at DESC, c.oid`,
  );
}

/**
 * Makes the new pack current; run in a transaction (`tx`): the project's repository row locked (two repacks take
 * turns; the later one's pack wins), the current pack marked replaced, the new one inserted, and packs replaced
 * longer ago than the grace deleted (their files go with them, by trigger).
 */
export async function makePackCurrent(
  tx: Db,
  pack: { projectId: number; tips: readonly string[]; objectCount: number; fileId: number; oidsFileId: number; treesFileId: number; treesObjectCount: number },
): Promise<void> {
  await tx.execute(sql`SELECT 1 FROM ${repositories} WHERE project_id = ${pack.projectId} FOR UPDATE`);
  await tx
    .update(gitPacks)
    .set({ replacedAt: sql`now()` })
    .where(and(eq(gitPacks.projectId, pack.projectId), isNull(gitPacks.replacedAt)));
  await tx.insert(gitPacks).values({ ...pack, tips: [...pack.tips] });
  await tx.delete(gitPacks).where(replacedLongAgo(pack.projectId));
}
