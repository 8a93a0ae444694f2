// Notification settings: reads that load a source, the actor's access to it and the actor's setting in one statement,
// and writes that are one statement each (an upsert on the (user, project, namespace) key; for the global setting a
// data-modifying CTE that also sets users.notification_email), so a GET costs one query after authentication and a
// PUT two, and nothing is half-written.
// Raw SQL is used where Drizzle's builder cannot express a data-modifying CTE; every value is a bound parameter.
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { groupAccessLevelSql, groupDescendantAccessSql, projectAccessLevelSql, projectFeaturesSql, type Viewer } from './lib/access.ts';
import type { Db } from '../client.ts';
import { EMAIL_EVENTS, namespaces, notificationSettings, projects, type EmailEvent, type NotificationLevel } from '../schema/index.ts';
import { rows } from './lib/raw.ts';
import { liveNamespaceByRef } from './groups/namespaces.ts';
import { liveProjectByRef } from './projects.ts';

/** What a setting shows: the level and every event column (null: never set). */
export type SettingValues = { level: NotificationLevel } & { [K in EmailEvent]: boolean | null };

/** A write: the level and the events given (absent keys are left as they are). */
export type SettingWrite = { level?: NotificationLevel | undefined } & { [K in EmailEvent]?: boolean | null | undefined };

const settingColumns = {
  level: notificationSettings.level,
  ...(Object.fromEntries(EMAIL_EVENTS.map((e) => [e, notificationSettings[e]])) as { [K in EmailEvent]: (typeof notificationSettings)[K] }),
};

type Ref = { id?: number | undefined; path?: string | undefined };

/** The live project with its policy facts and the user's setting for it (null when none is stored). */
export async function findProjectWithSetting(db: Db, actor: Viewer, userId: number, ref: Ref) {
  const [row] = await db
    .select({
      id: projects.id,
      facts: {
        visibilityLevel: projects.visibilityLevel,
        accessLevel: projectAccessLevelSql(actor),
        archived: projects.archived,
        features: projectFeaturesSql(),
      },
      setting: settingColumns,
    })
    .from(projects)
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .leftJoin(notificationSettings, and(eq(notificationSettings.userId, userId), eq(notificationSettings.projectId, projects.id)))
    .where(liveProjectByRef(ref))
    .limit(1);
  return row ? { id: row.id, facts: { kind: 'project' as const, ...row.facts }, setting: row.setting as SettingValues | null } : undefined;
}

/** The live group with its policy facts (the actor's access: own, inherited, below it) and the user's setting for it. */
export async function findGroupWithSetting(db: Db, actor: Viewer, userId: number, ref: Ref) {
  const [row] = await db
    .select({
      id: namespaces.id,
      facts: { visibilityLevel: namespaces.visibilityLevel, accessLevel: groupAccessLevelSql(actor), hasDescendantAccess: groupDescendantAccessSql(actor) },
      setting: settingColumns,
    })
    .from(namespaces)
    .leftJoin(notificationSettings, and(eq(notificationSettings.userId, userId), eq(notificationSettings.namespaceId, namespaces.id)))
    .where(liveNamespaceByRef(ref, 'group'))
    .limit(1);
  return row ? { id: row.id, facts: { kind: 'group' as const, ...row.facts }, setting: row.setting as SettingValues | null } : undefined;
}

/** The user's global setting (both sources null), if one is stored. */
export async function findGlobalSetting(db: Db, userId: number): Promise<SettingValues | undefined> {
  const [row] = await db
    .select(settingColumns)
    .from(notificationSettings)
    .where(and(eq(notificationSettings.userId, userId), isNull(notificationSettings.projectId), isNull(notificationSettings.namespaceId)))
    .limit(1);
  return row;
}

const definedEntries = (w: SettingWrite) => Object.entries(w).filter(([, v]) => v !== undefined) as Array<[keyof SettingWrite, unknown]>;

/**
 * Creates the user's setting for a project or group, or changes the given fields of it: level and events in one
 * upsert (atomic, and safe under concurrent writers of the same setting: the loser of the insert updates).
 */
export async function upsertSourceSetting(
  db: Db,
  userId: number,
  source: { projectId: number } | { namespaceId: number },
  w: SettingWrite,
): Promise<SettingValues> {
  const t = notificationSettings;
  const given = Object.fromEntries(definedEntries(w)) as SettingWrite;
  const [row] = await db
    .insert(t)
    .values({
      userId,
      projectId: 'projectId' in source ? source.projectId : null,
      namespaceId: 'namespaceId' in source ? source.namespaceId : null,
      ...given,
      level: given.level ?? 'global',
    })
    .onConflictDoUpdate({ target: [t.userId, t.projectId, t.namespaceId], set: { ...given, updatedAt: sql`now()` } })
    .returning(settingColumns);
  return row!;
}

