// The search API's blobs (Gitlab::FileFinder over Gitaly's SearchFilesByContent and SearchFilesByName): ONE statement
// walks the revision's tree (as languages.ts does) and returns the text files whose content holds the query, and the
// files whose path holds it, both without regard to ASCII case (paths and contents compared as bytes); functions/search/blobs.ts cuts the matches into
// git grep's chunks.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { gitObjects, gitTreeEntries } from '../../schema/index.ts';
import { fromHexText } from '../lib/hex.ts';
import { rows } from '../lib/raw.ts';
import { isTreeModeSql } from './objects.ts';
import { revisionCtes } from './sql.ts';

export interface FoundFile {
  path: string;
  oid: string;
  /** The whole file for a content match; its first 1024 bytes for a path match (Blob.batch's blob_size_limit). */
  data: Uint8Array;
  byContent: boolean;
}

/** Bytes git grep reads to tell a binary file (`-I`): a NUL among the first 8000 (buffer_is_binary). */
const BINARY_PROBE = 8000;
const NAME_MATCH_BYTES = 1024;

/**
 * At most `limit` files of each kind, in path order. Content is compared as bytes with ASCII letters folded (the
 * query and the file both through encode(…, 'escape') and lower()), so any encoding is safe to scan and a non-ASCII
 * query matches its exact bytes. Null when the revision names no commit.
 */
export async function searchFiles(db: Db, projectId: number, rev: string, query: string, limit: number): Promise<FoundFile[] | null> {
  const found = await rows<{ head: string | null; path: string | null; oid: string; data: string; by_content: boolean }>(
    db,
    sql`WITH RECURSIVE ${revisionCtes(projectId, rev)},
      files(path, mode, oid) AS (
        SELECT e.name, e.mode, e.oid
        FROM target t JOIN ${gitTreeEntries} e ON e.pool_id = t.pool_id AND e.tree_oid = t.tree_oid
        UNION ALL
        SELECT f.path || '\x2f'::bytea || e.name, e.mode, e.oid
        FROM files f JOIN target t ON true JOIN ${gitTreeEntries} e ON e.pool_id = t.pool_id AND e.tree_oid = f.oid
        WHERE ${isTreeModeSql(sql`f.mode`)}
      ),
      blobs AS (
        SELECT f.path, f.oid, o.data FROM files f JOIN target t ON true JOIN ${gitObjects} o ON o.pool_id = t.pool_id AND o.oid = f.oid
        WHERE ltrim(f.mode, '0') IN ('100644', '100755', '100664')
      ),
      needle AS (SELECT lower(encode(convert_to(${query}, 'UTF8'), 'escape')) AS text),
      by_content AS (
        SELECT path, oid, data, true AS by_content FROM blobs
        WHERE position('\\x00'::bytea IN substring(data FROM 1 FOR ${BINARY_PROBE}::int)) = 0
          AND strpos(lower(encode(data, 'escape')), (SELECT text FROM needle)) > 0
        ORDER BY path LIMIT ${limit}::int
      ),
      by_name AS (
        SELECT path, oid, substring(data FROM 1 FOR ${NAME_MATCH_BYTES}::int) AS data, false AS by_content FROM blobs
        WHERE strpos(lower(encode(path, 'escape')), (SELECT text FROM needle)) > 0 AND path NOT IN (SELECT path FROM by_content)
        ORDER BY path LIMIT ${limit}::int
      )
    SELECT encode(t.commit_oid, 'hex') AS head, encode(m.path, 'hex') AS path, encode(m.oid, 'hex') AS oid, encode(m.data, 'hex') AS data, m.by_content
    FROM (SELECT 1) one LEFT JOIN target t ON true
      LEFT JOIN (SELECT * FROM by_content UNION ALL SELECT * FROM by_name) m ON t.commit_oid IS NOT NULL
    ORDER BY m.path`,
  );
  if (!found[0]?.head) return null;
  const utf8 = new TextDecoder();
  // Paths are bytes in git; shown as UTF-8 (invalid sequences replaced, as GitLab's encode_utf8 does).
  return found
    .filter((r) => r.path !== null)
    .map((r) => ({ path: utf8.decode(fromHexText(r.path!)), oid: r.oid, data: fromHexText(r.data), byContent: r.by_content }));
}
