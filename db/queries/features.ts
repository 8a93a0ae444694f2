// Feature flags as Flipper's ActiveRecord adapter stores them (db/schema/features.ts). Every write is one statement:
// a data-modifying CTE upserts the feature row, removes the gates the operation clears and inserts the new ones with
// ON CONFLICT DO NOTHING, so concurrent writes for different actors never lose a gate. Under READ COMMITTED the
// statement sees the snapshot it started with: a gate a concurrent write committed meanwhile is neither removed nor
// shown in this answer (a later read has it), and two racing percentage writes can leave two rows of that gate,
// which the reader resolves newest-first and the next write of the gate cleans up.
// Raw SQL because Drizzle's builder cannot express data-modifying CTEs; every value is a bound parameter.
import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { rows, textArray } from './lib/raw.ts';

export type GateKey = 'boolean' | 'percentage_of_time' | 'percentage_of_actors' | 'actors' | 'groups';

export interface GateRow {
  id: number;
  key: GateKey;
  value: string;
}

/**
 * Persisted features with their gate rows (in creation order): those named, or a page of all of them. A feature
 * without gates has an empty list. `total` is the number of persisted features, counted in the same statement (a
 * page, even one past the end, costs one query).
 */
export async function findFeatures(
  db: Db,
  which: { names: readonly string[] } | { limit: number; offset: number },
): Promise<{ features: Map<string, GateRow[]>; total: number }> {
  const selected =
    'names' in which
      ? sql`SELECT id, key FROM features WHERE key = ANY(${textArray(which.names)})`
      : sql`SELECT id, key FROM features ORDER BY id LIMIT ${which.limit} OFFSET ${which.offset}`;
  const counted = 'names' in which ? sql`SELECT 0 AS total` : sql`SELECT count(*) AS total FROM features`;
  const found = await rows<{ total: string | number; name: string | null; id: number | null; key: GateKey | null; value: string | null }>(
    db,
    sql`SELECT c.total, f.key AS name, g.id, g.key, g.value
        FROM (${counted}) c
        LEFT JOIN (${selected}) f ON true
        LEFT JOIN feature_gates g ON g.feature_key = f.key
        ORDER BY f.id, g.id`,
  );
  const features = new Map<string, GateRow[]>();
  for (const r of found) {
    if (r.name === null) continue;
    const gates = features.get(r.name) ?? [];
    features.set(r.name, gates);
    if (r.id !== null) gates.push({ id: Number(r.id), key: r.key!, value: r.value! });
  }
  return { features, total: Number(found[0]?.total ?? 0) };
}

export interface TargetRefs {
  users: readonly string[];
  groups: readonly string[];
  projects: readonly string[];
}

export interface ResolvedTarget {
  kind: 'user' | 'group' | 'project';
  /** The path or username, lower-cased. */
  ref: string;
  id: number;
}

/**
 * Users by username, groups and projects by full path, all without regard to case (GitLab's finders), in one
 * round trip. Deleted groups and projects (and projects of deleted namespaces) are not found.
 */
export async function resolveTargets(db: Db, refs: TargetRefs): Promise<ResolvedTarget[]> {
  const lower = (list: readonly string[]) => textArray(list.map((s) => s.toLowerCase()));
  const found = await rows<ResolvedTarget>(
    db,
    sql`SELECT 'user' AS kind, lower(u.username) AS ref, u.id FROM users u WHERE lower(u.username) = ANY(${lower(refs.users)})
        UNION ALL
        SELECT 'group', lower(n.full_path), n.id FROM namespaces n
        WHERE n.kind = 'group' AND n.deleted_at IS NULL AND lower(n.full_path) = ANY(${lower(refs.groups)})
        UNION ALL
        SELECT 'project', lower(p.path_with_namespace), p.id FROM projects p JOIN namespaces pn ON pn.id = p.namespace_id
        WHERE p.deleted_at IS NULL AND pn.deleted_at IS NULL AND lower(p.path_with_namespace) = ANY(${lower(refs.projects)})`,
  );
  return found.map((r) => ({ ...r, id: Number(r.id) }));
}

export interface GateWrite {
  /** Gate keys whose rows are removed, except rows whose value is in `keep`. */
  clear: readonly GateKey[];
  keep: readonly string[];
  /** Single rows removed (an actor or a group taken out of its set). */
  remove: ReadonlyArray<readonly [GateKey, string]>;
  /** Rows added (kept as they are when already present). */
  insert: ReadonlyArray<readonly [GateKey, string]>;
}

/** Creates the feature when missing and applies `write` in one statement; answers the gate rows afterwards. */
export async function writeGates(db: Db, name: string, write: GateWrite): Promise<GateRow[]> {
  const found = await rows<GateRow>(
    db,
    sql`WITH f AS (
          INSERT INTO features (key) VALUES (${name})
          ON CONFLICT (key) DO UPDATE SET updated_at = now()
          RETURNING key
        ), del AS (
          DELETE FROM feature_gates g USING f
          WHERE g.feature_key = f.key AND (
            (g.key = ANY(${textArray(write.clear)}) AND NOT (g.value = ANY(${textArray(write.keep)})))
            OR (g.key, g.value) IN (SELECT r.k, r.v FROM unnest(${textArray(write.remove.map((r) => r[0]))}, ${textArray(write.remove.map((r) => r[1]))}) AS r(k, v))
          )
          RETURNING g.id
        ), ins AS (
          INSERT INTO feature_gates (feature_key, key, value)
          SELECT f.key, v.k, v.v FROM f CROSS JOIN unnest(${textArray(write.insert.map((r) => r[0]))}, ${textArray(write.insert.map((r) => r[1]))}) AS v(k, v)
          ON CONFLICT DO NOTHING
          RETURNING id, key, value
        )
        SELECT g.id, g.key, g.value FROM feature_gates g WHERE g.feature_key = ${name} AND g.id NOT IN (SELECT id FROM del)
        UNION ALL
        SELECT id, key, value FROM ins
        ORDER BY 1`,
  );
  return found.map((r) => ({ ...r, id: Number(r.id) }));
}

/** Removes the feature and its gates (nothing when it was never set). */
export async function deleteFeature(db: Db, name: string): Promise<void> {
  await db.execute(sql`DELETE FROM features WHERE key = ${name}`);
}