export interface GlobalWriteResult {
  /** False when `notificationEmail` is not one of the user's verified addresses: nothing was written. */
  ok: boolean;
  /** The setting after the write (undefined when none is stored). */
  setting: SettingValues | undefined;
  /** users.notification_email after the write, when it was written. */
  notificationEmail?: string | null;
}

const col = (name: string) => sql.identifier(name);

/**
 * The global PUT in one statement: the notification email (when given) must be a verified address of the user (the
 * primary one when confirmed, or a confirmed row of `emails`; compared without regard to case, stored as the user
 * has it); only then are the setting (upserted, default level participating) and users.notification_email written.
 * `notificationEmail` null clears it (notifications go to the primary email).
 */
export async function writeGlobalSetting(db: Db, userId: number, w: SettingWrite, notificationEmail?: string | null): Promise<GlobalWriteResult> {
  const given = definedEntries(w);
  const setEmail = notificationEmail !== undefined;
  const emailGiven = typeof notificationEmail === 'string';
  const okSql = emailGiven ? sql`EXISTS (SELECT 1 FROM verified)` : sql`true`;

  const ctes: SQL[] = [];
  if (emailGiven) {
    ctes.push(sql`verified AS (
      SELECT v.email FROM (
        SELECT u.email, 0 AS o FROM users u WHERE u.id = ${userId} AND u.confirmed_at IS NOT NULL AND lower(u.email) = lower(${notificationEmail})
        UNION ALL
        SELECT e.email, 1 AS o FROM emails e WHERE e.user_id = ${userId} AND e.confirmed_at IS NOT NULL AND lower(e.email) = lower(${notificationEmail})
      ) v ORDER BY v.o LIMIT 1
    )`);
  }
  ctes.push(sql`ok AS (SELECT ${okSql} AS ok)`);

  const settingSelect = sql.join([sql`level`, ...EMAIL_EVENTS.map((e) => col(e))], sql`, `);
  if (given.length) {
    const values = new Map<string, unknown>(given.map(([k, v]) => [k, v]));
    values.set('level', w.level ?? 'participating');
    const names = [...values.keys()];
    const insertValues = names.map((n) => (n === 'level' ? sql`${values.get(n)}::text` : sql`${values.get(n)}::boolean`));
    const updates = given.map(([k]) => sql`${col(k)} = EXCLUDED.${col(k)}`);
    ctes.push(sql`written AS (
      INSERT INTO notification_settings (user_id, project_id, namespace_id, ${sql.join(names.map(col), sql`, `)})
      SELECT ${userId}::integer, NULL::integer, NULL::integer, ${sql.join(insertValues, sql`, `)} FROM ok WHERE ok.ok
      ON CONFLICT ON CONSTRAINT notification_settings_user_source_key
      DO UPDATE SET ${sql.join(updates, sql`, `)}, updated_at = now()
      RETURNING ${settingSelect}
    )`);
  } else {
    ctes.push(sql`written AS (
      SELECT ${settingSelect} FROM notification_settings
      WHERE user_id = ${userId} AND project_id IS NULL AND namespace_id IS NULL
    )`);
  }
  if (setEmail) {
    const newEmail = emailGiven ? sql`(SELECT email FROM verified)` : sql`NULL`;
    ctes.push(sql`user_update AS (
      UPDATE users SET notification_email = ${newEmail}, updated_at = now()
      WHERE id = ${userId} AND (SELECT ok FROM ok)
      RETURNING notification_email
    )`);
  }
  const query = sql`WITH ${sql.join(ctes, sql`, `)}
    SELECT ok.ok, ${setEmail ? sql`(SELECT notification_email FROM user_update) AS notification_email,` : sql``}
      written.level AS level, ${sql.join(
        EMAIL_EVENTS.map((e) => sql`written.${col(e)} AS ${col(e)}`),
        sql`, `,
      )}
    FROM ok LEFT JOIN written ON true`;
  const [row] = await rows<{ ok: boolean; notification_email?: string | null } & { [K in keyof SettingValues]: SettingValues[K] | null }>(db, query);
  const { ok, notification_email, level, ...events } = row!;
  const result: GlobalWriteResult = { ok, setting: level ? ({ level, ...events } as SettingValues) : undefined };
  if (setEmail && ok) result.notificationEmail = notification_email ?? null;
  return result;
}
