// The instance's settings row: read (none yet: no row) and merged into, key by key, in one statement.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { applicationSettings, issues, keys, mergeRequests, milestones, namespaces, notes, projects, snippets, users } from '../schema/index.ts';
import { rows } from './lib/raw.ts';

export async function readApplicationSettings(db: Db) {
  const [row] = await db.select().from(applicationSettings).where(eq(applicationSettings.id, 1));
  return row;
}

/** Merges `changes` into the stored settings (made on the first change); the row as it then is. */
export async function mergeApplicationSettings(db: Db, changes: Record<string, unknown>) {
  const json = JSON.stringify(changes);
  const [row] = await db
    .insert(applicationSettings)
    .values({ id: 1, settings: sql`${json}::jsonb` })
    .onConflictDoUpdate({ target: applicationSettings.id, set: { settings: sql`${applicationSettings.settings} || ${json}::jsonb`, updatedAt: sql`now()` } })
    .returning();
  return row!;
}

/** GET /application/statistics' counts (Gitlab::Database::Count's tables), in one statement. */
export async function instanceCounts(db: Db) {
  const [row] = await rows<Record<string, unknown>>(
    db,
    sql`SELECT
      (SELECT count(*) FROM ${projects} WHERE ${projects.forkedFromId} IS NOT NULL AND ${projects.deletedAt} IS NULL) AS forks,
      (SELECT count(*) FROM ${issues}) AS issues,
      (SELECT count(*) FROM ${mergeRequests}) AS merge_requests,
      (SELECT count(*) FROM ${notes}) AS notes,
      (SELECT count(*) FROM ${snippets}) AS snippets,
      (SELECT count(*) FROM ${keys}) AS ssh_keys,
      (SELECT count(*) FROM ${milestones}) AS milestones,
      (SELECT count(*) FROM ${users}) AS users,
      (SELECT count(*) FROM ${namespaces} WHERE ${namespaces.kind} = 'group' AND ${namespaces.deletedAt} IS NULL) AS groups,
      (SELECT count(*) FROM ${projects} WHERE ${projects.deletedAt} IS NULL) AS projects,
      (SELECT count(*) FROM ${users} WHERE ${users.state} = 'active' AND ${users.userType} IS NULL) AS active_users`,
  );
  return Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, Number(v)])) as Record<
    'forks' | 'issues' | 'merge_requests' | 'notes' | 'snippets' | 'ssh_keys' | 'milestones' | 'users' | 'groups' | 'projects' | 'active_users',
    number
  >;
}
