// The read behind GET /projects/:id/languages, ONE statement: every blob of the default branch's tree, walked in
// the statement, summed by what names its language (the lower-cased extension, or the whole name for files without
// one), vendored directories left out. functions/repositories/reads/languages.ts maps the keys to languages.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { gitObjects, gitTreeEntries } from '../../schema/index.ts';
import { rows } from '../lib/raw.ts';
import { isTreeModeSql } from './objects.ts';
import { revisionCtes } from './sql.ts';

export interface LanguageKeyRow {
  /** `.rb` for an extension, else the file's name (`Makefile`). */
  key: string;
  bytes: number;
}

/** Linguist's vendor patterns that matter most: dependencies and generated trees. */
const VENDORED = '(^|/)(vendor|vendors|node_modules|bower_components|third_party|third-party|Godeps|\\.yarn|dist)/';

export async function languageKeyRows(db: Db, projectId: number): Promise<LanguageKeyRow[]> {
  const found = await rows<{ key: string; bytes: number | string }>(
    db,
    sql`WITH RECURSIVE ${revisionCtes(projectId, 'HEAD')},
      files(path, name, mode, oid) AS (
        SELECT encode(e.name, 'escape'), encode(e.name, 'escape'), e.mode, e.oid
        FROM target t JOIN ${gitTreeEntries} e ON e.pool_id = t.pool_id AND e.tree_oid = t.tree_oid
        UNION ALL
        SELECT f.path || '/' || encode(e.name, 'escape'), encode(e.name, 'escape'), e.mode, e.oid
        FROM files f JOIN target t ON true JOIN ${gitTreeEntries} e ON e.pool_id = t.pool_id AND e.tree_oid = f.oid
        WHERE ${isTreeModeSql(sql`f.mode`)}
      )
      SELECT CASE WHEN f.name ~ '.[.][^./]+$' THEN lower(substring(f.name from '[.][^./]+$')) ELSE f.name END AS key, sum(o.size) AS bytes
      FROM files f JOIN target t ON true JOIN ${gitObjects} o ON o.pool_id = t.pool_id AND o.oid = f.oid
      WHERE ltrim(f.mode, '0') IN ('100644', '100755', '100664') AND f.path !~ ${VENDORED}
      GROUP BY 1`,
  );
  return found.map((r) => ({ key: r.key, bytes: Number(r.bytes) }));
}
