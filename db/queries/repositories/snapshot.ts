// GET /projects/:id/snapshot's reads: the objects the project may read (git_project_objects), a batch at a time in
// object id order (keyset), with their bodies; functions/repositories/archives/snapshot.ts writes them as loose objects.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { gitObjects, gitProjectObjects, repositories } from '../../schema/index.ts';
import { fromHexText } from '../lib/hex.ts';
import { rows } from '../lib/raw.ts';

export interface SnapshotObject {
  oid: string;
  type: number;
  data: Uint8Array;
}

/** At most `limit` objects after `after` (hex; null: from the start), up to `maxBytes` of bodies (at least one object). */
export async function snapshotObjects(db: Db, projectId: number, after: string | null, limit: number, maxBytes: number): Promise<SnapshotObject[]> {
  const found = await rows<{ oid: string; type: number; data: string }>(
    db,
    sql`SELECT encode(o.oid, 'hex') AS oid, o.type, encode(o.data, 'hex') AS data FROM (
        SELECT o.oid, o.type, o.data, sum(o.size) OVER (ORDER BY m.oid) - o.size AS before
        FROM ${gitProjectObjects} m JOIN ${repositories} r ON r.project_id = m.project_id
          JOIN ${gitObjects} o ON o.pool_id = r.pool_id AND o.oid = m.oid
        WHERE m.project_id = ${projectId} ${after === null ? sql`` : sql`AND m.oid > decode(${after}, 'hex')`}
        ORDER BY m.oid LIMIT ${limit}::int
      ) o WHERE o.before < ${maxBytes}::bigint OR o.before = 0 ORDER BY o.oid`,
  );
  return found.map((r) => ({ oid: r.oid, type: Number(r.type), data: fromHexText(r.data) }));
}
