// Error-tracking settings: the project's policy facts and its setting row in one statement, and the two writes.
// Each write re-checks, in its own statement, the rule its caller validated on the row it read ("an enabled
// Sentry-backed setting has an api_url and a token"), so a concurrent change between read and write can never
// leave an enabled setting without them: the write then matches no row and the caller answers 409.
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { projectAccessLevelSql, projectFeaturesSql, type Viewer } from './lib/access.ts';
import type { Db } from '../client.ts';
import { errorTrackingSettings, namespaces, projects } from '../schema/index.ts';
import { liveProjectByRef } from './projects.ts';

/** The live project named by id or full path (case-insensitive), the actor's access level on it, and its setting. */
export async function findProjectWithSetting(db: Db, actor: Viewer, ref: { id?: number | undefined; path?: string | undefined }) {
  const [row] = await db
    .select({
      projectId: projects.id,
      visibilityLevel: projects.visibilityLevel,
      archived: projects.archived,
      features: projectFeaturesSql(),
      accessLevel: projectAccessLevelSql(actor),
      setting: errorTrackingSettings,
    })
    .from(projects)
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .leftJoin(errorTrackingSettings, eq(errorTrackingSettings.projectId, projects.id))
    .where(liveProjectByRef(ref))
    .limit(1);
  return row;
}

export type ProjectWithSetting = NonNullable<Awaited<ReturnType<typeof findProjectWithSetting>>>;

/** `enabled` may be true only for an integrated setting or one with both an api_url and a token (SQL form). */
const usable = (enabled: boolean, integrated: SQL | boolean, apiUrl: SQL, token: SQL) =>
  enabled ? sql`(${integrated} OR (${apiUrl} IS NOT NULL AND ${token} IS NOT NULL))` : sql`true`;

/** PATCH: switches `enabled` (and `integrated` when given); undefined when no row was changed. */
export async function updateSettingFlags(db: Db, projectId: number, flags: { enabled: boolean; integrated?: boolean | undefined }) {
  const integrated = flags.integrated ?? sql`${errorTrackingSettings.integrated}`;
  const [row] = await db
    .update(errorTrackingSettings)
    .set({ enabled: flags.enabled, ...(flags.integrated === undefined ? {} : { integrated: flags.integrated }), updatedAt: sql`now()` })
    .where(
      and(
        eq(errorTrackingSettings.projectId, projectId),
        usable(flags.enabled, integrated, sql`${errorTrackingSettings.apiUrl}`, sql`${errorTrackingSettings.encryptedToken}`),
      ),
    )
    .returning();
  return row;
}

/** What PUT writes. `connection` undefined: keep the stored api_url (and names); `encryptedToken` undefined: keep the token. */
export interface SettingWrite {
  projectId: number;
  enabled: boolean;
  integrated: boolean;
  connection?: { apiUrl: string | null; projectName: string | null; organizationName: string | null } | undefined;
  encryptedToken?: string | null | undefined;
}

/** PUT: creates the row or replaces the given fields of it, in one statement; undefined when the rule no longer holds. */
export async function upsertSetting(db: Db, w: SettingWrite) {
  const t = errorTrackingSettings;
  const connection = w.connection
    ? { apiUrl: w.connection.apiUrl, projectName: w.connection.projectName, organizationName: w.connection.organizationName }
    : {};
  const token = w.encryptedToken === undefined ? {} : { encryptedToken: w.encryptedToken };
  // The row as it will be after the update: given values, else the stored ones.
  const apiUrlAfter = w.connection ? sql`${w.connection.apiUrl}::text` : sql`${t.apiUrl}`;
  const tokenAfter = w.encryptedToken === undefined ? sql`${t.encryptedToken}` : sql`${w.encryptedToken}::text`;
  const [row] = await db
    .insert(t)
    .values({ projectId: w.projectId, enabled: w.enabled, integrated: w.integrated, ...connection, ...token })
    .onConflictDoUpdate({
      target: t.projectId,
      set: { enabled: w.enabled, integrated: w.integrated, ...connection, ...token, updatedAt: sql`now()` },
      setWhere: usable(w.enabled, w.integrated, apiUrlAfter, tokenAfter),
    })
    .returning();
  return row;
}
